import { describe, expect, test } from 'vitest';
import { formatCall, initialModel, requestOf, type Action, type FavoritesModel } from './favorites-model.ts';
import { listedInCreationOrder } from './favorites-model-listing-steps.ts';
import { step } from './favorites-model-steps.ts';

const FLAGS = { excludesOwned: true, normalizedErrors: true };
const base = (): FavoritesModel => initialModel([{ id: -1, name: 'Phones', category_id: 7, type: 'auto' }], FLAGS);
const fav = (id: number, listId: number | null, haveIt: boolean | null = null, skuId = 100) => ({ favorite: { id, sku_id: skuId, favorite_list_id: listId, have_it: haveIt } });
const errors = { errors: [{ code: 'RecordInvalid', messages: ['x'] }] };

/** Runs steps, returning the final model and the first failure's requirement ids. */
function run(m: FavoritesModel, steps: [Action, number, unknown][]): { m: FavoritesModel; failed?: string[] } {
  for (const [action, status, body] of steps) {
    const r = step(m, action, { status, body });
    m = r.model;
    if (r.failure) return { m, failed: r.failure.requirements };
  }
  return { m };
}

const createInCat = (cat: number, skuId = 100): Action => ({ type: 'createFavorite', skuId, categoryId: cat });

describe('row 1: POST /favorites without a list', () => {
  test('the known auto list of the category, or a new negative list', () => {
    expect(run(base(), [[createInCat(7), 201, fav(1, -1)]]).failed).toBeUndefined();
    const r = run(base(), [[createInCat(8), 201, fav(1, -2)]]);
    expect(r.failed).toBeUndefined();
    expect(r.m.lists.find((l) => l.id === -2)).toMatchObject({ kind: 'auto', categoryId: 8, ours: true });
  });
  test("another category's auto list breaks FAV-9; no list when none existed breaks FAV-10", () => {
    expect(run(base(), [[createInCat(8), 201, fav(1, -1)]]).failed).toContain('FAV-9');
    // favorite_list_id null leaves the list to the category (one reading): GET /favorite_lists must show it.
    const unseen = { favorite_lists: [], meta: { pagination: { total_results: 0, total_pages: 0, page: 1, per: 100 } } };
    expect(
      run(base(), [
        [createInCat(8), 201, fav(1, null)],
        [{ type: 'listLists' }, 200, unseen],
      ]).failed,
    ).toContain('FAV-10');
    expect(run(base(), [[createInCat(8), 201, fav(1, null, true)]]).failed).toContain('FAV-10');
  });
});

describe('rows 2 to 4: PUT /favorites/:id', () => {
  const start = () => run(base(), [[createInCat(7), 201, fav(1, -1)]]).m;
  test('have_it=true: owned, a list id sent is ignored', () => {
    expect(run(start(), [[{ type: 'updateFavorite', favoriteId: 1, haveIt: true }, 200, fav(1, null, true)]]).failed).toBeUndefined();
    expect(run(start(), [[{ type: 'updateFavorite', favoriteId: 1, haveIt: true }, 200, fav(1, -1, true)]]).failed).toContain('FAV-11');
    expect(run(start(), [[{ type: 'updateFavorite', favoriteId: 1, haveIt: true, favoriteListId: -1 }, 200, fav(1, -1, true)]]).failed).toContain('FAV-12');
  });
  test('favorite_list_id moves a favorite whose have_it is not true; an owned one is adopted as answered', () => {
    const m = run(start(), [[{ type: 'createList', name: 'cc-a' }, 201, { favorite_list: { id: 5, name: 'cc-a', type: 'custom', category_id: null } }]]).m;
    expect(run(m, [[{ type: 'updateFavorite', favoriteId: 1, favoriteListId: 5 }, 200, fav(1, 5, false)]]).failed).toBeUndefined();
    expect(run(m, [[{ type: 'updateFavorite', favoriteId: 1, favoriteListId: 5 }, 200, fav(1, -1)]]).failed).toContain('FAV-13');
    const owned = run(m, [[{ type: 'updateFavorite', favoriteId: 1, haveIt: true }, 200, fav(1, null, true)]]).m;
    expect(run(owned, [[{ type: 'updateFavorite', favoriteId: 1, favoriteListId: 5 }, 200, fav(1, null, true)]]).failed).toBeUndefined();
  });
  test('new_list_name: the custom list of that name (created if absent), have_it null; blank: 400 with errors', () => {
    const named = run(start(), [[{ type: 'updateFavorite', favoriteId: 1, newListName: 'cc-b' }, 200, fav(1, 9)]]);
    expect(named.failed).toBeUndefined();
    expect(named.m.lists.find((l) => l.id === 9)).toMatchObject({ kind: 'custom', name: 'cc-b', ours: true });
    expect(run(named.m, [[{ type: 'updateFavorite', favoriteId: 1, newListName: 'cc-b' }, 200, fav(1, 10)]]).failed).toContain('FAV-15');
    // An answer about another favorite: the change went to it; the model stops there, at the PUT.
    expect(run(named.m, [[{ type: 'updateFavorite', favoriteId: 1, newListName: 'cc-b' }, 200, fav(2, 9)]]).failed).toEqual(['FAV-31', 'FAV-14']);
    expect(run(named.m, [[{ type: 'updateFavorite', favoriteId: 1, haveIt: true }, 200, fav(2, null, true)]]).failed).toEqual(['FAV-31', 'FAV-11']);
    // A list made anew (its name not seen) fails the reuse (FAV-15); a known list of another name, the row's list too (FAV-14).
    expect(run(named.m, [[{ type: 'updateFavorite', favoriteId: 1, newListName: 'cc-b' }, 200, fav(1, 10)]]).failed).toEqual(['FAV-15']);
    expect(run(named.m, [[{ type: 'updateFavorite', favoriteId: 1, newListName: 'cc-b' }, 200, fav(1, -1)]]).failed).toEqual(['FAV-14', 'FAV-15']);
    expect(run(start(), [[{ type: 'updateFavorite', favoriteId: 1, newListName: 'cc-b' }, 200, fav(1, 9, true)]]).failed).toContain('FAV-16');
    expect(run(start(), [[{ type: 'updateFavorite', favoriteId: 1, newListName: '' }, 400, errors]]).failed).toBeUndefined();
    expect(run(start(), [[{ type: 'updateFavorite', favoriteId: 1, newListName: '' }, 422, errors]]).failed).toContain('FAV-17');
    expect(run(start(), [[{ type: 'updateFavorite', favoriteId: 1, newListName: '' }, 200, fav(1, 11)]]).failed).toBeUndefined();
  });
});

describe('lists, deletes and listings', () => {
  const list = (id: number, name: string) => ({ favorite_list: { id, name, type: 'custom', category_id: null } });
  test('a duplicate custom name gives an error, any error', () => {
    const m = run(base(), [[{ type: 'createList', name: 'cc-a' }, 201, list(5, 'cc-a')]]).m;
    expect(run(m, [[{ type: 'createList', name: 'cc-a' }, 422, errors]]).failed).toBeUndefined();
    expect(run(m, [[{ type: 'createList', name: 'cc-a' }, 409, errors]]).failed).toBeUndefined();
    const dup = run(m, [[{ type: 'createList', name: 'cc-a' }, 201, list(6, 'cc-a')]]);
    expect(dup.failed).toContain('FAV-20');
    expect(dup.m.lists.find((l) => l.id === 6)?.ours).toBe(true);
  });
  test('the name of a list deleted with 204 still taken: the deletion is blamed (FAV-21), not the create', () => {
    const m = run(base(), [
      [{ type: 'createList', name: 'cc-a' }, 201, list(5, 'cc-a')],
      [{ type: 'deleteList', listId: 5 }, 204, undefined],
    ]).m;
    const taken = run(m, [[{ type: 'createList', name: 'cc-a' }, 400, errors]]);
    expect(taken.failed).toContain('FAV-21');
    expect(taken.failed).not.toContain('FAV-19');
    expect(run(m, [[{ type: 'createList', name: 'cc-a' }, 201, list(6, 'cc-a')]]).failed).toBeUndefined();
    expect(run(m, [[{ type: 'createList', name: 'cc-a' }, 500, errors]]).failed).toContain('FAV-19');
  });
  test('deleting twice: 204 then 404; the favorites of a deleted list may be gone or not', () => {
    const m = run(base(), [
      [createInCat(8), 201, fav(1, -2)],
      [{ type: 'deleteList', listId: -2 }, 204, undefined],
    ]).m;
    expect(run(m, [[{ type: 'deleteList', listId: -2 }, 404, errors]]).failed).toBeUndefined();
    expect(run(m, [[{ type: 'deleteList', listId: -2 }, 204, undefined]]).failed).toContain('FAV-22');
    expect(run(m, [[{ type: 'getFavorite', favoriteId: 1 }, 404, errors]]).failed).toBeUndefined();
    expect(run(m, [[{ type: 'getFavorite', favoriteId: 1 }, 200, fav(1, -3)]]).failed).toBeUndefined();
    const f = run(base(), [
      [createInCat(7), 201, fav(1, -1)],
      [{ type: 'deleteFavorite', favoriteId: 1 }, 204, undefined],
    ]).m;
    expect(run(f, [[{ type: 'deleteFavorite', favoriteId: 1 }, 204, undefined]]).failed).toContain('FAV-33');
  });
  test('owned favorites: only in owned=true (from 3.2.0), listed by default before', () => {
    const m = run(base(), [
      [createInCat(7), 201, fav(1, -1)],
      [{ type: 'updateFavorite', favoriteId: 1, haveIt: true }, 200, fav(1, null, true)],
    ]).m;
    const page = (items: unknown[]) => ({ favorites: items, meta: { pagination: { total_results: items.length, total_pages: 1, page: 1, per: 100 } } });
    const owned = fav(1, null, true).favorite;
    expect(run(m, [[{ type: 'listFavorites', owned: false }, 200, page([owned])]]).failed).toContain('FAV-26');
    expect(run(m, [[{ type: 'listFavorites', owned: false }, 200, page([])]]).failed).toBeUndefined();
    expect(run(m, [[{ type: 'listFavorites', owned: true }, 200, page([])]]).failed).toContain('FAV-24');
    expect(run(m, [[{ type: 'listFavorites', owned: true }, 200, page([fav(2, -1, null, 5).favorite])]]).failed).toContain('FAV-24');
    const old = { ...m, excludesOwned: false };
    expect(run(old, [[{ type: 'listFavorites', owned: false }, 200, page([])]]).failed).toContain('CHG-2');
  });
  test('GET /favorites: creation date descending by default, ascending with order_dir=asc; ties in any order', () => {
    const at = (id: number, created_at: unknown) => ({ id, created_at });
    const w = 'GET /favorites';
    const oldNew = [at(1, '2017-01-01T10:00:00Z'), at(2, '2017-01-01T10:00:00Z'), at(3, '2024-05-05T08:00:00+02:00')];
    expect(listedInCreationOrder(oldNew, 'asc', w).ok).toBe(true);
    expect(listedInCreationOrder([...oldNew].reverse(), 'desc', w).ok).toBe(true);
    expect(listedInCreationOrder([...oldNew].reverse(), 'asc', w)).toMatchObject({ ok: false });
    expect(listedInCreationOrder(oldNew, 'desc', w)).toMatchObject({ ok: false });
    // Equal timestamps (one sequence's favorites), written differently, in either order.
    const ties = [at(5, '2024-05-05T06:00:00Z'), at(4, '2024-05-05T08:00:00+02:00'), at(6, '2024-05-05T06:00:00.000Z')];
    expect(listedInCreationOrder(ties, 'asc', w).ok).toBe(true);
    expect(listedInCreationOrder(ties, 'desc', w).ok).toBe(true);
    // Empty, one item, unreadable created_at: nothing to judge; an unreadable one does not hide a wrong pair.
    expect(listedInCreationOrder([], 'asc', w).ok).toBe(true);
    expect(listedInCreationOrder([at(1, 'x')], 'desc', w).ok).toBe(true);
    expect(listedInCreationOrder([at(3, '2024-01-01T00:00:00Z'), at(9, null), at(1, '2017-01-01T00:00:00Z')], 'asc', w)).toMatchObject({ ok: false });
    expect(listedInCreationOrder([at(3, '2024-01-01T00:00:00Z'), at(9, null), at(1, '2017-01-01T00:00:00Z')], 'desc', w).ok).toBe(true);
    // Through the model: FAV-25 on the listing, with order_dir=asc in the request.
    const page = (items: unknown[]) => ({ favorites: items, meta: { pagination: { total_results: items.length, total_pages: 1, page: 1, per: 100 } } });
    const items = [
      { ...fav(2, -1).favorite, created_at: '2024-01-01T00:00:00Z' },
      { ...fav(3, -1).favorite, created_at: '2017-01-01T00:00:00Z' },
    ];
    expect(run(base(), [[{ type: 'listFavorites', owned: false, orderDir: 'asc' }, 200, page(items)]]).failed).toEqual(['FAV-25']);
    expect(run(base(), [[{ type: 'listFavorites', owned: false }, 200, page(items)]]).failed).toBeUndefined();
    expect(run(base(), [[{ type: 'listFavorites', owned: false }, 200, page([...items].reverse())]]).failed).toEqual(['FAV-25']);
    expect(formatCall(requestOf({ type: 'listFavorites', owned: false, orderDir: 'asc' }))).toBe('GET /favorites?per=100&order_dir=asc');
  });
  test('requestOf and formatCall give the HTTP call', () => {
    expect(formatCall(requestOf({ type: 'updateFavorite', favoriteId: 3, haveIt: true, favoriteListId: 5 }))).toBe(
      'PUT /favorites/3 {"favorite":{"have_it":true,"favorite_list_id":5}}',
    );
    expect(formatCall(requestOf({ type: 'listFavorites', owned: true }))).toBe('GET /favorites?per=100&owned=true');
  });
});

describe('readings the spec allows', () => {
  const page = (items: unknown[]) => ({ favorites: items, meta: { pagination: { total_results: items.length, total_pages: 1, page: 1, per: 100 } } });
  const lists = (items: unknown[]) => ({ favorite_lists: items, meta: { pagination: { total_results: items.length, total_pages: 1, page: 1, per: 100 } } });
  /** A favorite as GET, POST and the listings show it when favorite_list_id is shown on update only. */
  const hidden = (id: number, haveIt: boolean | null = null, skuId = 100) => ({ favorite: { id, sku_id: skuId, have_it: haveIt } });
  const custom = (id: number, name: string) => ({ id, name, category_id: null, type: 'custom' });
  const auto = (id: number, category: number) => ({ id, name: 'Cat', category_id: category, type: 'auto' });

  test('favorite_list_id on update only: the known auto list is assumed, and judged by its listing', () => {
    const m = run(base(), [
      [createInCat(7), 201, hidden(1)],
      [{ type: 'getFavorite', favoriteId: 1 }, 200, hidden(1)],
    ]);
    expect(m.failed).toBeUndefined();
    expect(m.m.favorites[0]).toMatchObject({ listId: -1 });
    expect(run(m.m, [[{ type: 'listListFavorites', listId: -1 }, 200, page([hidden(1).favorite])]]).failed).toBeUndefined();
    expect(run(m.m, [[{ type: 'listListFavorites', listId: -1 }, 200, page([])]]).failed).toEqual(['FAV-27']);
    // A listing that shows no favorite_list_id has no strays to judge.
    expect(run(m.m, [[{ type: 'listListFavorites', listId: -1 }, 200, page([hidden(1).favorite, hidden(9, null, 5).favorite])]]).failed).toBeUndefined();
  });
  test('favorite_list_id on update only: a new auto list or custom list is learned from GET /favorite_lists', () => {
    const created = run(base(), [[createInCat(8), 201, hidden(1)]]).m;
    expect(created.favorites[0]).toMatchObject({ listId: undefined, awaits: { categoryId: 8 } });
    const learned = run(created, [[{ type: 'listLists' }, 200, lists([auto(-1, 7), auto(-2, 8)])]]);
    expect(learned.failed).toBeUndefined();
    expect(learned.m.favorites[0]).toMatchObject({ listId: -2 });
    expect(learned.m.lists.find((l) => l.id === -2)).toMatchObject({ kind: 'auto', categoryId: 8, ours: true, state: 'live' });
    // Auto lists listed, none of the category: not created.
    expect(run(created, [[{ type: 'listLists' }, 200, lists([auto(-1, 7)])]]).failed).toContain('FAV-10');
    // No auto list listed at all: not observable, not judged.
    expect(run(created, [[{ type: 'listLists' }, 200, lists([])]]).failed).toBeUndefined();

    const named = run(base(), [[{ type: 'createFavorite', skuId: 100, categoryId: 7, newListName: 'cc-a' }, 201, hidden(1)]]).m;
    expect(named.favorites[0]).toMatchObject({ awaits: { name: 'cc-a' } });
    // The name is taken: POST /favorite_lists with it is not judged while the list's id is not known.
    expect(run(named, [[{ type: 'createList', name: 'cc-a' }, 422, errors]]).failed).toBeUndefined();
    const found = run(named, [[{ type: 'listLists' }, 200, lists([auto(-1, 7), custom(5, 'cc-a')])]]);
    expect(found.failed).toBeUndefined();
    expect(found.m.favorites[0]).toMatchObject({ listId: 5 });
    expect(found.m.lists.find((l) => l.id === 5)).toMatchObject({ kind: 'custom', name: 'cc-a', ours: true });
    expect(run(named, [[{ type: 'listLists' }, 200, lists([auto(-1, 7)])]]).failed).toEqual(['FAV-14', 'FAV-15']);
  });
  test('favorite_list_id on update only: the owned listings judge what have_it shows; PUT answers are judged as always', () => {
    const m = run(base(), [[createInCat(7), 201, hidden(1)]]).m;
    const owned = run(m, [[{ type: 'updateFavorite', favoriteId: 1, haveIt: true }, 200, fav(1, null, true)]]).m;
    expect(run(owned, [[{ type: 'listFavorites', owned: true }, 200, page([hidden(1, true).favorite])]]).failed).toBeUndefined();
    expect(run(owned, [[{ type: 'listFavorites', owned: false }, 200, page([hidden(1, true).favorite])]]).failed).toEqual(['FAV-26', 'CHG-2']);
    expect(run(owned, [[{ type: 'listFavorites', owned: true }, 200, page([])]]).failed).toEqual(['FAV-24']);
    expect(run(m, [[{ type: 'listFavorites', owned: true }, 200, page([hidden(1).favorite])]]).failed).toContain('FAV-24');
    expect(run(m, [[{ type: 'updateFavorite', favoriteId: 1, haveIt: true, favoriteListId: -1 }, 200, fav(1, -1, true)]]).failed).toContain('FAV-12');
  });
  test('auto lists unlisted: a missing auto list fails only where GET /favorite_lists lists auto lists', () => {
    const m = run(base(), [[createInCat(8), 201, fav(1, -2)]]).m;
    expect(run(m, [[{ type: 'listLists' }, 200, lists([])]]).failed).toBeUndefined();
    expect(run(m, [[{ type: 'listLists' }, 200, lists([auto(-1, 7)])]]).failed).toEqual(['FAV-18', 'FAV-10']);
    expect(run(m, [[{ type: 'listLists' }, 200, lists([auto(-1, 7), auto(-2, 9)])]]).failed).toEqual(['FAV-5', 'FAV-9']);
  });
  test('an auto list its last favorite leaves may stay or be dropped', () => {
    const emptied = run(base(), [
      [createInCat(8), 201, fav(1, -2)],
      [{ type: 'deleteFavorite', favoriteId: 1 }, 204, undefined],
    ]).m;
    expect(emptied.lists.find((l) => l.id === -2)?.state).toBe('maybe');
    expect(run(emptied, [[{ type: 'deleteList', listId: -2 }, 404, errors]]).failed).toBeUndefined();
    expect(
      run(emptied, [
        [{ type: 'deleteList', listId: -2 }, 204, undefined],
        [{ type: 'deleteList', listId: -2 }, 204, undefined],
      ]).failed,
    ).toContain('FAV-22');
    expect(
      run(emptied, [
        [{ type: 'listListFavorites', listId: -2 }, 404, errors],
        [{ type: 'listListFavorites', listId: -2 }, 404, errors],
      ]).failed,
    ).toBeUndefined();
    // The next favorite of the category: in the list that stayed, or in a new one (the old one is then gone).
    expect(run(emptied, [[createInCat(8, 101), 201, fav(2, -2, null, 101)]]).m.lists.find((l) => l.id === -2)?.state).toBe('live');
    const renewed = run(emptied, [[createInCat(8, 101), 201, fav(2, -3, null, 101)]]);
    expect(renewed.failed).toBeUndefined();
    expect(renewed.m.lists.find((l) => l.id === -2)?.state).toBe('gone');
    // Another category's auto list is still wrong.
    expect(run(emptied, [[createInCat(8, 101), 201, fav(2, -1, null, 101)]]).failed).toEqual(['FAV-9']);
    // Moving away empties it too; a list that still holds a known favorite stays.
    const movedAway = run(base(), [
      [createInCat(8), 201, fav(1, -2)],
      [{ type: 'createList', name: 'cc-a' }, 201, { favorite_list: custom(5, 'cc-a') }],
      [{ type: 'updateFavorite', favoriteId: 1, favoriteListId: 5 }, 200, fav(1, 5)],
    ]).m;
    expect(movedAway.lists.find((l) => l.id === -2)?.state).toBe('maybe');
    const two = run(base(), [
      [createInCat(8), 201, fav(1, -2)],
      [createInCat(8, 101), 201, fav(2, -2, null, 101)],
      [{ type: 'deleteFavorite', favoriteId: 1 }, 204, undefined],
    ]).m;
    expect(two.lists.find((l) => l.id === -2)?.state).toBe('live');
    expect(run(two, [[{ type: 'deleteList', listId: -2 }, 404, errors]]).failed).toEqual(['FAV-21']);
  });
  test('a null where the spec types a value is blank (a warning), not a failure', () => {
    const r = step(base(), createInCat(7), { status: 201, body: { favorite: { id: 1, sku_id: null, favorite_list_id: -1, have_it: null } } });
    expect(r.failure).toMatchObject({ requirements: ['FAV-30'], blank: true });
    const list = step(base(), { type: 'createList', name: 'cc-a' }, { status: 201, body: { favorite_list: { id: 5, name: 'cc-a', category_id: null, type: null } } });
    expect(list.failure).toMatchObject({ requirements: ['FAV-3'], blank: true });
    expect(step(base(), createInCat(7), { status: 201, body: { favorite: { id: 1, sku_id: 5, favorite_list_id: -1, have_it: null } } }).failure?.blank).toBeUndefined();
  });
});

describe('readings the model accepts', () => {
  const page = (items: unknown[]) => ({ favorites: items, meta: { pagination: { total_results: items.length, total_pages: 1, page: 1, per: 100 } } });
  const lists = (items: unknown[]) => ({ favorite_lists: items, meta: { pagination: { total_results: items.length, total_pages: 1, page: 1, per: 100 } } });
  const auto = (id: number, category: number) => ({ id, name: 'Cat', category_id: category, type: 'auto' });
  const customList = (id: number, name: string) => ({ favorite_list: { id, name, type: 'custom', category_id: null } });

  test('a favorite of an auto list may show favorite_list_id null: the auto list of its category, known or learned', () => {
    const known = run(base(), [[createInCat(7), 201, fav(1, null)]]);
    expect(known.failed).toBeUndefined();
    expect(known.m.favorites[0]).toMatchObject({ listId: -1 });
    expect(run(known.m, [[{ type: 'listListFavorites', listId: -1 }, 200, page([fav(1, null).favorite])]]).failed).toBeUndefined();
    expect(run(known.m, [[{ type: 'listFavorites', owned: false }, 200, page([fav(1, null).favorite])]]).failed).toBeUndefined();
    expect(run(known.m, [[{ type: 'getFavorite', favoriteId: 1 }, 200, fav(1, null)]]).failed).toBeUndefined();
    const created = run(base(), [[createInCat(8), 201, fav(1, null)]]).m;
    expect(created.favorites[0]).toMatchObject({ listId: undefined, awaits: { categoryId: 8, unlisted: 'fails' } });
    const learned = run(created, [[{ type: 'listLists' }, 200, lists([auto(-1, 7), auto(-2, 8)])]]);
    expect(learned.failed).toBeUndefined();
    expect(learned.m.favorites[0]).toMatchObject({ listId: -2 });
    expect(run(created, [[{ type: 'listLists' }, 200, lists([auto(-1, 7)])]]).failed).toEqual(['FAV-9', 'FAV-10', 'FAV-5']);
  });
  test('a null by category is judged against the list the model knows', () => {
    const m = run(base(), [
      [createInCat(7), 201, fav(1, -1)],
      [{ type: 'createList', name: 'cc-a' }, 201, customList(5, 'cc-a')],
    ]).m;
    // Row 3 into the auto list answered null: in it; into a custom list answered null: not moved.
    expect(run(m, [[{ type: 'updateFavorite', favoriteId: 1, favoriteListId: -1 }, 200, fav(1, null, false)]]).failed).toBeUndefined();
    expect(run(m, [[{ type: 'updateFavorite', favoriteId: 1, favoriteListId: 5 }, 200, fav(1, null, false)]]).failed).toContain('FAV-13');
    const inCustom = run(m, [[{ type: 'updateFavorite', favoriteId: 1, favoriteListId: 5 }, 200, fav(1, 5, false)]]).m;
    expect(run(inCustom, [[{ type: 'getFavorite', favoriteId: 1 }, 200, fav(1, null, false)]]).failed).toEqual(['FAV-29']);
    // A custom list's favorites never leave their list to the category.
    expect(run(inCustom, [[{ type: 'listListFavorites', listId: 5 }, 200, page([fav(1, null, false).favorite])]]).failed).toEqual(['FAV-27']);
  });
  test('deleting an auto list may be refused: it stays; a custom list must go', () => {
    const m = run(base(), [
      [createInCat(8), 201, fav(1, -2)],
      [{ type: 'createList', name: 'cc-a' }, 201, customList(5, 'cc-a')],
    ]).m;
    for (const status of [400, 403, 422]) {
      const refused = run(m, [[{ type: 'deleteList', listId: -2 }, status, errors]]);
      expect(refused.failed).toBeUndefined();
      expect(refused.m.lists.find((l) => l.id === -2)?.state).toBe('live');
    }
    expect(run(m, [[{ type: 'deleteList', listId: -2 }, 500, errors]]).failed).toEqual(['FAV-21']);
    expect(run(m, [[{ type: 'deleteList', listId: 5 }, 422, errors]]).failed).toEqual(['FAV-21']);
  });
  test('before 3.2.0 owned=true may be ignored, and an owned favorite may stay listed in its list', () => {
    const owned = (m: FavoritesModel) =>
      run(m, [
        [createInCat(7), 201, fav(1, -1)],
        [{ type: 'updateFavorite', favoriteId: 1, haveIt: true }, 200, fav(1, null, true)],
      ]).m;
    const old = owned(initialModel([{ id: -1, name: 'Phones', category_id: 7, type: 'auto' }], { ...FLAGS, excludesOwned: false }));
    const other = fav(2, -1, null, 5).favorite;
    expect(run(old, [[{ type: 'listFavorites', owned: true }, 200, page([fav(1, null, true).favorite, other])]]).failed).toBeUndefined();
    expect(run(old, [[{ type: 'listFavorites', owned: true }, 200, page([other])]]).failed).toEqual(['FAV-24']);
    expect(run(old, [[{ type: 'listListFavorites', listId: -1 }, 200, page([fav(1, null, true).favorite])]]).failed).toBeUndefined();
    const now = owned(base());
    expect(run(now, [[{ type: 'listFavorites', owned: true }, 200, page([fav(1, null, true).favorite, other])]]).failed).toEqual(['FAV-24', 'FAV-6']);
    expect(run(now, [[{ type: 'listListFavorites', listId: -1 }, 200, page([fav(1, null, true).favorite])]]).failed).toEqual(['FAV-27']);
  });
});
