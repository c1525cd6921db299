// Checks of favorite lists and favorites (Resources > Favorite list, Favorite; States and
// transitions; Endpoints > Favorites). Pure functions over what the server sent.
import { fail, pass, show, typed, type CheckResult } from './check.ts';

export interface FavoriteLike {
  id?: unknown;
  have_it?: unknown;
  favorite_list_id?: unknown;
  sku_id?: unknown;
  created_at?: unknown;
  [field: string]: unknown;
}

export interface FavoriteListLike {
  id?: unknown;
  name?: unknown;
  category_id?: unknown;
  type?: unknown;
  [field: string]: unknown;
}

/**
 * Whether an answer shows the favorite's favorite_list_id. "favorite_list_id (integer, accepted
 * on update)" admits a reading where only the answer of PUT /favorites/:id shows it (FAV-8): an
 * absent favorite_list_id says nothing of the favorite's list (its list is then learned from
 * GET /favorite_lists/:id/favorites, or not judged). A null is shown: no list.
 */
export function showsListId(favorite: FavoriteLike): boolean {
  return favorite.favorite_list_id !== undefined;
}

/**
 * 'Owned': favorite_list_id null and have_it true (Favorite list, the virtual owned list). A
 * favorite whose have_it is not true is not owned whatever its list; one with have_it true and no
 * favorite_list_id shown is unknown.
 */
export function ownership(favorite: FavoriteLike): 'owned' | 'not owned' | 'unknown' {
  if (favorite.have_it !== true) return 'not owned';
  if (!showsListId(favorite)) return 'unknown';
  return favorite.favorite_list_id === null ? 'owned' : 'not owned';
}

export function isOwned(favorite: FavoriteLike): boolean {
  return ownership(favorite) === 'owned';
}

/**
 * favorite_list_id null on a favorite whose have_it is not true: not owned, so in a list. One
 * reading (FAV-9) shows a favorite of an auto list so, its membership following from its SKU's
 * category: the auto list of that category, which GET /favorite_lists and that list's favorites
 * show.
 */
export function inAutoListByCategory(favorite: FavoriteLike): boolean {
  return favorite.favorite_list_id === null && favorite.have_it !== true;
}

/**
 * Whether an answer names the favorite's list itself: favorite_list_id shown, and not a null that
 * leaves the list to the SKU's category (inAutoListByCategory). A null with have_it true names
 * no list: owned.
 */
export function namesListId(favorite: FavoriteLike): boolean {
  return showsListId(favorite) && !inAutoListByCategory(favorite);
}

/** An auto list's deletion refused (400, 403 or 422): auto lists are managed by the service, and deleting one is not shown (FAV-21). */
export function refusesAutoListDeletion(status: number): boolean {
  return status === 400 || status === 403 || status === 422;
}

const ids = (favorites: readonly FavoriteLike[]) =>
  favorites
    .slice(0, 5)
    .map((f) => show(f.id))
    .join(', ');

/** A listing that leaves owned favorites out holds none (have_it true with no list). */
export function holdsNoOwnedFavorites(favorites: readonly FavoriteLike[], where: string): CheckResult {
  const owned = favorites.filter(isOwned);
  return owned.length === 0 ? pass() : fail(`${where} lists ${owned.length} owned favorites (have_it true, favorite_list_id null): ${ids(owned)}`);
}

/** owned=true: only owned favorites (one with have_it true and no favorite_list_id shown is not judged). */
export function holdsOnlyOwnedFavorites(favorites: readonly FavoriteLike[], where: string): CheckResult {
  const others = favorites.filter((f) => ownership(f) === 'not owned');
  return others.length === 0
    ? pass()
    : fail(
        `${where} lists ${others.length} favorites that are not owned: ${others
          .slice(0, 5)
          .map((f) => `${show(f.id)} (have_it ${show(f.have_it)}, favorite_list_id ${show(f.favorite_list_id)})`)
          .join(', ')}`,
      );
}

/** How many favorites of a listing show no favorite_list_id (their list cannot be judged from it). */
export function listIdsUnshown(favorites: readonly FavoriteLike[]): number {
  return favorites.filter((f) => !showsListId(f)).length;
}

/**
 * Every favorite of GET /favorite_lists/:id/favorites is in that list, as far as favorite_list_id
 * shows it. In an auto list (`autoList`; by default a negative id) a null on a favorite whose
 * have_it is not true is membership by category (inAutoListByCategory, one reading); before 3.2.0
 * (`ownedListed`) an owned favorite may still be listed (Change history 3.2.0).
 */
export function allInList(favorites: readonly FavoriteLike[], listId: number, options: { autoList?: boolean; ownedListed?: boolean } = {}): CheckResult {
  const autoList = options.autoList ?? listId < 0;
  const strays = favorites.filter(
    (f) => showsListId(f) && f.favorite_list_id !== listId && !(autoList && inAutoListByCategory(f)) && !(options.ownedListed === true && isOwned(f)),
  );
  return strays.length === 0
    ? pass()
    : fail(
        `the favorites of list ${listId} include ${strays.length} in another list: ${strays
          .slice(0, 5)
          .map((f) => `${show(f.id)} (favorite_list_id ${show(f.favorite_list_id)})`)
          .join(', ')}`,
      );
}

function creationTime(favorite: FavoriteLike): number | null {
  if (typeof favorite.created_at !== 'string') return null;
  const ms = Date.parse(favorite.created_at);
  return Number.isNaN(ms) ? null : ms;
}

/** Distinct creation times in a listing: an order can be observed only with two or more. */
export function distinctCreationTimes(favorites: readonly FavoriteLike[]): number {
  return new Set(favorites.map(creationTime).filter((ms) => ms !== null)).size;
}

/**
 * Ordered by creation date: descending (newest first, the default) or ascending (order_dir=asc).
 * Favorites created in the same second may come in any order.
 */
export function orderedByCreation(favorites: readonly FavoriteLike[], dir: 'asc' | 'desc'): CheckResult {
  for (let i = 1; i < favorites.length; i++) {
    const before = creationTime(favorites[i - 1]!);
    const after = creationTime(favorites[i]!);
    if (before === null || after === null) continue;
    if (dir === 'desc' ? after > before : after < before) {
      return fail(
        `favorite ${show(favorites[i]!.id)} (created ${show(favorites[i]!.created_at)}) comes after ${show(favorites[i - 1]!.id)} (created ${show(favorites[i - 1]!.created_at)}): expected creation date ${dir === 'desc' ? 'descending' : 'ascending'}`,
      );
    }
  }
  return pass();
}

/**
 * Row 2 of the States and transitions table: owned means have_it true and favorite_list_id null
 * (a favorite_list_id not shown is left to the owned=true listing).
 */
export function becameOwned(favorite: FavoriteLike): CheckResult {
  if (favorite.have_it !== true) return fail(`after have_it=true favorite ${show(favorite.id)} has have_it ${show(favorite.have_it)}, expected true`);
  return favorite.favorite_list_id === null || !showsListId(favorite)
    ? pass()
    : fail(`after have_it=true favorite ${show(favorite.id)} has favorite_list_id ${show(favorite.favorite_list_id)}, expected null (owned)`);
}

/** Row 2: a favorite_list_id sent with have_it=true is ignored. */
export function listIdSentWithHaveItIgnored(favorite: FavoriteLike, sentListId: number): CheckResult {
  return favorite.favorite_list_id === sentListId
    ? fail(`have_it=true was sent with favorite_list_id ${sentListId} and the favorite moved into that list; the list id must be ignored`)
    : pass();
}

export function isInList(favorite: FavoriteLike, listId: number, what: string): CheckResult {
  return favorite.favorite_list_id === listId ? pass() : fail(`${what}: favorite ${show(favorite.id)} has favorite_list_id ${show(favorite.favorite_list_id)}, expected ${listId}`);
}

/** Row 4: after a move by new_list_name have_it is null. */
export function haveItIsNull(favorite: FavoriteLike, what: string): CheckResult {
  return favorite.have_it === null ? pass() : fail(`${what}: favorite ${show(favorite.id)} has have_it ${show(favorite.have_it)}, expected null`);
}

/** Row 1: a favorite created without a list is in an auto list, and auto lists have negative ids. */
export function inAnAutoList(favorite: FavoriteLike): CheckResult {
  const id = favorite.favorite_list_id;
  return typeof id === 'number' && Number.isInteger(id) && id < 0
    ? pass()
    : fail(`favorite ${show(favorite.id)} created without a list has favorite_list_id ${show(id)}, expected the (negative) id of an auto list`);
}

/** Row 1: the auto list is the one of the SKU's category (whether its id is negative is autoListIdIsNegative's). */
export function isAutoListOfCategory(list: FavoriteListLike, categoryId: number): CheckResult {
  if (list.category_id === categoryId) return pass();
  // A null category_id ("integer or null") names no category: blank, not another category.
  return typed(
    list.category_id,
    false,
    `the favorite landed in auto list ${show(list.id)} of category ${show(list.category_id)}, expected the auto list of the SKU's category ${categoryId}`,
  );
}

/** "negative for auto lists": the id of the auto list a favorite went into without a list. */
export function autoListIdIsNegative(list: FavoriteListLike): CheckResult {
  return typed(list.id, typeof list.id === 'number' && list.id < 0, `auto list ${show(list.id)} of category ${show(list.category_id)} does not have a negative id`);
}

/**
 * Row 1, where the list's category cannot be read (auto lists not in GET /favorite_lists): an
 * auto list is "tied to one category", so favorites created without a list for SKUs of two
 * categories are in two lists.
 */
export function autoListsApart(first: { favorite: FavoriteLike; categoryId: number }, second: { favorite: FavoriteLike; categoryId: number }): CheckResult {
  const [a, b] = [first.favorite.favorite_list_id, second.favorite.favorite_list_id];
  // Only ids the answers name: two nulls leave each list to its SKU's category (inAutoListByCategory).
  if (first.categoryId === second.categoryId || typeof a !== 'number' || a !== b) return pass();
  return fail(
    `favorites ${show(first.favorite.id)} and ${show(second.favorite.id)}, created without a list for SKUs of categories ${first.categoryId} and ${second.categoryId}, are both in list ${show(a)}: an auto list is tied to one category`,
  );
}

/**
 * Row 1, where the list's category cannot be read: the favorite is in the auto list its
 * category's favorites show (a favorite of a leaf category with a negative favorite_list_id),
 * not in one another category's favorites show.
 */
export function inKnownAutoList(favorite: FavoriteLike, categoryId: number, known: ReadonlyMap<number, number>): CheckResult {
  const listId = favorite.favorite_list_id;
  const own = known.get(categoryId);
  if (own !== undefined && listId !== own) {
    return fail(`favorite ${show(favorite.id)} of a SKU of category ${categoryId} is in list ${show(listId)}, but that category's favorites show its auto list is ${own}`);
  }
  const other = [...known].find(([category, id]) => id === listId && category !== categoryId);
  return other
    ? fail(`favorite ${show(favorite.id)} of a SKU of category ${categoryId} is in list ${show(listId)}, the auto list of category ${other[0]} (as that category's favorites show)`)
    : pass();
}

/** A list's favorites (GET /favorite_lists/:id/favorites) include the favorite: how membership is seen when favorite_list_id is not shown. */
export function listsFavorite(favorites: readonly FavoriteLike[], favoriteId: number, listId: number, what: string): CheckResult {
  return favorites.some((f) => f.id === favoriteId)
    ? pass()
    : fail(`${what}: favorite ${favoriteId} is not among the favorites of list ${listId} (GET /favorite_lists/${listId}/favorites)`);
}

/** A list's favorites leave the favorite out (a list id sent with have_it=true is ignored, row 2). */
export function omitsFavorite(favorites: readonly FavoriteLike[], favoriteId: number, listId: number, what: string): CheckResult {
  return favorites.some((f) => f.id === favoriteId)
    ? fail(`${what}: favorite ${favoriteId} is among the favorites of list ${listId} (GET /favorite_lists/${listId}/favorites)`)
    : pass();
}

/** Auto lists are those with a negative id (Favorite list: id), or of type auto. */
export function isAutoList(list: FavoriteListLike): boolean {
  return (typeof list.id === 'number' && list.id < 0) || list.type === 'auto';
}

/**
 * The auto list of a leaf category as its favorites show it (GET /categories/:id/favorites): the
 * negative favorite_list_id of one of them, or null.
 */
export function autoListInFavorites(favorites: readonly FavoriteLike[]): number | null {
  const id = favorites.map((f) => f.favorite_list_id).find((l) => typeof l === 'number' && Number.isInteger(l) && l < 0);
  return typeof id === 'number' ? id : null;
}

/** "Gives an error": a 4xx or 5xx status, not a success. */
export function isErrorStatus(status: number, what: string): CheckResult {
  return status >= 400 ? pass() : fail(`${what} answered ${status}, expected an error status`);
}

/** The lists named `name`: a custom name is held by one list at most. */
export function listsNamed(lists: readonly FavoriteListLike[], name: string): FavoriteListLike[] {
  return lists.filter((l) => l.name === name);
}

/** A list listed with the given name (and no second of that name, when the name is ours). */
export function oneListNamed(lists: readonly FavoriteListLike[], name: string, id: unknown): CheckResult {
  const named = listsNamed(lists, name);
  if (named.length === 0) return fail(`no favorite list is named ${show(name)}`);
  if (named.length > 1) return fail(`${named.length} favorite lists are named ${show(name)}: ${named.map((l) => show(l.id)).join(', ')}`);
  return named[0]!.id === id ? pass() : fail(`the list named ${show(name)} has id ${show(named[0]!.id)}, but the favorite is in list ${show(id)}`);
}
