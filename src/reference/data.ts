// Reference data: deterministic datasets generated from a seed.
//
// The category tree's shape and names come from fixtures/reference/category-trees.json (one
// name tree per dataset); ids and every other attribute come from a seeded PRNG, so a dataset
// is the same on every start. Each startReference() gets its own Dataset object, so later
// resources that change state (favorites, reviews...) can keep it here without leaking
// between servers. New resources add their records and indexes to Dataset.
//
// 'default': ids 1, 2, 3... in depth-first order; 59 categories, 5 levels (root + 4), the
//            "Home & Garden" category has 28 children.
// 'alt':     ids from 5000 with irregular steps (never overlapping 'default'); 61 categories,
//            5 levels, "Groceries" has 31 children.

import { readFileSync } from 'node:fs';
import type {
  AddressRecord,
  FavoriteListRecord,
  FavoriteRecord,
  FilterGroupRecord,
  FlagReason,
  FlagRecord,
  LocationRecord,
  ManufacturerRecord,
  NotificationRecord,
  PersonalizationRecord,
  ProductRecord,
  ReviewQuestionRecord,
  SavedOrderRecord,
  ShopRecord,
  ShopReviewRecord,
  SkuRecord,
  SkuReviewRecord,
  SpecGroupRecord,
  SpecificationRecord,
  UserRecord,
  VoteRecord,
} from './model.ts';

export type * from './model.ts';

export type DatasetName = 'default' | 'alt';
export const DATASET_NAMES: readonly DatasetName[] = ['default', 'alt'];

export type LayoutMode = 'list' | 'tiles' | 'wide_tiles';

export interface CategoryRecord {
  readonly id: number;
  readonly name: string;
  /** 0 for the root. */
  readonly parentId: number;
  readonly childIds: readonly number[];
  /** 0 for the root. */
  readonly depth: number;
  /** Ids from the root down to this category. */
  readonly pathIds: readonly number[];
  readonly imageUrl: string | null;
  readonly fashion: boolean;
  readonly layoutMode: LayoutMode;
  readonly webUri: string;
  readonly code: string;
  readonly showSpecifications: boolean;
  readonly manufacturerTitle: string;
  readonly familyId: number;
  readonly showManufacturersFilter: boolean;
  readonly adult: boolean;
  readonly onclickBehaviour: string;
  readonly showSpecSummary: boolean;
  readonly unitPriceLabel: string;
  readonly reviewable: boolean;
  readonly comparable: boolean;
}

export interface Dataset {
  readonly name: DatasetName;
  readonly rootId: number;
  readonly categories: ReadonlyMap<number, CategoryRecord>;
  /** Every category, ordered by id. */
  readonly categoryList: readonly CategoryRecord[];

  // Read-only catalogue (maps keyed by id; lists ordered by id).
  readonly manufacturers: ReadonlyMap<number, ManufacturerRecord>;
  readonly shops: ReadonlyMap<number, ShopRecord>;
  readonly locations: ReadonlyMap<number, LocationRecord>;
  readonly shopReviews: ReadonlyMap<number, ShopReviewRecord>;
  readonly skus: ReadonlyMap<number, SkuRecord>;
  readonly products: ReadonlyMap<number, ProductRecord>;
  readonly specGroups: ReadonlyMap<number, SpecGroupRecord>;
  /** Specification definitions of leaf categories. */
  readonly specifications: ReadonlyMap<number, SpecificationRecord>;
  readonly filterGroups: ReadonlyMap<number, FilterGroupRecord>;
  /** The review form's questions (the same for every SKU). */
  readonly reviewQuestions: readonly ReviewQuestionRecord[];
  readonly flagReasons: readonly FlagReason[];
  /** Region name -> region id (address form). */
  readonly regions: Readonly<Record<string, number>>;
  /** Avatar preset URIs (GET /user/avatars); the file name is the last path segment. */
  readonly avatars: readonly string[];
  readonly savedOrders: readonly SavedOrderRecord[];
  /** The user every authorization-code token belongs to (the one who consents). */
  readonly demoUserId: number;

  // Mutable state of this server (requests change it).
  readonly users: Map<number, UserRecord>;
  readonly skuReviews: Map<number, SkuReviewRecord>;
  readonly votes: Map<number, VoteRecord>;
  readonly flags: Map<number, FlagRecord>;
  readonly addresses: Map<number, AddressRecord>;
  /** user id -> personalization. */
  readonly personalization: Map<number, PersonalizationRecord>;
  readonly favoriteLists: Map<number, FavoriteListRecord>;
  readonly favorites: Map<number, FavoriteRecord>;
  readonly notifications: Map<number, NotificationRecord>;
  /** Next id for a record created by a request, per kind (e.g. nextId('favorite')). */
  nextId(kind: string): number;
}

interface GeneratorConfig {
  seed: number;
  firstId: number;
  /** Each next id is previous + 1 + rnd(0..maxExtraStep). */
  maxExtraStep: number;
  /** Family ids are familyBase + index of the top-level ancestor (root: familyBase). */
  familyBase: number;
  webUri: (id: number, code: string) => string;
  imageUrl: (id: number) => string;
}

const CONFIGS: Record<DatasetName, GeneratorConfig> = {
  default: {
    seed: 0x0c47a106,
    firstId: 1,
    maxExtraStep: 0,
    familyBase: 100,
    webUri: (id, code) => `https://www.catalogue.example/cat/${id}-${code}`,
    imageUrl: (id) => `https://img.catalogue.example/categories/${id}.jpg`,
  },
  alt: {
    seed: 0x5eed5000,
    firstId: 5000,
    maxExtraStep: 12,
    familyBase: 900,
    webUri: (id, code) => `https://alt.catalogue.example/c/${code}/${id}`,
    imageUrl: (id) => `https://cdn.alt.catalogue.example/img/c${id}.png`,
  },
};

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

function pick<T>(rnd: () => number, list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)]!;
}

export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

type NameTree = { [name: string]: NameTree };

function isNameTree(v: unknown): v is NameTree {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(isNameTree);
}

let treesCache: Record<string, unknown> | undefined;
function loadNameTree(name: DatasetName): NameTree {
  if (!treesCache) {
    const url = new URL('../../fixtures/reference/category-trees.json', import.meta.url);
    treesCache = JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
  }
  const tree = treesCache[name];
  if (!isNameTree(tree) || Object.keys(tree).length !== 1) {
    throw new Error(`fixtures/reference/category-trees.json: "${name}" must be an object with exactly one root`);
  }
  return tree;
}

const LAYOUTS: readonly LayoutMode[] = ['list', 'tiles', 'wide_tiles'];
const MANUFACTURER_TITLES = ['Manufacturer', 'Manufacturer', 'Brand', 'Maker'] as const;
const UNIT_PRICE_LABELS = ['per piece', 'per kg', 'per litre', 'per metre', 'per pack'] as const;

/** Builds a fresh dataset. */
export function createDataset(name: DatasetName = 'default'): Dataset {
  const cfg = CONFIGS[name];
  const rnd = prng(cfg.seed);
  const tree = loadNameTree(name);
  const records: CategoryRecord[] = [];
  let nextId = cfg.firstId;

  // Depth-first, pre-order: a category's id is smaller than its descendants' ids.
  const build = (nodeName: string, subtree: NameTree, parentPath: readonly number[], family: number): number => {
    const id = nextId;
    nextId += 1 + Math.floor(rnd() * (cfg.maxExtraStep + 1));
    const depth = parentPath.length;
    const pathIds = [...parentPath, id];
    const code = slugify(nodeName);
    const childNames = Object.keys(subtree);
    const isLeaf = childNames.length === 0;
    // Attributes drawn in a fixed order, before the children, so the result is deterministic.
    const attrs = {
      imageUrl: rnd() < 0.3 ? null : cfg.imageUrl(id),
      fashion: rnd() < 0.2,
      layoutMode: pick(rnd, LAYOUTS),
      showSpecifications: isLeaf ? true : rnd() < 0.5,
      manufacturerTitle: pick(rnd, MANUFACTURER_TITLES),
      showManufacturersFilter: rnd() < 0.7,
      adult: rnd() < 0.05,
      showSpecSummary: rnd() < 0.6,
      unitPriceLabel: pick(rnd, UNIT_PRICE_LABELS),
      reviewable: rnd() < 0.8,
      comparable: rnd() < 0.7,
    };
    const index = records.length;
    records.push(undefined as unknown as CategoryRecord); // placeholder keeps pre-order position
    const childIds: number[] = [];
    childNames.forEach((childName, i) => {
      const childFamily = depth === 0 ? cfg.familyBase + i + 1 : family;
      childIds.push(build(childName, subtree[childName]!, pathIds, childFamily));
    });
    records[index] = Object.freeze({
      id,
      name: nodeName,
      parentId: depth === 0 ? 0 : parentPath[parentPath.length - 1]!,
      childIds: Object.freeze(childIds),
      depth,
      pathIds: Object.freeze(pathIds),
      code,
      webUri: cfg.webUri(id, code),
      familyId: family,
      onclickBehaviour: isLeaf ? 'show_skus' : 'show_children',
      ...attrs,
    });
    return id;
  };

  const [rootName, rootTree] = Object.entries(tree)[0]!;
  const rootId = build(rootName, rootTree, [], cfg.familyBase);
  const categoryList = Object.freeze([...records].sort((a, b) => a.id - b.id));
  const counters = new Map<string, number>();
  return Object.freeze({
    name,
    rootId,
    categories: new Map(categoryList.map((c) => [c.id, c])),
    categoryList,
    // TODO(issue 3, data generator): the rest of the catalogue.
    manufacturers: new Map(),
    shops: new Map(),
    locations: new Map(),
    shopReviews: new Map(),
    skus: new Map(),
    products: new Map(),
    specGroups: new Map(),
    specifications: new Map(),
    filterGroups: new Map(),
    reviewQuestions: [],
    flagReasons: [],
    regions: {},
    avatars: [],
    savedOrders: [],
    demoUserId: 0,
    users: new Map(),
    skuReviews: new Map(),
    votes: new Map(),
    flags: new Map(),
    addresses: new Map(),
    personalization: new Map(),
    favoriteLists: new Map(),
    favorites: new Map(),
    notifications: new Map(),
    nextId: (kind: string) => {
      const n = (counters.get(kind) ?? 900_000) + 1;
      counters.set(kind, n);
      return n;
    },
  });
}

export function childrenOf(ds: Dataset, id: number): CategoryRecord[] {
  const c = ds.categories.get(id);
  if (!c) return [];
  return c.childIds.map((cid) => ds.categories.get(cid)!);
}
