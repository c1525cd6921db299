// A model of favorite lists and favorites for the model-based suite (suites/favorites-model.suite.ts):
// a pure reducer of the States and transitions table (the four favorite rows) and the rules of
// Endpoints > Favorites. `step(model, action, answer)` (favorites-model-steps.ts) judges the answer to one
// action against the model and returns the next model, kept in step with what the deployment
// answered wherever the spec allows more than one outcome:
// - the status and code for a custom list with an existing custom name (any error status);
// - what becomes of the favorites of a deleted list (gone, or still there in some list);
// - have_it after a move by favorite_list_id, and a move by favorite_list_id of a favorite whose
//   have_it is true ("have_it is not true" is the row's condition);
// - a blank new_list_name taken as valid (which names are invalid is not shown);
// - whether GET /favorite_lists lists auto lists (FAV-18 reads both ways): an auto list of the
//   run that is not listed is missing only when the listing shows auto lists;
// - what becomes of an auto list its last favorite leaves (deleted or moved away): it stays or is
//   dropped, so the model holds it as 'maybe' until an answer shows which;
// - favorite_list_id "accepted on update": shown in every answer, or in PUT's only. Where an
//   answer does not show it the model keeps the list the spec puts the favorite in (listId), or,
//   when that list is new and its id not known, what it awaits (the auto list of its category, the
//   custom list of a name), learned from GET /favorite_lists; listings then judge membership;
// - a favorite of an auto list may show favorite_list_id null, its list following from its SKU's
//   category (listedByCategory): the model reads it as the auto list of that category;
// - deleting an auto list may be refused (auto lists are managed by the service): it then stays;
// - before 3.2.0 owned=true may be ignored, and owned favorites listed everywhere;
// The model knows the user's lists that existed before (to tell the auto list of a category) and
// tracks only the favorites it created; `ours` marks what the run made (its cleanup).
import { errorBodyIsWellFormed } from './errors.ts';
import { show, type CheckResult } from './check.ts';
import { readPagination } from './pagination.ts';
import { pathIn, type ApiEndpoint, type PathValues } from '../rules/api-paths.ts';

export interface ModelList {
  id: number;
  name: string | null;
  /** unknown: a list the deployment made where the spec does not say what it is. */
  kind: 'custom' | 'auto' | 'unknown';
  categoryId: number | null;
  /** Made during the run (the run deletes it afterwards). */
  ours: boolean;
  /** maybe: an auto list the last favorite the model knew in it left; it may have been dropped. */
  state: 'live' | 'gone' | 'maybe';
}

/**
 * While a favorite's list id is not known: the list the spec puts it in (row 1, row 4). An auto
 * list missing from a whole GET /favorite_lists fails (`unlisted`): where that listing shows auto
 * lists (the default: the answer showed no favorite_list_id); always ('fails': it showed null,
 * which leaves the list to the category only where that list is shown); never ('allowed': a
 * transition whose outcome is not shown).
 */
export type AwaitedList = { categoryId: number; unlisted?: 'fails' | 'allowed' } | { name: string };

export interface ModelFavorite {
  id: number;
  skuId: number;
  categoryId: number;
  /** undefined: not known (the answers since it last moved showed no favorite_list_id). */
  listId: number | null | undefined;
  /** With listId undefined: the list it is in, once GET /favorite_lists shows that list. */
  awaits?: AwaitedList;
  haveIt: boolean | null;
  /** unknown: its list was deleted, and what becomes of it then is not shown. */
  state: 'live' | 'gone' | 'unknown';
}

export interface FavoritesModel {
  lists: ModelList[];
  favorites: ModelFavorite[];
  /** Change history 3.2.0: listings leave owned favorites out unless owned=true. */
  excludesOwned: boolean;
  /** Change history 3.1.0: the {errors: [...]} body on 4xx. */
  normalizedErrors: boolean;
}

export type Action =
  | { type: 'createList'; name: string }
  | { type: 'deleteList'; listId: number }
  | { type: 'createFavorite'; skuId: number; categoryId: number; newListName?: string }
  | { type: 'updateFavorite'; favoriteId: number; haveIt?: boolean | null; favoriteListId?: number; newListName?: string }
  | { type: 'deleteFavorite'; favoriteId: number }
  | { type: 'getFavorite'; favoriteId: number }
  | { type: 'listLists' }
  | { type: 'listFavorites'; owned: boolean; /** order_dir=asc sent; absent: the default order (creation date descending). */ orderDir?: 'asc' }
  | { type: 'listListFavorites'; listId: number };

export interface HttpCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number>;
  json?: unknown;
}

export interface Answer {
  status: number;
  /** The parsed JSON body, or undefined when there is none or it is not JSON. */
  body: unknown;
}

export interface Failure {
  requirements: string[];
  message: string;
  /** Only a null where the spec types a value (GEN-8): recorded as a warning. */
  blank?: true;
}

export interface StepResult {
  model: FavoritesModel;
  failure?: Failure;
}

/** Page size asked for by the listings (one page; what is beyond it is not judged). */
export const LISTING_PER = 100;

type Method = HttpCall['method'];

/** The method and path of a call to an endpoint, the values of its :params in order. */
function callTo<E extends ApiEndpoint & `${Method} ${string}`>(endpoint: E, ...params: PathValues<E>): Pick<HttpCall, 'method' | 'path'> {
  return { method: endpoint.slice(0, endpoint.indexOf(' ')) as Method, path: pathIn(endpoint, params) };
}

/** The HTTP request that carries an action. */
export function requestOf(action: Action): HttpCall {
  switch (action.type) {
    case 'createList':
      return { ...callTo('POST /favorite_lists'), json: { favorite_list: { name: action.name } } };
    case 'deleteList':
      return callTo('DELETE /favorite_lists/:id', action.listId);
    case 'createFavorite':
      return { ...callTo('POST /favorites'), json: { favorite: { sku_id: action.skuId, ...(action.newListName !== undefined ? { new_list_name: action.newListName } : {}) } } };
    case 'updateFavorite': {
      const favorite: Record<string, unknown> = {};
      if (action.haveIt !== undefined) favorite['have_it'] = action.haveIt;
      if (action.favoriteListId !== undefined) favorite['favorite_list_id'] = action.favoriteListId;
      if (action.newListName !== undefined) favorite['new_list_name'] = action.newListName;
      return { ...callTo('PUT /favorites/:id', action.favoriteId), json: { favorite } };
    }
    case 'deleteFavorite':
      return callTo('DELETE /favorites/:id', action.favoriteId);
    case 'getFavorite':
      return callTo('GET /favorites/:id', action.favoriteId);
    case 'listLists':
      return { ...callTo('GET /favorite_lists'), query: { per: LISTING_PER } };
    case 'listFavorites':
      return { ...callTo('GET /favorites'), query: { per: LISTING_PER, ...(action.owned ? { owned: 'true' } : {}), ...(action.orderDir ? { order_dir: action.orderDir } : {}) } };
    case 'listListFavorites':
      return { ...callTo('GET /favorite_lists/:id/favorites', action.listId), query: { per: LISTING_PER } };
  }
}

/** One line for a call: `PUT /favorites/12 {"favorite":{"have_it":true}}`. */
export function formatCall(call: HttpCall): string {
  const query = call.query ? `?${new URLSearchParams(Object.entries(call.query).map(([k, v]) => [k, String(v)])).toString()}` : '';
  return `${call.method} ${call.path}${query}${call.json !== undefined ? ` ${JSON.stringify(call.json)}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Model helpers (pure; every update returns a new model)

export function initialModel(
  lists: readonly { id: number; name?: unknown; category_id?: unknown; type?: unknown }[],
  apiFlags: { excludesOwned: boolean; normalizedErrors: boolean },
): FavoritesModel {
  return {
    lists: lists.map((l) => ({
      id: l.id,
      name: typeof l.name === 'string' ? l.name : null,
      // Auto lists have negative ids (Favorite list: id); a list's type may say so too.
      kind: l.id < 0 || l.type === 'auto' ? 'auto' : l.type === 'custom' || l.category_id === null ? 'custom' : 'unknown',
      categoryId: typeof l.category_id === 'number' ? l.category_id : null,
      ours: false,
      state: 'live',
    })),
    favorites: [],
    ...apiFlags,
  };
}

export const liveLists = (m: FavoritesModel) => m.lists.filter((l) => l.state === 'live');
export const findList = (m: FavoritesModel, id: unknown) => m.lists.find((l) => l.id === id);
export const findFavorite = (m: FavoritesModel, id: number) => m.favorites.find((f) => f.id === id);
export const isOwnedModel = (f: ModelFavorite) => f.haveIt === true && f.listId === null;
/**
 * favorite_list_id null on a favorite whose have_it is not true: not owned, so in a list. One
 * reading (FAV-9) shows a favorite of an auto list so, its membership following from its SKU's
 * category (src/checks/favorites.ts inAutoListByCategory).
 */
export const listedByCategory = (read: { favorite_list_id?: unknown; have_it?: unknown }): boolean => read.favorite_list_id === null && read.have_it !== true;

/** Whether list `id` is, as the model knows it, an auto list that may be the one of `categoryId`. */
export function isAutoListOf(m: FavoritesModel, id: number, categoryId: number): boolean {
  const list = findList(m, id);
  return list?.kind === 'auto' && (list.categoryId === null || list.categoryId === categoryId);
}

/**
 * The list an answer puts a favorite of category `categoryId` in, as the model knows lists: the id
 * shown; for a null by category, `context` (the list whose favorites were listed) or the live auto
 * list of the category; for none shown, `context`; undefined where that is not known.
 */
export function answeredList(m: FavoritesModel, categoryId: number, read: { favorite_list_id?: unknown; have_it?: unknown }, context?: number | null): number | null | undefined {
  if (listedByCategory(read)) return typeof context === 'number' ? context : autoListOf(m, categoryId)?.id;
  return read.favorite_list_id === undefined ? context : (read.favorite_list_id as number | null);
}

/** Whether the model knows the favorite is owned (undefined: have_it true, its list not known). */
export const ownedModel = (f: ModelFavorite): boolean | undefined => (f.haveIt === true && f.listId === undefined ? undefined : isOwnedModel(f));

/** The live auto list of a category the model knows. */
export function autoListOf(m: FavoritesModel, categoryId: number): ModelList | undefined {
  return m.lists.find((l) => l.state === 'live' && l.kind === 'auto' && l.categoryId === categoryId);
}

/** The auto list of a category that may have been dropped (its last known favorite left). */
export function maybeAutoListOf(m: FavoritesModel, categoryId: number): ModelList | undefined {
  return m.lists.find((l) => l.state === 'maybe' && l.kind === 'auto' && l.categoryId === categoryId);
}

/** The live custom list of a name (a custom name is held by one list). */
export function customListNamed(m: FavoritesModel, name: string): ModelList | undefined {
  return m.lists.find((l) => l.state === 'live' && l.kind === 'custom' && l.name === name);
}

/** SKUs the model holds a favorite of (live, or perhaps live). */
export function favoritedSkus(m: FavoritesModel): Set<number> {
  return new Set(m.favorites.filter((f) => f.state !== 'gone').map((f) => f.skuId));
}

/** Favorites still waiting to learn their list (the answers showed no favorite_list_id). */
export function awaitingLists(m: FavoritesModel): ModelFavorite[] {
  return m.favorites.filter((f) => f.state === 'live' && f.listId === undefined && f.awaits !== undefined);
}

export function withList(m: FavoritesModel, list: ModelList): FavoritesModel {
  return { ...m, lists: [...m.lists.filter((l) => l.id !== list.id), list] };
}

export function withFavorite(m: FavoritesModel, favorite: ModelFavorite): FavoritesModel {
  const exists = m.favorites.some((f) => f.id === favorite.id);
  return { ...m, favorites: exists ? m.favorites.map((f) => (f.id === favorite.id ? favorite : f)) : [...m.favorites, favorite] };
}

/** The favorite, in a list now known (or null), awaiting nothing. */
export function placed(f: ModelFavorite, listId: number | null | undefined, haveIt: boolean | null): ModelFavorite {
  const { awaits: _, ...rest } = f;
  return { ...rest, listId, haveIt };
}

/**
 * A list id the deployment answered that the model does not know: a list it made (ours, to
 * delete). A negative id is an auto list, tied to one category: that of the favorite in it; an
 * auto list of that category that may have been dropped was, since the favorite is not in it. A
 * list that may have been dropped and holds the favorite is live.
 */
export function adoptUnknownList(m: FavoritesModel, id: unknown, categoryId: number | null): FavoritesModel {
  if (typeof id !== 'number' || !Number.isInteger(id)) return m;
  const known = findList(m, id);
  if (known?.state === 'live') return m;
  if (known?.state === 'maybe') return withList(m, { ...known, state: 'live' });
  const dropped = id < 0 && categoryId !== null ? maybeAutoListOf(m, categoryId) : undefined;
  const model = dropped ? withList(m, { ...dropped, state: 'gone' }) : m;
  return withList(model, { id, name: null, kind: id < 0 ? 'auto' : 'unknown', categoryId: id < 0 ? categoryId : null, ours: true, state: 'live' });
}

/**
 * The favorite `f` (as it was) left its list: an auto list the model knows no other favorite in
 * may have been dropped ("what becomes of an empty auto list" is not shown). A favorite whose
 * list was not known can only have been in an auto list of its category.
 */
function left(m: FavoritesModel, f: ModelFavorite, now?: number | null): FavoritesModel {
  if (f.listId === undefined && f.awaits && 'name' in f.awaits) return m;
  const from = f.listId === undefined ? autoListOf(m, f.categoryId) : findList(m, f.listId);
  if (!from || from.kind !== 'auto' || from.state !== 'live' || from.id === now) return m;
  const held = m.favorites.some((o) => o.id !== f.id && o.state === 'live' && o.listId === from.id);
  return held ? m : withList(m, { ...from, state: 'maybe' });
}

/** The model after favorite `before` is answered as `after`: its old list left when it moved. */
export function moved(m: FavoritesModel, before: ModelFavorite, after: ModelFavorite): FavoritesModel {
  const model = withFavorite(m, after);
  if (before.state !== 'live') return model;
  if (after.state === 'gone') return left(model, before);
  return before.listId === undefined || after.listId !== before.listId ? left(model, before, after.listId ?? null) : model;
}

// ---------------------------------------------------------------------------------------------
// Reading answers

export interface ReadFavorite {
  id: number;
  sku_id: unknown;
  /** undefined: not shown (favorite_list_id "accepted on update": shown there only, one reading). */
  favorite_list_id: number | null | undefined;
  have_it: boolean | null;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A failure that is only a null where the spec types a value is blank (GEN-8: a warning). */
export const typedFailure = (value: unknown, requirements: string[], message: string): Failure =>
  value === null ? { requirements, message, blank: true } : { requirements, message };

/** The favorite of a `{favorite}` body, or why it cannot be read. */
export function readFavorite(body: unknown, where: string): ReadFavorite | Failure {
  const f = isObject(body) ? body['favorite'] : undefined;
  if (!isObject(f)) return { requirements: ['GEN-7', 'FAV-7'], message: `${where} answered no {favorite} object: ${show(body)}` };
  const listId = f['favorite_list_id'];
  const haveIt = f['have_it'];
  if (!Number.isInteger(f['id'])) return typedFailure(f['id'], ['FAV-7'], `${where}: the favorite's id is ${show(f['id'])}, expected an integer`);
  if (listId !== null && listId !== undefined && !Number.isInteger(listId))
    return { requirements: ['FAV-7', 'GEN-8'], message: `${where}: favorite_list_id is ${show(listId)}, expected an integer or null` };
  if (haveIt !== null && typeof haveIt !== 'boolean') return { requirements: ['FAV-7', 'GEN-8'], message: `${where}: have_it is ${show(haveIt)}, expected a boolean or null` };
  return { id: f['id'] as number, sku_id: f['sku_id'], favorite_list_id: listId as number | null | undefined, have_it: haveIt as boolean | null };
}

export const isFailure = (x: unknown): x is Failure => isObject(x) && Array.isArray(x['requirements']) && typeof x['message'] === 'string';

/** The items of a `{<key>: [...]}` collection and whether the one page holds all of them. */
export function readCollection(body: unknown, key: string, where: string): { items: Record<string, unknown>[]; complete: boolean } | Failure {
  const items = isObject(body) ? body[key] : undefined;
  if (!Array.isArray(items) || !items.every(isObject)) return { requirements: ['GEN-7'], message: `${where} answered no {${key}: [...]} collection: ${show(body)}` };
  const pagination = readPagination(body);
  return { items: items as Record<string, unknown>[], complete: pagination ? pagination.total_pages <= 1 : items.length < LISTING_PER };
}

export function statusFailure(answer: Answer, expected: number, where: string, requirements: string[]): Failure | undefined {
  return answer.status === expected ? undefined : { requirements, message: `${where} answered ${answer.status}, expected ${expected}${bodyHint(answer.body)}` };
}

const bodyHint = (body: unknown) => (body === undefined ? '' : ` (body ${show(body, 200)})`);

export const fromCheck = (result: CheckResult, ...requirements: string[]): Failure | undefined => (result.ok ? undefined : { requirements, message: result.message });

/** A 404 "resource does not exist" for a record the model knows is gone. */
export function notFound(answer: Answer, where: string, requirements: string[]): Failure | undefined {
  return statusFailure(answer, 404, `${where} (deleted earlier in this sequence)`, requirements);
}

/** An error answer's body, from 3.1.0 on: {errors: [{code, messages}]}. */
export function errorBody(m: FavoritesModel, answer: Answer, ...requirements: string[]): Failure | undefined {
  if (!m.normalizedErrors || answer.status < 400 || answer.status >= 500) return undefined;
  return fromCheck(errorBodyIsWellFormed(answer.body), ...requirements, 'ERR-2');
}
