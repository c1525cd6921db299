// The favorites model's steps on one favorite (favorites-model-steps.ts dispatches to them):
// POST /favorites, PUT /favorites/:id (the rows of States and transitions), DELETE and GET
// /favorites/:id; and `reconcile`, which holds a favorite as answered against the model (the
// listings use it too).
import { show } from './check.ts';
import {
  adoptUnknownList,
  answeredList,
  autoListOf,
  customListNamed,
  errorBody,
  findFavorite,
  findList,
  isAutoListOf,
  isFailure,
  listedByCategory,
  maybeAutoListOf,
  moved,
  notFound,
  placed,
  readFavorite,
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
import { describeList, opt } from './favorites-model-list-steps.ts';

/** Row 4 (POST or PUT): the favorite is in the custom list of that name, created if absent. */
function intoNamedList(m: FavoritesModel, name: string, listId: number | null, where: string): { model: FavoritesModel; failure?: Failure } {
  const existing = customListNamed(m, name);
  if (existing) {
    if (listId === existing.id) return { model: m };
    // A list the model does not know is one made anew though one of that name exists (FAV-15): its
    // name is not seen, so that it is not a list of that name (FAV-14) is not said.
    const madeAnew = typeof listId === 'number' && Number.isInteger(listId) && findList(m, listId) === undefined;
    const model = adoptUnknownList(m, listId, null);
    return {
      model,
      failure: {
        requirements: madeAnew ? ['FAV-15'] : ['FAV-14', 'FAV-15'],
        message: `${where} with new_list_name ${show(name)}: the favorite is in list ${show(listId)}, not in the existing custom list ${existing.id} of that name`,
      },
    };
  }
  const other = findList(m, listId);
  if (listId === null || (other && other.state !== 'gone')) {
    return {
      model: m,
      failure: {
        requirements: ['FAV-14', 'FAV-15'],
        message: `${where} with new_list_name ${show(name)}, a name no list has: the favorite is in ${listId === null ? 'no list' : `list ${listId} (${other!.kind}${other!.name !== null ? ` ${show(other!.name)}` : ''}), which existed before`}, expected a new custom list of that name`,
      },
    };
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

export function createFavorite(m: FavoritesModel, a: Extract<Action, { type: 'createFavorite' }>, answer: Answer, where: string): StepResult {
  const status = statusFailure(answer, 201, where, ['FAV-30']);
  const read = readFavorite(answer.body, where);
  if (isFailure(read)) return { model: m, failure: status ?? read };
  const created: ModelFavorite = { id: read.id, skuId: a.skuId, categoryId: a.categoryId, listId: read.favorite_list_id, haveIt: read.have_it, state: 'live' };
  let model = withFavorite(m, created);
  if (status) return { model: adoptUnknownList(model, read.favorite_list_id, a.categoryId), failure: status };
  if (read.sku_id !== a.skuId)
    return {
      model: adoptUnknownList(model, read.favorite_list_id, a.categoryId),
      failure: typedFailure(read.sku_id, ['FAV-30'], `${where}: the favorite was created for SKU ${show(read.sku_id)}, asked ${a.skuId}`),
    };
  const haveItNull = (): Failure | undefined =>
    read.have_it === null ? undefined : { requirements: ['FAV-16'], message: `${where} with new_list_name: have_it is ${show(read.have_it)}, expected null` };
  const listId = read.favorite_list_id;
  if (a.newListName !== undefined) {
    if (listId === undefined) return { model: withFavorite(m, namedListUnseen(m, created, a.newListName, read.have_it)), ...opt(haveItNull()) };
    const moved = intoNamedList(model, a.newListName, listId, where);
    return { model: moved.model, ...opt(moved.failure ?? haveItNull()) };
  }
  // Row 1: into the auto list of the SKU's category, created if needed.
  const auto = autoListOf(m, a.categoryId);
  if (listId === undefined || listedByCategory(read)) {
    // Not shown, or null (the list following from the category, one reading): the auto list of
    // the category when the model knows it, else awaited (a null where GET /favorite_lists shows
    // no auto list of the category is in no list).
    const awaits = { categoryId: a.categoryId, ...(listId === null ? { unlisted: 'fails' as const } : {}) };
    return { model: withFavorite(m, auto ? { ...created, listId: auto.id } : { ...created, listId: undefined, awaits }) };
  }
  if (auto) {
    if (listId === auto.id) return { model };
    model = adoptUnknownList(model, listId, a.categoryId);
    return {
      model,
      failure: {
        requirements: ['FAV-9'],
        message: `${where} without a list, SKU ${a.skuId} of category ${a.categoryId}: the favorite is in ${describeList(m, listId)}, expected the auto list ${auto.id} of that category`,
      },
    };
  }
  if (listId === null)
    return {
      model,
      failure: {
        requirements: ['FAV-10', 'FAV-9'],
        message: `${where} without a list, SKU ${a.skuId} of category ${a.categoryId}, which had no auto list: the favorite is owned (have_it true, favorite_list_id null), in no list; expected the auto list of that category`,
      },
    };
  const known = findList(m, listId);
  const dropped = maybeAutoListOf(m, a.categoryId);
  if (known && known.state !== 'gone' && known !== dropped) {
    return {
      model,
      failure: {
        requirements: ['FAV-9'],
        message: `${where} without a list, SKU ${a.skuId} of category ${a.categoryId}: the favorite is in ${describeList(m, listId)}, not an auto list of that category`,
      },
    };
  }
  // The auto list of the category that may have been dropped (it holds the favorite: live), or a new one.
  model = adoptUnknownList(model, listId, a.categoryId);
  return listId < 0
    ? { model }
    : {
        model,
        failure: { requirements: ['FAV-2', 'FAV-10'], message: `${where} without a list: the favorite is in list ${listId}, which is not negative as an auto list's id is` },
      };
}

export function updateFavorite(m: FavoritesModel, a: Extract<Action, { type: 'updateFavorite' }>, answer: Answer, where: string): StepResult {
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
    const read = readAnswer(answer, where, before.id, 'FAV-11');
    if (isFailure(read)) return { model: m, failure: read };
    const model = adoptUnknownList(
      moved(m, before, placed(live, read.favorite_list_id === undefined ? null : read.favorite_list_id, read.have_it)),
      read.favorite_list_id,
      before.categoryId,
    );
    const sent = a.favoriteListId;
    const failure =
      (sent !== undefined && read.favorite_list_id === sent && sent !== null
        ? {
            requirements: ['FAV-12'],
            message: `${where} with have_it=true and favorite_list_id ${sent}: the favorite moved into list ${sent}; the list id must be ignored (owned: have_it true, favorite_list_id null)`,
          }
        : undefined) ??
      (read.have_it === true && (read.favorite_list_id === null || read.favorite_list_id === undefined)
        ? undefined
        : {
            requirements: ['FAV-11'],
            message: `${where} with have_it=true: the favorite has have_it ${show(read.have_it)} and favorite_list_id ${show(read.favorite_list_id)}, expected owned (have_it true, favorite_list_id null)`,
          });
    return { model, ...opt(failure) };
  }
  if (a.newListName !== undefined) {
    // Row 4 through PUT.
    const read = readAnswer(answer, where, before.id, 'FAV-14');
    if (isFailure(read)) return { model: m, failure: read };
    const haveItNull =
      read.have_it === null
        ? undefined
        : {
            requirements: ['FAV-16'],
            message: `${where} with new_list_name ${show(a.newListName)}: have_it is ${show(read.have_it)} (it was ${show(before.haveIt)}), expected null`,
          };
    if (read.favorite_list_id === undefined) return { model: moved(m, before, namedListUnseen(m, live, a.newListName, read.have_it)), ...opt(haveItNull) };
    const into = intoNamedList(moved(m, before, placed(live, read.favorite_list_id, read.have_it)), a.newListName, read.favorite_list_id, where);
    return { model: into.model, ...opt(into.failure ?? haveItNull) };
  }
  if (a.favoriteListId !== undefined) {
    // Row 3: into that list, when have_it is not true. A favorite whose have_it is true, or one
    // whose state is not known, is not covered by the row: its answer is adopted.
    if (before.state === 'unknown' || before.haveIt === true) return adopt(m, before, answer, where);
    const read = readAnswer(answer, where, before.id, 'FAV-13');
    if (isFailure(read)) return { model: m, failure: read };
    // An answer that shows no favorite_list_id: in that list, as the row says (the listings judge it).
    // A null by category: the auto list of the favorite's category, where the model knows it.
    const listId = read.favorite_list_id === undefined ? a.favoriteListId : (answeredList(m, before.categoryId, read) ?? null);
    const model = adoptUnknownList(moved(m, before, placed(before, listId, read.have_it)), listId, before.categoryId);
    return listId === a.favoriteListId
      ? { model }
      : {
          model,
          failure: {
            requirements: ['FAV-13', 'FAV-8'],
            message: `${where} with favorite_list_id ${a.favoriteListId}${a.haveIt !== undefined ? ` and have_it ${show(a.haveIt)}` : ''} (have_it was ${show(before.haveIt)}): the favorite is in ${describeList(m, listId)}, expected ${describeList(m, a.favoriteListId)}`,
          },
        };
  }
  // have_it false or null alone: what it does is not shown.
  return adopt(m, before, answer, where);
}

/** A 200 {favorite} answer, or the failure of PUT /favorites/:id (`row`: the requirement of the row the request takes). */
function readAnswer(answer: Answer, where: string, asked: number, row: string): ReadFavorite | Failure {
  const read = statusFailure(answer, 200, where, ['FAV-31']) ?? readFavorite(answer.body, where);
  return isFailure(read) ? read : (otherFavorite(read, asked, where, ['FAV-31', row]) ?? read);
}

/**
 * An answer about another favorite than the one asked: the change (or the read) went to it, so the
 * model, which would take it for the one asked, stops here, where the wrong record shows.
 */
function otherFavorite(read: ReadFavorite, asked: number, where: string, requirements: string[]): Failure | undefined {
  return read.id === asked ? undefined : { requirements, message: `${where} answered favorite ${read.id}, not the one asked (${asked})` };
}

/**
 * Where the spec allows several outcomes: the model takes what the deployment answered (a list not
 * shown is not known). A null by category is the auto list of the category: the one the model
 * knows, else awaited, and in no list where GET /favorite_lists shows none.
 */
function adopt(m: FavoritesModel, before: ModelFavorite, answer: Answer, where: string, requirements = ['FAV-31']): StepResult {
  if (answer.status < 200 || answer.status >= 300) return { model: m };
  const read = readFavorite(answer.body, where);
  if (isFailure(read)) return { model: m, failure: read };
  const other = otherFavorite(read, before.id, where, requirements);
  if (other) return { model: m, failure: other };
  const live = { ...before, state: 'live' as const };
  if (listedByCategory(read)) {
    const auto = autoListOf(m, before.categoryId);
    const after = auto
      ? placed(live, auto.id, read.have_it)
      : { ...placed(live, undefined, read.have_it), awaits: { categoryId: before.categoryId, unlisted: 'allowed' as const } };
    return { model: moved(m, before, after) };
  }
  return { model: adoptUnknownList(moved(m, before, placed(live, read.favorite_list_id, read.have_it)), read.favorite_list_id, before.categoryId) };
}

export function deleteFavorite(m: FavoritesModel, a: Extract<Action, { type: 'deleteFavorite' }>, answer: Answer, where: string): StepResult {
  const before = findFavorite(m, a.favoriteId);
  if (!before) throw new Error(`the model knows no favorite ${a.favoriteId}`);
  const gone = moved(m, before, { ...before, state: 'gone' });
  if (before.state === 'gone') return { model: m, ...opt(notFound(answer, where, ['FAV-33', 'ERR-10'])) };
  if (before.state === 'unknown') return answer.status === 204 || answer.status === 404 ? { model: gone } : { model: m, failure: statusFailure(answer, 204, where, ['FAV-32'])! };
  return answer.status === 204 ? { model: gone } : { model: m, failure: statusFailure(answer, 204, where, ['FAV-32'])! };
}

export function getFavorite(m: FavoritesModel, a: Extract<Action, { type: 'getFavorite' }>, answer: Answer, where: string): StepResult {
  const before = findFavorite(m, a.favoriteId);
  if (!before) throw new Error(`the model knows no favorite ${a.favoriteId}`);
  if (before.state === 'gone') return { model: m, ...opt(notFound(answer, where, ['ERR-9'])) };
  if (before.state === 'unknown') {
    if (answer.status === 404) return { model: withFavorite(m, { ...before, state: 'gone' }) };
    return adopt(m, before, answer, where, ['FAV-29']);
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
export function reconcile(
  m: FavoritesModel,
  f: ModelFavorite,
  read: { favorite_list_id?: unknown; have_it?: unknown },
  where: string,
  requirements: string[],
  context?: number | null,
): StepResult {
  // A null by category agrees with the auto list of the favorite's category.
  const byCategory = listedByCategory(read);
  const shown = read.favorite_list_id !== undefined && !byCategory;
  const otherList = byCategory ? typeof f.listId === 'number' && !isAutoListOf(m, f.listId, f.categoryId) : shown && f.listId !== undefined && read.favorite_list_id !== f.listId;
  if (read.have_it !== f.haveIt || otherList) {
    return {
      model: m,
      failure: {
        requirements,
        message: `${where}: favorite ${f.id} has favorite_list_id ${show(read.favorite_list_id)} and have_it ${show(read.have_it)}, but the sequence left it in ${describeList(m, f.listId)} with have_it ${show(f.haveIt)}`,
      },
    };
  }
  const learned = shown ? read.favorite_list_id : byCategory ? (typeof context === 'number' ? context : undefined) : context;
  if (f.listId !== undefined || learned === undefined || (learned !== null && !Number.isInteger(learned))) return { model: m };
  return { model: adoptUnknownList(withFavorite(m, placed(f, learned as number | null, f.haveIt)), learned, f.categoryId) };
}
