// The favorites model's steps on the listings of favorites (favorites-model-steps.ts dispatches to
// them): GET /favorites (owned or not, in creation order) and GET /favorite_lists/:id/favorites,
// each judged against the sequence's favorites the model holds.
import { fail, pass, show, type CheckResult } from './check.ts';
import { allInList, holdsNoOwnedFavorites, holdsOnlyOwnedFavorites, type FavoriteLike } from './favorites.ts';
import {
  answeredList,
  findList,
  fromCheck,
  isFailure,
  isOwnedModel,
  notFound,
  ownedModel,
  placed,
  readCollection,
  statusFailure,
  withFavorite,
  withList,
  type Action,
  type Answer,
  type FavoritesModel,
  type ModelFavorite,
  type StepResult,
} from './favorites-model.ts';
import { reconcile } from './favorites-model-favorite-steps.ts';
import { describeList, opt } from './favorites-model-list-steps.ts';

export function listFavorites(m: FavoritesModel, a: Extract<Action, { type: 'listFavorites' }>, answer: Answer, where: string): StepResult {
  const requirement = a.owned ? 'FAV-24' : 'FAV-23';
  const status = statusFailure(answer, 200, where, [requirement]);
  if (status) return { model: m, failure: status };
  const read = readCollection(answer.body, 'favorites', where);
  if (isFailure(read)) return { model: m, failure: { ...read, requirements: [...read.requirements, requirement] } };
  const items = read.items as FavoriteLike[];
  // owned=true and the exclusion of owned favorites came with 3.2.0 (Change history): before it,
  // owned=true may be ignored (the default listing then answers), and owned favorites are listed.
  const shape = m.excludesOwned
    ? a.owned
      ? fromCheck(holdsOnlyOwnedFavorites(items, where), 'FAV-24', 'FAV-6')
      : fromCheck(holdsNoOwnedFavorites(items, where), 'FAV-26', 'CHG-2')
    : undefined;
  if (shape) return { model: m, failure: shape };
  const order = fromCheck(listedInCreationOrder(items, a.orderDir ?? 'desc', where), 'FAV-25');
  if (order) return { model: m, failure: order };
  // Whether a favorite with have_it true whose list the model does not know is owned: not judged
  // (owned=true listing it shows it is: no list). Before 3.2.0 owned=true lists the owned
  // favorites, and perhaps the others.
  const belongs = (f: ModelFavorite) => {
    const owned = ownedModel(f);
    if (owned === undefined) return undefined;
    if (a.owned) return owned || (m.excludesOwned ? false : undefined);
    return !owned || !m.excludesOwned;
  };
  return judgeListed(
    m,
    items,
    read.complete,
    where,
    belongs,
    (f) => (a.owned ? ['FAV-24'] : isOwnedModel(f) ? (m.excludesOwned ? ['FAV-26', 'CHG-2'] : ['CHG-2']) : ['FAV-23']),
    a.owned && m.excludesOwned ? null : undefined,
  );
}

export function listListFavorites(m: FavoritesModel, a: Extract<Action, { type: 'listListFavorites' }>, answer: Answer, where: string): StepResult {
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
  // A null on a favorite of an auto list may leave its list to its SKU's category (one reading);
  // before 3.2.0 an owned favorite may still be listed in its former list (Change history 3.2.0).
  const inList = allInList(items, a.listId, { autoList: list ? list.kind === 'auto' : a.listId < 0, ownedListed: !m.excludesOwned });
  if (!inList.ok) return { model: m, failure: { requirements: ['FAV-27'], message: `${where}: ${inList.message}` } };
  const owned = m.excludesOwned ? fromCheck(holdsNoOwnedFavorites(items, where), 'FAV-28') : undefined;
  if (owned) return { model: m, failure: owned };
  // A favorite whose list the model does not know: listed here, it is in this list.
  return judgeListed(
    model,
    items,
    read.complete,
    where,
    (f) => (f.listId === undefined || (isOwnedModel(f) && !m.excludesOwned) ? undefined : f.listId === a.listId && !isOwnedModel(f)),
    () => ['FAV-27'],
    a.listId,
  );
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
        const listId = answeredList(model, f.categoryId, item, context);
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
      if (belongs(f) === false)
        return { model, failure: { requirements, message: `${where} lists favorite ${f.id} (${describeList(m, f.listId)}, have_it ${show(f.haveIt)}), which it should not` } };
    } else if (complete && belongs(f) === true) {
      return { model, failure: { requirements, message: `${where} does not list favorite ${f.id} (${describeList(m, f.listId)}, have_it ${show(f.haveIt)})` } };
    }
  }
  return { model };
}
