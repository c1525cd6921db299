// The requests of the favorites suite (suites/favorites.suite.ts) and what it judges of every answer
// along the way: the listings (stopping the test unless they are well formed), the user's lists, SKUs
// the user has not favorited (FreeSkus), the favorite and list writes with their journal entries,
// the teardown, the 404 of a missing record, and where a favorite's list is seen when its answer
// does not show favorite_list_id (FAV-8: shown on update only, one reading).
import { fail, following, isPlainObject, show, typed } from '../checks/check.ts';
import { addUnlistedCategories } from './category-tree.ts';
import {
  holdsNoOwnedFavorites,
  inAutoListByCategory,
  isAutoList,
  isInList,
  listsFavorite,
  ownership,
  refusesAutoListDeletion,
  showsListId,
  type FavoriteLike,
  type FavoriteListLike,
} from '../checks/favorites.ts';
import { heldSkuIds, otherLeaves, takeFreeSku, unfavoritedSkus, type Sku } from '../checks/favorites-skus.ts';
import { hasCollectionEnvelope, hasSingleEnvelope, hasStatus } from '../checks/http.ts';
import { morePagesShown, paginationMetaIsWellFormed, readPagination, type Pagination } from '../checks/pagination.ts';
import type { ConformanceContext } from '../harness/conformance.ts';
import type { UndoEntry } from '../harness/journal.ts';
import { firstLargePage, LARGE_PER } from '../harness/large-pages.ts';
import type { HttpResponse } from '../http/client.ts';
import { pathIn, pathOf, type PathValues } from '../rules/api-paths.ts';
import { judgeNotFoundBody } from './not-found.ts';

export type Favorite = FavoriteLike & { id: number };
export type FavoriteList = FavoriteListLike & { id: number };

const USER = { auth: 'user' as const };
/** Pages of GET /favorite_lists read at most (allLists): of 100, or of the default size where per=100 is refused. */
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
  return judgeFavorites(t, endpoint, response, ...requirements);
}

/** A favorites listing's answer: stops the test unless it is 200 {favorites, meta.pagination}. */
function judgeFavorites(t: ConformanceContext, endpoint: FavoritesListing, response: HttpResponse, ...requirements: string[]): { favorites: Favorite[]; pagination: Pagination } {
  t.require(hasStatus(response, 200), ...requirements);
  const body = t.json<{ favorites: Favorite[] }>(response, 'GEN-4');
  t.require(hasCollectionEnvelope(body, 'favorites'), 'GEN-7', ...requirements);
  t.require(paginationMetaIsWellFormed(body), 'PAG-1');
  t.response(endpoint, response, 'FAV-7', ...requirements);
  return { favorites: body.favorites, pagination: readPagination(body)! };
}

/**
 * The first `most` favorites of a listing (all of them, when fewer), newest first unless `query`
 * says otherwise: pages of 100, or, where the deployment refuses per=100 (its largest per is not
 * stated, PAG-4), of its default size. `complete`: whether they are the whole listing.
 */
export async function firstFavorites<E extends FavoritesListing>(
  t: ConformanceContext,
  endpoint: E,
  params: PathValues<E>,
  query: Record<string, string | number>,
  most: number,
  ...requirements: string[]
): Promise<{ favorites: Favorite[]; complete: boolean }> {
  const path = pathIn(endpoint, params);
  const first = await firstLargePage(t.api, path, { ...USER, query });
  const favorites: Favorite[] = [];
  let response = first.response;
  for (let page = 1; ; page++) {
    const listed = judgeFavorites(t, endpoint, response, ...requirements);
    favorites.push(...listed.favorites);
    // The last page by total_pages or by what it shows (morePagesShown): a total_pages too large, PAG-1's error, must not ask for a page past it.
    if (page >= listed.pagination.total_pages || !morePagesShown(listed.pagination, listed.favorites.length)) return { favorites, complete: true };
    if (favorites.length >= most) return { favorites, complete: false };
    response = await t.api.get(path, { ...USER, query: { ...first.query, page: page + 1 } });
  }
}

/**
 * Every favorite list of the user (up to LIST_PAGES pages of 100, or of the default size where
 * the deployment refuses per=100: its largest per is not stated, PAG-4). The default page first:
 * it is what the read tests asked for, and holds every list of most users (issue 17).
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
  const large = await firstLargePage(t.api, pathOf('GET /favorite_lists'), USER);
  let response = large.response;
  for (let page = 1; page <= LIST_PAGES; page++) {
    if (page > 1) response = await t.api.get(pathOf('GET /favorite_lists'), { ...USER, query: { ...large.query, page } });
    t.require(hasStatus(response, 200), 'FAV-18');
    const body = t.json<{ favorite_lists: FavoriteList[] }>(response, 'GEN-4');
    t.require(hasCollectionEnvelope(body, 'favorite_lists'), 'GEN-7', 'FAV-18');
    t.require(paginationMetaIsWellFormed(body), 'PAG-1');
    lists.push(...body.favorite_lists);
    const pagination = readPagination(body)!;
    if (page >= pagination.total_pages || !morePagesShown(pagination, body.favorite_lists.length)) return { lists, complete: true };
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
 * the first 100 of GET /favorites and of GET /favorites?owned=true.
 */
async function favoritedSkuIds(t: ConformanceContext): Promise<Set<number>> {
  const ids = new Set<number>();
  for (const query of [{}, { owned: 'true' }] as Record<string, string>[]) {
    const { favorites, complete } = await firstFavorites(t, 'GET /favorites', [], query, LARGE_PER, 'FAV-23');
    if (!complete) t.skip(`the user has more than ${LARGE_PER} favorites and the SKU listing has no favorited field: cannot tell which SKUs are free`);
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
 * (before 3.1.0) the user's favorites decide, per test; with it, they are read too, once (#heldSkus). One is made with the suite file, so that
 * what it keeps lasts as long as the suite's run.
 */
export class FreeSkus {
  readonly #pools = new Map<string, Map<number, Sku[]>>();
  readonly #held = new Map<string, Set<number>>();

  /** The SKUs of a category listing the user has not favorited (favorited false and not among the favorites read, or not among `favorited`). */
  async #of(t: ConformanceContext, categoryId: number, favorited: Set<number> | null): Promise<Sku[]> {
    const pool = favorited === null ? (this.#pools.get(t.api.url('/')) ?? new Map<number, Sku[]>()) : null;
    const kept = pool?.get(categoryId);
    if (kept) return kept;
    const response = await t.api.get(pathOf('GET /categories/:category_id/skus', { category_id: categoryId }), USER);
    if (response.status !== 200) t.skip(`GET /categories/${categoryId}/skus answered ${response.status}: no SKU to favorite`);
    const held = favorited === null ? await this.#heldSkus(t) : new Set<number>();
    const free = unfavoritedSkus(response.json<{ skus?: unknown }>(), favorited).filter((s) => !held.has(s.id));
    if (pool) this.#pools.set(t.api.url('/'), pool.set(categoryId, free));
    return free;
  }

  /**
   * The SKUs among the user's favorites (the first page of 100 of GET /favorites and of
   * owned=true), read once per target beside the listings' favorited: a listing whose favorited is
   * wrong (SKU-7's, judged by the category listings suite) hands out no SKU the user holds, whose
   * POST a 422 rightly refuses. Not judged here: the Favorites listings' tests judge these answers.
   */
  async #heldSkus(t: ConformanceContext): Promise<Set<number>> {
    const key = t.api.url('/');
    const known = this.#held.get(key);
    if (known) return known;
    const bodies: unknown[] = [];
    for (const query of [{}, { owned: 'true' }]) {
      const { response } = await firstLargePage(t.api, pathOf('GET /favorites'), { ...USER, query });
      if (response.status === 200) bodies.push(jsonOrNull(response));
    }
    const held = heldSkuIds(bodies);
    this.#held.set(key, held);
    return held;
  }

  /**
   * A SKU the user has not favorited: from the discovered leaf category, else from other leaf
   * categories of GET /categories (its first page of 100, or of the default size); `preferNot` names categories to avoid when
   * possible. `preferred` says whether the SKU avoids them.
   */
  async find(t: ConformanceContext, preferNot: Avoid = new Set()): Promise<{ sku: Sku; preferred: boolean }> {
    const favorited = await knownFavorited(t);
    const leafId = await t.discover('leafCategory');
    const candidates = [leafId];
    const known = typeof preferNot === 'function' ? new Set<unknown>() : preferNot;
    const { response: categories } = await firstLargePage(t.api, pathOf('GET /categories'));
    if (categories.status === 200) {
      const listed: unknown[] = categories.json<{ categories?: unknown[] }>()?.categories ?? [];
      await addUnlistedCategories(t, listed);
      candidates.push(...otherLeaves(listed.filter(isPlainObject), leafId, known));
    }
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

/** An answer's JSON body; null when it is none. */
function jsonOrNull(response: HttpResponse): unknown {
  try {
    return response.json();
  } catch {
    return null;
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

/**
 * Teardown: deletes what a test created, whatever happened; leftovers become a warning. The
 * deletion of an auto list (`autoLists`: their paths) may be refused (refusesAutoListDeletion):
 * the list then stays, or goes when empty, which is the service's to decide.
 */
export async function remove(t: ConformanceContext, paths: string[], autoLists: ReadonlySet<string> = new Set()): Promise<void> {
  const left: string[] = [];
  for (const path of paths) {
    try {
      const response = await t.api.request('DELETE', path, USER);
      if (autoLists.has(path) && refusesAutoListDeletion(response.status)) continue;
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

/** The first 100 of a list's favorites: how a favorite's list is seen when its answer does not name it (namesListId). */
export async function listFavorites(t: ConformanceContext, listId: number): Promise<Favorite[]> {
  return (await firstFavorites(t, 'GET /favorite_lists/:id/favorites', [listId], {}, LARGE_PER, 'FAV-27')).favorites;
}

/**
 * The favorite is in list `listId`: by its favorite_list_id, or, when the answer does not show it
 * (FAV-8: shown on update only, one reading), by the list's favorites. The favorite was changed
 * last, so it is on their first page. Returns whether it is.
 */
export async function mustBeInList(t: ConformanceContext, favorite: Favorite, listId: number, what: string, ...requirements: string[]): Promise<boolean> {
  if (showsListId(favorite)) return t.must(isInList(favorite, listId, what), ...requirements);
  return t.must(listsFavorite(await listFavorites(t, listId), favorite.id, listId, `${what} (favorite_list_id not shown)`), ...requirements);
}

/**
 * A custom list holds SKUs of different categories (FAV-4): its favorites include `second`,
 * favorited straight into it, and `first`, moved into it; where that move was not seen to work
 * (`movedIn` false: FAV-13's finding), that move is the root of the first's absence.
 */
export async function mustHoldBoth(t: ConformanceContext, listId: number, first: { id: number; movedIn: boolean }, second: number, what: string): Promise<void> {
  const held = await listFavorites(t, listId);
  t.must(listsFavorite(held, second, listId, what), 'FAV-4');
  const moved = listsFavorite(held, first.id, listId, what);
  t.must(first.movedIn ? moved : following(`the move of favorite ${first.id} into list ${listId} by PUT with favorite_list_id`, moved), 'FAV-4');
}

/**
 * Row 4 through PUT to the custom list `namedId` of `name`, which existed: the favorite is in it. In
 * another list, the existing one was not reused (FAV-15); unless that list has the name too, the
 * favorite is in no list of that name either (FAV-14).
 */
export async function mustBeInNamedList(t: ConformanceContext, renamed: Favorite, namedId: number, name: string): Promise<void> {
  const to = renamed.favorite_list_id;
  const twin = typeof to === 'number' && Number.isInteger(to) && to !== namedId && (await allLists(t)).lists.some((l) => l.id === to && l.name === name);
  const what = `PUT with new_list_name ${show(name)} (the custom list of that name${twin ? `; list ${String(to)} is a second list of that name` : ''})`;
  await mustBeInList(t, renamed, namedId, what, ...(twin ? ['FAV-15'] : ['FAV-14', 'FAV-15']));
}

/**
 * A list deleted once (`first`: that DELETE's answer) deleted again: 404, a missing list (FAV-22,
 * and the Errors row, ERR-10). A 2xx again while the list's favorites are still served says the
 * first delete was not stored (the row's 204 that deleted nothing, FAV-21.a: the list leaves), not
 * how a missing list is answered. Returns whether the list is gone.
 */
export async function mustBeDeletedList(t: ConformanceContext, listId: number, first: HttpResponse): Promise<boolean> {
  const path = pathOf('DELETE /favorite_lists/:id', { id: listId });
  const twice = await t.api.request('DELETE', path, USER);
  const listed = pathOf('GET /favorite_lists/:id/favorites', { id: listId });
  const still = twice.status >= 200 && twice.status < 300 ? await t.api.get(listed, USER) : null;
  if (still?.status !== 200) {
    mustBeNotFound(t, twice, 'FAV-22', 'ERR-10');
    return true;
  }
  t.must(fail(`DELETE ${path} answered ${first.status}, and ${twice.status} again, and GET ${listed} still answers 200: the delete was not stored`), 'FAV-22', 'FAV-21');
  return false;
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

/**
 * Row 1, where the POST answer does not name the favorite's list: favorite_list_id not shown (FAV-8,
 * "accepted on update": shown there only, one reading), or null (FAV-9: the list following from
 * the SKU's category, one reading). The favorite must then be among the favorites of the auto list
 * of the SKU's category as GET /favorite_lists shows it after the POST (`lists`); returns that
 * list's id, or null where no such list is listed. A null where no auto list is listed at all is in
 * no list a client can see; a favorite_list_id not shown there is not judged (a warning).
 */
export async function autoListOfUnnamed(
  t: ConformanceContext,
  favorite: Favorite,
  sku: Sku,
  lists: readonly FavoriteList[],
  autoListsListed: boolean,
  newAutoList: boolean,
): Promise<number | null> {
  const inAuto = ['FAV-9', 'FAV-2', ...(newAutoList ? ['FAV-10'] : [])];
  const auto = lists.find((l) => isAutoList(l) && l.category_id === sku.category_id);
  if (auto) {
    const what = `POST /favorites without a list, SKU ${sku.id} of category ${sku.category_id}`;
    t.must(listsFavorite(await listFavorites(t, auto.id), favorite.id, auto.id, what), 'FAV-9', 'FAV-5');
    return auto.id;
  }
  const shown = showsListId(favorite) ? 'favorite_list_id null' : 'no favorite_list_id';
  if (autoListsListed) {
    const message = `POST /favorites shows ${shown}, and GET /favorite_lists lists auto lists but none of the SKU's category ${sku.category_id}`;
    t.must(fail(message), 'FAV-9', ...(newAutoList ? ['FAV-10'] : []), 'FAV-5');
  } else if (inAutoListByCategory(favorite)) {
    const message = `favorite ${favorite.id} created without a list has favorite_list_id null, and GET /favorite_lists lists no auto list: expected the (negative) id of the auto list of the SKU's category ${sku.category_id}`;
    // In no auto list a client can see (row 1, and its "created if needed"): no auto list's id is shown, so none is judged (FAV-2).
    t.must(fail(message), ...inAuto.filter((id) => id !== 'FAV-2'));
  } else {
    const message = 'POST /favorites shows no favorite_list_id and GET /favorite_lists lists no auto list: the list the favorite went into cannot be observed';
    t.warn(fail(message), 'FAV-9', 'FAV-8', 'FAV-18');
  }
  return null;
}

/**
 * Owned favorites in GET /categories/:id/favorites (from 3.2.0): only a warning. The exclusion is
 * stated for GET /favorites and GET /favorite_lists/:id/favorites, the listings that take
 * owned=true; whether the Change history's "favorites listings" takes in this one is open.
 */
export function warnOwnedInCategoryListing(t: ConformanceContext, favorites: readonly Favorite[], categoryId: number): void {
  const where = `GET /categories/${categoryId}/favorites`;
  const owned = holdsNoOwnedFavorites(favorites, where);
  t.warn(
    owned.ok
      ? owned
      : fail(
          `${owned.message}; tolerated: the exclusion of owned favorites is stated for GET /favorites and GET /favorite_lists/:id/favorites (the listings that take owned=true), not for this one`,
        ),
    'CHG-2',
  );
  warnOwnershipUnseen(t, favorites, where, 'CHG-2', 'FAV-8');
}
