// Probes of the faults in src/reference/faults/favorites.ts: each resolves true when the server shows the bug (test-only code).
// Every probe works on favorites and lists it makes itself (SKUs the user has no favorite of,
// found through GET /categories and /categories/:category_id/skus; lists named with a fresh
// prefix) and deletes them again. The helpers are shared with src/reference/favorites.test.ts.

import type { RunningReference } from '../../../reference/server.ts';
import { call, collect, get, leafCategories, userTokens, type Reply } from '../testkit.ts';
import type { ProbeTable } from './probe.ts';

export interface Favorite {
  id: number;
  have_it: boolean | null;
  user_id: number;
  user_notes: string | null;
  sku_id: number;
  created_at: string;
  updated_at: string;
  get_absolute_threshold: string | null;
  favorite_list_id: number | null;
}

export interface FavoriteList {
  id: number;
  name: string;
  category_id: number | null;
  type: string;
}

export interface SkuRef {
  id: number;
  category_id: number;
}

/** Every favorite of the user, owned ones included, whatever the version rules. */
export async function allFavorites(ref: RunningReference, token: string): Promise<Favorite[]> {
  const out = new Map<number, Favorite>();
  for (const [path, version] of [
    ['/favorites', '3.2'],
    ['/favorites?owned=true', '3.2'],
    ['/favorites', '3.1'],
  ] as const) {
    for (const f of await collect<Favorite>(ref, token, path, 'favorites', version)) out.set(f.id, f);
  }
  return [...out.values()];
}

export async function allLists(ref: RunningReference, token: string): Promise<FavoriteList[]> {
  return collect<FavoriteList>(ref, token, '/favorite_lists', 'favorite_lists');
}

export interface FreshOptions {
  /** Only SKUs of categories in which the user has no auto list. */
  withoutAutoList?: boolean;
  /** At most one SKU per category. */
  distinctCategories?: boolean;
  /** All of them from one category. */
  sameCategory?: boolean;
  /** Leave these categories out. */
  excludeCategories?: readonly number[];
}

/** `count` SKUs the user has no favorite of (found through /categories/:category_id/skus). */
export async function freshSkus(ref: RunningReference, token: string, count: number, opts: FreshOptions = {}): Promise<SkuRef[]> {
  const favorited = new Set((await allFavorites(ref, token)).map((f) => f.sku_id));
  const autoCategories = new Set((await allLists(ref, token)).filter((l) => l.type === 'auto').map((l) => l.category_id));
  const out: SkuRef[] = [];
  for (const leaf of await leafCategories(ref, token)) {
    if (opts.withoutAutoList && autoCategories.has(leaf.id)) continue;
    if (opts.excludeCategories?.includes(leaf.id)) continue;
    const r = await call(ref, 'GET', `/categories/${leaf.id}/skus?per=100`, { token });
    if (r.status !== 200) continue;
    if (opts.sameCategory) out.length = 0;
    for (const s of (r.body?.skus ?? []) as SkuRef[]) {
      if (favorited.has(s.id)) continue;
      out.push({ id: s.id, category_id: s.category_id });
      if (out.length === count) return out;
      if (opts.distinctCategories) break;
    }
  }
  throw new Error(`found only ${out.length} of ${count} SKUs without a favorite (${JSON.stringify(opts)})`);
}

let probeCounter = 0;

/** Tracks what a probe makes, and deletes it. */
export class Scratch {
  readonly prefix = `zz probe ${process.pid} ${Date.now()} ${++probeCounter}`;
  private readonly favorites = new Set<number>();
  private listsBefore: Set<number> | null = null;
  constructor(
    readonly ref: RunningReference,
    readonly token: string,
  ) {}

  /** Remembers the lists that exist now: every list made after it is deleted by cleanup(). */
  async start(): Promise<this> {
    this.listsBefore = new Set((await allLists(this.ref, this.token)).map((l) => l.id));
    return this;
  }

  async list(suffix: string): Promise<FavoriteList> {
    const r = await call(this.ref, 'POST', '/favorite_lists', { token: this.token, body: { favorite_list: { name: `${this.prefix} ${suffix}` } } });
    if (r.status !== 201) throw new Error(`POST /favorite_lists: ${r.status} ${r.text}`);
    return r.body.favorite_list as FavoriteList;
  }

  /** POST /favorites; the favorite is deleted by cleanup() whatever the status. */
  async favorite(fields: Record<string, unknown>): Promise<Reply> {
    const r = await call(this.ref, 'POST', '/favorites', { token: this.token, body: { favorite: fields } });
    if (typeof r.body?.favorite?.id === 'number') this.favorites.add(r.body.favorite.id);
    return r;
  }

  async put(id: number, fields: Record<string, unknown>): Promise<Reply> {
    return call(this.ref, 'PUT', `/favorites/${id}`, { token: this.token, body: { favorite: fields } });
  }

  async cleanup(): Promise<void> {
    for (const id of this.favorites) await call(this.ref, 'DELETE', `/favorites/${id}`, { token: this.token });
    if (this.listsBefore === null) return;
    for (const l of await allLists(this.ref, this.token)) {
      if (!this.listsBefore.has(l.id) || l.name.startsWith(this.prefix)) await call(this.ref, 'DELETE', `/favorite_lists/${l.id}`, { token: this.token });
    }
  }
}

async function withScratch(ref: RunningReference, token: string, fn: (s: Scratch) => Promise<boolean>): Promise<boolean> {
  const s = new Scratch(ref, token);
  try {
    await s.start();
    return await fn(s);
  } finally {
    await s.cleanup();
  }
}

/** A favorite of a fresh SKU in a new custom list (not an auto list, so no auto-list fault touches it). */
async function favoriteInList(s: Scratch): Promise<{ favorite: Favorite; list: FavoriteList }> {
  const [sku] = await freshSkus(s.ref, s.token, 1);
  const list = await s.list('a');
  const r = await s.favorite({ sku_id: sku!.id, favorite_list_id: list.id });
  if (r.status !== 201) throw new Error(`POST /favorites: ${r.status} ${r.text}`);
  return { favorite: r.body.favorite as Favorite, list };
}

/** Makes the favorite owned; false when the server does not (another fault). */
async function makeOwned(s: Scratch, id: number): Promise<boolean> {
  await s.put(id, { have_it: true });
  const f = (await call(s.ref, 'GET', `/favorites/${id}`, { token: s.token })).body?.favorite as Favorite | undefined;
  return f?.have_it === true && f.favorite_list_id === null;
}

export const FAVORITE_PROBES: ProbeTable = {
  'auto-list-not-created': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const [sku] = await freshSkus(ref, user, 1, { withoutAutoList: true });
      const r = await s.favorite({ sku_id: sku!.id });
      return r.status === 201 && r.body.favorite.favorite_list_id === null;
    }),

  'auto-list-ignores-category': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const [sku, other] = await freshSkus(ref, user, 2, { withoutAutoList: true, distinctCategories: true });
      // Make sure some auto list of another category exists.
      if (!(await allLists(ref, user)).some((l) => l.type === 'auto')) await s.favorite({ sku_id: other!.id });
      const r = await s.favorite({ sku_id: sku!.id });
      const listId = r.body?.favorite?.favorite_list_id as number | null | undefined;
      if (r.status !== 201 || typeof listId !== 'number') return false;
      const list = (await allLists(ref, user)).find((l) => l.id === listId);
      return list !== undefined && list.category_id !== sku!.category_id;
    }),

  'custom-list-single-category': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const [a, b] = await freshSkus(s.ref, s.token, 2, { distinctCategories: true });
      const list = await s.list('mixed');
      const first = await s.favorite({ sku_id: a!.id, favorite_list_id: list.id });
      if (first.status !== 201) return false;
      return (await s.favorite({ sku_id: b!.id, favorite_list_id: list.id })).status === 422;
    }),

  'have-it-keeps-list': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const { favorite } = await favoriteInList(s);
      const r = await s.put(favorite.id, { have_it: true });
      return r.status === 200 && r.body.favorite.favorite_list_id !== null;
    }),

  'have-it-honours-list-id': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const { favorite } = await favoriteInList(s);
      const other = await s.list('b');
      const r = await s.put(favorite.id, { have_it: true, favorite_list_id: other.id });
      return r.status === 200 && r.body.favorite.favorite_list_id === other.id;
    }),

  'favorite-list-id-ignored-on-update': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const { favorite, list } = await favoriteInList(s);
      const other = await s.list('b');
      const r = await s.put(favorite.id, { favorite_list_id: other.id });
      return r.status === 200 && r.body.favorite.favorite_list_id === list.id;
    }),

  'new-list-name-keeps-have-it': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const { favorite } = await favoriteInList(s);
      const before = await s.put(favorite.id, { have_it: false });
      if (before.body?.favorite?.have_it !== false) return false;
      const r = await s.put(favorite.id, { new_list_name: `${s.prefix} n` });
      return r.status === 200 && r.body.favorite.have_it !== null;
    }),

  'new-list-name-duplicates-list': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const { favorite, list } = await favoriteInList(s);
      const r = await s.put(favorite.id, { new_list_name: list.name });
      return r.status === 200 && r.body.favorite.favorite_list_id !== list.id;
    }),

  'invalid-new-list-name-422': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const { favorite } = await favoriteInList(s);
      return (await s.put(favorite.id, { new_list_name: '   ' })).status === 422;
    }),

  'owned-favorites-listed': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const { favorite } = await favoriteInList(s);
      if (!(await makeOwned(s, favorite.id))) return false;
      const listed = await collect<Favorite>(ref, user, '/favorites', 'favorites', '3.2');
      return listed.some((f) => f.id === favorite.id);
    }),

  'owned-param-ignored': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const { favorite } = await favoriteInList(s);
      if (!(await makeOwned(s, favorite.id))) return false;
      const listed = await collect<Favorite>(ref, user, '/favorites?owned=true', 'favorites', '3.2');
      return !listed.some((f) => f.id === favorite.id) || listed.some((f) => f.have_it !== true || f.favorite_list_id !== null);
    }),

  'owned-excluded-before-3-2': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      // Only meaningful when version=3.1 is really served as 3.1 (reviewable arrived in 3.2.0).
      const root = await call(ref, 'GET', '/categories/root', { token: user, version: '3.1' });
      if (root.status !== 200 || 'reviewable' in (root.body?.category ?? {})) return false;
      const { favorite } = await favoriteInList(s);
      if (!(await makeOwned(s, favorite.id))) return false;
      const listed = await collect<Favorite>(ref, user, '/favorites', 'favorites', '3.1');
      return !listed.some((f) => f.id === favorite.id);
    }),

  'favorites-order-dir-ignored': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const { list } = await favoriteInList(s);
      const [second] = await freshSkus(ref, user, 1);
      await s.favorite({ sku_id: second!.id, favorite_list_id: list.id });
      const desc = (await call(ref, 'GET', '/favorites?per=100', { token: user })).body?.favorites as Favorite[];
      const asc = (await call(ref, 'GET', '/favorites?per=100&order_dir=asc', { token: user })).body?.favorites as Favorite[];
      return desc.length >= 2 && asc.map((f) => f.id).join() === desc.map((f) => f.id).join();
    }),

  'duplicate-custom-list-accepted': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const list = await s.list('dup');
      const again = await call(ref, 'POST', '/favorite_lists', { token: user, body: { favorite_list: { name: list.name } } });
      return again.status === 201;
    }),

  'favorite-update-applied-to-other-favorite': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const { favorite, list } = await favoriteInList(s);
      const other = await s.list('other');
      const r = await s.put(favorite.id, { favorite_list_id: other.id });
      const after = (await call(ref, 'GET', `/favorites/${favorite.id}`, { token: user })).body?.favorite as Favorite | undefined;
      return r.status === 200 && r.body?.favorite?.id !== favorite.id && after?.favorite_list_id === list.id;
    }),

  'favorite-list-delete-not-stored': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const list = await s.list('deleted');
      const deleted = await call(ref, 'DELETE', `/favorite_lists/${list.id}`, { token: user });
      return deleted.status === 204 && (await allLists(ref, user)).some((l) => l.id === list.id);
    }),

  'favorite-delete-missing-204': async (ref, { user }) => {
    const ids = (await allFavorites(ref, user)).map((f) => f.id);
    const missing = Math.max(0, ...ids) + 1_000_000;
    return (await call(ref, 'DELETE', `/favorites/${missing}`, { token: user })).status === 204;
  },

  'favorite-created-twice': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const { favorite, list } = await favoriteInList(s);
      const listed = await collect<Favorite>(ref, user, `/favorite_lists/${list.id}/favorites`, 'favorites');
      return listed.filter((f) => f.sku_id === favorite.sku_id).length === 2;
    }),
  'favorite-list-created-twice': (ref, { user }) =>
    withScratch(ref, user, async (s) => {
      const list = await s.list('twice');
      const lists = await collect<FavoriteList>(ref, user, '/favorite_lists', 'favorite_lists');
      const twins = lists.filter((l) => l.name === list.name && l.id !== list.id);
      for (const twin of twins) await call(ref, 'DELETE', `/favorite_lists/${twin.id}`, { token: user });
      return twins.length > 0;
    }),
  'category-favorites-under-data-key': async (ref, { user }) => {
    const [leaf] = await leafCategories(ref, user);
    return 'data' in ((await get(ref, `/categories/${leaf!.id}/favorites`, { token: user })).body ?? {});
  },
  'category-favorites-without-permission': async (ref, { user }) => {
    const [leaf] = await leafCategories(ref, user);
    const { access } = await userTokens(ref, 'public');
    return (await get(ref, `/categories/${leaf!.id}/favorites`, { token: access })).status === 200;
  },
};
