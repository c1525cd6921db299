// The catalogue index: read-only relations of a dataset (the SKUs under a category, the products
// of a SKU, ...) and the words things are found by, built once per dataset on first use; shared by
// the catalogue, search and manufacturer routes.

import type { Dataset } from '../data.ts';
import type { FilterGroupRecord, ProductRecord, SkuRecord, SpecificationRecord } from '../model.ts';
import type { ApiContext } from '../router.ts';

/** Lower-cased, accent-free words of a text ("Home & Garden" -> ["home", "garden"]). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** Every token begins some word. */
export function matchesAll(haystack: readonly string[], tokens: readonly string[]): boolean {
  return tokens.every((t) => haystack.some((w) => w.startsWith(t)));
}

export interface CatalogIndex {
  /** Category id -> SKUs in it and in every category below it, by id. */
  readonly subtreeSkus: ReadonlyMap<number, readonly SkuRecord[]>;
  readonly productsBySku: ReadonlyMap<number, readonly ProductRecord[]>;
  readonly skusByManufacturer: ReadonlyMap<number, readonly SkuRecord[]>;
  readonly filterGroupsByCategory: ReadonlyMap<number, readonly FilterGroupRecord[]>;
  readonly specsByCategory: ReadonlyMap<number, readonly SpecificationRecord[]>;
  /** Words a SKU is found by: its name, display_name, manufacturer and path category names. */
  readonly skuWords: ReadonlyMap<number, readonly string[]>;
  readonly categoryWords: ReadonlyMap<number, readonly string[]>;
  readonly manufacturerWords: ReadonlyMap<number, readonly string[]>;
  /** Every distinct word of category, manufacturer and SKU names, sorted. */
  readonly vocabulary: readonly string[];
}

const INDEXES = new WeakMap<Dataset, CatalogIndex>();

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function catalogIndex(ds: Dataset): CatalogIndex {
  const cached = INDEXES.get(ds);
  if (cached) return cached;
  const byId = <T extends { id: number }>(a: T, b: T): number => a.id - b.id;
  const vocabulary = new Set<string>();

  const categoryWords = new Map<number, string[]>();
  for (const c of ds.categoryList) {
    const w = words(c.name);
    categoryWords.set(c.id, w);
    w.forEach((x) => vocabulary.add(x));
  }
  const manufacturerWords = new Map<number, string[]>();
  for (const m of ds.manufacturers.values()) {
    const w = words(m.name);
    manufacturerWords.set(m.id, w);
    w.forEach((x) => vocabulary.add(x));
  }

  const subtreeSkus = new Map<number, SkuRecord[]>();
  const skusByManufacturer = new Map<number, SkuRecord[]>();
  const skuWords = new Map<number, string[]>();
  const skus = [...ds.skus.values()].sort(byId);
  for (const s of skus) {
    const category = ds.categories.get(s.category_id);
    for (const id of category?.pathIds ?? [s.category_id]) push(subtreeSkus, id, s);
    push(skusByManufacturer, s.manufacturer_id, s);
    const own = [...words(s.name), ...words(s.display_name)];
    own.forEach((x) => vocabulary.add(x));
    const all = new Set([...own, ...(manufacturerWords.get(s.manufacturer_id) ?? []), ...(category?.pathIds ?? []).flatMap((id) => categoryWords.get(id) ?? [])]);
    skuWords.set(s.id, [...all]);
  }

  const productsBySku = new Map<number, ProductRecord[]>();
  for (const p of [...ds.products.values()].sort(byId)) push(productsBySku, p.sku_id, p);
  const filterGroupsByCategory = new Map<number, FilterGroupRecord[]>();
  for (const g of [...ds.filterGroups.values()].sort(byId)) push(filterGroupsByCategory, g.category_id, g);
  const specsByCategory = new Map<number, SpecificationRecord[]>();
  for (const s of [...ds.specifications.values()].sort(byId)) push(specsByCategory, s.categoryId, s);

  const index: CatalogIndex = {
    subtreeSkus,
    productsBySku,
    skusByManufacturer,
    filterGroupsByCategory,
    specsByCategory,
    skuWords,
    categoryWords,
    manufacturerWords,
    vocabulary: [...vocabulary].sort(),
  };
  INDEXES.set(ds, index);
  return index;
}

/** The SKUs of a category and its descendants, by id. */
export function skusUnder(ctx: ApiContext, categoryId: number): readonly SkuRecord[] {
  return catalogIndex(ctx.data).subtreeSkus.get(categoryId) ?? [];
}
