// Favorite lists, favorites and GET /categories/:id/favorites (spec "Favorite list", "Favorite",
// "States and transitions", "Endpoints > Favorites", "Errors", Change history 3.2.0).
// Every route needs the favorites scope and a user token; a user sees only their own lists and
// favorites (anyone else's are 404 RecordNotFound, like missing ones).
//
// Choices where the spec is silent:
// - GET /favorite_lists lists the user's custom and auto lists, oldest first; the virtual owned
//   list is not among them (its favorites are GET /favorites?owned=true). type is "custom" or
//   "auto"; an auto list has the category's id and name, a custom list category_id null.
//   Variant auto-lists-unlisted: custom lists only. Variant favorite-list-type-on-create-only:
//   type only in the answer of POST /favorite_lists.
// - Ids: custom lists and favorites get positive ids (Dataset.nextId 'favorite_list',
//   'favorite'); auto lists negative ones (Dataset.nextId 'auto_list', counting down), never
//   reused after a delete.
// - List names (POST /favorite_lists name, new_list_name) are trimmed; valid when 1 to 100
//   characters. A custom list's name is matched exactly (case-sensitive) after trimming; auto
//   list names never clash with custom ones.
// - POST /favorite_lists: no favorite_list object, or a name that is not a string -> 400
//   (ParameterMissing / InvalidParameter); a missing, blank or too long name, or the name of an
//   existing custom list -> 422 RecordInvalid ("Name has already been taken"). Variant
//   duplicate-list-400: an existing name is 400 InvalidParameter; variant validation-as-400: a
//   missing (absent or null) name is 400 ParameterMissing.
// - DELETE /favorite_lists/:id deletes custom and auto lists alike, with their favorites
//   (variant auto-list-delete-refused: an auto list's deletion is 422 RecordInvalid).
//   An auto list that becomes empty stays until deleted (variant auto-list-dropped-when-empty:
//   it goes when its last favorite is deleted or moves away).
// - An invalid new_list_name (not a string, blank, longer than 100) -> 400 InvalidParameter.
// - Owned favorites (have_it true, favorite_list_id null): from 3.2.0, GET /favorites and
//   GET /categories/:id/favorites leave them out unless owned=true; in 3.0 and 3.1 they are
//   listed. owned=true gives only owned favorites in every version (variant
//   owned-param-since-3-2: from 3.2.0 on, the Change history's row); owned=false is the same as
//   no owned parameter; owned is not read by GET /favorite_lists/:id/favorites (a list never
//   holds owned favorites). Variant category-favorites-list-owned: GET /categories/:id/favorites
//   lists owned favorites in every version (the exclusion is stated for the other two).
// - The three favorites listings are ordered by creation time, newest first (ties: higher id
//   first); order_dir=asc reverses that; another order_dir value -> 400 InvalidParameter.
// - GET /categories/:id/favorites: favorites whose SKU is in that category or below it.
// - POST /favorites reads sku_id, favorite_list_id and new_list_name, from the favorite object
//   or (when not there) the top level of the body. new_list_name wins over favorite_list_id.
//   A new favorite has have_it, user_notes and get_absolute_threshold null.
// - Unknown sku_id -> 404 RecordNotFound (Sku). A favorite_list_id that is not one of the
//   user's lists -> 404 RecordNotFound (FavoriteList). An auto list of another category than the
//   SKU's -> 422 RecordInvalid. A SKU the user already has a favorite of -> 422 RecordInvalid.
// - PUT /favorites/:id reads have_it, favorite_list_id, new_list_name (other keys are ignored);
//   have_it from the body wins over the have_it query parameter; favorite_list_id null is the
//   same as absent. have_it=true wins over everything (favorite_list_id and new_list_name are
//   ignored); then new_list_name; then favorite_list_id. A move by favorite_list_id sets have_it
//   to the have_it sent (false or null), or, when none is sent, keeps it (a have_it true
//   becomes null: only owned favorites have have_it true). have_it false or null alone keeps
//   the list; on a favorite in no list (an owned one) it puts the favorite into the auto list
//   of its SKU's category (created if needed), so every favorite that is not owned is in a list.
//   updated_at is set on every successful PUT, even when nothing else changes.
// - favorite_list_id is in every answer (variant favorite-list-id-on-update-only: only in the
//   answer of PUT /favorites/:id). Variant auto-list-favorites-null-list-id: a favorite of an
//   auto list shows favorite_list_id null (its SKU's category says which list).
// - Favorites and lists link no resources (the spec names none): embed / embed_ids / include
//   give 400 InvalidParameter; sparse fieldsets apply as everywhere.

import type { CategoryRecord, Dataset } from '../data.ts';
import { ApiError, formatTimestamp, recordNotFound, type ApiResult } from '../http.ts';
import type { FavoriteListRecord, FavoriteRecord } from '../model.ts';
import type { ApiContext, RouteModule, RouteOptions } from '../router.ts';
import { serializeFavorite, serializeFavoriteList } from '../serializers/favorite.ts';
import { respondMany, respondOne } from '../shape.ts';
import { versionAtLeast } from '../versioning.ts';
import { bodyObject, enumParam, invalidParameter, parameterMissing, parseId, toBoolean, toInteger } from './params.ts';
import { listedForCategory } from './category-favorites.ts';
import { respondFavoriteLists } from './favorite-lists.ts';
import { refuseMissingFields } from './validation.ts';

const FAVORITES: RouteOptions = { scope: 'favorites', user: true };

/** Longest list name, in characters (the spec gives no limit). */
export const MAX_LIST_NAME = 100;

function userIdOf(ctx: ApiContext): number {
  // The routes are user-only, so the pipeline has already refused application tokens.
  if (ctx.userId === null) throw new ApiError(401, 'Unauthorized', ['This endpoint needs a user token']);
  return ctx.userId;
}

// ---------------------------------------------------------------------------------------------
// Lookups

/** List ids may be negative (auto lists). */
function parseListId(raw: string | undefined): number {
  const value = raw ?? '';
  if (!/^-?\d{1,15}$/.test(value)) throw recordNotFound('FavoriteList', value.length > 64 ? `${value.slice(0, 64)}...` : value);
  return Number(value);
}

function userLists(ctx: ApiContext): FavoriteListRecord[] {
  const uid = userIdOf(ctx);
  return [...ctx.data.favoriteLists.values()].filter((l) => l.userId === uid);
}

function findList(ctx: ApiContext, id: number): FavoriteListRecord {
  const l = ctx.data.favoriteLists.get(id);
  if (!l || l.userId !== userIdOf(ctx)) throw recordNotFound('FavoriteList', id);
  return l;
}

function userFavorites(ctx: ApiContext): FavoriteRecord[] {
  const uid = userIdOf(ctx);
  return [...ctx.data.favorites.values()].filter((f) => f.user_id === uid);
}

function findFavorite(ctx: ApiContext, raw: string | undefined): FavoriteRecord {
  const id = parseId(raw, 'Favorite');
  const f = ctx.data.favorites.get(id);
  if (!f || f.user_id !== userIdOf(ctx)) throw recordNotFound('Favorite', id);
  return f;
}

function findCategory(ctx: ApiContext, raw: string | undefined): CategoryRecord {
  const id = parseId(raw, 'Category');
  const c = ctx.data.categories.get(id);
  if (!c) throw recordNotFound('Category', id);
  return c;
}

/** Owned: the virtual owned list (spec "Favorite list"). */
export function isOwned(f: FavoriteRecord): boolean {
  return f.have_it === true && f.favorite_list_id === null;
}

// ---------------------------------------------------------------------------------------------
// Ids

function freeId(map: ReadonlyMap<number, unknown>, data: Dataset, kind: string): number {
  let id = data.nextId(kind);
  while (map.has(id)) id = data.nextId(kind);
  return id;
}

/** Lowest auto-list id handed out per server (fallback when the Dataset gives no negative id). */
const lowestAutoId = new WeakMap<Dataset, number>();

/** Auto lists: the Dataset's 'auto_list' ids (negative, counting down); else below every id seen. */
function nextAutoListId(data: Dataset): number {
  const fromData = data.nextId('auto_list');
  if (fromData < 0 && !data.favoriteLists.has(fromData)) return fromData;
  let min = Math.min(lowestAutoId.get(data) ?? 0, fromData < 0 ? fromData : 0);
  for (const id of data.favoriteLists.keys()) if (id < min) min = id;
  const id = min - 1;
  lowestAutoId.set(data, id);
  return id;
}

// ---------------------------------------------------------------------------------------------
// Lists

/** A list name from a request, trimmed; undefined when absent or null. Throws `invalid(msg)` when unusable. */
function listName(value: unknown, label: string, invalid: (message: string) => ApiError): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidParameter(`${label} must be a string`);
  const name = value.trim();
  if (name === '') throw invalid(`${label} can't be blank`);
  if ([...name].length > MAX_LIST_NAME) throw invalid(`${label} is too long (maximum is ${MAX_LIST_NAME} characters)`);
  return name;
}

function recordInvalid(message: string): ApiError {
  return new ApiError(422, 'RecordInvalid', [message]);
}

/** new_list_name of POST / PUT: an invalid one is 400 with the errors body (States and transitions). */
function newListName(ctx: ApiContext, value: unknown): string | undefined {
  // Variant blank-new-list-name-ignored: an empty or blank name counts as not sent.
  if (typeof value === 'string' && value.trim() === '' && ctx.variants.has('blank-new-list-name-ignored')) return undefined;
  return listName(value, 'new_list_name', (message) => (ctx.fault === 'invalid-new-list-name-422' ? recordInvalid(message) : invalidParameter(message)));
}

function createList(ctx: ApiContext, fields: Pick<FavoriteListRecord, 'id' | 'name' | 'category_id' | 'type'>): FavoriteListRecord {
  const list: FavoriteListRecord = { ...fields, userId: userIdOf(ctx), createdMs: ctx.now() };
  ctx.data.favoriteLists.set(list.id, list);
  return list;
}

function findCustomList(ctx: ApiContext, name: string): FavoriteListRecord | undefined {
  // Variant list-names-case-insensitive: names are the same when they differ only in case.
  const key = (n: string): string => (ctx.variants.has('list-names-case-insensitive') ? n.toLowerCase() : n);
  return userLists(ctx).find((l) => l.type === 'custom' && key(l.name) === key(name));
}

/** The custom list named by new_list_name, created if absent. */
function customListNamed(ctx: ApiContext, name: string): FavoriteListRecord {
  const existing = ctx.fault === 'new-list-name-duplicates-list' ? undefined : findCustomList(ctx, name);
  return existing ?? newCustomList(ctx, name);
}

const newCustomList = (ctx: ApiContext, name: string): FavoriteListRecord =>
  createList(ctx, { id: freeId(ctx.data.favoriteLists, ctx.data, 'favorite_list'), name, category_id: null, type: 'custom' });

/** The user's auto list of a category, created if needed; null when it cannot be (fault). */
function autoListFor(ctx: ApiContext, category: CategoryRecord): FavoriteListRecord | null {
  const existing = userLists(ctx).find((l) => l.type === 'auto' && (ctx.fault === 'auto-list-ignores-category' || l.category_id === category.id));
  if (existing) return existing;
  if (ctx.fault === 'auto-list-not-created') return null;
  return createList(ctx, { id: nextAutoListId(ctx.data), name: category.name, category_id: category.id, type: 'auto' });
}

/** A list given by favorite_list_id: the user's, and (for an auto list) of the SKU's category. */
function targetList(ctx: ApiContext, id: number, skuCategoryId: number | null): FavoriteListRecord {
  const l = findList(ctx, id);
  if (l.type === 'auto' && skuCategoryId !== null && l.category_id !== skuCategoryId) {
    throw recordInvalid(`Favorite list ${l.id} is the auto list of category ${l.category_id ?? 'null'}; the SKU is in category ${skuCategoryId}`);
  }
  // The bug: a custom list is held to the category of the favorites already in it.
  if (ctx.fault === 'custom-list-single-category' && l.type === 'custom' && skuCategoryId !== null) {
    const other = [...ctx.data.favorites.values()].find((f) => f.favorite_list_id === l.id && ctx.data.skus.get(f.sku_id)?.category_id !== skuCategoryId);
    if (other) throw recordInvalid(`Favorite list ${l.id} holds SKUs of another category`);
  }
  return l;
}

function skuCategory(ctx: ApiContext, skuId: number): CategoryRecord | null {
  const sku = ctx.data.skus.get(skuId);
  return sku ? (ctx.data.categories.get(sku.category_id) ?? null) : null;
}

// ---------------------------------------------------------------------------------------------
// Listings

/** owned=true / the 3.2.0 exclusion of owned favorites (GET /favorites, GET /categories/:id/favorites). */
function ownedFilter(ctx: ApiContext, favorites: FavoriteRecord[]): FavoriteRecord[] {
  const owned = toBoolean(ctx.query.get('owned') ?? undefined, 'owned');
  const ownedParamKnown = versionAtLeast(ctx.version, '3.2.0') || !ctx.variants.has('owned-param-since-3-2');
  if (owned === true && ownedParamKnown && ctx.fault !== 'owned-param-ignored') return favorites.filter(isOwned);
  const excludes = versionAtLeast(ctx.version, '3.2.0') || ctx.fault === 'owned-excluded-before-3-2';
  if (!excludes || ctx.fault === 'owned-favorites-listed') return favorites;
  return favorites.filter((f) => !isOwned(f));
}

/** Creation time, newest first; order_dir=asc: oldest first. Ties by id. */
function ordered(ctx: ApiContext, favorites: FavoriteRecord[]): FavoriteRecord[] {
  const dir = enumParam(ctx, 'order_dir', ['asc', 'desc'] as const) ?? 'desc';
  const sign = dir === 'asc' && ctx.fault !== 'favorites-order-dir-ignored' ? 1 : -1;
  return [...favorites].sort((a, b) => sign * (a.createdMs - b.createdMs || a.id - b.id));
}

/** favorite_list_id in an answer other than PUT's: always, or (variant) never. */
function listIdShown(ctx: ApiContext): boolean {
  return !ctx.variants.has('favorite-list-id-on-update-only');
}

/** Variant auto-list-dropped-when-empty: deletes list `id` when it is an auto list left without favorites. */
function dropEmptyAutoList(ctx: ApiContext, id: number | null): void {
  // Variant auto-lists-virtual: an auto list is its favorites seen together, so it ends with the last of them.
  if (id === null || !(ctx.variants.has('auto-list-dropped-when-empty') || ctx.variants.has('auto-lists-virtual'))) return;
  const list = ctx.data.favoriteLists.get(id);
  if (list?.type !== 'auto' || userFavorites(ctx).some((f) => f.favorite_list_id === id)) return;
  ctx.data.favoriteLists.delete(id);
}

/** Variant auto-list-favorites-null-list-id: a favorite of an auto list as shown, with favorite_list_id null. */
function asShown(ctx: ApiContext, f: FavoriteRecord): FavoriteRecord {
  if (f.favorite_list_id === null || !ctx.variants.has('auto-list-favorites-null-list-id')) return f;
  return ctx.data.favoriteLists.get(f.favorite_list_id)?.type === 'auto' ? { ...f, favorite_list_id: null } : f;
}

/** GET /categories/:id/favorites: the user's favorites of SKUs in that category or below it. */
function categoryFavorites(ctx: ApiContext): ApiResult {
  const c = findCategory(ctx, ctx.params['id']);
  const inCategory = userFavorites(ctx).filter((f) => (skuCategory(ctx, f.sku_id)?.pathIds.includes(c.id) ?? false) && listedForCategory(ctx, f, c.id));
  const result = favoriteList(ctx, ctx.variants.has('category-favorites-list-owned') ? inCategory : ownedFilter(ctx, inCategory));
  // The bug: this listing's favorites come under a generic key.
  if (ctx.fault === 'category-favorites-under-data-key')
    result.body = Object.fromEntries(Object.entries(result.body as Record<string, unknown>).map(([k, v]) => [k === 'favorites' ? 'data' : k, v]));
  return result;
}

function favoriteList(ctx: ApiContext, favorites: FavoriteRecord[]): ApiResult {
  const withListId = listIdShown(ctx);
  const result = respondMany(ctx, 'favorites', ordered(ctx, favorites), (f) => serializeFavorite(asShown(ctx, f), ctx.version, withListId));
  // Fault favorites-link-missing: the favorites listings drop the paging headers.
  if (ctx.fault === 'favorites-link-missing' && result.headers) delete result.headers['Link'];
  return result;
}

function oneFavorite(ctx: ApiContext, f: FavoriteRecord, status = 200, withListId = listIdShown(ctx)): ApiResult {
  return respondOne(ctx, 'favorite', f, (x) => serializeFavorite(asShown(ctx, x), ctx.version, withListId), { status });
}

// ---------------------------------------------------------------------------------------------
// Request values

/** have_it: true / false (also "true", "false", "1", "0"), or null. */
function haveItValue(value: unknown): boolean | null | undefined {
  if (value === null) return null;
  return toBoolean(value, 'have_it');
}

function optionalInteger(value: unknown, name: string): number | undefined {
  return value === null ? undefined : toInteger(value, name);
}

// ---------------------------------------------------------------------------------------------
// Handlers

function createFavorite(ctx: ApiContext): ApiResult {
  const input = bodyObject(ctx, 'favorite');
  const top = ctx.body ?? {};
  const read = (key: string): unknown => (key in input ? input[key] : top[key]);

  const skuId = optionalInteger(read('sku_id'), 'sku_id');
  if (skuId === undefined) throw parameterMissing('sku_id');
  const name = newListName(ctx, read('new_list_name'));
  const listId = name === undefined ? optionalInteger(read('favorite_list_id'), 'favorite_list_id') : undefined;

  const sku = ctx.data.skus.get(skuId);
  if (!sku) throw recordNotFound('Sku', skuId);
  const category = ctx.data.categories.get(sku.category_id) ?? null;
  const given = listId === undefined ? undefined : targetList(ctx, listId, sku.category_id);
  const uid = userIdOf(ctx);
  const existing = userFavorites(ctx).find((f) => f.sku_id === skuId);
  if (existing) throw recordInvalid(`Sku ${skuId} is already among the favorites (favorite ${existing.id})`);

  let list: FavoriteListRecord | null;
  if (name !== undefined) list = customListNamed(ctx, name);
  else if (given) list = given;
  else list = category ? autoListFor(ctx, category) : null;

  const now = ctx.now();
  const stamp = formatTimestamp(now);
  const favorite: FavoriteRecord = {
    id: freeId(ctx.data.favorites, ctx.data, 'favorite'),
    have_it: null,
    user_id: uid,
    user_notes: null,
    sku_id: skuId,
    created_at: stamp,
    updated_at: stamp,
    get_absolute_threshold: null,
    favorite_list_id: list ? list.id : null,
    createdMs: now,
  };
  ctx.data.favorites.set(favorite.id, favorite);
  // The bug: a retried insert stores the favorite a second time, under another id.
  if (ctx.fault === 'favorite-created-twice')
    ctx.data.favorites.set(freeId(ctx.data.favorites, ctx.data, 'favorite'), { ...favorite, id: freeId(ctx.data.favorites, ctx.data, 'favorite') });
  return oneFavorite(ctx, favorite, 201);
}

/** The bug of favorite-update-applied-to-other-favorite: the user's favorite of the lowest id but `f`, when there is one. */
function otherFavorite(ctx: ApiContext, f: FavoriteRecord): FavoriteRecord {
  const others = [...ctx.data.favorites.values()].filter((x) => x.user_id === f.user_id && x.id !== f.id).sort((a, b) => a.id - b.id);
  return others[0] ?? f;
}

/** Variant owned-favorite-ignores-list-id: 'have_it is not true' is the stored value, so a favorite_list_id alone leaves an owned favorite in place. */
function ownedStays(ctx: ApiContext, f: FavoriteRecord, haveIt: boolean | null | undefined): boolean {
  return haveIt === undefined && f.have_it === true && ctx.variants.has('owned-favorite-ignores-list-id');
}

function updateFavorite(ctx: ApiContext): ApiResult {
  const asked = findFavorite(ctx, ctx.params['id']);
  // The bug: the update is applied to another of the user's favorites.
  const f = ctx.fault === 'favorite-update-applied-to-other-favorite' ? otherFavorite(ctx, asked) : asked;
  const raw = ctx.body?.['favorite'];
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw invalidParameter('favorite must be an object');
  }
  const queryHaveIt = ctx.query.get('have_it');
  if (raw === undefined && queryHaveIt === null) throw parameterMissing('favorite');
  const input = (raw ?? {}) as Record<string, unknown>;

  const haveIt = 'have_it' in input ? haveItValue(input['have_it']) : haveItValue(queryHaveIt ?? undefined);
  const category = skuCategory(ctx, f.sku_id);
  const formerList = f.favorite_list_id;

  if (haveIt === true) {
    // Row 2 of the table: owned; a favorite_list_id sent with it is ignored.
    const listId = optionalInteger(input['favorite_list_id'], 'favorite_list_id');
    f.have_it = true;
    if (ctx.fault === 'have-it-honours-list-id' && listId !== undefined) f.favorite_list_id = findList(ctx, listId).id;
    else if (ctx.fault !== 'have-it-keeps-list') f.favorite_list_id = null;
  } else {
    const name = newListName(ctx, input['new_list_name']);
    const listId = name === undefined ? optionalInteger(input['favorite_list_id'], 'favorite_list_id') : undefined;
    if (name !== undefined) {
      // Row 4: the custom list of that name (created if absent); have_it becomes null.
      f.favorite_list_id = customListNamed(ctx, name).id;
      if (ctx.fault !== 'new-list-name-keeps-have-it') f.have_it = null;
    } else if (listId !== undefined && ctx.fault !== 'favorite-list-id-ignored-on-update' && !ownedStays(ctx, f, haveIt)) {
      // Row 3: into that list.
      f.favorite_list_id = targetList(ctx, listId, category ? category.id : null).id;
      f.have_it = haveIt !== undefined ? haveIt : f.have_it === true ? null : f.have_it;
    } else if (haveIt !== undefined) {
      f.have_it = haveIt;
      if (f.favorite_list_id === null && category) f.favorite_list_id = autoListFor(ctx, category)?.id ?? null;
    }
  }
  f.updated_at = formatTimestamp(ctx.now());
  if (f.favorite_list_id !== formerList) dropEmptyAutoList(ctx, formerList);
  // favorite_list_id is "accepted on update": its answer always shows it.
  return oneFavorite(ctx, f, 200, true);
}

/**
 * Variant list-delete-keeps-favorites: a favorite of a deleted list moves to the auto list of its
 * SKU's category (created if needed), or, when that was the deleted list, is left without a list.
 */
function keepWithoutList(ctx: ApiContext, f: FavoriteRecord, deleted: FavoriteListRecord): void {
  const category = skuCategory(ctx, f.sku_id);
  f.favorite_list_id = category && deleted.type === 'custom' ? (autoListFor(ctx, category)?.id ?? null) : null;
  f.updated_at = formatTimestamp(ctx.now());
}

function createCustomList(ctx: ApiContext): ApiResult {
  const input = bodyObject(ctx, 'favorite_list');
  if (input['name'] === undefined || input['name'] === null) refuseMissingFields(ctx, ['favorite_list[name]']);
  const name = listName(input['name'], 'Name', recordInvalid);
  if (name === undefined) throw recordInvalid("Name can't be blank");
  if (findCustomList(ctx, name) && ctx.fault !== 'duplicate-custom-list-accepted') throw duplicateName(ctx);
  const list = newCustomList(ctx, name);
  // The bug: a retried insert stores the list a second time, under another id.
  if (ctx.fault === 'favorite-list-created-twice') newCustomList(ctx, name);
  return respondOne(ctx, 'favorite_list', list, (l) => serializeFavoriteList(l, ctx.version), { status: 201 });
}

/** A custom list name already taken: 422 (the reference), 400 (variant duplicate-list-400) or 409 (variant duplicate-list-409). */
function duplicateName(ctx: ApiContext): ApiError {
  const message = 'Name has already been taken';
  if (ctx.variants.has('duplicate-list-409')) return new ApiError(409, 'Conflict', [message]);
  return ctx.variants.has('duplicate-list-400') ? invalidParameter(message) : recordInvalid(message);
}

export const favoriteRoutes: RouteModule = (router) => {
  router.get('/favorite_lists', (ctx) => respondFavoriteLists(ctx, userLists(ctx), userFavorites(ctx)), FAVORITES);

  router.post('/favorite_lists', createCustomList, FAVORITES);

  router.delete(
    '/favorite_lists/:id',
    (ctx) => {
      const list = findList(ctx, parseListId(ctx.params['id']));
      if (list.type === 'auto' && ctx.variants.has('auto-list-delete-refused'))
        throw recordInvalid(`Favorite list ${list.id} is an auto list: auto lists are managed by the service`);
      // The bug: the delete is answered but never applied.
      if (ctx.fault === 'favorite-list-delete-not-stored') return { status: 204 };
      ctx.data.favoriteLists.delete(list.id);
      for (const f of userFavorites(ctx)) {
        if (f.favorite_list_id !== list.id) continue;
        if (ctx.variants.has('list-delete-keeps-favorites')) keepWithoutList(ctx, f, list);
        else ctx.data.favorites.delete(f.id);
      }
      return { status: 204 };
    },
    FAVORITES,
  );

  router.get(
    '/favorite_lists/:id/favorites',
    (ctx) => {
      const list = findList(ctx, parseListId(ctx.params['id']));
      return favoriteList(
        ctx,
        userFavorites(ctx).filter((f) => f.favorite_list_id === list.id && !isOwned(f)),
      );
    },
    FAVORITES,
  );

  router.get('/favorites', (ctx) => favoriteList(ctx, ownedFilter(ctx, userFavorites(ctx))), FAVORITES);

  router.get('/favorites/:id', (ctx) => oneFavorite(ctx, findFavorite(ctx, ctx.params['id'])), FAVORITES);

  router.post('/favorites', createFavorite, FAVORITES);

  router.put('/favorites/:id', updateFavorite, FAVORITES);

  router.delete(
    '/favorites/:id',
    (ctx) => {
      let f: FavoriteRecord;
      try {
        f = findFavorite(ctx, ctx.params['id']);
      } catch (err) {
        if (ctx.fault === 'favorite-delete-missing-204') return { status: 204 };
        throw err;
      }
      ctx.data.favorites.delete(f.id);
      dropEmptyAutoList(ctx, f.favorite_list_id);
      return { status: 204 };
    },
    FAVORITES,
  );

  router.get('/categories/:id/favorites', categoryFavorites, FAVORITES);
};
