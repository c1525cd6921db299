// The favorites model's steps on favorite lists (favorites-model-steps.ts dispatches to them):
// POST /favorite_lists, DELETE /favorite_lists/:id and GET /favorite_lists, with what the listing
// of lists teaches the model (the lists favorites await); and how a step names a list in its messages.
import { show } from './check.ts';
import { isAutoList, refusesAutoListDeletion } from './favorites.ts';
import {
  awaitingLists,
  customListNamed,
  errorBody,
  findList,
  isFailure,
  isObject,
  notFound,
  placed,
  readCollection,
  statusFailure,
  typedFailure,
  withFavorite,
  withList,
  type Action,
  type Answer,
  type Failure,
  type FavoritesModel,
  type ModelFavorite,
  type StepResult,
} from './favorites-model.ts';

export function createList(m: FavoritesModel, a: Extract<Action, { type: 'createList' }>, answer: Answer, where: string): StepResult {
  const existing = customListNamed(m, a.name);
  // A custom list of that name a favorite went into, whose id the answer did not show: it exists
  // already, so the answer is not judged (GET /favorite_lists shows two lists of a name, if so).
  const awaited = awaitingLists(m).some((f) => f.awaits && 'name' in f.awaits && f.awaits.name === a.name);
  const success = answer.status >= 200 && answer.status < 300;
  const made = isObject(answer.body) && isObject(answer.body['favorite_list']) ? answer.body['favorite_list'] : undefined;
  const madeId = made?.['id'];
  // Whatever was made is the run's, to delete afterwards.
  const next =
    success && Number.isInteger(madeId) && !findList(m, madeId)
      ? withList(m, { id: madeId as number, name: a.name, kind: 'custom', categoryId: null, ours: true, state: 'live' })
      : m;
  if (awaited && !existing) return { model: next };
  if (existing) {
    // "a custom list with an existing custom name gives an error"; which status and code: not shown.
    return success
      ? {
          model: next,
          failure: {
            requirements: ['FAV-20'],
            message: `${where} with the name ${show(a.name)} of the existing custom list ${existing.id} answered ${answer.status}${madeId !== undefined ? ` and list ${show(madeId)}` : ''}: expected an error`,
          },
        }
      : { model: m, failure: errorBody(m, answer) };
  }
  // Refused as a name conflict, with the name of a list the run deleted (204): the list
  // stayed, which is the deletion's fault (as where the listing still shows it), not the create's.
  const deleted = m.lists.find((l) => l.ours && l.kind === 'custom' && l.state === 'gone' && l.name === a.name);
  if (deleted && [400, 409, 422].includes(answer.status)) {
    const message = `${where} with the name ${show(a.name)} answered ${answer.status}: ${describeList(m, deleted.id)}, deleted earlier (204), still holds its name`;
    return { model: m, failure: { requirements: ['FAV-21'], message } };
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

export function deleteList(m: FavoritesModel, a: Extract<Action, { type: 'deleteList' }>, answer: Answer, where: string): StepResult {
  const list = findList(m, a.listId);
  if (!list || list.state === 'gone') return { model: m, ...opt(notFound(answer, where, ['FAV-22', 'ERR-10'])) };
  // An auto list its last favorite left may have been dropped: 404 then.
  if (list.state === 'maybe' && answer.status === 404) return { model: withList(m, { ...list, state: 'gone' }) };
  // Auto lists are managed by the service: deleting one may be refused. It then stays (or goes
  // once empty: listed or 404 later, as for a list its last favorite left).
  if (list.kind === 'auto' && refusesAutoListDeletion(answer.status)) return { model: m };
  if (answer.status !== 204) return { model: m, failure: statusFailure(answer, 204, where, ['FAV-21'])! };
  // What becomes of the favorites of a deleted list: not shown. A favorite whose list is not
  // known may have been in it.
  const mayHold = (f: ModelFavorite) =>
    f.listId === list.id ||
    (f.listId === undefined && (!f.awaits || ('name' in f.awaits ? f.awaits.name === list.name : list.kind !== 'custom' && list.categoryId === f.awaits.categoryId)));
  const favorites = m.favorites.map((f) => (f.state !== 'gone' && mayHold(f) ? { ...f, state: 'unknown' as const } : f));
  return { model: { ...withList(m, { ...list, state: 'gone' }), favorites } };
}

/** A step's failure, when there is one, as the fields of a StepResult. */
export const opt = (failure: Failure | undefined) => (failure ? { failure } : {});

export function describeList(m: FavoritesModel, id: number | null | undefined): string {
  if (id === null) return 'no list (favorite_list_id null)';
  if (id === undefined) return 'a list not known (favorite_list_id not shown)';
  const l = findList(m, id);
  if (!l) return `list ${id}`;
  return `list ${id} (${l.state === 'gone' ? 'deleted ' : ''}${l.kind === 'auto' ? `auto list of category ${show(l.categoryId)}` : l.kind === 'custom' ? `custom list ${show(l.name)}` : 'a list'})`;
}

export function listLists(m: FavoritesModel, answer: Answer, where: string): StepResult {
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
    if (list.state === 'gone' && item) return { model: m, failure: { requirements: ['FAV-21'], message: `${where} lists ${describeList(m, list.id)}, gone earlier` } };
    // An auto list is missing only where auto lists are listed, and while a favorite is known in it.
    const required = list.kind !== 'auto' || (listsAuto && m.favorites.some((f) => f.state === 'live' && f.listId === list.id));
    if (list.state === 'live' && !item && read.complete && required)
      return { model: m, failure: { requirements: ['FAV-18', list.kind === 'auto' ? 'FAV-10' : 'FAV-19'], message: `${where} does not list ${describeList(m, list.id)}` } };
    if (list.state === 'live' && item && list.kind === 'auto' && list.categoryId !== null && item['category_id'] !== list.categoryId) {
      return {
        model: m,
        failure: typedFailure(
          item['category_id'],
          ['FAV-5', 'FAV-9'],
          `${where}: list ${list.id}, the auto list the sequence's favorites of category ${list.categoryId} went into, has category_id ${show(item['category_id'])}`,
        ),
      };
    }
  }
  const names = new Map<string, number[]>();
  for (const l of read.items) {
    if (typeof l['name'] !== 'string' || !customListNamed(m, l['name'])?.ours) continue;
    if (l['type'] === 'auto' || (typeof l['id'] === 'number' && l['id'] < 0)) continue;
    names.set(l['name'], [...(names.get(l['name']) ?? []), l['id'] as number]);
  }
  for (const [name, ids] of names) {
    if (ids.length > 1)
      return { model: m, failure: { requirements: ['FAV-15', 'FAV-20'], message: `${where} lists ${ids.length} custom lists named ${show(name)}: ${ids.join(', ')}` } };
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
    const found = items.find(
      (l) => Number.isInteger(l['id']) && ('name' in awaits ? !isAutoList(l) && l['name'] === awaits.name : isAutoList(l) && l['category_id'] === awaits.categoryId),
    );
    if (found) {
      const id = found['id'] as number;
      const known = findList(model, id);
      if (known?.state === 'maybe') model = withList(model, { ...known, state: 'live' });
      else if (!known || known.state === 'gone') {
        model = withList(
          model,
          'name' in awaits
            ? { id, name: awaits.name, kind: 'custom', categoryId: null, ours: true, state: 'live' }
            : { id, name: null, kind: 'auto', categoryId: awaits.categoryId, ours: true, state: 'live' },
        );
      }
      model = withFavorite(model, placed(f, id, f.haveIt));
    } else if (complete && 'name' in awaits) {
      return {
        model,
        failure: {
          requirements: ['FAV-14', 'FAV-15'],
          message: `${where} lists no list named ${show(awaits.name)}, the custom list new_list_name ${show(awaits.name)} put favorite ${f.id} in (its answer showed no favorite_list_id)`,
        },
      };
    } else if (complete && 'categoryId' in awaits && awaits.unlisted === 'allowed') {
      // A transition whose outcome is not shown: no auto list of the category, so in no list known.
      model = withFavorite(model, placed(f, undefined, f.haveIt));
    } else if (complete && 'categoryId' in awaits && (listsAuto || awaits.unlisted === 'fails')) {
      const shown = awaits.unlisted === 'fails' ? 'favorite_list_id null, which leaves the list to the category only where that auto list is listed' : 'no favorite_list_id';
      return {
        model,
        failure: {
          requirements: ['FAV-9', 'FAV-10', 'FAV-5'],
          message: `${where} lists ${listsAuto ? 'auto lists but none' : 'no auto list'} of category ${awaits.categoryId}, whose auto list favorite ${f.id}, created without a list, went into (its answer showed ${shown})`,
        },
      };
    }
  }
  return { model };
}
