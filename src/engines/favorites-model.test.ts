// The model-based favorites suite's commands and Session (src/engines/favorites-model.ts), against a
// stand-in for the test's client: what each command resolves to, what the allowance skips, and that
// a session journals what the server made, stops at a broken rule and deletes what it holds.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { initialModel, type FavoritesModel, type ModelFavorite, type ModelList } from '../checks/favorites-model.ts';
import { Allowance, type World } from '../checks/favorites-model-sequences.ts';
import type { ConformanceContext } from '../harness/conformance.ts';
import {
  commandArbitraries,
  CreateFavorite,
  CreateList,
  DeleteFavorite,
  DeleteList,
  GetFavorite,
  ListFavorites,
  ListListFavorites,
  ListLists,
  MakeOwned,
  ModelFailure,
  Move,
  MoveByName,
  openingCommand,
  Session,
} from './favorites-model.ts';

const FLAGS = { excludesOwned: true, normalizedErrors: true };
const world: World = {
  skus: [
    { id: 10, categoryId: 7 },
    { id: 11, categoryId: 8 },
  ],
  names: ['cc-model-x-a', 'cc-model-x-b'],
};
const list = (id: number, more: Partial<ModelList> = {}): ModelList => ({ id, name: null, kind: 'custom', categoryId: null, ours: true, state: 'live', ...more });
const favorite = (id: number, more: Partial<ModelFavorite> = {}): ModelFavorite => ({ id, skuId: 10, categoryId: 7, listId: -1, haveIt: null, state: 'live', ...more });
const model = (lists: ModelList[], favorites: ModelFavorite[] = []): FavoritesModel => ({ ...initialModel([], FLAGS), lists, favorites });

describe('commands resolve their choices against the model', () => {
  const m = model([list(1, { name: 'cc-model-x-a' }), list(-1, { kind: 'auto', categoryId: 7 })], [favorite(5), favorite(6, { skuId: 11, categoryId: 8, state: 'gone' })]);

  test('CreateFavorite takes a SKU the model holds no favorite of, with a name of the run or none; none left, nothing', () => {
    expect(new CreateFavorite(world, 0, null).resolve(model([]))).toEqual({ type: 'createFavorite', skuId: 10, categoryId: 7 });
    expect(new CreateFavorite(world, 0, 1).resolve(m)).toEqual({ type: 'createFavorite', skuId: 11, categoryId: 8, newListName: 'cc-model-x-b' });
    expect(new CreateFavorite(world, 0, null).resolve(model([], [favorite(5), favorite(7, { skuId: 11 })]))).toBeNull();
  });

  test("the list commands take the run's names and lists", () => {
    expect(new CreateList(world, 3).resolve()).toEqual({ type: 'createList', name: 'cc-model-x-b' });
    expect(new DeleteList(1).resolve(m)).toEqual({ type: 'deleteList', listId: -1 });
    expect(new DeleteList(0).resolve(model([list(2, { ours: false })]))).toBeNull();
    expect(new ListListFavorites(2).resolve(m)).toEqual({ type: 'listListFavorites', listId: 1 });
    expect(new ListLists().resolve(m)).toEqual({ type: 'listLists' });
    expect(new ListLists().resolve(model([]))).toBeNull();
  });

  test('the updates pick a live favorite and a list it may go to (never its own for a move)', () => {
    expect(new MakeOwned(1, null).resolve(m)).toEqual({ type: 'updateFavorite', favoriteId: 5, haveIt: true });
    expect(new MakeOwned(0, 1).resolve(m)).toEqual({ type: 'updateFavorite', favoriteId: 5, haveIt: true, favoriteListId: -1 });
    expect(new Move(0, 0, false).resolve(m)).toEqual({ type: 'updateFavorite', favoriteId: 5, favoriteListId: 1, haveIt: false });
    expect(new Move(0, 1, 'absent').resolve(m)).toEqual({ type: 'updateFavorite', favoriteId: 5, favoriteListId: 1 });
    expect(new Move(0, 0, null).resolve(model([list(-1, { kind: 'auto', categoryId: 7 })], [favorite(5)]))).toBeNull();
    expect(new MoveByName(world, 0, 'blank').resolve(m)).toEqual({ type: 'updateFavorite', favoriteId: 5, newListName: '' });
    expect(new MoveByName(world, 0, 0).resolve(model([]))).toBeNull();
  });

  test('reads and deletes of a favorite take gone ones too', () => {
    expect(new DeleteFavorite(1).resolve(m)).toEqual({ type: 'deleteFavorite', favoriteId: 6 });
    expect(new GetFavorite(3).resolve(m)).toEqual({ type: 'getFavorite', favoriteId: 6 });
    expect(new GetFavorite(0).resolve(model([]))).toBeNull();
    expect(new ListFavorites(true, true).resolve()).toEqual({ type: 'listFavorites', owned: true, orderDir: 'asc' });
    expect(new ListFavorites(false, false).resolve()).toEqual({ type: 'listFavorites', owned: false });
  });

  test("a command runs only when it resolves and fits in the allowance; toString is the sequence's printed form", () => {
    const create = new CreateFavorite(world, 0, null);
    expect(create.check({ m: model([]) })).toBe(true);
    expect(create.check({ m: model([]), allowance: new Allowance({ spent: 0 }, 4) })).toBe(true);
    expect(create.check({ m: model([]), allowance: new Allowance({ spent: 1 }, 4) })).toBe(false);
    expect(new ListLists().check({ m: model([]) })).toBe(false);
    expect([create, new Move(1, 2, null), new ListFavorites(false, true), new ListLists()].map(String)).toEqual([
      'CreateFavorite(0, null)',
      'Move(1, 2, null)',
      'ListFavorites(false, asc)',
      'ListLists',
    ]);
  });

  test('the arbitraries draw every command, the writes that change a favorite twice as often', () => {
    expect(commandArbitraries(world)).toHaveLength(14);
    const drawn = new Set(fc.sample(fc.oneof(...commandArbitraries(world)), { seed: 1, numRuns: 500 }).map((c) => c.constructor.name));
    expect([...drawn].sort()).toEqual([
      'CreateFavorite',
      'CreateList',
      'DeleteFavorite',
      'DeleteList',
      'GetFavorite',
      'ListFavorites',
      'ListListFavorites',
      'ListLists',
      'MakeOwned',
      'Move',
      'MoveByName',
    ]);
    const openings = fc.sample(openingCommand(world), { seed: 1, numRuns: 200 });
    expect(openings.filter((c) => c instanceof CreateFavorite).length).toBeGreaterThan(150);
  });
});

/** A stand-in for the test's client: answers by "METHOD path", records the calls and the journal. */
function fakeContext(answers: Record<string, { status: number; body?: unknown } | Error>) {
  const calls: string[] = [];
  const journal: string[] = [];
  const t = {
    api: {
      request: async (method: string, path: string) => {
        calls.push(`${method} ${path}`);
        const answer = answers[`${method} ${path}`] ?? { status: 404 };
        if (answer instanceof Error) throw answer;
        return { status: answer.status, text: answer.body === undefined ? '' : JSON.stringify(answer.body) };
      },
    },
    undoable: async (action: { method: string; path: string }) => {
      journal.push(`${action.method} ${action.path}`);
    },
  } as unknown as ConformanceContext;
  return { t, calls, journal };
}

describe('Session', () => {
  test('a list the server made is journalled at once, also when the answer breaks a rule (which stops the sequence with a ModelFailure)', async () => {
    const { t, calls, journal } = fakeContext({ 'POST /favorite_lists': { status: 201, body: { favorite_list: { id: 31, name: 'cc-model-x-a', type: 'custom' } } } });
    const counter = { spent: 0 };
    const session = new Session(t, counter);
    const box = { m: model([]) };
    await session.exec(box, { type: 'createList', name: 'cc-model-x-a' });
    expect(box.m.lists.map((l) => l.id)).toEqual([31]);
    expect(journal).toEqual(['DELETE /favorite_lists/31']);
    // The same name again, accepted: a second list, journalled, and FAV-20 broken.
    const again = fakeContext({ 'POST /favorite_lists': { status: 201, body: { favorite_list: { id: 32, name: 'cc-model-x-a', type: 'custom' } } } });
    const second = new Session(again.t, counter);
    const failure = await second.exec(box, { type: 'createList', name: 'cc-model-x-a' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelFailure);
    expect((failure as ModelFailure).failure.requirements).toEqual(['FAV-20']);
    expect(again.journal).toEqual(['DELETE /favorite_lists/31', 'DELETE /favorite_lists/32']);
    expect(counter.spent).toBe(2);
    expect([...calls, ...again.calls]).toEqual(['POST /favorite_lists', 'POST /favorite_lists']);
    expect(second.log).toEqual(['POST /favorite_lists {"favorite_list":{"name":"cc-model-x-a"}} -> 201']);
  });

  test('cleanup deletes the live favorites, then the lists of the run not gone; 204 and 404 are fine, the rest is left over', async () => {
    const { t, calls } = fakeContext({
      'DELETE /favorites/5': { status: 204 },
      'DELETE /favorite_lists/1': { status: 500 },
      'DELETE /favorite_lists/-1': new Error('socket hang up'),
    });
    const counter = { spent: 3 };
    const m = model(
      [list(1), list(-1, { kind: 'auto', categoryId: 7, state: 'maybe' }), list(2, { state: 'gone' }), list(3, { ours: false })],
      [favorite(5), favorite(6, { state: 'gone' }), favorite(7, { state: 'unknown' })],
    );
    const left = await new Session(t, counter).cleanup(m);
    expect(calls).toEqual(['DELETE /favorites/5', 'DELETE /favorites/7', 'DELETE /favorite_lists/1', 'DELETE /favorite_lists/-1']);
    expect(left).toEqual(['/favorite_lists/1 (500)', '/favorite_lists/-1 (socket hang up)']);
    expect(counter.spent).toBe(7);
  });

  test("cleanup names the custom lists it deleted with 204: the next sequence knows them gone (a name still taken is the deletion's finding)", async () => {
    const { t } = fakeContext({ 'DELETE /favorite_lists/1': { status: 204 }, 'DELETE /favorite_lists/2': { status: 404 } });
    const deleted: ModelList[] = [];
    await new Session(t, { spent: 0 }).cleanup(model([list(1, { name: 'cc-model-x-a' }), list(2, { name: 'cc-model-x-b' }), list(3)], []), deleted);
    expect(deleted.map((l) => l.id)).toEqual([1]);
  });
});
