// A model of favorite lists and favorites for the model-based suite (suites/favorites-model.suite.ts):
// a pure reducer of the States and transitions table (the four favorite rows) and the rules of
// Endpoints > Favorites. `step(model, action, answer)` judges the deployment's answer to one
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
//   custom list of a name), learned from GET /favorite_lists; listings then judge membership.
// The model knows the user's lists that existed before (to tell the auto list of a category) and
// tracks only the favorites it created; `ours` marks what the run made (its cleanup).
import { errorBodyIsWellFormed } from './errors.ts';
import { fail, pass, show, type CheckResult } from './check.ts';
import { holdsNoOwnedFavorites, holdsOnlyOwnedFavorites, isAutoList, type FavoriteLike } from './favorites.ts';
import { readPagination } from './pagination.ts';

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

/** While a favorite's list id is not known: the list the spec puts it in (row 1, row 4). */
export type AwaitedList = { categoryId: number } | { name: string };

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

/** The HTTP request that carries an action. */
export function requestOf(action: Action): HttpCall {
  switch (action.type) {
    case 'createList':
      return { method: 'POST', path: '/favorite_lists', json: { favorite_list: { name: action.name } } };
    case 'deleteList':
      return { method: 'DELETE', path: `/favorite_lists/${action.listId}` };
    case 'createFavorite':
      return { method: 'POST', path: '/favorites', json: { favorite: { sku_id: action.skuId, ...(action.newListName !== undefined ? { new_list_name: action.newListName } : {}) } } };
    case 'updateFavorite': {
      const favorite: Record<string, unknown> = {};
      if (action.haveIt !== undefined) favorite['have_it'] = action.haveIt;
      if (action.favoriteListId !== undefined) favorite['favorite_list_id'] = action.favoriteListId;
      if (action.newListName !== undefined) favorite['new_list_name'] = action.newListName;
      return { method: 'PUT', path: `/favorites/${action.favoriteId}`, json: { favorite } };
    }
    case 'deleteFavorite':
      return { method: 'DELETE', path: `/favorites/${action.favoriteId}` };
    case 'getFavorite':
      return { method: 'GET', path: `/favorites/${action.favoriteId}` };
    case 'listLists':
      return { method: 'GET', path: '/favorite_lists', query: { per: LISTING_PER } };
    case 'listFavorites':
      return { method: 'GET', path: '/favorites', query: { per: LISTING_PER, ...(action.owned ? { owned: 'true' } : {}), ...(action.orderDir ? { order_dir: action.orderDir } : {}) } };
    case 'listListFavorites':
      return { method: 'GET', path: `/favorite_lists/${action.listId}/favorites`, query: { per: LISTING_PER } };
  }
}

/** One line for a call: `PUT /favorites/12 {"favorite":{"have_it":true}}`. */
export function formatCall(call: HttpCall): string {
  const query = call.query ? `?${new URLSearchParams(Object.entries(call.query).map(([k, v]) => [k, String(v)])).toString()}` : '';
  return `${call.method} ${call.path}${query}${call.json !== undefined ? ` ${JSON.stringify(call.json)}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Model helpers (pure; every update returns a new model)

export function initialModel(lists: readonly { id: number; name?: unknown; category_id?: unknown; type?: unknown }[], apiFlags: { excludesOwned: boolean; normalizedErrors: boolean }): FavoritesModel {
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
/** Whether the model knows the favorite is owned (undefined: have_it true, its list not known). */
const ownedModel = (f: ModelFavorite): boolean | undefined => (f.haveIt === true && f.listId === undefined ? undefined : isOwnedModel(f));

/** The live auto list of a category the model knows. */
export function autoListOf(m: FavoritesModel, categoryId: number): ModelList | undefined {
  return m.lists.find((l) => l.state === 'live' && l.kind === 'auto' && l.categoryId === categoryId);
}

/** The auto list of a category that may have been dropped (its last known favorite left). */
function maybeAutoListOf(m: FavoritesModel, categoryId: number): ModelList | undefined {
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

function withList(m: FavoritesModel, list: ModelList): FavoritesModel {
  return { ...m, lists: [...m.lists.filter((l) => l.id !== list.id), list] };
}

function withFavorite(m: FavoritesModel, favorite: ModelFavorite): FavoritesModel {
  const exists = m.favorites.some((f) => f.id === favorite.id);
  return { ...m, favorites: exists ? m.favorites.map((f) => (f.id === favorite.id ? favorite : f)) : [...m.favorites, favorite] };
}

/** The favorite, in a list now known (or null), awaiting nothing. */
function placed(f: ModelFavorite, listId: number | null | undefined, haveIt: boolean | null): ModelFavorite {
  const { awaits: _, ...rest } = f;
  return { ...rest, listId, haveIt };
}

/**
 * A list id the deployment answered that the model does not know: a list it made (ours, to
 * delete). A negative id is an auto list, tied to one category: that of the favorite in it; an
 * auto list of that category that may have been dropped was, since the favorite is not in it. A
 * list that may have been dropped and holds the favorite is live.
 */
function adoptUnknownList(m: FavoritesModel, id: unknown, categoryId: number | null): FavoritesModel {
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
function moved(m: FavoritesModel, before: ModelFavorite, after: ModelFavorite): FavoritesModel {
  const model = withFavorite(m, after);
  if (before.state !== 'live') return model;
  if (after.state === 'gone') return left(model, before);
  return before.listId === undefined || after.listId !== before.listId ? left(model, before, after.listId ?? null) : model;
}

// ---------------------------------------------------------------------------------------------
// Reading answers

interface ReadFavorite {
  id: number;
  sku_id: unknown;
  /** undefined: not shown (favorite_list_id "accepted on update": shown there only, one reading). */
  favorite_list_id: number | null | undefined;
  have_it: boolean | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A failure that is only a null where the spec types a value is blank (GEN-8: a warning). */
const typedFailure = (value: unknown, requirements: string[], message: string): Failure => (value === null ? { requirements, message, blank: true } : { requirements, message });

/** The favorite of a `{favorite}` body, or why it cannot be read. */
function readFavorite(body: unknown, where: string): ReadFavorite | Failure {
  const f = isObject(body) ? body['favorite'] : undefined;
  if (!isObject(f)) return { requirements: ['GEN-7', 'FAV-7'], message: `${where} answered no {favorite} object: ${show(body)}` };
  const listId = f['favorite_list_id'];
  const haveIt = f['have_it'];
  if (!Number.isInteger(f['id'])) return typedFailure(f['id'], ['FAV-7'], `${where}: the favorite's id is ${show(f['id'])}, expected an integer`);
  if (listId !== null && listId !== undefined && !Number.isInteger(listId)) return { requirements: ['FAV-7', 'GEN-8'], message: `${where}: favorite_list_id is ${show(listId)}, expected an integer or null` };
  if (haveIt !== null && typeof haveIt !== 'boolean') return { requirements: ['FAV-7', 'GEN-8'], message: `${where}: have_it is ${show(haveIt)}, expected a boolean or null` };
  return { id: f['id'] as number, sku_id: f['sku_id'], favorite_list_id: listId as number | null | undefined, have_it: haveIt as boolean | null };
}

const isFailure = (x: unknown): x is Failure => isObject(x) && Array.isArray(x['requirements']) && typeof x['message'] === 'string';

/** The items of a `{<key>: [...]}` collection and whether the one page holds all of them. */
function readCollection(body: unknown, key: string, where: string): { items: Record<string, unknown>[]; complete: boolean } | Failure {
  const items = isObject(body) ? body[key] : undefined;
  if (!Array.isArray(items) || !items.every(isObject)) return { requirements: ['GEN-7'], message: `${where} answered no {${key}: [...]} collection: ${show(body)}` };
  const pagination = readPagination(body);
  return { items: items as Record<string, unknown>[], complete: pagination ? pagination.total_pages <= 1 : items.length < LISTING_PER };
}

function statusFailure(answer: Answer, expected: number, where: string, requirements: string[]): Failure | undefined {
  return answer.status === expected ? undefined : { requirements, message: `${where} answered ${answer.status}, expected ${expected}${bodyHint(answer.body)}` };
}

const bodyHint = (body: unknown) => (body === undefined ? '' : ` (body ${show(body, 200)})`);

const fromCheck = (result: CheckResult, ...requirements: string[]): Failure | undefined => (result.ok ? undefined : { requirements, message: result.message });

/** A 404 "resource does not exist" for a record the model knows is gone. */
function notFound(answer: Answer, where: string, requirements: string[]): Failure | undefined {
  return statusFailure(answer, 404, `${where} (deleted earlier in this sequence)`, requirements);
}

/** An error answer's body, from 3.1.0 on: {errors: [{code, messages}]}. */
function errorBody(m: FavoritesModel, answer: Answer, ...requirements: string[]): Failure | undefined {
  if (!m.normalizedErrors || answer.status < 400 || answer.status >= 500) return undefined;
  return fromCheck(errorBodyIsWellFormed(answer.body), ...requirements, 'ERR-2');
}

// ---------------------------------------------------------------------------------------------
// The reducer

/** Judges the answer to `action` and returns the next model (also when the answer broke a rule). */
export function step(m: FavoritesModel, action: Action, answer: Answer): StepResult {
  const where = formatCall(requestOf(action)).split(' {')[0]!;
  switch (action.type) {
    case 'createList':
      return createList(m, action, answer, where);
    case 'deleteList':
      return deleteList(m, action, answer, where);
    case 'createFavorite':
      return createFavorite(m, action, answer, where);
    case 'updateFavorite':
      return updateFavorite(m, action, answer, where);
    case 'deleteFavorite':
      return deleteFavorite(m, action, answer, where);
    case 'getFavorite':
      return getFavorite(m, action, answer, where);
    case 'listLists':
      return listLists(m, answer, where);
    case 'listFavorites':
      return listFavorites(m, action, answer, where);
    case 'listListFavorites':
      return listListFavorites(m, action, answer, where);
  }
}

function createList(m: FavoritesModel, a: Extract<Action, { type: 'createList' }>, answer: Answer, where: string): StepResult {
  const existing = customListNamed(m, a.name);
  // A custom list of that name a favorite went into, whose id the answer did not show: it exists
  // already, so the answer is not judged (GET /favorite_lists shows two lists of a name, if so).
  const awaited = awaitingLists(m).some((f) => f.awaits && 'name' in f.awaits && f.awaits.name === a.name);
  const success = answer.status >= 200 && answer.status < 300;
  const made = isObject(answer.body) && isObject(answer.body['favorite_list']) ? answer.body['favorite_list'] : undefined;
  const madeId = made?.['id'];
  // Whatever was made is the run's, to delete afterwards.
  const next = success && Number.isInteger(madeId) && !findList(m, madeId)
    ? withList(m, { id: madeId as number, name: a.name, kind: 'custom', categoryId: null, ours: true, state: 'live' })
    : m;
  if (awaited && !existing) return { model: next };
  if (existing) {
    // "a custom list with an existing custom name gives an error"; which status and code: not shown.
    return success
      ? { model: next, failure: { requirements: ['FAV-20'], message: `${where} with the name ${show(a.name)} of the existing custom list ${existing.id} answered ${answer.status}${madeId !== undefined ? ` and list ${show(madeId)}` : ''}: expected an error` } }
      : { model: m, failure: errorBody(m, answer) };
  }
  const failure =
    statusFailure(answer, 201, where, ['FAV-19']) ??
    (made ? undefined : { requirements: ['GEN-7', 'FAV-19'], message: `${where} answered no {favorite_list} object: ${show(answer.body)}` }) ??
    (Number.isInteger(madeId) ? undefined : typedFailure(madeId, ['FAV-1'], `${where}: the created list has id ${show(madeId)}`)) ??
    (findList(m, madeId)?.state === 'live' ? { requirements: ['FAV-19'], message: `${where} answered list ${show(madeId)}, which already exists` } : undefined) ??
    (made!['name'] === a.name ? undefined : typedFailure(made!['name'], ['FAV-19'], `${where} created the list as ${show(made!['name'])}, asked ${show(a.name)}`)) ??
    (made!['type'] === 'custom' ? undefined : typedFailure(made!['type'], ['FAV-3'], `${where}: the created list has type ${show(made!['type'])}, expected "custom"`));
  return { model: next, ...(failure ? { failure } : {}) };
}

function deleteList(m: FavoritesModel, a: Extract<Action, { type: 'deleteList' }>, answer: Answer, where: string): StepResult {
  const list = findList(m, a.listId);
  if (!list || list.state === 'gone') return { model: m, ...opt(notFound(answer, where, ['FAV-22', 'ERR-10'])) };
  // An auto list its last favorite left may have been dropped: 404 then.
  if (list.state === 'maybe' && answer.status === 404) return { model: withList(m, { ...list, state: 'gone' }) };
  if (answer.status !== 204) return { model: m, failure: statusFailure(answer, 204, where, ['FAV-21'])! };
  // What becomes of the favorites of a deleted list: not shown. A favorite whose list is not
  // known may have been in it.
  const mayHold = (f: ModelFavorite) =>
    f.listId === list.id ||
    (f.listId === undefined && (!f.awaits || ('name' in f.awaits ? f.awaits.name === list.name : list.kind !== 'custom' && list.categoryId === f.awaits.categoryId)));
  const favorites = m.favorites.map((f) => (f.state !== 'gone' && mayHold(f) ? { ...f, state: 'unknown' as const } : f));
  return { model: { ...withList(m, { ...list, state: 'gone' }), favorites } };
}

const opt = (failure: Failure | undefined) => (failure ? { failure } : {});

/** Row 4 (POST or PUT): the favorite is in the custom list of that name, created if absent. */
function intoNamedList(m: FavoritesModel, name: string, listId: number | null, where: string): { model: FavoritesModel; failure?: Failure } {
  const existing = customListNamed(m, name);
  if (existing) {
    if (listId === existing.id) return { model: m };
    const model = adoptUnknownList(m, listId, null);
    return { model, failure: { requirements: ['FAV-14', 'FAV-15'], message: `${where} with new_list_name ${show(name)}: the favorite is in list ${show(listId)}, not in the existing custom list ${existing.id} of that name` } };
  }
  const other = findList(m, listId);
  if (listId === null || (other && other.state !== 'gone')) {
    return { model: m, failure: { requirements: ['FAV-14', 'FAV-15'], message: `${where} with new_list_name ${show(name)}, a name no list has: the favorite is in ${listId === null ? 'no list' : `list ${listId} (${other!.kind}${other!.name !== null ? ` ${show(other!.name)}` : ''}), which existed before`}, expected a new custom list of that name` } };
  }
  return { model: withList(m, { id: listId, name, kind: 'custom', categoryId: null, ours: true, state: 'live' }) };
}

/**
 * Row 4 when the answer shows no favorite_list_id: the existing custom list of that name, or the
 * new one, awaited (GET /favorite_lists shows it).
 */
function namedListUnseen(m: FavoritesModel, f: ModelFavorite, name: string, haveIt: boolean | null): ModelFavorite {
  const existing = customListNamed(m, name);
  return existing ? placed(f, existing.id, haveIt) : { ...placed(f, undefined, haveIt), awaits: { name } };
}

function createFavorite(m: FavoritesModel, a: Extract<Action, { type: 'createFavorite' }>, answer: Answer, where: string): StepResult {
  const status = statusFailure(answer, 201, where, ['FAV-30']);
  const read = readFavorite(answer.body, where);
  if (isFailure(read)) return { model: m, failure: status ?? read };
  const created: ModelFavorite = { id: read.id, skuId: a.skuId, categoryId: a.categoryId, listId: read.favorite_list_id, haveIt: read.have_it, state: 'live' };
  let model = withFavorite(m, created);
  if (status) return { model: adoptUnknownList(model, read.favorite_list_id, a.categoryId), failure: status };
  if (read.sku_id !== a.skuId) return { model: adoptUnknownList(model, read.favorite_list_id, a.categoryId), failure: typedFailure(read.sku_id, ['FAV-30'], `${where}: the favorite was created for SKU ${show(read.sku_id)}, asked ${a.skuId}`) };
  const haveItNull = (): Failure | undefined => (read.have_it === null ? undefined : { requirements: ['FAV-16'], message: `${where} with new_list_name: have_it is ${show(read.have_it)}, expected null` });
  const listId = read.favorite_list_id;
  if (a.newListName !== undefined) {
    if (listId === undefined) return { model: withFavorite(m, namedListUnseen(m, created, a.newListName, read.have_it)), ...opt(haveItNull()) };
    const moved = intoNamedList(model, a.newListName, listId, where);
    return { model: moved.model, ...opt(moved.failure ?? haveItNull()) };
  }
  // Row 1: into the auto list of the SKU's category, created if needed.
  const auto = autoListOf(m, a.categoryId);
  if (listId === undefined) {
    // Not shown: the auto list of the category when the model knows it, else awaited.
    return { model: withFavorite(m, auto ? { ...created, listId: auto.id } : { ...created, awaits: { categoryId: a.categoryId } }) };
  }
  if (auto) {
    if (listId === auto.id) return { model };
    model = adoptUnknownList(model, listId, a.categoryId);
    return { model, failure: { requirements: ['FAV-9'], message: `${where} without a list, SKU ${a.skuId} of category ${a.categoryId}: the favorite is in ${describeList(m, listId)}, expected the auto list ${auto.id} of that category` } };
  }
  if (listId === null) return { model, failure: { requirements: ['FAV-10', 'FAV-9'], message: `${where} without a list, SKU ${a.skuId} of category ${a.categoryId}, which had no auto list: the favorite is in no list (favorite_list_id null); the auto list must be created` } };
  const known = findList(m, listId);
  const dropped = maybeAutoListOf(m, a.categoryId);
  if (known && known.state !== 'gone' && known !== dropped) {
    return { model, failure: { requirements: ['FAV-9'], message: `${where} without a list, SKU ${a.skuId} of category ${a.categoryId}: the favorite is in ${describeList(m, listId)}, not an auto list of that category` } };
  }
  // The auto list of the category that may have been dropped (it holds the favorite: live), or a new one.
  model = adoptUnknownList(model, listId, a.categoryId);
  return listId < 0 ? { model } : { model, failure: { requirements: ['FAV-2', 'FAV-10'], message: `${where} without a list: the favorite is in list ${listId}, which is not negative as an auto list's id is` } };
}

function describeList(m: FavoritesModel, id: number | null | undefined): string {
  if (id === null) return 'no list (favorite_list_id null)';
  if (id === undefined) return 'a list not known (favorite_list_id not shown)';
  const l = findList(m, id);
  if (!l) return `list ${id}`;
  return `list ${id} (${l.state === 'gone' ? 'deleted ' : ''}${l.kind === 'auto' ? `auto list of category ${show(l.categoryId)}` : l.kind === 'custom' ? `custom list ${show(l.name)}` : 'a list'})`;
}

function updateFavorite(m: FavoritesModel, a: Extract<Action, { type: 'updateFavorite' }>, answer: Answer, where: string): StepResult {
  const before = findFavorite(m, a.favoriteId);
  if (!before) throw new Error(`the model knows no favorite ${a.favoriteId}`);
  if (before.state === 'gone') return { model: m, ...opt(notFound(answer, where, ['ERR-9'])) };
  if (before.state === 'unknown' && answer.status === 404) return { model: withFavorite(m, { ...before, state: 'gone' }) };
  const blank = a.newListName !== undefined && a.newListName.trim() === '';
  if (blank && a.haveIt !== true) {
    // Row 4, on error: status 400 with errors in the body. Which names are invalid: not shown,
    // so a blank name taken as valid is adopted.
    if (answer.status >= 400) {
      const failure = statusFailure(answer, 400, `${where} with the blank new_list_name ""`, ['FAV-17']) ?? errorBody(m, answer, 'FAV-17');
      return { model: m, ...opt(failure) };
    }
    return adopt(m, before, answer, where);
  }
  const live = { ...before, state: 'live' as const };
  if (a.haveIt === true) {
    // Row 2: owned (have_it true, favorite_list_id null); a favorite_list_id sent is ignored. An
    // answer that shows no favorite_list_id is judged by have_it (the listings show the rest).
    const read = readAnswer(answer, where);
    if (isFailure(read)) return { model: m, failure: read };
    const model = adoptUnknownList(moved(m, before, placed(live, read.favorite_list_id === undefined ? null : read.favorite_list_id, read.have_it)), read.favorite_list_id, before.categoryId);
    const sent = a.favoriteListId;
    const failure =
      (sent !== undefined && read.favorite_list_id === sent && sent !== null
        ? { requirements: ['FAV-12'], message: `${where} with have_it=true and favorite_list_id ${sent}: the favorite moved into list ${sent}; the list id must be ignored (owned: have_it true, favorite_list_id null)` }
        : undefined) ??
      (read.have_it === true && (read.favorite_list_id === null || read.favorite_list_id === undefined)
        ? undefined
        : { requirements: ['FAV-11'], message: `${where} with have_it=true: the favorite has have_it ${show(read.have_it)} and favorite_list_id ${show(read.favorite_list_id)}, expected owned (have_it true, favorite_list_id null)` });
    return { model, ...opt(failure) };
  }
  if (a.newListName !== undefined) {
    // Row 4 through PUT.
    const read = readAnswer(answer, where);
    if (isFailure(read)) return { model: m, failure: read };
    const haveItNull =
      read.have_it === null ? undefined : { requirements: ['FAV-16'], message: `${where} with new_list_name ${show(a.newListName)}: have_it is ${show(read.have_it)} (it was ${show(before.haveIt)}), expected null` };
    if (read.favorite_list_id === undefined) return { model: moved(m, before, namedListUnseen(m, live, a.newListName, read.have_it)), ...opt(haveItNull) };
    const into = intoNamedList(moved(m, before, placed(live, read.favorite_list_id, read.have_it)), a.newListName, read.favorite_list_id, where);
    return { model: into.model, ...opt(into.failure ?? haveItNull) };
  }
  if (a.favoriteListId !== undefined) {
    // Row 3: into that list, when have_it is not true. A favorite whose have_it is true, or one
    // whose state is not known, is not covered by the row: its answer is adopted.
    if (before.state === 'unknown' || before.haveIt === true) return adopt(m, before, answer, where);
    const read = readAnswer(answer, where);
    if (isFailure(read)) return { model: m, failure: read };
    // An answer that shows no favorite_list_id: in that list, as the row says (the listings judge it).
    const listId = read.favorite_list_id === undefined ? a.favoriteListId : read.favorite_list_id;
    const model = adoptUnknownList(moved(m, before, placed(before, listId, read.have_it)), listId, before.categoryId);
    return listId === a.favoriteListId
      ? { model }
      : { model, failure: { requirements: ['FAV-13', 'FAV-8'], message: `${where} with favorite_list_id ${a.favoriteListId}${a.haveIt !== undefined ? ` and have_it ${show(a.haveIt)}` : ''} (have_it was ${show(before.haveIt)}): the favorite is in ${describeList(m, listId)}, expected ${describeList(m, a.favoriteListId)}` } };
  }
  // have_it false or null alone: what it does is not shown.
  return adopt(m, before, answer, where);
}

/** A 200 {favorite} answer, or the failure of PUT /favorites/:id. */
function readAnswer(answer: Answer, where: string): ReadFavorite | Failure {
  return statusFailure(answer, 200, where, ['FAV-31']) ?? readFavorite(answer.body, where);
}

/** Where the spec allows several outcomes: the model takes what the deployment answered (a list not shown is not known). */
function adopt(m: FavoritesModel, before: ModelFavorite, answer: Answer, where: string): StepResult {
  if (answer.status < 200 || answer.status >= 300) return { model: m };
  const read = readFavorite(answer.body, where);
  if (isFailure(read)) return { model: m, failure: read };
  return { model: adoptUnknownList(moved(m, before, placed({ ...before, state: 'live' }, read.favorite_list_id, read.have_it)), read.favorite_list_id, before.categoryId) };
}

function deleteFavorite(m: FavoritesModel, a: Extract<Action, { type: 'deleteFavorite' }>, answer: Answer, where: string): StepResult {
  const before = findFavorite(m, a.favoriteId);
  if (!before) throw new Error(`the model knows no favorite ${a.favoriteId}`);
  const gone = moved(m, before, { ...before, state: 'gone' });
  if (before.state === 'gone') return { model: m, ...opt(notFound(answer, where, ['FAV-33', 'ERR-10'])) };
  if (before.state === 'unknown') return answer.status === 204 || answer.status === 404 ? { model: gone } : { model: m, failure: statusFailure(answer, 204, where, ['FAV-32'])! };
  return answer.status === 204 ? { model: gone } : { model: m, failure: statusFailure(answer, 204, where, ['FAV-32'])! };
}

function getFavorite(m: FavoritesModel, a: Extract<Action, { type: 'getFavorite' }>, answer: Answer, where: string): StepResult {
  const before = findFavorite(m, a.favoriteId);
  if (!before) throw new Error(`the model knows no favorite ${a.favoriteId}`);
  if (before.state === 'gone') return { model: m, ...opt(notFound(answer, where, ['ERR-9'])) };
  if (before.state === 'unknown') {
    if (answer.status === 404) return { model: withFavorite(m, { ...before, state: 'gone' }) };
    return adopt(m, before, answer, where);
  }
  const status = statusFailure(answer, 200, where, ['FAV-29']);
  if (status) return { model: m, failure: status };
  const read = readFavorite(answer.body, where);
  if (isFailure(read)) return { model: m, failure: read };
  return reconcile(m, before, read, where, ['FAV-29']);
}

/**
 * A favorite as answered agrees with the model: have_it, and its list where both the answer and
 * the model know it. A list the model did not know is learned: the one shown, else `context`
 * (the list whose favorites were listed; null for the owned favorites).
 */
function reconcile(m: FavoritesModel, f: ModelFavorite, read: { favorite_list_id?: unknown; have_it?: unknown }, where: string, requirements: string[], context?: number | null): StepResult {
  const shown = read.favorite_list_id !== undefined;
  if (read.have_it !== f.haveIt || (shown && f.listId !== undefined && read.favorite_list_id !== f.listId)) {
    return {
      model: m,
      failure: {
        requirements,
        message: `${where}: favorite ${f.id} has favorite_list_id ${show(read.favorite_list_id)} and have_it ${show(read.have_it)}, but the sequence left it in ${describeList(m, f.listId)} with have_it ${show(f.haveIt)}`,
      },
    };
  }
  const learned = shown ? read.favorite_list_id : context;
  if (f.listId !== undefined || learned === undefined || (learned !== null && !Number.isInteger(learned))) return { model: m };
  return { model: adoptUnknownList(withFavorite(m, placed(f, learned as number | null, f.haveIt)), learned, f.categoryId) };
}

function listLists(m: FavoritesModel, answer: Answer, where: string): StepResult {
  const status = statusFailure(answer, 200, where, ['FAV-18']);
  if (status) return { model: m, failure: status };
  const read = readCollection(answer.body, 'favorite_lists', where);
  if (isFailure(read)) return { model: m, failure: { ...read, requirements: [...read.requirements, 'FAV-18'] } };
  const listed = new Map(read.items.filter((l) => Number.isInteger(l['id'])).map((l) => [l['id'] as number, l]));
  // Whether auto lists are listed at all: not shown (FAV-18 reads both ways); this answer tells.
  const listsAuto = read.items.some((l) => isAutoList(l));
  let model = m;
  for (const list of m.lists.filter((l) => l.state === 'maybe')) {
    // An auto list its last favorite left: listed, it stayed; not listed among auto lists, it was dropped.
    if (listed.has(list.id)) model = withList(model, { ...list, state: 'live' });
    else if (read.complete && listsAuto) model = withList(model, { ...list, state: 'gone' });
  }
  for (const list of m.lists.filter((l) => l.ours && l.state !== 'maybe')) {
    const item = listed.get(list.id);
    if (list.state === 'gone' && item) return { model: m, failure: { requirements: ['FAV-21'], message: `${where} lists ${describeList(m, list.id)}, gone earlier in this sequence` } };
    // An auto list is missing only where auto lists are listed, and while a favorite is known in it.
    const required = list.kind !== 'auto' || (listsAuto && m.favorites.some((f) => f.state === 'live' && f.listId === list.id));
    if (list.state === 'live' && !item && read.complete && required) return { model: m, failure: { requirements: ['FAV-18', list.kind === 'auto' ? 'FAV-10' : 'FAV-19'], message: `${where} does not list ${describeList(m, list.id)}` } };
    if (list.state === 'live' && item && list.kind === 'auto' && list.categoryId !== null && item['category_id'] !== list.categoryId) {
      return { model: m, failure: typedFailure(item['category_id'], ['FAV-5', 'FAV-9'], `${where}: list ${list.id}, the auto list the sequence's favorites of category ${list.categoryId} went into, has category_id ${show(item['category_id'])}`) };
    }
  }
  const names = new Map<string, number[]>();
  for (const l of read.items) {
    if (typeof l['name'] !== 'string' || !customListNamed(m, l['name'])?.ours) continue;
    if (l['type'] === 'auto' || (typeof l['id'] === 'number' && l['id'] < 0)) continue;
    names.set(l['name'], [...(names.get(l['name']) ?? []), l['id'] as number]);
  }
  for (const [name, ids] of names) {
    if (ids.length > 1) return { model: m, failure: { requirements: ['FAV-15', 'FAV-20'], message: `${where} lists ${ids.length} custom lists named ${show(name)}: ${ids.join(', ')}` } };
  }
  return learnAwaited(model, read.items, read.complete, listsAuto, where);
}

/**
 * The lists favorites await (their answers showed no favorite_list_id): the custom list of the
 * name sent (row 4), the auto list of the SKU's category (row 1), as GET /favorite_lists lists
 * them. Missing from a whole listing, the list was not made (an auto list only where auto lists
 * are listed).
 */
function learnAwaited(m: FavoritesModel, items: readonly Record<string, unknown>[], complete: boolean, listsAuto: boolean, where: string): StepResult {
  let model = m;
  for (const f of awaitingLists(m)) {
    const awaits = f.awaits!;
    const found = items.find((l) => Number.isInteger(l['id']) && ('name' in awaits ? !isAutoList(l) && l['name'] === awaits.name : isAutoList(l) && l['category_id'] === awaits.categoryId));
    if (found) {
      const id = found['id'] as number;
      const known = findList(model, id);
      if (known?.state === 'maybe') model = withList(model, { ...known, state: 'live' });
      else if (!known || known.state === 'gone') {
        model = withList(model, 'name' in awaits ? { id, name: awaits.name, kind: 'custom', categoryId: null, ours: true, state: 'live' } : { id, name: null, kind: 'auto', categoryId: awaits.categoryId, ours: true, state: 'live' });
      }
      model = withFavorite(model, placed(f, id, f.haveIt));
    } else if (complete && 'name' in awaits) {
      return { model, failure: { requirements: ['FAV-14', 'FAV-15'], message: `${where} lists no list named ${show(awaits.name)}, the custom list new_list_name ${show(awaits.name)} put favorite ${f.id} in (its answer showed no favorite_list_id)` } };
    } else if (complete && listsAuto && 'categoryId' in awaits) {
      return { model, failure: { requirements: ['FAV-9', 'FAV-10', 'FAV-5'], message: `${where} lists auto lists but none of category ${awaits.categoryId}, whose auto list favorite ${f.id}, created without a list, went into (its answer showed no favorite_list_id)` } };
    }
  }
  return { model };
}

function listFavorites(m: FavoritesModel, a: Extract<Action, { type: 'listFavorites' }>, answer: Answer, where: string): StepResult {
  const requirement = a.owned ? 'FAV-24' : 'FAV-23';
  const status = statusFailure(answer, 200, where, [requirement]);
  if (status) return { model: m, failure: status };
  const read = readCollection(answer.body, 'favorites', where);
  if (isFailure(read)) return { model: m, failure: { ...read, requirements: [...read.requirements, requirement] } };
  const items = read.items as FavoriteLike[];
  const shape = a.owned
    ? fromCheck(holdsOnlyOwnedFavorites(items, where), 'FAV-24', 'FAV-6')
    : m.excludesOwned
      ? fromCheck(holdsNoOwnedFavorites(items, where), 'FAV-26', 'CHG-2')
      : undefined;
  if (shape) return { model: m, failure: shape };
  const order = fromCheck(listedInCreationOrder(items, a.orderDir ?? 'desc', where), 'FAV-25');
  if (order) return { model: m, failure: order };
  // Before 3.2.0 the default listing holds owned favorites too (Change history 3.2.0). Whether a
  // favorite with have_it true whose list the model does not know is owned: not judged (owned=true
  // listing it shows it is: no list).
  const belongs = (f: ModelFavorite) => {
    const owned = ownedModel(f);
    return owned === undefined ? undefined : a.owned ? owned : !owned || !m.excludesOwned;
  };
  return judgeListed(m, items, read.complete, where, belongs, (f) => (a.owned ? ['FAV-24'] : isOwnedModel(f) ? (m.excludesOwned ? ['FAV-26', 'CHG-2'] : ['CHG-2']) : ['FAV-23']), a.owned ? null : undefined);
}

function listListFavorites(m: FavoritesModel, a: Extract<Action, { type: 'listListFavorites' }>, answer: Answer, where: string): StepResult {
  const list = findList(m, a.listId);
  if (list?.state === 'gone') return { model: m, ...opt(notFound(answer, where, ['ERR-9'])) };
  // An auto list its last favorite left: 404 if it was dropped, its favorites if it stayed.
  if (list?.state === 'maybe' && answer.status === 404) return { model: withList(m, { ...list, state: 'gone' }) };
  const model = list?.state === 'maybe' && answer.status === 200 ? withList(m, { ...list, state: 'live' }) : m;
  const status = statusFailure(answer, 200, where, ['FAV-27']);
  if (status) return { model: m, failure: status };
  const read = readCollection(answer.body, 'favorites', where);
  if (isFailure(read)) return { model: m, failure: { ...read, requirements: [...read.requirements, 'FAV-27'] } };
  const items = read.items as FavoriteLike[];
  const strays = items.filter((f) => f.favorite_list_id !== undefined && f.favorite_list_id !== a.listId);
  if (strays.length) return { model: m, failure: { requirements: ['FAV-27'], message: `${where} lists favorites of other lists: ${strays.slice(0, 5).map((f) => `${show(f.id)} (favorite_list_id ${show(f.favorite_list_id)})`).join(', ')}` } };
  const owned = fromCheck(holdsNoOwnedFavorites(items, where), 'FAV-28');
  if (owned) return { model: m, failure: owned };
  // A favorite whose list the model does not know: listed here, it is in this list.
  return judgeListed(model, items, read.complete, where, (f) => (f.listId === undefined ? undefined : f.listId === a.listId && !isOwnedModel(f)), () => ['FAV-27'], a.listId);
}

/**
 * GET /favorites is ordered by creation date: descending by default, ascending with order_dir=asc
 * (Endpoints > Favorites). Judged on the page as answered, every listed favorite included (those
 * the run did not make too): the created_at of consecutive favorites follow the direction; equal
 * timestamps (favorites created in the same second) may come in any order, and a favorite whose
 * created_at is not a timestamp is passed over (its shape is judged elsewhere).
 */
export function listedInCreationOrder(items: readonly { id?: unknown; created_at?: unknown }[], dir: 'asc' | 'desc', where: string): CheckResult {
  let previous: { item: { id?: unknown; created_at?: unknown }; ms: number } | null = null;
  for (const item of items) {
    const ms = typeof item.created_at === 'string' ? Date.parse(item.created_at) : NaN;
    if (Number.isNaN(ms)) continue;
    if (previous && (dir === 'asc' ? ms < previous.ms : ms > previous.ms)) {
      return fail(
        `${where} lists favorite ${show(item.id)} (created_at ${show(item.created_at)}) after favorite ${show(previous.item.id)} (created_at ${show(previous.item.created_at)}): expected creation date ${dir === 'asc' ? 'ascending (order_dir=asc)' : 'descending (the default)'}`,
      );
    }
    previous = { item, ms };
  }
  return pass();
}

/**
 * The sequence's favorites in a listing: each live one the listing should hold is there (when
 * the page holds the whole listing), no other is, and each listed one agrees with the model.
 * A favorite of unknown state that is listed is live, as listed. `belongs` undefined: not known
 * (a list the model does not know), not judged; `context` is the list the listing is of (null:
 * the owned favorites), where a listed favorite shows no favorite_list_id.
 */
function judgeListed(
  m: FavoritesModel,
  items: readonly FavoriteLike[],
  complete: boolean,
  where: string,
  belongs: (f: ModelFavorite) => boolean | undefined,
  requirementsOf: (f: ModelFavorite) => string[],
  context?: number | null,
): StepResult {
  const listed = new Map(items.filter((f) => Number.isInteger(f.id)).map((f) => [f.id as number, f]));
  let model = m;
  for (const f of m.favorites) {
    const item = listed.get(f.id);
    if (f.state === 'unknown') {
      if (item) {
        const listId = item.favorite_list_id !== undefined ? (item.favorite_list_id as number | null) : context;
        model = withFavorite(model, { ...placed(f, listId, (item.have_it ?? null) as boolean | null), state: 'live' });
      }
      continue;
    }
    if (f.state === 'gone') {
      if (item) return { model, failure: { requirements: ['FAV-32'], message: `${where} lists favorite ${f.id}, deleted earlier in this sequence` } };
      continue;
    }
    const requirements = requirementsOf(f);
    if (item) {
      const same = reconcile(model, f, item, where, requirements, context);
      if (same.failure) return { model, failure: same.failure };
      model = same.model;
      if (belongs(f) === false) return { model, failure: { requirements, message: `${where} lists favorite ${f.id} (${describeList(m, f.listId)}, have_it ${show(f.haveIt)}), which it should not` } };
    } else if (complete && belongs(f) === true) {
      return { model, failure: { requirements, message: `${where} does not list favorite ${f.id} (${describeList(m, f.listId)}, have_it ${show(f.haveIt)})` } };
    }
  }
  return { model };
}

/** Passes when a step's answer kept the rules (for unit tests and messages). */
export function verdict(result: StepResult): CheckResult {
  return result.failure ? fail(`[${result.failure.requirements.join(', ')}] ${result.failure.message}`) : pass();
}
