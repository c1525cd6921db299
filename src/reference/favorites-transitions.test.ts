// Favorites: the spec's States and transitions table, row by row, and a model of it checked by a
// seeded random walk. Fixtures are discovered through the API; the server runs under a base path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allFavorites, allLists, freshSkus, type Favorite } from '../testing/reference/probes/favorites.probes.ts';
import type { RunningReference } from './server.ts';
import { collect, expectError, leafCategories, makeClock, startServer, type Reply } from '../testing/reference/testkit.ts';
import { expectOwned, favoritesCalls } from '../testing/reference/favorites-calls.ts';

const clock = makeClock();
let ref: RunningReference;
let user: string;

beforeAll(async () => {
  ({ ref, user } = await startServer({ basePath: '/api', now: clock.now }));
});
afterAll(async () => {
  await ref.close();
});

const { uniqueName, as, post, put, getFavorite, newList, favoriteInList } = favoritesCalls(clock, () => ({ ref, user }));

describe('States and transitions', () => {
  it('row 1: POST without a list puts the favorite in the auto list of its category, created if needed', async () => {
    const [a, b] = await freshSkus(ref, user, 2, { withoutAutoList: true, sameCategory: true });
    expect(a!.category_id).toBe(b!.category_id);
    const before = await allLists(ref, user);
    const r = await post({ sku_id: a!.id });
    expect(r.status, r.text).toBe(201);
    expect(Object.keys(r.body)).toEqual(['favorite']);
    const listId = r.body.favorite.favorite_list_id as number;
    expect(listId).toBeLessThan(0);
    const after = await allLists(ref, user);
    expect(after).toHaveLength(before.length + 1);
    const auto = after.find((l) => l.id === listId)!;
    const category = (await as('GET', `/categories/${a!.category_id}`)).body.category;
    expect(auto).toEqual({ id: listId, name: category.name, category_id: a!.category_id, type: 'auto' });
    // A second SKU of the same category joins the same auto list; no second list.
    const second = await post({ sku_id: b!.id });
    expect(second.body.favorite.favorite_list_id).toBe(listId);
    expect(await allLists(ref, user)).toHaveLength(after.length);
    const inList = await collect<Favorite>(ref, user, `/favorite_lists/${listId}/favorites`, 'favorites');
    expect(inList.map((f) => f.sku_id).sort()).toEqual([a!.id, b!.id].sort());
  });

  it('row 1: a category that already has an auto list reuses it', async () => {
    const lists = await allLists(ref, user);
    const autoCategories = new Set(lists.filter((l) => l.type === 'auto').map((l) => l.category_id));
    const leaves = (await leafCategories(ref, user)).filter((c) => !autoCategories.has(c.id)).map((c) => c.id);
    const [sku] = await freshSkus(ref, user, 1, { excludeCategories: leaves });
    const auto = lists.find((l) => l.type === 'auto' && l.category_id === sku!.category_id)!;
    const r = await post({ sku_id: sku!.id });
    expect(r.body.favorite.favorite_list_id).toBe(auto.id);
    expect(await allLists(ref, user)).toHaveLength(lists.length);
  });

  it('row 2: PUT have_it=true makes the favorite owned (have_it true, favorite_list_id null)', async () => {
    const { favorite } = await favoriteInList();
    clock.advance(5_000);
    const r = await put(favorite.id, { have_it: true });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body)).toEqual(['favorite']);
    expectOwned(r.body.favorite);
    expect(r.body.favorite.updated_at).not.toBe(favorite.updated_at);
    expect(r.body.favorite.created_at).toBe(favorite.created_at);
    expect(await getFavorite(favorite.id)).toEqual(r.body.favorite);
  });

  it('row 2: a favorite_list_id sent with have_it=true is ignored; have_it may be a query parameter', async () => {
    const { favorite } = await favoriteInList();
    const other = await newList('Other');
    expectOwned((await put(favorite.id, { have_it: true, favorite_list_id: other.id })).body.favorite);
    const { favorite: second } = await favoriteInList();
    const q = await as('PUT', `/favorites/${second.id}?have_it=true`);
    expect(q.status, q.text).toBe(200);
    expectOwned(q.body.favorite);
    // A new_list_name sent with have_it=true is ignored too (no list is made).
    const { favorite: third } = await favoriteInList();
    const before = await allLists(ref, user);
    const name = uniqueName('Ignored');
    expectOwned((await put(third.id, { have_it: 'true', new_list_name: name })).body.favorite);
    expect((await allLists(ref, user)).map((l) => l.id)).toEqual(before.map((l) => l.id));
  });

  it('row 3: PUT favorite_list_id (have_it not true) moves the favorite into that list', async () => {
    const { favorite, list } = await favoriteInList();
    const other = await newList('Target');
    const moved = await put(favorite.id, { favorite_list_id: other.id });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.favorite.favorite_list_id).toBe(other.id);
    expect((await collect<Favorite>(ref, user, `/favorite_lists/${other.id}/favorites`, 'favorites')).map((f) => f.id)).toEqual([favorite.id]);
    expect(await collect<Favorite>(ref, user, `/favorite_lists/${list.id}/favorites`, 'favorites')).toEqual([]);
    // have_it false sent with it is kept; the list id may be a string.
    const back = await put(favorite.id, { favorite_list_id: String(list.id), have_it: false });
    expect(back.body.favorite).toMatchObject({ favorite_list_id: list.id, have_it: false });
    // An owned favorite moved into a list stops being owned (have_it null).
    expectOwned((await put(favorite.id, { have_it: true })).body.favorite);
    expect((await put(favorite.id, { favorite_list_id: other.id })).body.favorite).toMatchObject({ favorite_list_id: other.id, have_it: null });
  });

  it("row 3: into an auto list of the same category; another category's auto list is 422; a missing list 404", async () => {
    const { favorite, sku } = await favoriteInList();
    const [elsewhere] = await freshSkus(ref, user, 1, { excludeCategories: [sku.category_id] });
    const otherAuto = (await post({ sku_id: elsewhere!.id })).body.favorite.favorite_list_id as number;
    expect(otherAuto).toBeLessThan(0);
    expectError(await put(favorite.id, { favorite_list_id: otherAuto }), 422, 'RecordInvalid');
    const lowest = Math.min(...(await allLists(ref, user)).map((l) => l.id));
    expectError(await put(favorite.id, { favorite_list_id: lowest - 1000 }), 404, 'RecordNotFound');
    expectError(await put(favorite.id, { favorite_list_id: 'abc' }), 400, 'InvalidParameter');
    expect(await getFavorite(favorite.id)).toEqual(favorite);
    // The auto list of its own category (made by a second favorite of that category if need be).
    const [sibling] = await freshSkus(ref, user, 1, { excludeCategories: (await leafCategories(ref, user)).map((c) => c.id).filter((id) => id !== sku.category_id) });
    const ownAuto = (await post({ sku_id: sibling!.id })).body.favorite.favorite_list_id as number;
    expect((await put(favorite.id, { favorite_list_id: ownAuto })).body.favorite.favorite_list_id).toBe(ownAuto);
  });

  it('row 4: new_list_name puts the favorite in the custom list of that name, created if absent; have_it becomes null', async () => {
    const { favorite } = await favoriteInList();
    await put(favorite.id, { have_it: false });
    const name = uniqueName('Wish list');
    const before = await allLists(ref, user);
    const r = await put(favorite.id, { new_list_name: `  ${name} ` });
    expect(r.status, r.text).toBe(200);
    expect(r.body.favorite.have_it).toBeNull();
    const after = await allLists(ref, user);
    expect(after).toHaveLength(before.length + 1);
    const created = after.find((l) => l.id === r.body.favorite.favorite_list_id)!;
    expect(created).toEqual({ id: created.id, name, category_id: null, type: 'custom' });
    // The same name again: the existing list, no second one; from owned too.
    const { favorite: second } = await favoriteInList();
    expectOwned((await put(second.id, { have_it: true })).body.favorite);
    const again = await put(second.id, { new_list_name: name });
    expect(again.body.favorite).toMatchObject({ favorite_list_id: created.id, have_it: null });
    expect(await allLists(ref, user)).toHaveLength(after.length + 1); // favoriteInList made one list
    // new_list_name wins over favorite_list_id.
    const other = await newList('Loser');
    expect((await put(second.id, { new_list_name: name, favorite_list_id: other.id })).body.favorite.favorite_list_id).toBe(created.id);
  });

  it('row 4: POST with new_list_name; a custom list may hold SKUs of different categories', async () => {
    const skus = await freshSkus(ref, user, 2, { distinctCategories: true });
    const name = uniqueName('Mixed');
    const first = await post({ sku_id: skus[0]!.id, new_list_name: name });
    expect(first.status, first.text).toBe(201);
    expect(first.body.favorite.have_it).toBeNull();
    const listId = first.body.favorite.favorite_list_id as number;
    expect(listId).toBeGreaterThan(0);
    // At the top level of the body too.
    const second = await as('POST', '/favorites', { favorite: { sku_id: skus[1]!.id }, new_list_name: name });
    expect(second.body.favorite.favorite_list_id).toBe(listId);
    const held = await collect<Favorite>(ref, user, `/favorite_lists/${listId}/favorites`, 'favorites');
    expect(held.map((f) => f.sku_id).sort()).toEqual(skus.map((s) => s.id).sort());
    expect((await allLists(ref, user)).filter((l) => l.name === name)).toHaveLength(1);
  });

  it('row 4: an invalid new_list_name gives 400 with the errors body and changes nothing', async () => {
    const { favorite } = await favoriteInList();
    const before = await allLists(ref, user);
    for (const bad of ['', '   ', 'x'.repeat(101), 42, ['a']]) {
      expectError(await put(favorite.id, { new_list_name: bad }), 400, 'InvalidParameter');
    }
    const [sku] = await freshSkus(ref, user, 1);
    expectError(await post({ sku_id: sku!.id, new_list_name: ' ' }), 400, 'InvalidParameter');
    expect(await getFavorite(favorite.id)).toEqual(favorite);
    expect(await allLists(ref, user)).toEqual(before);
    expect((await allFavorites(ref, user)).some((f) => f.sku_id === sku!.id)).toBe(false);
    const long = 'y'.repeat(100);
    expect((await put(favorite.id, { new_list_name: long })).status).toBe(200);
  });

  it('have_it false on an owned favorite puts it back into the auto list of its category', async () => {
    const { favorite, sku } = await favoriteInList();
    expectOwned((await put(favorite.id, { have_it: true })).body.favorite);
    const r = await put(favorite.id, { have_it: false });
    expect(r.body.favorite.have_it).toBe(false);
    const auto = (await allLists(ref, user)).find((l) => l.id === r.body.favorite.favorite_list_id)!;
    expect(auto).toMatchObject({ type: 'auto', category_id: sku.category_id });
    // have_it false on a favorite in a list keeps the list.
    const kept = await put(favorite.id, { have_it: null });
    expect(kept.body.favorite).toMatchObject({ have_it: null, favorite_list_id: auto.id });
  });
});

describe('model of the States and transitions table', () => {
  it('a seeded random walk of POSTs and PUTs agrees with the model at every step, and the listings with it at the end', async () => {
    let seed = 0x5eed;
    const rnd = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
    interface State {
      have_it: boolean | null;
      list: number | null;
      category: number;
    }
    const model = new Map<number, State>();
    const lists = [await newList('Model 1'), await newList('Model 2')];
    const customByName = new Map(lists.map((l) => [l.name, l.id]));
    const names = [lists[0]!.name, uniqueName('Model new A'), uniqueName('Model new B')];
    const autoOf = async (category: number): Promise<number | undefined> => (await allLists(ref, user)).find((l) => l.type === 'auto' && l.category_id === category)?.id;

    // Row 1 and row 4 (POST): three favorites, by auto list, by list id, by new_list_name.
    const skus = await freshSkus(ref, user, 3, { distinctCategories: true });
    for (const [i, sku] of skus.entries()) {
      const fields = i === 0 ? {} : i === 1 ? { favorite_list_id: lists[1]!.id } : { new_list_name: lists[0]!.name };
      const r = await post({ sku_id: sku.id, ...fields });
      expect(r.status, r.text).toBe(201);
      const expectedList = i === 0 ? await autoOf(sku.category_id) : i === 1 ? lists[1]!.id : lists[0]!.id;
      expect(r.body.favorite).toMatchObject({ have_it: null, favorite_list_id: expectedList });
      model.set(r.body.favorite.id, { have_it: null, list: expectedList!, category: sku.category_id });
    }

    for (let step = 0; step < 40; step++) {
      const id = pick([...model.keys()]);
      const st = model.get(id)!;
      const op = Math.floor(rnd() * 5);
      let r: Reply;
      let next: State;
      let label: string;
      if (op === 0) {
        // Row 2: have_it=true, with or without a favorite_list_id (ignored).
        const fields = rnd() < 0.5 ? { have_it: true } : { have_it: true, favorite_list_id: pick(lists).id };
        label = `PUT ${JSON.stringify(fields)}`;
        r = await put(id, fields);
        next = { ...st, have_it: true, list: null };
      } else if (op === 1) {
        // have_it=true as a query parameter.
        label = 'PUT ?have_it=true';
        r = await as('PUT', `/favorites/${id}?have_it=true`);
        next = { ...st, have_it: true, list: null };
      } else if (op === 2) {
        // Row 3: favorite_list_id, have_it absent or false.
        const target = pick(lists).id;
        const fields: Record<string, unknown> = rnd() < 0.5 ? { favorite_list_id: target } : { favorite_list_id: target, have_it: false };
        label = `PUT ${JSON.stringify(fields)}`;
        r = await put(id, fields);
        const haveIt = 'have_it' in fields ? false : st.have_it === true ? null : st.have_it;
        next = { ...st, have_it: haveIt, list: target };
      } else if (op === 3) {
        // Row 4: new_list_name (an existing custom list, or a new one).
        const name = pick(names);
        label = `PUT new_list_name=${name}`;
        r = await put(id, { new_list_name: name });
        let listId = customByName.get(name);
        if (listId === undefined) {
          listId = r.body?.favorite?.favorite_list_id as number;
          expect(
            lists.some((l) => l.id === listId),
            label,
          ).toBe(false);
          const made = (await allLists(ref, user)).find((l) => l.id === listId);
          expect(made, label).toEqual({ id: listId, name, category_id: null, type: 'custom' });
          customByName.set(name, listId);
        }
        next = { ...st, have_it: null, list: listId };
      } else {
        // have_it false or null alone: the list stays; an owned favorite goes to its auto list.
        const haveIt = rnd() < 0.5 ? false : null;
        label = `PUT have_it=${String(haveIt)}`;
        r = await put(id, { have_it: haveIt });
        next = { ...st, have_it: haveIt, list: st.list ?? (await autoOf(st.category))! };
      }
      expect(r.status, `${label}: ${r.text}`).toBe(200);
      expect({ have_it: r.body.favorite.have_it, list: r.body.favorite.favorite_list_id }, `step ${step}: ${label} from ${JSON.stringify(st)}`).toEqual({
        have_it: next.have_it,
        list: next.list,
      });
      model.set(id, next);
    }

    // The listings agree with the model.
    const ours = (fs: Favorite[]): number[] =>
      fs
        .map((f) => f.id)
        .filter((i) => model.has(i))
        .sort();
    const owned = [...model.entries()]
      .filter(([, s]) => s.have_it === true && s.list === null)
      .map(([i]) => i)
      .sort();
    const notOwned = [...model.keys()].filter((i) => !owned.includes(i)).sort();
    expect(ours(await collect<Favorite>(ref, user, '/favorites?owned=true', 'favorites'))).toEqual(owned);
    expect(ours(await collect<Favorite>(ref, user, '/favorites', 'favorites'))).toEqual(notOwned);
    expect(ours(await collect<Favorite>(ref, user, '/favorites', 'favorites', '3.1'))).toEqual([...model.keys()].sort());
    for (const listId of new Set([...model.values()].map((s) => s.list).filter((l): l is number => l !== null))) {
      const held = ours(await collect<Favorite>(ref, user, `/favorite_lists/${listId}/favorites`, 'favorites'));
      expect(held).toEqual(
        [...model.entries()]
          .filter(([, s]) => s.list === listId)
          .map(([i]) => i)
          .sort(),
      );
    }
  });
});
