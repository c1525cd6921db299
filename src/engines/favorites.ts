// The requests of the favorites suite (suites/favorites.suite.ts) and what it judges of every answer
// along the way: the listings (stopping the test unless they are well formed), the user's lists, SKUs
// the user has not favorited (FreeSkus), the favorite and list writes with their journal entries,
// the teardown, the 404 of a missing record, and where a favorite's list is seen when its answer
// does not show favorite_list_id (FAV-8: shown on update only, one reading).
import { fail, show, typed } from '../checks/check.ts';
import { isInList, listsFavorite, ownership, showsListId, type FavoriteLike, type FavoriteListLike } from '../checks/favorites.ts';
import { otherLeaves, takeFreeSku, unfavoritedSkus, type Sku } from '../checks/favorites-skus.ts';
import { hasCollectionEnvelope, hasSingleEnvelope, hasStatus } from '../checks/http.ts';
import { paginationMetaIsWellFormed, readPagination, type Pagination } from '../checks/pagination.ts';
import type { ConformanceContext } from '../harness/conformance.ts';
import type { UndoEntry } from '../harness/journal.ts';
import type { HttpResponse } from '../http/client.ts';
import { pathIn, pathOf, type PathValues } from '../rules/api-paths.ts';
import { judgeNotFoundBody } from './not-found.ts';

export type Favorite = FavoriteLike & { id: number };
export type FavoriteList = FavoriteListLike & { id: number };

const USER = { auth: 'user' as const };
/** Pages of 100 of GET /favorite_lists read at most (allLists). */
export const LIST_PAGES = 5;
const SKU_CATEGORIES_TRIED = 6;

/** The favorites listings: the user's, a list's, a category's. */
export type FavoritesListing = 'GET /favorites' | 'GET /favorite_lists/:id/favorites' | 'GET /categories/:id/favorites';

/** A GET of a favorites listing (`params`: the values of its :params, in order); stops the test unless it is 200 {favorites, meta.pagination}. */
export async function getFavorites<E extends FavoritesListing>(
  t: ConformanceContext,
  endpoint: E,
  params: PathValues<E>,
  query: Record<string, string | number> = {},
  ...requirements: string[]
): Promise<{ favorites: Favorite[]; pagination: Pagination }> {
  const response = await t.api.get(pathIn(endpoint, params), { ...USER, query });
  t.require(hasStatus(response, 200), ...requirements);
  const body = t.json<{ favorites: Favorite[] }>(response, 'GEN-4');
  t.require(hasCollectionEnvelope(body, 'favorites'), 'GEN-7', ...requirements);
  t.require(paginationMetaIsWellFormed(body), 'PAG-1');
  t.response(endpoint, response, 'FAV-7', ...requirements);
  return { favorites: body.favorites, pagination: readPagination(body)! };
}

/**
 * Every favorite list of the user (up to LIST_PAGES pages of 100). The default page first: it is
 * what the read tests asked for, and holds every list of most users (issue 17).
 */
export async function allLists(t: ConformanceContext): Promise<{ lists: FavoriteList[]; complete: boolean }> {
  const first = await t.api.get(pathOf('GET /favorite_lists'), USER);
  if (first.status === 200) {
    const body = first.json<{ favorite_lists?: unknown }>();
    const pagination = readPagination(body);
    if (pagination?.total_pages === 1 && Array.isArray(body?.favorite_lists) && body.favorite_lists.length === pagination.total_results) {
      t.require(hasCollectionEnvelope(body, 'favorite_lists'), 'GEN-7', 'FAV-18');
      return { lists: body.favorite_lists as FavoriteList[], complete: true };
    }
  }
  const lists: FavoriteList[] = [];
  for (let page = 1; page <= LIST_PAGES; page++) {
    const response = await t.api.get(pathOf('GET /favorite_lists'), { ...USER, query: { per: 100, page } });
    t.require(hasStatus(response, 200), 'FAV-18');
    const body = t.json<{ favorite_lists: FavoriteList[] }>(response, 'GEN-4');
    t.require(hasCollectionEnvelope(body, 'favorite_lists'), 'GEN-7', 'FAV-18');
    t.require(paginationMetaIsWellFormed(body), 'PAG-1');
    lists.push(...body.favorite_lists);
    const pagination = readPagination(body)!;
    if (page >= pagination.total_pages || body.favorite_lists.length === 0) return { lists, complete: true };
  }
  return { lists, complete: false };
}

/** The body's single resource under `key`; stops the test otherwise. */
export function single<T>(t: ConformanceContext, response: HttpResponse, key: string, ...requirements: string[]): T {
  const body = t.json<Record<string, T>>(response, 'GEN-4');
  t.require(hasSingleEnvelope(body, key), 'GEN-7', ...requirements);
  return body[key]!;
}

/**
 * SKU ids the user has favorited, when the SKU listing does not say (favorited came with 3.1.0):
 * the first page of 100 of GET /favorites and of GET /favorites?owned=true.
 */
async function favoritedSkuIds(t: ConformanceContext): Promise<Set<number>> {
  const ids = new Set<number>();
  for (const query of [{ per: 100 }, { per: 100, owned: 'true' }] as Record<string, string | number>[]) {
    const { favorites, pagination } = await getFavorites(t, 'GET /favorites', [], query, 'FAV-23');
    if (pagination.total_pages > 1) t.skip('the user has more than 100 favorites and the SKU listing has no favorited field: cannot tell which SKUs are free');
    for (const f of favorites) if (typeof f.sku_id === 'number') ids.add(f.sku_id);
  }
  return ids;
}

/** Whether the category SKU listing carries favorited (3.1.0 on); otherwise the user's favorites are read. */
async function knownFavorited(t: ConformanceContext): Promise<Set<number> | null> {
  return t.has('favorited-on-category-skus') ? null : favoritedSkuIds(t);
}

/**
 * Categories to avoid when picking a SKU: a set, or a question asked of each category (whether it
 * has an auto list, learned from its favorites when GET /favorite_lists lists no auto list).
 */
export type Avoid = ReadonlySet<unknown> | ((categoryId: number) => Promise<boolean>);

/**
 * SKUs the user has not favorited, handed out one at a time (find). The SKUs of each category
 * listing the user had not favorited are kept by target (base URL) for the suite's later tests
 * (issue 17: a listing read once, not once per test); a SKU is handed out once, so a test never
 * gets one that an earlier test favorited and failed to delete. Without favorited on the listing
 * (before 3.1.0) the user's favorites decide, per test. One is made with the suite file, so that
 * what it keeps lasts as long as the suite's run.
 */
export class FreeSkus {
  readonly #pools = new Map<string, Map<number, Sku[]>>();

  /** The SKUs of a category listing the user has not favorited (favorited false, or not among `favorited`). */
  async #of(t: ConformanceContext, categoryId: number, favorited: Set<number> | null): Promise<Sku[]> {
    const pool = favorited === null ? (this.#pools.get(t.api.url('/')) ?? new Map<number, Sku[]>()) : null;
    const kept = pool?.get(categoryId);
    if (kept) return kept;
    const response = await t.api.get(pathOf('GET /categories/:category_id/skus', { category_id: categoryId }), USER);
    if (response.status !== 200) t.skip(`GET /categories/${categoryId}/skus answered ${response.status}: no SKU to favorite`);
    const free = unfavoritedSkus(response.json<{ skus?: unknown }>(), favorited);
    if (pool) this.#pools.set(t.api.url('/'), pool.set(categoryId, free));
    return free;
  }

  /**
   * A SKU the user has not favorited: from the discovered leaf category, else from other leaf
   * categories of GET /categories (first page of 100); `preferNot` names categories to avoid when
   * possible. `preferred` says whether the SKU avoids them.
   */
  async find(t: ConformanceContext, preferNot: Avoid = new Set()): Promise<{ sku: Sku; preferred: boolean }> {
    const favorited = await knownFavorited(t);
    const leafId = await t.discover('leafCategory');
    const candidates = [leafId];
    const known = typeof preferNot === 'function' ? new Set<unknown>() : preferNot;
    const categories = await t.api.get(pathOf('GET /categories'), { query: { per: 100 } });
    if (categories.status === 200)
      candidates.push(...otherLeaves(categories.json<{ categories?: { id?: unknown; children_count?: unknown }[] }>()?.categories ?? [], leafId, known));
    const avoided = new Map<number, boolean>();
    const avoids = async (categoryId: number): Promise<boolean> => {
      if (typeof preferNot !== 'function') return preferNot.has(categoryId);
      if (!avoided.has(categoryId)) avoided.set(categoryId, await preferNot(categoryId));
      return avoided.get(categoryId)!;
    };
    let fallback: { skus: Sku[]; sku: Sku } | undefined;
    for (const categoryId of candidates.slice(0, SKU_CATEGORIES_TRIED)) {
      const skus = await this.#of(t, categoryId, favorited);
      for (const sku of skus) if (!(await avoids(sku.category_id))) return { sku: takeFreeSku(skus, sku), preferred: true };
      if (!fallback && skus[0]) fallback = { skus, sku: skus[0] };
    }
    if (fallback) return { sku: takeFreeSku(fallback.skus, fallback.sku), preferred: false };
    return t.skip(`none of ${Math.min(candidates.length, SKU_CATEGORIES_TRIED)} leaf categories has a SKU the user has not favorited`);
  }
}

/** The list a POST /favorites answer shows the favorite in, when that list is not among `known`: one the server made along with it. */
export function listMadeAlong(known: ReadonlySet<number>) {
  return (response: HttpResponse): UndoEntry[] => {
    const listId = response.status === 201 ? response.json<{ favorite?: { favorite_list_id?: unknown } }>()?.favorite?.favorite_list_id : undefined;
    if (typeof listId !== 'number' || !Number.isInteger(listId) || known.has(listId)) return [];
    const path = pathOf('DELETE /favorite_lists/:id', { id: listId });
    return [{ action: { method: 'DELETE', path }, what: `the favorite list ${listId} the server created along with a favorite` }];
  };
}

/** POST /favorites; `knownLists`: the user's lists before it, so that a list the server makes along with the favorite is journalled with it. */
export async function createFavorite(
  t: ConformanceContext,
  favorite: Record<string, unknown>,
  knownLists: ReadonlySet<number> | null,
  ...requirements: string[]
): Promise<Favorite> {
  const response = await t.api.request('POST', pathOf('POST /favorites'), { ...USER, json: { favorite }, ...(knownLists ? { undoAfter: listMadeAlong(knownLists) } : {}) });
  t.require(hasStatus(response, 201), 'FAV-30', ...requirements);
  const created = single<Favorite>(t, response, 'favorite', 'FAV-30');
  t.response('POST /favorites', response, 'FAV-30', 'FAV-7');
  t.require(typed(created.id, Number.isInteger(created.id), `the created favorite has id ${show(created.id)}`), 'FAV-7');
  return created;
}

export async function updateFavorite(t: ConformanceContext, id: number, favorite: Record<string, unknown>, ...requirements: string[]): Promise<Favorite> {
  const response = await t.api.request('PUT', pathOf('PUT /favorites/:id', { id }), { ...USER, json: { favorite } });
  t.require(hasStatus(response, 200), 'FAV-31', ...requirements);
  const updated = single<Favorite>(t, response, 'favorite', 'FAV-31');
  t.response('PUT /favorites/:id', response, 'FAV-31', 'FAV-7');
  // The favorite asked is the one changed: another in its place is a change to the wrong record.
  t.must(typed(updated.id, updated.id === id, `PUT /favorites/${id} answered favorite ${show(updated.id)}, not the one asked`), 'FAV-31', ...requirements);
  return updated;
}

export async function createList(t: ConformanceContext, name: string): Promise<FavoriteList> {
  const response = await t.api.request('POST', pathOf('POST /favorite_lists'), { ...USER, json: { favorite_list: { name } } });
  t.require(hasStatus(response, 201), 'FAV-19');
  const list = single<FavoriteList>(t, response, 'favorite_list', 'FAV-19');
  t.response('POST /favorite_lists', response, 'FAV-19', 'FAV-1', 'FAV-3');
  t.require(typed(list.id, Number.isInteger(list.id), `the created list has id ${show(list.id)}`), 'FAV-1');
  return list;
}

/**
 * A list the server created along with a favorite (an auto list, a new_list_name): deleted at the
 * test's end, and journalled at once, for a run interrupted before that end.
 */
export async function alsoDelete(t: ConformanceContext, cleanup: string[], listId: number): Promise<void> {
  const path = pathOf('DELETE /favorite_lists/:id', { id: listId });
  cleanup.push(path);
  await t.undoable({ method: 'DELETE', path }, `the favorite list ${String(listId)} the server created along with a favorite`);
}

/** Teardown: deletes what a test created, whatever happened; leftovers become a warning. */
export async function remove(t: ConformanceContext, paths: string[]): Promise<void> {
  const left: string[] = [];
  for (const path of paths) {
    try {
      const response = await t.api.request('DELETE', path, USER);
      if (response.status !== 204 && response.status !== 404) left.push(`${path} (${response.status})`);
    } catch (error) {
      left.push(`${path} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  if (left.length) t.warn(fail(`teardown could not delete ${left.join(', ')}`), 'FAV-21', 'FAV-32');
}

/** A 404 for a missing record: RecordNotFound in the {errors} format (3.1.0 on). */
export function mustBeNotFound(t: ConformanceContext, response: HttpResponse, ...requirements: string[]): void {
  t.require(hasStatus(response, 404), ...requirements);
  judgeNotFoundBody(t, response);
}

/** The first page (100) of a list's favorites: how a favorite's list is seen when its answer does not show favorite_list_id. */
export async function listFavorites(t: ConformanceContext, listId: number): Promise<Favorite[]> {
  return (await getFavorites(t, 'GET /favorite_lists/:id/favorites', [listId], { per: 100 }, 'FAV-27')).favorites;
}

/**
 * The favorite is in list `listId`: by its favorite_list_id, or, when the answer does not show it
 * (FAV-8: shown on update only, one reading), by the list's favorites. The favorite was changed
 * last, so it is on their first page.
 */
export async function mustBeInList(t: ConformanceContext, favorite: Favorite, listId: number, what: string, ...requirements: string[]): Promise<void> {
  if (showsListId(favorite)) t.must(isInList(favorite, listId, what), ...requirements);
  else t.must(listsFavorite(await listFavorites(t, listId), favorite.id, listId, `${what} (favorite_list_id not shown)`), ...requirements);
}

/**
 * Favorites of a listing with have_it true whose favorite_list_id is not shown: whether they are
 * owned (favorite_list_id null) cannot be read, so the owned checks pass them over, with a warning.
 */
export function warnOwnershipUnseen(t: ConformanceContext, favorites: readonly Favorite[], where: string, ...requirements: string[]): void {
  const unseen = favorites.filter((f) => ownership(f) === 'unknown');
  if (unseen.length) {
    t.warn(
      fail(
        `${where}: ${unseen.length} favorites with have_it true show no favorite_list_id (${unseen
          .slice(0, 5)
          .map((f) => f.id)
          .join(', ')}), so whether they are owned is not judged (favorite_list_id is "accepted on update": shown there only, one reading)`,
      ),
      ...requirements,
    );
  }
}
