// The requests of the category listings suite (suites/category-listings.suite.ts) and what it
// judges of their answers along the way: the paginated listings under a category (stopping the
// test unless they are well formed), the discovered leaf with its SKUs or its available filters,
// a category whose manufacturers can be ordered by name, the SKUs a user token sees, and the
// user's favorites. The pure parts are in src/checks/listings-cases.ts.
import { about, following, inContext, isPlainObject, show, typed, type CheckResult } from '../checks/check.ts';
import { parsePath } from '../checks/categories.ts';
import { hasCollectionEnvelope, hasStatus, okJsonOf } from '../checks/http.ts';
import {
  caseLabel,
  combinationCases,
  combinationQuery,
  directionFields,
  favoriteSkuSets,
  favoritesPageOf,
  manufacturerIdsOf,
  orderMethodsOf,
  priceMethodOf,
  reversedCites,
  sameTotalBothWays,
  skuManufacturersListed,
  type FavoritesPage,
} from '../checks/listings-cases.ts';
import { orderedByEchoes, skusInCategory, type Json } from '../checks/listings.ts';
import { paginationClauses, paginationMetaIsWellFormed, readPagination, type Pagination } from '../checks/pagination.ts';
import { notInReverseOrder, orderedByOneOf, sameMembers, skusBelongToManufacturer, type Direction } from '../checks/search.ts';
import type { ConformanceContext } from '../harness/conformance.ts';
import type { HttpResponse, Query } from '../http/client.ts';
import { pathOf } from '../rules/api-paths.ts';

export interface Listing {
  body: Json;
  items: Json[];
  meta: Json;
  pagination: Pagination;
  response: HttpResponse;
}

/** An id far above any a catalogue hands out. */
export const unknownId = () => 2_000_000_000 + Math.floor(Math.random() * 100_000_000);

/**
 * What a category with children may answer on its SKU listing instead of a list: "A SKU always
 * belongs to a leaf category", and what a non-leaf gives is not shown, so a refusal is a reading.
 */
export const INNER_CATEGORY_REFUSALS: readonly number[] = [400, 404, 422];

/** GET a paginated collection under `key`; stops the test unless it is 200 {key, meta.pagination}. */
export async function getListing(t: ConformanceContext, path: string, key: string, query: Query, ...requirements: string[]): Promise<Listing> {
  return readListing(t, await t.api.get(path, { query }), key, ...requirements);
}

/** A paginated collection's answer under `key`; stops the test unless it is 200 {key, meta.pagination}. */
export function readListing(t: ConformanceContext, response: HttpResponse, key: string, ...requirements: string[]): Listing {
  t.require(hasStatus(response, 200), ...requirements);
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasCollectionEnvelope(body, key), 'GEN-7', ...requirements);
  t.require(paginationMetaIsWellFormed(body), 'PAG-1', ...requirements);
  const items = (body[key] as unknown[]).filter(isPlainObject);
  return { body, items, meta: body['meta'] as Json, pagination: readPagination(body)!, response };
}

/**
 * GET /categories/:id/skus; stops unless 200 {skus, meta.pagination}, failing `requirements`: the
 * statements of the parameters asked (a refused filter is the filter's), CAT-26 when none is given.
 */
export function skusOf(t: ConformanceContext, categoryId: number, query: Query = {}, ...requirements: string[]): Promise<Listing> {
  return getListing(t, pathOf('GET /categories/:category_id/skus', { category_id: categoryId }), 'skus', query, ...(requirements.length ? requirements : ['CAT-26']));
}

/**
 * GET /categories/:id/skus with an order_by among other parameters, as skusOf; null, the test going
 * on, when the answer is a refusal that order_by=<method> alone gets too: that is the method's
 * refusal (CAT-27, judged by the order_by test), shown here following from it and naming nothing.
 */
export async function orderedSkusOf(t: ConformanceContext, categoryId: number, query: Query, ...requirements: string[]): Promise<Listing | null> {
  const path = pathOf('GET /categories/:category_id/skus', { category_id: categoryId });
  const response = await t.api.get(path, { query });
  const method = query['order_by'];
  if (response.status !== 200 && typeof method === 'string') {
    const alone = await t.api.get(path, { query: { order_by: method } });
    if (alone.status !== 200) {
      const root = `order_by=${method} alone answers ${alone.status} too: a refusal of the method (CAT-27), not of the other parameters`;
      t.must(following(root, about(response, inContext(caseLabel(query, 0, 0), hasStatus(response, 200)))), ...requirements);
      return null;
    }
  }
  return readListing(t, response, 'skus', ...requirements);
}

/** The discovered leaf and its first page of SKUs; skips when the leaf lists none. */
export async function leafWithSkus(t: ConformanceContext, query: Query = {}): Promise<{ leafId: number; listing: Listing }> {
  const leafId = await t.discover('leafCategory');
  const listing = await skusOf(t, leafId, query);
  if (!listing.items.length) t.skip(`leaf category ${leafId} lists no SKUs`);
  return { leafId, listing };
}

/** The leaf's listing with include_meta[]=available_filters, and that meta; stops unless it is an object. */
export async function leafWithAvailableFilters(t: ConformanceContext): Promise<{ leafId: number; all: Listing; available: Json }> {
  const leafId = await t.discover('leafCategory');
  const all = await skusOf(t, leafId, { 'include_meta[]': ['available_filters'] }, 'CAT-35');
  const available = all.meta['available_filters'];
  t.require(typed(available, isPlainObject(available), `include_meta[]=available_filters: meta.available_filters is ${show(available)}`), 'CAT-35', 'FILT-3');
  return { leafId, all, available: available as Json };
}

/** GET /categories/:id/specifications; stops unless 200 with a specifications array. */
export async function specificationsOf(t: ConformanceContext, categoryId: number, query: Query): Promise<{ body: Json; specifications: Json[]; response: HttpResponse }> {
  const response = await t.api.get(pathOf('GET /categories/:id/specifications', { id: categoryId }), { query });
  t.require(hasStatus(response, 200), 'CAT-20');
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasCollectionEnvelope(body, 'specifications'), 'GEN-7', 'CAT-20');
  return { body, specifications: (body['specifications'] as unknown[]).filter(isPlainObject), response };
}

/** The discovered leaf, else the root: the first whose manufacturers list two names or more. */
export async function categoryWithManufacturers(t: ConformanceContext): Promise<{ id: number; path: string }> {
  const tried: number[] = [];
  for (const role of ['leafCategory', 'rootCategory'] as const) {
    const id = await t.discover(role);
    tried.push(id);
    const path = pathOf('GET /categories/:id/manufacturers', { id });
    const { items } = await getListing(t, path, 'manufacturers', {}, 'CAT-21');
    if (new Set(items.map((m) => m['name'])).size >= 2) return { id, path };
  }
  return t.skip(`neither the leaf nor the root (categories ${tried.join(', ')}) lists two manufacturers of different names`);
}

/** GET /categories/:id/skus with the user token; stops unless 200 {skus}. */
export async function userSkusOf(t: ConformanceContext, categoryId: number): Promise<{ response: HttpResponse; skus: Json[] }> {
  const response = await t.api.get(pathOf('GET /categories/:category_id/skus', { category_id: categoryId }), { auth: 'user' });
  t.require(hasStatus(response, 200), 'CAT-26', 'SKU-7');
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasCollectionEnvelope(body, 'skus'), 'GEN-7', 'CAT-26');
  return { response, skus: (body['skus'] as unknown[]).filter(isPlainObject) };
}

/** GET /favorites with the user token: its first page, or null unless it answered 200 (the Favorites endpoints judge these answers themselves). */
async function favoritesOf(t: ConformanceContext, query: Query): Promise<FavoritesPage | null> {
  const response = await t.api.get(pathOf('GET /favorites'), { auth: 'user', query });
  if (response.status !== 200) return null;
  return favoritesPageOf(response.json<Json>());
}

/**
 * The user's favorites as SKU ids (favoriteSkuSets): GET /favorites, and from 3.2.0, where owned
 * favorites are listed only with owned=true, that listing too; skips when GET /favorites does not
 * answer 200.
 */
/**
 * The first page of SKUs (user token) of a category of the user's favorites, and, when that page
 * holds none of them (a custom list's category is that of one favorite, FAV-1.e) or there is no
 * such category, of the discovered leaf too. Skips when none lists a SKU.
 */
export async function favoritesCategorySkus(t: ConformanceContext, inLists: ReadonlySet<number>): Promise<Json[][]> {
  const favoritesCategory = await t.discover('favoritesCategory').catch(() => null);
  const candidates = [...new Set([favoritesCategory, await t.discover('leafCategory')].filter((id): id is number => id !== null))];
  const pages: Json[][] = [];
  for (const categoryId of candidates) {
    const { skus } = await userSkusOf(t, categoryId);
    if (skus.length) pages.push(skus);
    if (skus.some((s) => inLists.has(s['id'] as number))) break;
  }
  if (pages.length === 0) t.skip(`categories ${candidates.join(', ')} list no SKUs`);
  return pages;
}

export async function userFavorites(t: ConformanceContext): Promise<{ inLists: Set<number>; notFavorited: (id: number) => boolean }> {
  const listed = await favoritesOf(t, {});
  if (!listed) return t.skip("GET /favorites did not answer 200 with the user token: the user's favorites are unknown");
  const excludesOwned = t.has('owned-excluded-by-default');
  const owned = excludesOwned ? await favoritesOf(t, { owned: 'true' }) : { items: [], complete: true };
  return favoriteSkuSets(listed, owned, excludesOwned);
}

/**
 * manufacturer_ids[] with order_by, order_dir and per together (the property of the suite's
 * manufacturer-ids-combined): `cases` cases drawn from the run's seed, each judged on its answer.
 */
export async function judgeCombinations(t: ConformanceContext, leafId: number, listing: Listing, cases: number): Promise<void> {
  const manufacturers = manufacturerIdsOf(listing.items);
  if (manufacturers.length === 0) return t.skip(`no SKU of leaf ${leafId} has an integer manufacturer_id`);
  const methods = orderMethodsOf(listing.meta);
  const priceMethod = priceMethodOf(methods);
  // A combination is where a deployment that handles each parameter alone may still drop one:
  // the first case is always a filter with an order and a direction, then random ones.
  const seed = t.run.seed?.seed ?? t.run.runSeed;
  const drawn = combinationCases(manufacturers, methods, seed, cases);
  for (const [i, c] of drawn.entries()) {
    const query = combinationQuery(c);
    const what = caseLabel(query, i, seed);
    const l = await orderedSkusOf(t, leafId, query, 'CAT-30');
    if (!l) continue;
    t.must(inContext(what, skusBelongToManufacturer(l.items, c.manufacturers)), 'CAT-30');
    t.must(inContext(what, skusInCategory(l.items, leafId)), 'CAT-30');
    if (c.orderBy !== null) t.must(inContext(what, orderedByEchoes(l.meta, c.orderBy)), 'CAT-37');
    if (c.orderBy !== null && c.orderBy === priceMethod && c.orderDir !== null)
      t.must(inContext(what, notInReverseOrder(l.items, ['price_min', 'price_max'], c.orderDir)), 'CAT-28');
    if (c.per !== null) for (const [check, id] of paginationClauses(l.pagination, l.items.length, { page: 1, per: c.per })) t.must(inContext(what, check), id);
  }
}

/** A category as GET /categories/:id answers it, or null when the answer cannot be read (the tests of that endpoint judge it). */
async function categoryOf(t: ConformanceContext, categoryId: number): Promise<Json | null> {
  const body = okJsonOf(await t.api.get(pathOf('GET /categories/:id', { id: categoryId })));
  return isPlainObject(body) && isPlainObject(body['category']) ? body['category'] : null;
}

/** The ids of a category's path (the root to itself); null when they cannot be read. */
export async function ancestryOf(t: ConformanceContext, categoryId: number): Promise<number[] | null> {
  return parsePath((await categoryOf(t, categoryId))?.['path']);
}

/**
 * The manufacturers of the category's SKUs (their first page, which the run asks anyway) are among
 * those GET /categories/:id/manufacturers listed (`items`, `pagination`): CAT-21#2, a warning only
 * in a tiles category, whose OEM manufacturers 3.2.0 leaves out.
 */
export async function judgeSkuManufacturersListed(t: ConformanceContext, categoryId: number, items: readonly Json[], pagination: Pagination): Promise<void> {
  const skus = await skusOf(t, categoryId, {}, 'CAT-26');
  const complete = pagination.total_pages <= 1 && items.length >= pagination.total_results;
  const layout = (await categoryOf(t, categoryId))?.['layout_mode'];
  const { result, warnOnly } = skuManufacturersListed(skus.items, items, complete, layout, categoryId);
  if (warnOnly) t.warn(result, 'CAT-21');
  else t.must(result, 'CAT-21');
}

/**
 * order_dir asc and desc of one order_by method on a leaf's SKUs: the method kept in meta, the SKUs
 * of the leaf, not listed the other way by any candidate field of the method (no order only
 * warns), and the same SKUs both ways (CAT-28).
 */
export async function judgeOrderDirections(t: ConformanceContext, leafId: number, method: string, priceMethod: string | undefined): Promise<void> {
  const { fields } = directionFields(method, priceMethod);
  const listed: Partial<Record<Direction, Listing>> = {};
  const judged: { reversed: CheckResult; unordered: CheckResult }[] = [];
  for (const dir of ['asc', 'desc'] as Direction[]) {
    const l = await orderedSkusOf(t, leafId, { order_by: method, order_dir: dir }, 'CAT-28', 'ORD-1');
    if (!l) break;
    listed[dir] = l;
    t.must(orderedByEchoes(l.meta, method), 'CAT-37');
    t.must(skusInCategory(l.items, leafId), 'CAT-26');
    if (fields.length === 0) continue;
    const what = `order_by=${method}&order_dir=${dir}`;
    // The method's field is not named: the other way by every candidate field fails, no order only warns.
    judged.push({
      reversed: about(l.response, inContext(what, notInReverseOrder(l.items, fields, dir))),
      unordered: about(l.response, inContext(what, orderedByOneOf(l.items, fields, dir))),
    });
  }
  const ids = reversedCites(method, judged.length === 2 && judged.every((j) => !j.reversed.ok));
  for (const j of judged) if (t.must(j.reversed, ...ids)) t.warn(j.unordered, ...ids);
  const { asc, desc } = listed;
  if (!asc || !desc) return;
  t.must(sameTotalBothWays(method, asc.pagination.total_results, desc.pagination.total_results), 'CAT-28');
  if (asc.pagination.total_pages <= 1 && desc.pagination.total_pages <= 1) {
    t.must(sameMembers(`order_by=${method} asc and desc`, asc.items, desc.items), 'CAT-28');
  }
}
