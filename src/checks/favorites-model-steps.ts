// The reducer of the favorites model (src/checks/favorites-model.ts holds the model, its actions
// and the readers of answers): `step(model, action, answer)` judges the deployment's answer to one
// action against the model and returns the next model; `verdict` turns a step into a check result.
import { fail, pass, show, type CheckResult } from './check.ts';
import { holdsNoOwnedFavorites, holdsOnlyOwnedFavorites, isAutoList, type FavoriteLike } from './favorites.ts';
import {
  adoptUnknownList,
  autoListOf,
  awaitingLists,
  customListNamed,
  errorBody,
  findFavorite,
  findList,
  formatCall,
  fromCheck,
  isFailure,
  isObject,
  isOwnedModel,
  maybeAutoListOf,
  moved,
  notFound,
  ownedModel,
  placed,
  readCollection,
  readFavorite,
  requestOf,
  statusFailure,
  typedFailure,
  withFavorite,
  withList,
  type Action,
  type Answer,
  type Failure,
  type FavoritesModel,
  type ModelFavorite,
  type ReadFavorite,
  type StepResult,
} from './favorites-model.ts';

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
