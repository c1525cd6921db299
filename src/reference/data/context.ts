// Shared machinery of the data generator: the name fixtures, per-kind id allocation, PRNG
// streams, time and URL helpers. Every generator module gets one GenContext.

import { readFileSync } from 'node:fs';
import { formatTimestamp } from '../http.ts';

export type DatasetName = 'default' | 'alt';

export interface SpecPoolEntry {
  name: string;
  unit: string;
  group: string;
  values: string[];
}

/** One dataset's section of fixtures/reference/catalog-names.json. */
export interface NameFixture {
  host: string;
  bigLeaf: string;
  sizedLeaves: string[];
  sizes: Record<string, Record<string, string>>;
  manufacturers: string[];
  shops: string[];
  series: string[];
  colours: string[];
  specGroups: string[];
  specPool: SpecPoolEntry[];
  keywords: string[];
  priceBands: number[];
  regions: string[];
  country: string;
  countryName: string;
  cities: string[];
  streets: string[];
  firstNames: string[];
  lastNames: string[];
  demoUser: { username: string; firstName: string; lastName: string; email: string };
  skuReviewTexts: string[];
  shopReviewTexts: { positive: string[]; negative: string[] };
  shopReplies: string[];
  positiveReasons: string[];
  negativeReasons: string[];
  questions: { text: string; type: 'profiling_multiple' | 'eval_sentiment'; answers: string[] }[];
  avatars: string[];
  customLists: string[];
  orderPrefix: string;
}

let namesCache: Record<string, NameFixture> | undefined;
export function loadNames(name: DatasetName): NameFixture {
  if (!namesCache) {
    const url = new URL('../../../fixtures/reference/catalog-names.json', import.meta.url);
    namesCache = JSON.parse(readFileSync(url, 'utf8')) as Record<string, NameFixture>;
  }
  const names = namesCache[name];
  if (!names || !Array.isArray(names.manufacturers) || !Array.isArray(names.shops)) {
    throw new Error(`fixtures/reference/catalog-names.json: "${name}" is missing or incomplete`);
  }
  return names;
}

/**
 * Every kind of generated id. nextId(kind) of the Dataset accepts these names; 'auto_list' ids
 * are negative (auto favorite lists) and count downwards.
 */
export type IdKind =
  | 'category'
  | 'manufacturer'
  | 'shop'
  | 'location'
  | 'location_address'
  | 'shop_review'
  | 'sku'
  | 'product'
  | 'spec_group'
  | 'specification'
  | 'filter_group'
  | 'filter'
  | 'answer'
  | 'region'
  | 'user'
  | 'sku_review'
  | 'vote'
  | 'flag'
  | 'address'
  | 'favorite_list'
  | 'auto_list'
  | 'favorite'
  | 'notification';

type Bases = Record<Exclude<IdKind, 'category'>, number>;

// Each kind has its own range, so an id of one kind used as another (a product id sent as a SKU
// id) finds nothing. 'alt' ranges are far from 'default' ones: no id of a kind is shared.
const DEFAULT_BASES: Bases = {
  manufacturer: 1001,
  shop: 2001,
  location: 3001,
  location_address: 4001,
  shop_review: 5001,
  sku: 10001,
  product: 20001,
  spec_group: 30001,
  specification: 31001,
  filter_group: 33001,
  filter: 35001,
  answer: 39001,
  region: 39501,
  user: 40001,
  sku_review: 50001,
  vote: 60001,
  flag: 70001,
  address: 71001,
  favorite_list: 72001,
  auto_list: -1,
  favorite: 73001,
  notification: 74001,
};

const ALT_BASES: Bases = {
  manufacturer: 310_000,
  shop: 320_000,
  location: 330_000,
  location_address: 340_000,
  shop_review: 350_000,
  sku: 400_000,
  product: 500_000,
  spec_group: 610_000,
  specification: 620_000,
  filter_group: 630_000,
  filter: 640_000,
  answer: 650_000,
  region: 660_000,
  user: 700_000,
  sku_review: 710_000,
  vote: 720_000,
  flag: 730_000,
  address: 740_000,
  favorite_list: 750_000,
  auto_list: -5000,
  favorite: 760_000,
  notification: 770_000,
};

/** Hands out ids per kind: consecutive in 'default', irregular steps in 'alt'. */
export class IdAllocator {
  private readonly last = new Map<string, number>();
  constructor(
    private readonly bases: Bases,
    private readonly maxExtraStep: number,
    private readonly rnd: () => number,
  ) {}

  next(kind: Exclude<IdKind, 'category'>): number {
    const prev = this.last.get(kind);
    const down = kind === 'auto_list';
    const step = 1 + Math.floor(this.rnd() * (this.maxExtraStep + 1));
    const id = prev === undefined ? this.bases[kind] : down ? prev - step : prev + step;
    this.last.set(kind, id);
    return id;
  }

  /** The base of a kind (where a kind with no generated record starts). */
  base(kind: Exclude<IdKind, 'category'>): number {
    return this.bases[kind];
  }
}

export function idAllocator(name: DatasetName, maxExtraStep: number, seed: number): IdAllocator {
  return new IdAllocator(name === 'default' ? DEFAULT_BASES : ALT_BASES, maxExtraStep, prng(seed ^ 0x1d5));
}

/** mulberry32: small, fast, deterministic PRNG returning [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a, to derive one PRNG stream per kind from the dataset seed. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A small toolbox over one PRNG stream. */
export class Rnd {
  constructor(readonly next: () => number) {}
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  /** `count` distinct elements, in random order. */
  sample<T>(list: readonly T[], count: number): T[] {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, Math.max(0, Math.min(count, copy.length)));
  }
  /** Money amount rounded to cents. */
  money(min: number, max: number): number {
    return Math.round((min + this.next() * (max - min)) * 100) / 100;
  }
}

export const DAY_MS = 86_400_000;

export interface GenContext {
  name: DatasetName;
  /** The server clock at start, truncated to whole seconds (timestamps carry no ms). */
  now: number;
  names: NameFixture;
  ids: IdAllocator;
  /** An independent PRNG stream per purpose: changing one generator never shifts another. */
  stream(purpose: string): Rnd;
  /** Absolute https URL on this dataset's invented host: sub '' is www. */
  url(sub: string, path: string): string;
}

export function makeContext(name: DatasetName, seed: number, maxExtraStep: number, nowMs: number): GenContext {
  const names = loadNames(name);
  return {
    name,
    now: Math.floor(nowMs / 1000) * 1000,
    names,
    ids: idAllocator(name, maxExtraStep, seed),
    stream: (purpose) => new Rnd(prng((seed ^ hash(purpose)) >>> 0)),
    url: (sub, path) => `https://${sub === '' ? 'www' : sub}.${names.host}${path.startsWith('/') ? '' : '/'}${path}`,
  };
}

/**
 * Gives generated records their ids of `kind` in creation order (oldest first, as a database
 * would) and keys them by id. The sort is stable: records made at the same time keep their order.
 */
export function numberInOrder<R extends { id: number }>(
  ctx: GenContext,
  kind: Exclude<IdKind, 'category'>,
  records: readonly Omit<R, 'id'>[],
  compare: (a: Omit<R, 'id'>, b: Omit<R, 'id'>) => number,
): Map<number, R> {
  const out = new Map<number, R>();
  for (const r of [...records].sort(compare)) {
    const id = ctx.ids.next(kind);
    out.set(id, { ...r, id } as R);
  }
  return out;
}

export const ts = formatTimestamp;

export function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

export function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
