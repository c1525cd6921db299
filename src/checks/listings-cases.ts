// What the category listings suite (suites/category-listings.suite.ts) asks and how it reads the
// answers, apart from the requests (src/engines/category-listings.ts): which SKU orders show their
// direction, the cases of the manufacturer_ids[] combination property, the user's favorites as
// sets of SKU ids, and the small judgements of its tests (spec: "Ordering, filters and meta of
// the category SKU listing", Filter group, SKU (favorited)).
import fc from 'fast-check';
import type { Query } from '../http/client.ts';
import { allOf, fail, isPlainObject, pass, show, statedValue, type CheckResult } from './check.ts';
import type { Json } from './listings.ts';
import { readPagination } from './pagination.ts';
import type { Direction } from './search.ts';

/** The price method among order_by methods: price or pricevat, the first listed. */
export const priceMethodOf = (methods: readonly string[]): string | undefined => methods.find((m) => m === 'price' || m === 'pricevat');

/**
 * The SKU orders whose direction shows in the SKUs' fields (which field the spec does not say): a
 * price method by price_min or price_max, rating (3.0.8, `ratingOrders`) by reviewscore.
 */
export function visibleOrders(methods: readonly string[], ratingOrders: boolean): { priceMethod?: string; rating?: string } {
  const priceMethod = priceMethodOf(methods);
  const rating = methods.includes('rating') && ratingOrders ? 'rating' : undefined;
  return { ...(priceMethod ? { priceMethod } : {}), ...(rating ? { rating } : {}) };
}

/** The keys of meta.order_by_methods; none when it is not an object. */
export const orderMethodsOf = (meta: Json): string[] => (isPlainObject(meta['order_by_methods']) ? Object.keys(meta['order_by_methods']) : []);

/** The methods the order_dir test asks both ways: the visible orders, else the method meta.ordered_by names. */
export function methodsBothWays(visible: { priceMethod?: string; rating?: string }, orderedBy: unknown): string[] {
  const tried = [visible.priceMethod, visible.rating].filter((m): m is string => m !== undefined);
  if (tried.length === 0 && typeof orderedBy === 'string') tried.push(orderedBy);
  return tried;
}

/** The fields whose order shows a method's direction (none for a method that shows none). */
export function directionFields(method: string, priceMethod: string | undefined): { fields: string[] } {
  return { fields: method === 'rating' ? ['reviewscore'] : method === priceMethod ? ['price_min', 'price_max'] : [] };
}

/**
 * The statement a list the other way breaks: asked one way only, order_dir (CAT-28); asked both
 * ways, order_dir is honoured and the method's own order is reversed: for rating, the rating
 * ordering of its Change history row (CHG-22); a price method has no statement of its own (CAT-28).
 */
export function reversedCites(method: string, bothWays: boolean): string[] {
  return method === 'rating' && bothWays ? ['CHG-22'] : ['CAT-28'];
}

/**
 * The statements a filter's count (meta.available_filters) against the SKUs the filter lists cites:
 * a filter that lists every SKU of the leaf, as without it, where its count says fewer match, took
 * no effect (the filter's own statement); another mismatch may be the count's (FILT-3) or the filter's.
 */
export function countMismatchCites(filter: string, count: number, filtered: Totalled, unfiltered: Totalled): string[] {
  const [filteredTotal, total] = [filtered.pagination.total_results, unfiltered.pagination.total_results];
  return filteredTotal === total && count < total ? [filter] : [filter, 'FILT-3'];
}

/** A listing as countMismatchCites reads it: its total. */
type Totalled = { pagination: { total_results: number } };

/** meta.pagination.total_results as sent: an integer or null (a blank), undefined for anything else. */
export function totalResultsSent(meta: unknown): unknown {
  const pagination = isPlainObject(meta) ? meta['pagination'] : undefined;
  const raw = isPlainObject(pagination) ? pagination['total_results'] : undefined;
  return Number.isInteger(raw) || raw === null ? raw : undefined;
}

/** order_dir asc and desc of one method list as many SKUs. */
export function sameTotalBothWays(method: string, ascTotal: number, descTotal: number): CheckResult {
  return ascTotal === descTotal ? pass() : fail(`order_by=${method}: order_dir=asc lists ${ascTotal} SKUs, order_dir=desc ${descTotal}`);
}

/** The integer manufacturer_ids of the SKUs, each once, in ascending order. */
export const manufacturerIdsOf = (skus: readonly Json[]): number[] =>
  [...new Set(skus.map((s) => s['manufacturer_id']).filter((id): id is number => Number.isInteger(id)))].sort((a, b) => a - b);

/** A case of the combination property: manufacturer_ids[] with an order and a page size, or not. */
export interface Combination {
  manufacturers: number[];
  orderBy: string | null;
  orderDir: Direction | null;
  per: number | null;
}

/**
 * The cases of the combination property: first always a filter with an order (the price method
 * where there is one) and a direction, then `random` cases drawn from `seed`.
 */
export function combinationCases(manufacturers: readonly number[], methods: readonly string[], seed: number, random: number): Combination[] {
  const arbitrary = fc.record({
    // Up to two manufacturers: a leaf whose SKUs have one gets cases of that one (subarray refuses a longer maximum).
    manufacturers: fc.subarray([...manufacturers], { minLength: 1, maxLength: Math.min(2, manufacturers.length) }),
    orderBy: methods.length ? fc.option(fc.constantFrom(...methods), { nil: null }) : fc.constant(null),
    orderDir: fc.option(fc.constantFrom<Direction>('asc', 'desc'), { nil: null }),
    per: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
  });
  const first: Combination = { manufacturers: [manufacturers[0]!], orderBy: priceMethodOf(methods) ?? methods[0] ?? null, orderDir: 'desc', per: null };
  return [first, ...fc.sample(arbitrary, { seed, numRuns: random })];
}

/** The query of a case: manufacturer_ids[], then order_by, order_dir and per where the case has them. */
export function combinationQuery(c: Combination): Query {
  const query: Query = { 'manufacturer_ids[]': c.manufacturers };
  if (c.orderBy !== null) query['order_by'] = c.orderBy;
  if (c.orderDir !== null) query['order_dir'] = c.orderDir;
  if (c.per !== null) query['per'] = c.per;
  return query;
}

/** How a message names case `i`: its query, and for a random case the seed that draws it again. */
export function caseLabel(query: Query, i: number, seed: number): string {
  const sent = Object.entries(query)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
    .join('&');
  return `${sent}${i > 0 ? ` (random case ${i} of seed ${seed}; CATALOGUE_SEED=${seed} draws it again)` : ''}`;
}

/** A page of GET /favorites: the favorites on it, and whether it is the only page. */
export interface FavoritesPage {
  items: Json[];
  complete: boolean;
}

/** The favorites of a GET /favorites answer (none when it has no favorites array); complete only when meta.pagination says one page. */
export function favoritesPageOf(answer: unknown): FavoritesPage {
  const items = isPlainObject(answer) && Array.isArray(answer['favorites']) ? answer['favorites'].filter(isPlainObject) : [];
  return { items, complete: (readPagination(answer)?.total_pages ?? 2) <= 1 };
}

/**
 * The SKUs in one of the user's lists, and which SKUs the user surely has not favorited (only when
 * every favorite is known). `owned`: the owned=true listing (null when it was not answered), asked
 * where the default listing leaves owned favorites out (`excludesOwned`, 3.2.0); before, have_it
 * true marks an owned favorite, which is in no list.
 */
export function favoriteSkuSets(listed: FavoritesPage, owned: FavoritesPage | null, excludesOwned: boolean): { inLists: Set<number>; notFavorited: (id: number) => boolean } {
  const skuOf = (f: Json) => (Number.isInteger(f['sku_id']) ? (f['sku_id'] as number) : null);
  const inLists = new Set(
    listed.items
      .filter((f) => excludesOwned || f['have_it'] !== true)
      .map(skuOf)
      .filter((id): id is number => id !== null),
  );
  const anyFavorite = new Set([...listed.items, ...(owned?.items ?? [])].map(skuOf).filter((id): id is number => id !== null));
  const allKnown = listed.complete && owned !== null && owned.complete;
  return { inLists, notFavorited: (id) => allKnown && !anyFavorite.has(id) };
}

/** Every filter group listed under a category has that category_id. */
export function groupsOfCategory(groups: readonly Json[], categoryId: number): CheckResult {
  return allOf(
    groups.map((g) => statedValue(g['category_id'] === categoryId, `filter group ${show(g['id'])} has category_id ${show(g['category_id'])}, listed under category ${categoryId}`)),
  );
}

/**
 * The filter groups listed are the category's (CAT-24#3): its own, or inherited from an ancestor
 * (CAT-24.d), so each group's integer category_id is on the category's path (root to itself). A
 * group of a category off that path is another category's under every reading. `ancestry`: the
 * ids of the path; null when the category's path could not be read (nothing judged).
 */
export function groupsOfCategoryOrAncestors(groups: readonly Json[], categoryId: number, ancestry: readonly number[] | null): CheckResult {
  if (ancestry === null) return pass();
  const foreign = groups.filter((g) => Number.isInteger(g['category_id']) && !ancestry.includes(g['category_id'] as number));
  return foreign.length
    ? fail(
        `GET /categories/${categoryId}/filter_groups lists groups of other categories: ${foreign
          .slice(0, 5)
          .map((g) => `group ${show(g['id'])} of category ${show(g['category_id'])}`)
          .join(', ')}; the category's path (itself and its ancestors) is ${ancestry.join(',')}`,
      )
    : pass();
}

/**
 * The manufacturers of a category are those of its SKUs (CAT-21#2): every manufacturer_id on the
 * first page of the category's SKU listing is among the manufacturers listed, when the listing
 * was seen whole (one page). Readings: from 3.2.0 OEM manufacturers are left out for a tiles
 * category (CAT-21.f), which the kit cannot tell from a SKU, so a tiles category only warns
 * (`warnOnly`); a listing of several pages is not judged (the rest may be on the others).
 */
export function skuManufacturersListed(
  skus: readonly Json[],
  manufacturers: readonly Json[],
  complete: boolean,
  layoutMode: unknown,
  categoryId: number,
): { result: CheckResult; warnOnly: boolean } {
  if (!complete) return { result: pass(), warnOnly: false };
  const listed = new Set(manufacturers.map((m) => m['id']));
  const missing = [...new Set(skus.map((s) => s['manufacturer_id']).filter((id) => Number.isInteger(id) && !listed.has(id)))];
  if (!missing.length) return { result: pass(), warnOnly: false };
  const tiles = typeof layoutMode === 'string' && layoutMode !== 'list';
  const why = tiles ? ` (category ${categoryId} is in ${layoutMode} layout: from 3.2.0 its OEM manufacturers are left out)` : '';
  return {
    result: fail(`GET /categories/${categoryId}/manufacturers (every page: ${listed.size}) lacks manufacturer(s) ${missing.join(', ')} of the category's SKUs${why}`),
    warnOnly: tiles,
  };
}

/** include_meta[]=applied_filters: meta has applied_filters (its shape is not shown). */
export function hasAppliedFilters(meta: Json, leafId: number): CheckResult {
  return 'applied_filters' in meta ? pass() : fail(`include_meta[]=applied_filters on leaf ${leafId}: meta has no applied_filters (keys: ${Object.keys(meta).join(', ')})`);
}

/** manufacturer_ids[] of a manufacturer of the unfiltered listing lists at least one SKU. */
export function listsSome(manufacturerId: number, total: number): CheckResult {
  return total > 0 ? pass() : fail(`manufacturer_ids[]=${manufacturerId} lists no SKU, though the unfiltered listing has SKUs of that manufacturer`);
}

/** q, a word of the name of `sku`, keeps that SKU among the items listed (`total` in all). */
export function keepsTheSku(q: string, sku: Json, items: readonly Json[], total: number): CheckResult {
  return items.some((s) => s['id'] === sku['id'])
    ? pass()
    : fail(`q=${q}, a word of the name of SKU ${show(sku['id'])} (${show(sku['name'])}), lists ${total} SKU(s), not that one`);
}

/** q, letters no catalogue holds, lists no SKU (a listing that ignores q lists the leaf's `leafTotal`). */
export function keepsNothing(q: string, total: number, listed: number, leafTotal: number): CheckResult {
  return total === 0 && listed === 0 ? pass() : fail(`q=${q}, letters no catalogue holds, lists ${total} SKU(s) of the leaf's ${leafTotal}`);
}
