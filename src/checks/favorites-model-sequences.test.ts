// What the model's random sequences may pick and spend, the lists of runs that are over, and the
// seed and finding a failed sequence prints (src/checks/favorites-model-sequences.ts).
import { describe, expect, test } from 'vitest';
import type { FavoritesModel, ModelFavorite, ModelList } from './favorites-model.ts';
import {
  active,
  Allowance,
  cleanupCost,
  MODEL_LIST_PREFIX,
  ourLists,
  pick,
  replayPathOf,
  seedSource,
  sequenceFailure,
  sequenceSeed,
  staleLists,
  targets,
  worstCost,
} from './favorites-model-sequences.ts';
import { kitName } from '../util/kit-names.ts';

const list = (id: number, more: Partial<ModelList> = {}): ModelList => ({ id, name: null, kind: 'custom', categoryId: null, ours: true, state: 'live', ...more });
const favorite = (id: number, more: Partial<ModelFavorite> = {}): ModelFavorite => ({ id, skuId: 100 + id, categoryId: 7, listId: null, haveIt: null, state: 'live', ...more });
const model = (lists: ModelList[], favorites: ModelFavorite[] = []): FavoritesModel => ({ lists, favorites, excludesOwned: true, normalizedErrors: true });

describe('what a command picks', () => {
  test('pick goes round the items; none of none', () => {
    expect(pick(['a', 'b', 'c'], 4)).toBe('b');
    expect(pick([], 3)).toBeUndefined();
  });

  test("active leaves gone favorites out; ourLists keeps only the run's lists, gone ones too", () => {
    const m = model([list(1), list(2, { ours: false }), list(3, { state: 'gone' })], [favorite(1), favorite(2, { state: 'gone' }), favorite(3, { state: 'unknown' })]);
    expect(active(m).map((f) => f.id)).toEqual([1, 3]);
    expect(ourLists(m).map((l) => l.id)).toEqual([1, 3]);
  });

  test("targets: the run's live custom lists and auto list of the category, the known auto list of the category, never the favorite's own list", () => {
    const m = model([
      list(1),
      list(2, { state: 'gone' }),
      list(3, { ours: false }),
      list(-4, { kind: 'auto', categoryId: 7 }),
      list(-5, { kind: 'auto', categoryId: 8 }),
      list(6, { state: 'maybe' }),
    ]);
    expect(targets(m, 7, null)).toEqual([1, -4]);
    expect(targets(m, 7, 1)).toEqual([-4]);
    expect(targets(m, 8, undefined)).toEqual([1, -5]);
    // The user's own auto list of the category (not the run's) is a target too; another category's is not.
    const users = model([list(1), list(-9, { kind: 'auto', categoryId: 7, ours: false }), list(-10, { kind: 'auto', categoryId: 8, ours: false })]);
    expect(targets(users, 7, null)).toEqual([1, -9]);
    expect(targets(users, 7, -9)).toEqual([1]);
  });
});

describe('what a call may cost', () => {
  test('worstCost: a new favorite 4 (call, list read, two deletes), a move to a list 3, another update 2, a new list 2, the rest 1', () => {
    expect(worstCost({ type: 'createFavorite', skuId: 1, categoryId: 7 })).toBe(4);
    expect(worstCost({ type: 'updateFavorite', favoriteId: 1, newListName: 'x' })).toBe(3);
    expect(worstCost({ type: 'updateFavorite', favoriteId: 1, favoriteListId: 2 })).toBe(3);
    expect(worstCost({ type: 'updateFavorite', favoriteId: 1, haveIt: true })).toBe(2);
    expect(worstCost({ type: 'createList', name: 'x' })).toBe(2);
    for (const action of [
      { type: 'deleteList', listId: 1 },
      { type: 'deleteFavorite', favoriteId: 1 },
      { type: 'getFavorite', favoriteId: 1 },
      { type: 'listLists' },
      { type: 'listFavorites', owned: false },
      { type: 'listListFavorites', listId: 1 },
    ] as const) {
      expect(worstCost(action)).toBe(1);
    }
  });

  test("cleanupCost: the deletes of the live favorites and the run's lists not gone", () => {
    const m = model(
      [list(1), list(2, { state: 'maybe' }), list(3, { state: 'gone' }), list(4, { ours: false })],
      [favorite(1), favorite(2, { state: 'gone' }), favorite(3, { state: 'unknown' })],
    );
    expect(cleanupCost(m)).toBe(2 + 2);
    expect(cleanupCost(model([]))).toBe(0);
  });

  test('Allowance: a call is allowed while what was spent, its worst cost and the deletes of what the sequence holds fit in the cap', () => {
    const counter = { spent: 5 };
    const allowance = new Allowance(counter, 12);
    const m = model([list(1)], [favorite(1)]);
    // 5 spent + 4 (a new favorite) + 2 deletes = 11.
    expect(allowance.allows(m, { type: 'createFavorite', skuId: 1, categoryId: 7 })).toBe(true);
    counter.spent = 6;
    expect(allowance.allows(m, { type: 'createFavorite', skuId: 1, categoryId: 7 })).toBe(true);
    counter.spent = 7;
    expect(allowance.allows(m, { type: 'createFavorite', skuId: 1, categoryId: 7 })).toBe(false);
    expect(allowance.allows(m, { type: 'listLists' })).toBe(true);
    // Lifted once a sequence fails: shrinking may spend what is kept for it.
    allowance.cap = Infinity;
    counter.spent = 1000;
    expect(allowance.allows(m, { type: 'createFavorite', skuId: 1, categoryId: 7 })).toBe(true);
  });
});

describe('staleLists', () => {
  const now = Date.UTC(2026, 0, 10);
  const hour = 3600 * 1000;
  test("the suite's lists of runs that are over (an hour after their over-by time), never another run's or the user's", () => {
    const over = kitName('model', now - 2 * hour);
    const going = kitName('model', now + hour);
    const justOver = kitName('model', now - hour / 2);
    const lists = [
      { id: 1, name: `${over}-a` },
      { id: 2, name: `${going}-a` },
      { id: 3, name: `${justOver}-b` },
      { id: 4, name: kitName('list', now - 2 * hour) },
      { id: 5, name: 'Phones' },
      { id: 6, name: `${over}-b` },
      { id: '7', name: `${over}-b` },
      { id: 8 },
    ];
    expect(over.startsWith(MODEL_LIST_PREFIX)).toBe(true);
    expect(staleLists(lists, now)).toEqual([1, 6]);
  });
});

describe('the seed a sequence runs with and prints', () => {
  test('seedSource writes CATALOGUE_SEED as a failure prints it; none without one', () => {
    expect(seedSource(null)).toBeUndefined();
    expect(seedSource({ seed: 42, path: null })).toBe('42');
    expect(seedSource({ seed: -42, path: '0:1:3' })).toBe('-42:0:1:3');
    expect(seedSource({ seed: 7919, path: '0:1:3', replayPath: 'CEB:AI+/' })).toBe('7919:0:1:3@CEB:AI+/');
  });

  test("sequenceSeed: the seed, path and replay path of the text, else the run's seed", () => {
    expect(sequenceSeed(undefined, 99)).toEqual({ seed: 99, path: '', replayPath: undefined });
    expect(sequenceSeed('42', 99)).toEqual({ seed: 42, path: '', replayPath: undefined });
    expect(sequenceSeed('-42:0:1:3', 99)).toEqual({ seed: -42, path: '0:1:3', replayPath: undefined });
    expect(sequenceSeed('7919:0:1:3@CEB:AI+/', 99)).toEqual({ seed: 7919, path: '0:1:3', replayPath: 'CEB:AI+/' });
    expect(Number.isInteger(sequenceSeed('x:1', 99).seed)).toBe(false);
  });

  test("replayPathOf reads fc.commands' replay path from its text", () => {
    expect(replayPathOf('CreateFavorite(1, null),ListLists /*replayPath="CEB:AI"*/')).toBe('@CEB:AI');
    expect(replayPathOf('CreateFavorite(1, null) /*replayPath=""*/')).toBe('');
    expect(replayPathOf(undefined)).toBe('');
  });

  test('sequenceFailure: the rule, the calls numbered, both replays, and what ran; a blank stays a blank', () => {
    const details = { seed: 5, counterexamplePath: '2:0', commands: { toString: () => 'x /*replayPath="AB"*/' }, numRuns: 3, numShrinks: 4 };
    const result = sequenceFailure({ requirements: ['FAV-11'], message: 'not owned' }, ['POST /favorites -> 201', 'PUT /favorites/1 -> 200'], details);
    expect(result).toEqual({
      ok: false,
      message:
        "not owned\nthe shortest failing sequence found (2 calls, user token; the last one broke the rule; ids are this run's):\n  1. POST /favorites -> 201\n  2. PUT /favorites/1 -> 200\nseed 5, path 2:0: replay with CATALOGUE_SEED=5 (or CATALOGUE_SEED=5:2:0@AB for this sequence only); 3 sequences run, 4 shrinks",
    });
    const blank = sequenceFailure({ requirements: ['GEN-8'], message: 'null', blank: true }, [], { ...details, counterexamplePath: null, commands: undefined });
    expect(blank).toMatchObject({ ok: false, blank: true });
    expect(blank.ok ? '' : blank.message).toContain('seed 5, path : replay with CATALOGUE_SEED=5 (or CATALOGUE_SEED=5: for this sequence only)');
  });
});
