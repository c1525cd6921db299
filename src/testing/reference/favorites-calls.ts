// Helpers for the reference's favorites tests (src/reference/favorites*.test.ts): calls as the demo
// user on the test file's server, fresh lists and favorites, and the table's owned state.
import { expect } from 'vitest';
import type { RunningReference } from '../../reference/server.ts';
import { freshSkus, type Favorite, type FavoriteList, type SkuRef } from './probes/favorites.probes.ts';
import { call, type Clock, type Reply } from './testkit.ts';

/**
 * The calls of a favorites test file, made as the demo user (`user`) on `ref`; `server` gives both
 * once the file's beforeAll has started the server, on `clock`.
 */
export function favoritesCalls(clock: Clock, server: () => { ref: RunningReference; user: string }) {
  let names = 0;

  /** A list name no other test uses. */
  const uniqueName = (label: string): string => `${label} ${++names}`;

  const as = (method: string, path: string, body?: unknown, version?: string): Promise<Reply> => call(server().ref, method, path, { token: server().user, body, version });
  const post = (fields: Record<string, unknown>): Promise<Reply> => as('POST', '/favorites', { favorite: fields });
  const put = (id: number, fields: Record<string, unknown>, query = ''): Promise<Reply> => as('PUT', `/favorites/${id}${query}`, { favorite: fields });
  const getFavorite = async (id: number): Promise<Favorite> => (await as('GET', `/favorites/${id}`)).body.favorite as Favorite;

  async function newList(label: string): Promise<FavoriteList> {
    const r = await as('POST', '/favorite_lists', { favorite_list: { name: uniqueName(label) } });
    expect(r.status, r.text).toBe(201);
    return r.body.favorite_list as FavoriteList;
  }

  /** A fresh favorite in a new custom list; the clock moves on a minute first. */
  async function favoriteInList(): Promise<{ favorite: Favorite; list: FavoriteList; sku: SkuRef }> {
    clock.advance(60_000);
    const [sku] = await freshSkus(server().ref, server().user, 1);
    const list = await newList('Scratch');
    const r = await post({ sku_id: sku!.id, favorite_list_id: list.id });
    expect(r.status, r.text).toBe(201);
    return { favorite: r.body.favorite as Favorite, list, sku: sku! };
  }

  return { uniqueName, as, post, put, getFavorite, newList, favoriteInList };
}

/** The table's states: owned, or in a list (with have_it). */
export function expectOwned(f: Favorite): void {
  expect(f.have_it).toBe(true);
  expect(f.favorite_list_id).toBeNull();
}
