// Checks of favorite lists and favorites (Resources > Favorite list, Favorite; States and
// transitions; Endpoints > Favorites). Pure functions over what the server sent.
import { fail, pass, show, type CheckResult } from './check.ts';

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

/** 'Owned': favorite_list_id null and have_it true (Favorite list, the virtual owned list). */
export function isOwned(favorite: FavoriteLike): boolean {
  return favorite.have_it === true && favorite.favorite_list_id === null;
}

const ids = (favorites: readonly FavoriteLike[]) => favorites.slice(0, 5).map((f) => show(f.id)).join(', ');

/** A listing that leaves owned favorites out holds none (have_it true with no list). */
export function holdsNoOwnedFavorites(favorites: readonly FavoriteLike[], where: string): CheckResult {
  const owned = favorites.filter(isOwned);
  return owned.length === 0 ? pass() : fail(`${where} lists ${owned.length} owned favorites (have_it true, favorite_list_id null): ${ids(owned)}`);
}

/** owned=true: only owned favorites. */
export function holdsOnlyOwnedFavorites(favorites: readonly FavoriteLike[], where: string): CheckResult {
  const others = favorites.filter((f) => !isOwned(f));
  return others.length === 0
    ? pass()
    : fail(`${where} lists ${others.length} favorites that are not owned: ${others.slice(0, 5).map((f) => `${show(f.id)} (have_it ${show(f.have_it)}, favorite_list_id ${show(f.favorite_list_id)})`).join(', ')}`);
}

/** Every favorite of GET /favorite_lists/:id/favorites is in that list. */
export function allInList(favorites: readonly FavoriteLike[], listId: number): CheckResult {
  const strays = favorites.filter((f) => f.favorite_list_id !== listId);
  return strays.length === 0
    ? pass()
    : fail(`the favorites of list ${listId} include ${strays.length} in another list: ${strays.slice(0, 5).map((f) => `${show(f.id)} (favorite_list_id ${show(f.favorite_list_id)})`).join(', ')}`);
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

/** Row 2 of the States and transitions table: owned means have_it true and favorite_list_id null. */
export function becameOwned(favorite: FavoriteLike): CheckResult {
  if (favorite.have_it !== true) return fail(`after have_it=true favorite ${show(favorite.id)} has have_it ${show(favorite.have_it)}, expected true`);
  return favorite.favorite_list_id === null
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
  return favorite.favorite_list_id === listId
    ? pass()
    : fail(`${what}: favorite ${show(favorite.id)} has favorite_list_id ${show(favorite.favorite_list_id)}, expected ${listId}`);
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

/** Row 1: the auto list is the one of the SKU's category. */
export function isAutoListOfCategory(list: FavoriteListLike, categoryId: number): CheckResult {
  if (list.category_id !== categoryId) {
    return fail(`the favorite landed in auto list ${show(list.id)} of category ${show(list.category_id)}, expected the auto list of the SKU's category ${categoryId}`);
  }
  return typeof list.id === 'number' && list.id < 0 ? pass() : fail(`auto list ${show(list.id)} of category ${categoryId} does not have a negative id`);
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

