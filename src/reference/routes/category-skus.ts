// GET /categories/:category_id/skus (spec "Endpoints > Categories", row 10, and "Ordering, filters
// and meta of the category SKU listing").
//
// Choices where the spec is silent or says "not shown":
// - A non-leaf category answers 200 with an empty skus array and the full meta (variant
//   nonleaf-skus-descendants: the SKUs of every leaf below it; nonleaf-skus-refused: 404
//   RecordNotFound).
// - order_by_methods (3.2.0+, "dynamic") is a per-category subset of pricevat, rank, rating,
//   popularity, price; before 3.2.0 every category offers the same rank, price, rating,
//   popularity (variant order-by-methods-all: all five, everywhere, in every version), and
//   meta names them (variant order-by-methods-from-3-2: no order_by_methods before 3.2.0). The
//   default method is among them (variant ordered-by-default-unlisted: left out of
//   order_by_methods when there are others, still accepted as order_by and named by ordered_by).
//   Labels: "Price incl. VAT", "Relevance", "Rating", "Popularity", "Price".
// - The default order_by is per category (one of its methods); the default order_dir follows
//   the method: asc for price, pricevat and rank (rank 1 is the best match), desc for rating
//   and popularity; order_by without order_dir uses the same per-method default (variant
//   sku-default-order-desc: desc for every method). Keys:
//   price and pricevat sort by price_min, rank by rank, rating by reviewscore (variant
//   sku-rating-weighted: a rating weighted by the number of reviews), popularity by
//   popularity; ties by id ascending.
// - meta holds ordered_by and order_by_methods, and no order_dir.
// - Filters combine with AND. q: every word of q must begin a word of the SKU's name,
//   display_name, manufacturer name or of a category name on its path (case- and
//   accent-insensitive). manufacturer_ids[], filter_ids[], shop_ids[]: also accepted without
//   [] and comma-separated; unknown ids simply match nothing. filter_ids of one filter group
//   combine with OR, groups with AND (variant filter-ids-and: AND within a group too). shop_ids, distance and availability (3.2.1+) apply to
//   products: a SKU matches when one of its products satisfies all three. Before 3.2.1 those
//   three parameters are ignored. An unknown distance or availability id is 400.
// - distances: ids 1-4 = up to 5, 10, 25, 50 km from the requester's personalization (a
//   product whose shop has a location that near), measured as the product lists' distance
//   filter measures it (shopDistanceKm; an application token, or a user who has none: the
//   default personalization); availabilities: ids 1-3 = available immediately, within 3
//   days, within 7 days.
// - include_meta[] (or include_meta, comma-separated): available_filters, applied_filters;
//   another value is 400 InvalidParameter. available_filters counts the SKUs of the current
//   result (every filter applied, all pages): filters lists every filter of the category's
//   filter groups, manufacturers and shops every manufacturer / shop of the category's SKUs,
//   availabilities and distances every option, zero counts included (variant
//   available-filters-nonzero: zero counts left out, maps and arrays alike); object keys are the ids
//   as strings. All five keys in every version (the spec names them without a version); before
//   3.2.1 shop_ids, distance and availability filter nothing, so the counts are over the
//   result without them.
// - applied_filters: {q (string or null), manufacturer_ids, filter_ids (arrays of integers),
//   shop_ids (array), distance, availability (id or null)}, the values applied (duplicates
//   removed); all six keys in every version, before 3.2.1 shop_ids [] and distance and
//   availability null (those parameters are ignored). Variant applied-filters-list: an array
//   of {name, value}, one per filter applied, in that key order.
// - favorited: see serializers/sku.ts (user tokens, 3.1.0+; variant favorited-everywhere).
// - Variants of variants/catalog-readings.ts: sku-q-words-or (any word of q), filter-ids-or (any
//   filter id), sku-include-meta-brackets-only (include_meta[] alone), available-filters-whole-category
//   (counts ignore the filters), available-filters-product-keys-from-3-2-1 (no shops, availabilities,
//   distances before 3.2.1), sku-availability-exact-class (ids name exact classes of days),
//   sku-distance-needs-user-location (an application token: distance finds nothing, counts 0);
//   filter-groups-inherited (see filter-groups.ts).

import type { CategoryRecord } from '../data.ts';
import { ApiError, type ApiResult } from '../http.ts';
import type { ProductRecord, SkuRecord } from '../model.ts';
import type { ApiContext } from '../router.ts';
import { favoritedSkuIds, serializeSku } from '../serializers/sku.ts';
import { personalizationOf, shopDistanceKm } from '../serializers/product.ts';
import { respondMany } from '../shape.ts';
import { versionAtLeast } from '../versioning.ts';
import type { Variants } from '../variants.ts';
import { catalogIndex, matchesAll, push, skusUnder, words } from './catalog-index.ts';
import { filterView } from './filter-groups.ts';
import { findCategory, orderDirParam, sortBy, type Dir } from './listing.ts';
import { intListParam, intParam, invalidParameter, unknownOrder } from './params.ts';

type Json = Record<string, unknown>;

export type SkuOrderMethod = 'pricevat' | 'rank' | 'rating' | 'popularity' | 'price';

const METHOD_LABELS: Readonly<Record<SkuOrderMethod, string>> = {
  pricevat: 'Price incl. VAT',
  rank: 'Relevance',
  rating: 'Rating',
  popularity: 'Popularity',
  price: 'Price',
};

/** Before 3.2.0 ("dynamic order_by methods in category SKUs") every category has these. */
const STATIC_METHODS: readonly SkuOrderMethod[] = ['rank', 'price', 'rating', 'popularity'];

/** The per-category method sets of 3.2.0+; every one differs from the others. */
const DYNAMIC_METHOD_SETS: readonly (readonly SkuOrderMethod[])[] = [
  ['rank', 'price', 'rating'],
  ['popularity', 'pricevat', 'rating'],
  ['rank', 'pricevat', 'popularity', 'rating'],
  ['popularity', 'price', 'rating', 'rank'],
  ['price', 'popularity'],
];

const DEFAULT_DIRS: Readonly<Record<SkuOrderMethod, Dir>> = {
  pricevat: 'asc',
  rank: 'asc',
  rating: 'desc',
  popularity: 'desc',
  price: 'asc',
};

function categoryHash(id: number): number {
  return Math.imul(id ^ 0x5bd1e995, 0x9e3779b1) >>> 0;
}

export interface SkuOrdering {
  methods: readonly SkuOrderMethod[];
  defaultMethod: SkuOrderMethod;
}

/** Every method, for the variant order-by-methods-all. */
const ALL_METHODS: readonly SkuOrderMethod[] = ['pricevat', 'rank', 'rating', 'popularity', 'price'];

/** The order_by methods of a category for the request's version, and its default method. */
export function skuOrdering(ctx: ApiContext, c: CategoryRecord): SkuOrdering {
  const h = categoryHash(c.id);
  const dynamic = DYNAMIC_METHOD_SETS[h % DYNAMIC_METHOD_SETS.length]!;
  const dynamicDefault = dynamic[(h >>> 8) % dynamic.length]!;
  // The default method stays the category's own; only the offer widens.
  const all = ctx.variants.has('order-by-methods-all');
  if (versionAtLeast(ctx.version, '3.2.0')) return { methods: all ? ALL_METHODS : dynamic, defaultMethod: dynamicDefault };
  return { methods: all ? ALL_METHODS : STATIC_METHODS, defaultMethod: dynamicDefault === 'pricevat' ? 'price' : dynamicDefault };
}

/** Variant sku-rating-weighted: reviewscore pulled towards 3 by 5 phantom reviews, so few reviews weigh less. */
const weightedRating = (s: SkuRecord): number => (s.reviewscore * s.reviews_count + 3 * 5) / (s.reviews_count + 5);

function skuKey(method: SkuOrderMethod, variants: Variants): (s: SkuRecord) => number {
  switch (method) {
    case 'price':
    case 'pricevat':
      return (s) => s.price_min;
    case 'rank':
      return (s) => s.rank;
    case 'rating':
      return variants.has('sku-rating-weighted') ? weightedRating : (s) => s.reviewscore;
    case 'popularity':
      return (s) => s.popularity;
  }
}

export interface Option {
  id: number;
  label: string;
  limit: number;
  /** The lower bound of an exact class (variant sku-availability-exact-class); 0 when left out. */
  from?: number;
}

/** meta distances: km from the requester's personalization. */
export const DISTANCES: readonly Option[] = [
  { id: 1, label: 'Up to 5 km', limit: 5 },
  { id: 2, label: 'Up to 10 km', limit: 10 },
  { id: 3, label: 'Up to 25 km', limit: 25 },
  { id: 4, label: 'Up to 50 km', limit: 50 },
];

/** meta availabilities: days until available. */
export const AVAILABILITIES: readonly Option[] = [
  { id: 1, label: 'Available immediately', limit: 0 },
  { id: 2, label: 'Within 3 days', limit: 3 },
  { id: 3, label: 'Within 7 days', limit: 7 },
];

/** Variant sku-availability-exact-class: each id names one class of days, no class holding another. */
const AVAILABILITY_CLASSES: readonly Option[] = [
  { id: 1, label: 'Available immediately', limit: 0 },
  { id: 2, label: 'In 1 to 3 days', from: 1, limit: 3 },
  { id: 3, label: 'In 4 to 7 days', from: 4, limit: 7 },
];

function availabilities(variants: Variants): readonly Option[] {
  return variants.has('sku-availability-exact-class') ? AVAILABILITY_CLASSES : AVAILABILITIES;
}

function availableIn(p: ProductRecord, o: Option): boolean {
  return p.availabilityDays >= (o.from ?? 0) && p.availabilityDays <= o.limit;
}

const INCLUDE_META = ['available_filters', 'applied_filters'] as const;

/** name[] and name (comma-separated); `bracketsOnly`: name[] alone, name not being the parameter. */
function listValues(ctx: ApiContext, name: string, bracketsOnly = false): string[] {
  return [...ctx.query.getAll(`${name}[]`), ...(bracketsOnly ? [] : ctx.query.getAll(name))]
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function optionParam(ctx: ApiContext, name: string, options: readonly Option[]): Option | null {
  const id = intParam(ctx, name);
  if (id === undefined) return null;
  // The bug: distance is taken for km, as on the product lists, and matched against the options' km.
  const key = ctx.fault === 'sku-distance-takes-km' && name === 'distance' ? 'limit' : 'id';
  const found = options.find((o) => o[key] === id);
  if (!found) throw invalidParameter(`${name} must be one of the ids ${options.map((o) => o.id).join(', ')} (meta available_filters), got ${id}`);
  return found;
}

function unique(values: readonly number[]): number[] {
  return [...new Set(values)];
}

interface SkuFilters {
  q: string | null;
  tokens: string[];
  manufacturerIds: number[];
  filterIds: number[];
  shopIds: number[];
  distance: Option | null;
  availability: Option | null;
  productLevel: boolean;
  /** Km from the requester's personalization to a shop's nearest location (null: unknown), once per shop. */
  shopKm: (shopId: number) => number | null;
}

function readSkuFilters(ctx: ApiContext): SkuFilters {
  // The bug: the keyword filter reads a parameter of another name, so q is never applied.
  const rawQ = ctx.fault === 'sku-q-filter-ignored' ? ctx.query.get('keyword') : ctx.query.get('q');
  const q = rawQ === null || rawQ.trim() === '' ? null : rawQ.trim();
  const withProductFilters = versionAtLeast(ctx.version, '3.2.1');
  const shopIds = withProductFilters && ctx.fault !== 'sku-shop-filter-ignored' ? unique(intListParam(ctx, 'shop_ids')) : [];
  const distance = withProductFilters ? optionParam(ctx, 'distance', DISTANCES) : null;
  const availability = withProductFilters ? optionParam(ctx, 'availability', availabilities(ctx.variants)) : null;
  // The same measure as the product lists' distance filter (routes/products.ts).
  const personalization = personalizationOf(ctx.data, ctx.userId);
  const km = new Map<number, number | null>();
  // Variant sku-distance-needs-user-location: an application token has no user location, so no shop is within any distance.
  const located = ctx.userId !== null || !ctx.variants.has('sku-distance-needs-user-location');
  const shopKm = (shopId: number): number | null => {
    if (!km.has(shopId)) km.set(shopId, located ? shopDistanceKm(ctx.data, shopId, personalization) : null);
    return km.get(shopId)!;
  };
  return {
    q,
    tokens: q === null ? [] : words(q),
    // The bug: the ordered query path forgets the manufacturer filter.
    manufacturerIds: ctx.fault === 'manufacturer-ids-dropped-with-order-by' && ctx.query.get('order_by') !== null ? [] : unique(intListParam(ctx, 'manufacturer_ids')),
    filterIds: ctx.fault === 'sku-filter-ids-ignored' ? [] : unique(intListParam(ctx, 'filter_ids')),
    shopIds,
    distance,
    availability,
    productLevel: shopIds.length > 0 || distance !== null || availability !== null,
    shopKm,
  };
}

function within(km: number | null, limit: number): boolean {
  return km !== null && km <= limit;
}

function productMatches(p: ProductRecord, f: SkuFilters): boolean {
  if (f.shopIds.length > 0 && !f.shopIds.includes(p.shop_id)) return false;
  if (f.availability !== null && !availableIn(p, f.availability)) return false;
  if (f.distance !== null && !within(f.shopKm(p.shop_id), f.distance.limit)) return false;
  return true;
}

function filterSkus(ctx: ApiContext, c: CategoryRecord, all: readonly SkuRecord[], f: SkuFilters): SkuRecord[] {
  const index = catalogIndex(ctx.data);
  // filter_ids: OR inside one filter group, AND across groups; an id of no group of the
  // category forms a group of its own (and so matches no SKU).
  const groupOf = new Map<number, number>();
  const view = filterView(ctx);
  for (const g of view.groupsOf(c.id)) for (const id of g.filters.keys()) groupOf.set(id, g.id);
  const requiredGroups = new Map<string, number[]>();
  // Variant filter-ids-and: every id is a group of its own, so all of them must match.
  const everyId = ctx.variants.has('filter-ids-and');
  // Variant filter-ids-or: all the ids form one group, any of them matching.
  const anyId = ctx.variants.has('filter-ids-or');
  for (const id of f.filterIds) push(requiredGroups, anyId ? 'any' : groupOf.has(id) && !everyId ? `g${groupOf.get(id)}` : `f${id}`, id);
  // Variant sku-q-words-or: a SKU matches when any word of q begins one of its words.
  const qMatches = (skuWords: readonly string[]): boolean =>
    ctx.variants.has('sku-q-words-or') ? f.tokens.some((t) => matchesAll(skuWords, [t])) : matchesAll(skuWords, f.tokens);
  return all.filter((s) => {
    // The bug: the keyword is compared with the whole name, so a word of it matches nothing.
    if (f.tokens.length > 0 && ctx.fault === 'sku-q-filter-whole-name') {
      if (s.name.toLowerCase() !== (f.q ?? '').toLowerCase()) return false;
    } else if (f.tokens.length > 0 && !qMatches(index.skuWords.get(s.id) ?? [])) return false;
    if (f.manufacturerIds.length > 0 && !f.manufacturerIds.includes(s.manufacturer_id)) return false;
    for (const ids of requiredGroups.values()) if (!ids.some((id) => view.filterIdsOf(s).includes(id))) return false;
    if (f.productLevel && !(index.productsBySku.get(s.id) ?? []).some((p) => productMatches(p, f))) return false;
    return true;
  });
}

/** Counts by id (keys as strings); `nonzero`: ids counted 0 left out. */
function countMap(keys: Iterable<number>, counts: Map<number, number>, nonzero: boolean): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) {
    const n = counts.get(k) ?? 0;
    if (n > 0 || !nonzero) out[String(k)] = n;
  }
  return out;
}

function availableFilters(ctx: ApiContext, c: CategoryRecord, all: readonly SkuRecord[], result: readonly SkuRecord[], f: SkuFilters): Json {
  const index = catalogIndex(ctx.data);
  const nonzero = ctx.variants.has('available-filters-nonzero');
  const view = filterView(ctx);
  const filterKeys = [...new Set(view.groupsOf(c.id).flatMap((g) => [...g.filters.keys()]))].sort((a, b) => a - b);
  const filterCounts = new Map<number, number>();
  const manufacturerCounts = new Map<number, number>();
  for (const s of result) {
    for (const id of new Set(view.filterIdsOf(s))) filterCounts.set(id, (filterCounts.get(id) ?? 0) + 1);
    manufacturerCounts.set(s.manufacturer_id, (manufacturerCounts.get(s.manufacturer_id) ?? 0) + 1);
  }
  const out: Json = {
    filters: countMap(filterKeys, filterCounts, nonzero),
    manufacturers: countMap(
      [...new Set(all.map((s) => s.manufacturer_id))].sort((a, b) => a - b),
      manufacturerCounts,
      nonzero,
    ),
  };
  // All five keys in every version (the spec gives them without a version); before 3.2.1 the
  // shop, distance and availability filters are not applied, so these count the SKUs of a
  // result those filters did not narrow.
  const shopKeys = [...new Set(all.flatMap((s) => (index.productsBySku.get(s.id) ?? []).map((p) => p.shop_id)))].sort((a, b) => a - b);
  const shopCounts = new Map<number, number>();
  for (const s of result) {
    for (const shopId of new Set((index.productsBySku.get(s.id) ?? []).map((p) => p.shop_id))) {
      shopCounts.set(shopId, (shopCounts.get(shopId) ?? 0) + 1);
    }
  }
  const optionCounts = (options: readonly Option[], test: (p: ProductRecord, o: Option) => boolean): Json[] =>
    options
      .map((o) => ({
        id: o.id,
        label: o.label,
        count: result.filter((s) => (index.productsBySku.get(s.id) ?? []).some((p) => test(p, o))).length,
      }))
      .filter((o) => o.count > 0 || !nonzero);
  out['shops'] = countMap(shopKeys, shopCounts, nonzero);
  out['availabilities'] = optionCounts(availabilities(ctx.variants), availableIn);
  out['distances'] = optionCounts(DISTANCES, (p, o) => within(f.shopKm(p.shop_id), o.limit));
  // Variant available-filters-product-keys-from-3-2-1: the product filters' counts come with those filters.
  if (ctx.variants.has('available-filters-product-keys-from-3-2-1') && !versionAtLeast(ctx.version, '3.2.1')) {
    for (const key of ['shops', 'availabilities', 'distances']) delete out[key];
  }
  return out;
}

/** Every key in every version: before 3.2.1 shop_ids, distance and availability are never applied ([], null, null). */
function appliedFilters(f: SkuFilters): Json {
  return {
    q: f.q,
    manufacturer_ids: f.manufacturerIds,
    filter_ids: f.filterIds,
    shop_ids: f.shopIds,
    distance: f.distance?.id ?? null,
    availability: f.availability?.id ?? null,
  };
}

/** Variant applied-filters-list: [{name, value}] for the filters applied (neither null nor empty). */
function appliedFilterList(f: SkuFilters): Json[] {
  return Object.entries(appliedFilters(f))
    .filter(([, value]) => value !== null && !(Array.isArray(value) && value.length === 0))
    .map(([name, value]) => ({ name, value }));
}

/** meta.order_by_methods: method -> label; the default method left out under a variant (when there are others). */
function orderByMethods(ctx: ApiContext, methods: readonly SkuOrderMethod[], defaultMethod: SkuOrderMethod): Json {
  const shown = ctx.variants.has('ordered-by-default-unlisted') && methods.length > 1 ? methods.filter((m) => m !== defaultMethod) : methods;
  return Object.fromEntries(shown.map((m) => [m, METHOD_LABELS[m]]));
}

export function categorySkus(ctx: ApiContext): ApiResult {
  const c = findCategory(ctx, ctx.params['category_id']);
  if (c.childIds.length > 0 && ctx.variants.has('nonleaf-skus-refused')) {
    throw new ApiError(404, 'RecordNotFound', [`Couldn't find a leaf Category with id=${c.id}: only leaf categories hold SKUs`]);
  }
  const { methods, defaultMethod } = skuOrdering(ctx, c);
  let rawOrderBy = ctx.query.get('order_by');
  // The bug: the order_by check uses the fixed list of before 3.2.0, not the category's methods.
  const accepted = ctx.fault === 'sku-order-by-pricevat-refused' ? STATIC_METHODS : methods;
  if (rawOrderBy !== null && !(accepted as readonly string[]).includes(rawOrderBy)) {
    rawOrderBy = unknownOrder(ctx, `order_by must be one of ${methods.join(', ')} (meta.order_by_methods), got "${rawOrderBy.slice(0, 64)}"`) ?? null;
  }
  const orderBy = (rawOrderBy ?? defaultMethod) as SkuOrderMethod;
  const defaultDir = ctx.variants.has('sku-default-order-desc') ? 'desc' : DEFAULT_DIRS[orderBy];
  // The bug: order_dir is never read; every method keeps its default direction.
  const asked = ctx.fault === 'category-skus-order-dir-ignored' ? null : orderDirParam(ctx);
  const chosen: Dir = asked ?? defaultDir;
  // The bug: the rating comparator is written the wrong way round.
  const dir: Dir = ctx.fault === 'sku-rating-order-reversed' && orderBy === 'rating' ? (chosen === 'asc' ? 'desc' : 'asc') : chosen;

  // Variant sku-include-meta-brackets-only: include_meta without [] is not the parameter.
  const includeMeta = listValues(ctx, 'include_meta', ctx.variants.has('sku-include-meta-brackets-only'));
  for (const name of includeMeta) {
    if (!(INCLUDE_META as readonly string[]).includes(name)) {
      throw invalidParameter(`include_meta[] must be among ${INCLUDE_META.join(', ')}, got "${name.slice(0, 64)}"`);
    }
  }
  const filters = readSkuFilters(ctx);
  // Only leaf categories hold SKUs (the variant lists those of the leaves below a non-leaf).
  const all = c.childIds.length === 0 || ctx.variants.has('nonleaf-skus-descendants') ? skusUnder(ctx, c.id) : [];
  // The bug: with availability the SKUs are taken from the whole catalogue, not the category.
  const scoped = ctx.fault === 'sku-availability-filter-drops-category' && filters.availability !== null ? [...ctx.data.skus.values()] : all;
  const result = filterSkus(ctx, c, scoped, filters);
  const key = skuKey(orderBy, ctx.variants);
  const ordered = sortBy(result, (a, b) => key(a) - key(b), dir);
  // The bug: an unfiltered listing's last page also carries a SKU of another leaf (a join that loses the category's condition).
  const listed = ctx.fault === 'category-skus-stray-sku-last' && result.length === all.length && all.length > 0 ? [...ordered, ...straySku(ctx, c)] : ordered;

  // The bugs: ordered_by always names the default method; its labels as objects.
  const methodLabels = orderByMethods(ctx, methods, defaultMethod);
  const labels = ctx.fault === 'order-by-methods-labels-objects' ? Object.fromEntries(Object.entries(methodLabels).map(([m, label]) => [m, { label }])) : methodLabels;
  const meta: Json = { ordered_by: ctx.fault === 'ordered-by-always-default' ? defaultMethod : orderBy, order_by_methods: labels };
  if (ctx.variants.has('order-by-methods-from-3-2') && !versionAtLeast(ctx.version, '3.2.0')) delete meta['order_by_methods'];
  // The bugs: a key of meta left out.
  if (ctx.fault === 'ordered-by-missing') delete meta['ordered_by'];
  if (ctx.fault === 'order-by-methods-missing') delete meta['order_by_methods'];
  // Variant available-filters-whole-category: the counts are over the category, whatever the filters.
  const counted = ctx.variants.has('available-filters-whole-category') ? all : result;
  // The bugs: include_meta[] read, but one of its values never acted on.
  if (includeMeta.includes('available_filters') && ctx.fault !== 'available-filters-not-added') meta['available_filters'] = availableFilters(ctx, c, all, counted, filters);
  if (includeMeta.includes('applied_filters') && ctx.fault !== 'applied-filters-not-added') {
    meta['applied_filters'] = ctx.variants.has('applied-filters-list') ? appliedFilterList(filters) : appliedFilters(filters);
  }
  // The bug: favorited is left out, as on the other SKU listings.
  const favorited = !(ctx.fault === 'category-skus-favorited-missing');
  const favoritedIds = favoritedSkuIds(ctx);
  // The bug: the list under the word the front end uses.
  const listKey = ctx.fault === 'category-skus-under-products-key' ? 'products' : 'skus';
  return respondMany(ctx, listKey, listed, (s) => serializeSku(s, ctx, { favorited }, favoritedIds), { meta });
}

/** The first SKU of the first other leaf holding SKUs (the fault category-skus-stray-sku-last). */
function straySku(ctx: ApiContext, c: CategoryRecord): SkuRecord[] {
  for (const other of ctx.data.categoryList) {
    const skus = other.id !== c.id && other.childIds.length === 0 ? skusUnder(ctx, other.id) : [];
    if (skus.length > 0) return [skus[0]!];
  }
  return [];
}
