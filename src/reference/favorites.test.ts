// Favorite lists and favorites: the resources, the listings (owned favorites, order, per list, per
// category, 3.1 vs 3.2), the lists, the errors and the permissions (the transitions table:
// favorites-transitions.test.ts). Ids, names and counts are discovered through the API (SKUs through
// /categories/:category_id/skus), so the tests run on both datasets and under a base path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allFavorites, allLists, freshSkus, type Favorite, type FavoriteList } from '../testing/reference/probes/favorites.probes.ts';
import type { RunningReference } from './server.ts';
import { call, collect, expectError, makeClock, startServer, TIMESTAMP, userTokens } from '../testing/reference/testkit.ts';
import { expectOwned, favoritesCalls } from '../testing/reference/favorites-calls.ts';

const FAVORITE_FIELDS = ['id', 'have_it', 'user_id', 'user_notes', 'sku_id', 'created_at', 'updated_at', 'get_absolute_threshold', 'favorite_list_id'];
const LIST_FIELDS = ['id', 'name', 'category_id', 'type'];

const clock = makeClock();
let ref: RunningReference;
let app: string;
let user: string;

beforeAll(async () => {
  ({ ref, app, user } = await startServer({ basePath: '/api', now: clock.now }));
});
afterAll(async () => {
  await ref.close();
});

const { uniqueName, as, post, put, getFavorite, newList, favoriteInList } = favoritesCalls(clock, () => ({ ref, user }));

describe('resources', () => {
  it('favorites carry exactly the spec fields with their types', async () => {
    const { favorite, sku } = await favoriteInList();
    const all = [...(await allFavorites(ref, user)), favorite];
    expect(all.length).toBeGreaterThan(1);
    for (const f of all) {
      expect(Object.keys(f).sort()).toEqual([...FAVORITE_FIELDS].sort());
      expect(f.id).toEqual(expect.any(Number));
      expect([true, false, null]).toContain(f.have_it);
      expect(f.user_id).toEqual(expect.any(Number));
      expect(f.user_notes === null || typeof f.user_notes === 'string').toBe(true);
      expect(f.sku_id).toEqual(expect.any(Number));
      expect(f.created_at).toMatch(TIMESTAMP);
      expect(f.updated_at).toMatch(TIMESTAMP);
      expect(f.get_absolute_threshold === null || typeof f.get_absolute_threshold === 'string').toBe(true);
      expect(f.favorite_list_id === null || Number.isInteger(f.favorite_list_id)).toBe(true);
    }
    expect(new Set(all.map((f) => f.user_id)).size).toBe(1);
    expect(favorite).toMatchObject({ sku_id: sku.id, have_it: null, user_notes: null, get_absolute_threshold: null });
    expect(favorite.created_at).toBe(favorite.updated_at);
  });

  it('lists carry exactly id, name, category_id, type; auto lists have negative ids and a category', async () => {
    const lists = await allLists(ref, user);
    expect(lists.some((l) => l.type === 'auto')).toBe(true);
    expect(lists.some((l) => l.type === 'custom')).toBe(true);
    for (const l of lists) {
      expect(Object.keys(l).sort()).toEqual([...LIST_FIELDS].sort());
      expect(typeof l.name).toBe('string');
      if (l.type === 'auto') {
        expect(l.id).toBeLessThan(0);
        expect(l.category_id).toEqual(expect.any(Number));
      } else {
        expect(l.type).toBe('custom');
        expect(l.id).toBeGreaterThan(0);
        expect(l.category_id).toBeNull();
      }
    }
  });

  it('seeded favorites: have_it true only on owned favorites; every other favorite is in one of the lists', async () => {
    const listIds = new Set((await allLists(ref, user)).map((l) => l.id));
    for (const f of await allFavorites(ref, user)) {
      if (f.have_it === true) expect(f.favorite_list_id, `favorite ${f.id}`).toBeNull();
      else expect(listIds.has(f.favorite_list_id!), `favorite ${f.id}`).toBe(true);
    }
  });
});

describe('listings', () => {
  it('GET /favorites: owned favorites only with owned=true (3.2); listed in 3.1 and 3.0', async () => {
    const { favorite: owned } = await favoriteInList();
    await put(owned.id, { have_it: true });
    const { favorite: plain } = await favoriteInList();
    const latest = await as('GET', '/favorites?per=100');
    expect(Object.keys(latest.body).sort()).toEqual(['favorites', 'meta']);
    expect(latest.body.meta.pagination).toMatchObject({ page: 1, per: 100 });
    const v32 = await collect<Favorite>(ref, user, '/favorites', 'favorites', '3.2');
    expect(v32.map((f) => f.id)).toContain(plain.id);
    expect(v32.some((f) => f.have_it === true && f.favorite_list_id === null)).toBe(false);
    const onlyOwned = await collect<Favorite>(ref, user, '/favorites?owned=true', 'favorites', '3.2');
    expect(onlyOwned.map((f) => f.id)).toContain(owned.id);
    for (const f of onlyOwned) expectOwned(f);
    expect(await collect<Favorite>(ref, user, '/favorites?owned=false', 'favorites', '3.2')).toEqual(v32);
    for (const version of ['3.1', '3.0']) {
      const old = await collect<Favorite>(ref, user, '/favorites', 'favorites', version);
      expect(old.map((f) => f.id).sort()).toEqual([...v32, ...onlyOwned].map((f) => f.id).sort());
      expect(await collect<Favorite>(ref, user, '/favorites?owned=true', 'favorites', version)).toEqual(onlyOwned);
    }
    expectError(await as('GET', '/favorites?owned=maybe'), 400, 'InvalidParameter');
  });

  it('GET /favorites: newest first by default, oldest first with order_dir=asc', async () => {
    await favoriteInList();
    await favoriteInList();
    const desc = await collect<Favorite>(ref, user, '/favorites', 'favorites');
    const asc = await collect<Favorite>(ref, user, '/favorites?order_dir=asc', 'favorites');
    expect(desc.length).toBeGreaterThanOrEqual(2);
    const times = desc.map((f) => f.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(asc.map((f) => f.id)).toEqual(desc.map((f) => f.id).reverse());
    expect((await as('GET', '/favorites?order_dir=desc&per=100')).body.favorites.map((f: Favorite) => f.id)).toEqual(desc.slice(0, 100).map((f) => f.id));
    expectError(await as('GET', '/favorites?order_dir=up'), 400, 'InvalidParameter');
  });

  it('GET /favorites paginates with 25 per page by default', async () => {
    const total = (await as('GET', '/favorites')).body.meta.pagination;
    expect(total.per).toBe(25);
    const all = await collect<Favorite>(ref, user, '/favorites', 'favorites');
    expect(total.total_results).toBe(all.length);
    expect(total.total_pages).toBe(Math.ceil(all.length / 25));
  });

  it('GET /favorite_lists/:id/favorites: the favorites of that list, never owned ones', async () => {
    const { favorite, list } = await favoriteInList();
    const r = await as('GET', `/favorite_lists/${list.id}/favorites`);
    expect(Object.keys(r.body).sort()).toEqual(['favorites', 'meta']);
    expect(r.body.favorites).toEqual([favorite]);
    await put(favorite.id, { have_it: true });
    expect((await as('GET', `/favorite_lists/${list.id}/favorites?owned=true`)).body.favorites).toEqual([]);
    for (const l of await allLists(ref, user)) {
      const held = await collect<Favorite>(ref, user, `/favorite_lists/${l.id}/favorites`, 'favorites');
      for (const f of held) expect(f.favorite_list_id).toBe(l.id);
    }
    expectError(await as('GET', '/favorite_lists/999999999/favorites'), 404, 'RecordNotFound');
    expectError(await as('GET', '/favorite_lists/abc/favorites'), 404, 'RecordNotFound');
  });

  it('GET /favorite_lists: paginated {favorite_lists, meta}, oldest first, without the owned list', async () => {
    const made = await newList('Newest');
    const r = await as('GET', '/favorite_lists?per=100');
    expect(Object.keys(r.body).sort()).toEqual(['favorite_lists', 'meta']);
    expect(r.body.meta.pagination).toMatchObject({ page: 1, per: 100 });
    const lists = r.body.favorite_lists as FavoriteList[];
    expect(lists.at(-1)).toEqual(made);
    expect(lists.every((l) => l.type === 'auto' || l.type === 'custom')).toBe(true);
    expect((await as('GET', '/favorite_lists?per=1')).body.favorite_lists).toHaveLength(1);
  });

  it('GET /categories/:id/favorites: favorites of SKUs in the category (and below), owned ones as in GET /favorites', async () => {
    const { favorite, sku } = await favoriteInList();
    const leaf = await collect<Favorite>(ref, user, `/categories/${sku.category_id}/favorites`, 'favorites');
    expect(leaf.map((f) => f.id)).toContain(favorite.id);
    const all = await allFavorites(ref, user);
    for (const f of leaf) expect(all.find((x) => x.id === f.id)).toBeDefined();
    const parent = (await as('GET', `/categories/${sku.category_id}`)).body.category.parent_id as number;
    expect((await collect<Favorite>(ref, user, `/categories/${parent}/favorites`, 'favorites')).map((f) => f.id)).toContain(favorite.id);
    await put(favorite.id, { have_it: true });
    expect((await collect<Favorite>(ref, user, `/categories/${sku.category_id}/favorites`, 'favorites')).map((f) => f.id)).not.toContain(favorite.id);
    expect((await collect<Favorite>(ref, user, `/categories/${sku.category_id}/favorites?owned=true`, 'favorites')).map((f) => f.id)).toContain(favorite.id);
    expect((await collect<Favorite>(ref, user, `/categories/${sku.category_id}/favorites`, 'favorites', '3.1')).map((f) => f.id)).toContain(favorite.id);
    const r = await as('GET', `/categories/${sku.category_id}/favorites`);
    expect(Object.keys(r.body).sort()).toEqual(['favorites', 'meta']);
    expectError(await as('GET', '/categories/999999999/favorites'), 404, 'RecordNotFound');
  });
});

describe('favorite lists', () => {
  it('POST /favorite_lists: 201 {favorite_list} of type custom; the name is trimmed', async () => {
    const name = uniqueName('Gifts');
    const r = await as('POST', '/favorite_lists', { favorite_list: { name: ` ${name}  ` } });
    expect(r.status, r.text).toBe(201);
    expect(Object.keys(r.body)).toEqual(['favorite_list']);
    expect(r.body.favorite_list).toEqual({ id: expect.any(Number), name, category_id: null, type: 'custom' });
    expect((await allLists(ref, user)).filter((l) => l.name === name)).toEqual([r.body.favorite_list]);
  });

  it("an existing custom name is 422 RecordInvalid; an auto list's name is free for a custom list", async () => {
    const list = await newList('Twice');
    expectError(await as('POST', '/favorite_lists', { favorite_list: { name: list.name } }), 422, 'RecordInvalid');
    expect((await allLists(ref, user)).filter((l) => l.name === list.name)).toHaveLength(1);
    const lists = await allLists(ref, user);
    const customNames = new Set(lists.filter((l) => l.type === 'custom').map((l) => l.name));
    const auto = lists.find((l) => l.type === 'auto' && !customNames.has(l.name))!;
    const r = await as('POST', '/favorite_lists', { favorite_list: { name: auto.name } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.favorite_list).toMatchObject({ name: auto.name, type: 'custom', category_id: null });
  });

  it('bad names: blank or too long 422, not a string or no favorite_list 400', async () => {
    for (const name of ['', '   ', 'z'.repeat(101), undefined, null]) {
      expectError(await as('POST', '/favorite_lists', { favorite_list: { name } }), 422, 'RecordInvalid');
    }
    expectError(await as('POST', '/favorite_lists', { favorite_list: { name: 7 } }), 400, 'InvalidParameter');
    expectError(await as('POST', '/favorite_lists', { name: 'x' }), 400, 'ParameterMissing');
    expectError(await as('POST', '/favorite_lists'), 400, 'ParameterMissing');
  });

  it('DELETE /favorite_lists/:id: 204 empty, its favorites go with it; 404 when missing; auto lists too', async () => {
    const { favorite, list } = await favoriteInList();
    const r = await as('DELETE', `/favorite_lists/${list.id}`);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect((await allLists(ref, user)).some((l) => l.id === list.id)).toBe(false);
    expectError(await as('GET', `/favorites/${favorite.id}`), 404, 'RecordNotFound');
    expectError(await as('DELETE', `/favorite_lists/${list.id}`), 404, 'RecordNotFound');
    expectError(await as('GET', `/favorite_lists/${list.id}/favorites`), 404, 'RecordNotFound');
    // An auto list (negative id); a new one for the category gets a new id.
    const [sku] = await freshSkus(ref, user, 1, { withoutAutoList: true });
    const made = (await post({ sku_id: sku!.id })).body.favorite as Favorite;
    const autoId = made.favorite_list_id!;
    expect((await as('DELETE', `/favorite_lists/${autoId}`)).status).toBe(204);
    expectError(await as('GET', `/favorites/${made.id}`), 404, 'RecordNotFound');
    const again = (await post({ sku_id: sku!.id })).body.favorite as Favorite;
    expect(again.favorite_list_id).toBeLessThan(0);
    expect(again.favorite_list_id).not.toBe(autoId);
    expect(again.id).not.toBe(made.id);
  });
});

describe('favorites: single resource and errors', () => {
  it('GET /favorites/:id gives {favorite}; unknown and non-integer ids 404 RecordNotFound', async () => {
    const { favorite } = await favoriteInList();
    const r = await as('GET', `/favorites/${favorite.id}`);
    expect(r.body).toEqual({ favorite });
    const missing = Math.max(...(await allFavorites(ref, user)).map((f) => f.id)) + 1_000_000;
    expect((await as('GET', `/favorites/${missing}`)).body).toEqual({
      errors: [{ code: 'RecordNotFound', messages: [`Couldn't find Favorite with id=${missing}`] }],
    });
    expectError(await as('GET', '/favorites/abc'), 404, 'RecordNotFound');
    expectError(await put(missing, { have_it: true }), 404, 'RecordNotFound');
  });

  it('DELETE /favorites/:id: 204 empty, then 404', async () => {
    const { favorite, list } = await favoriteInList();
    const r = await as('DELETE', `/favorites/${favorite.id}`);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expectError(await as('DELETE', `/favorites/${favorite.id}`), 404, 'RecordNotFound');
    expect((await as('GET', `/favorite_lists/${list.id}/favorites`)).body.favorites).toEqual([]);
  });

  it('POST errors: no sku_id 400, unknown SKU 404, SKU already a favorite 422, unknown list 404, foreign auto list 422', async () => {
    const { favorite, list } = await favoriteInList();
    expectError(await post({}), 400, 'ParameterMissing');
    expectError(await as('POST', '/favorites', { sku_id: 1 }), 400, 'ParameterMissing');
    expectError(await post({ sku_id: 'x1' }), 400, 'InvalidParameter');
    const skuIds = (await allFavorites(ref, user)).map((f) => f.sku_id);
    const noSku = Math.max(...skuIds) + 5_000_000;
    expect((await post({ sku_id: noSku })).body).toEqual({ errors: [{ code: 'RecordNotFound', messages: [`Couldn't find Sku with id=${noSku}`] }] });
    expectError(await post({ sku_id: favorite.sku_id }), 422, 'RecordInvalid');
    expectError(await post({ sku_id: favorite.sku_id, favorite_list_id: list.id }), 422, 'RecordInvalid');
    const [sku] = await freshSkus(ref, user, 1);
    expectError(await post({ sku_id: sku!.id, favorite_list_id: list.id + 5_000_000 }), 404, 'RecordNotFound');
    const foreign = (await allLists(ref, user)).find((l) => l.type === 'auto' && l.category_id !== sku!.category_id)!;
    expectError(await post({ sku_id: sku!.id, favorite_list_id: foreign.id }), 422, 'RecordInvalid');
    expect((await allFavorites(ref, user)).some((f) => f.sku_id === sku!.id)).toBe(false);
    // A form body works too.
    const form = await fetch(`${ref.baseUrl}/favorites`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${user}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `favorite[sku_id]=${sku!.id}&favorite[favorite_list_id]=${list.id}`,
    });
    expect(form.status).toBe(201);
    expect(((await form.json()) as { favorite: Favorite }).favorite.favorite_list_id).toBe(list.id);
  });

  it('PUT errors: no favorite and no have_it 400; have_it not a boolean 400; an empty update only touches updated_at', async () => {
    const { favorite } = await favoriteInList();
    expectError(await as('PUT', `/favorites/${favorite.id}`), 400, 'ParameterMissing');
    expectError(await put(favorite.id, { have_it: 'perhaps' }), 400, 'InvalidParameter');
    expectError(await as('PUT', `/favorites/${favorite.id}?have_it=perhaps`), 400, 'InvalidParameter');
    expectError(await as('PUT', `/favorites/${favorite.id}`, { favorite: 'x' }), 400, 'InvalidParameter');
    clock.advance(1_000);
    const r = await put(favorite.id, { user_notes: 'ignored' });
    expect(r.status).toBe(200);
    expect(r.body.favorite).toEqual({ ...favorite, updated_at: r.body.favorite.updated_at });
    expect(r.body.favorite.updated_at).not.toBe(favorite.updated_at);
    // The body's have_it wins over the query's.
    expect((await put(favorite.id, { have_it: false }, '?have_it=true')).body.favorite.have_it).toBe(false);
  });
});

describe('permissions', () => {
  it('every favorites endpoint needs a user token with the favorites scope (401 otherwise)', async () => {
    const publicOnly = (await userTokens(ref, 'public')).access;
    const { favorite, list, sku } = await favoriteInList();
    const calls: [string, string, unknown?][] = [
      ['GET', '/favorite_lists'],
      ['POST', '/favorite_lists', { favorite_list: { name: uniqueName('Nope') } }],
      ['DELETE', `/favorite_lists/${list.id}`],
      ['GET', '/favorites'],
      ['GET', `/favorite_lists/${list.id}/favorites`],
      ['GET', `/favorites/${favorite.id}`],
      ['POST', '/favorites', { favorite: { sku_id: sku.id } }],
      ['PUT', `/favorites/${favorite.id}`, { favorite: { have_it: true } }],
      ['DELETE', `/favorites/${favorite.id}`],
      ['GET', `/categories/${sku.category_id}/favorites`],
    ];
    for (const token of [app, publicOnly]) {
      for (const [method, path, body] of calls) {
        const r = await call(ref, method, path, { token, body });
        expect(r.status, `${method} ${path}`).toBe(401);
        expect(r.body.errors[0].code).toEqual(expect.any(String));
      }
    }
    expect(await getFavorite(favorite.id)).toEqual(favorite);
  });
});

describe('other datasets and base paths', () => {
  it("runs the table's first row on 'alt' without a base path", async () => {
    const { ref: alt, user: token } = await startServer({ dataset: 'alt' });
    try {
      const [sku] = await freshSkus(alt, token, 1, { withoutAutoList: true });
      const r = await call(alt, 'POST', '/favorites', { token, body: { favorite: { sku_id: sku!.id } } });
      expect(r.status, r.text).toBe(201);
      const auto = (await allLists(alt, token)).find((l) => l.id === r.body.favorite.favorite_list_id)!;
      expect(auto).toMatchObject({ type: 'auto', category_id: sku!.category_id });
      expect(auto.id).toBeLessThan(0);
      expect((await call(alt, 'DELETE', `/favorites/${r.body.favorite.id}`, { token })).status).toBe(204);
    } finally {
      await alt.close();
    }
  });
});
