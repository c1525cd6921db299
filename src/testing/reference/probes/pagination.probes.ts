// Probes of the faults in src/reference/faults/pagination.ts: each resolves true when the server shows the bug (test-only code).

import type { RunningReference } from '../../../reference/server.ts';
import { allCategories, get, leavesOf } from '../testkit.ts';
import type { ProbeTable } from './probe.ts';

type Json = Record<string, any>;

/** Shops offering the SKUs of the first leaves (a few requests; enough to find one with reviews). */
async function someShops(ref: RunningReference, token: string): Promise<number[]> {
  const shops = new Set<number>();
  for (const leaf of leavesOf(await allCategories(ref, token)).slice(0, 3)) {
    const skus = ((await get(ref, `/categories/${leaf.id}/skus`, { token })).body?.skus ?? []) as Json[];
    for (const sku of skus.filter((s) => s.shop_count > 0).slice(0, 2)) {
      for (const p of ((await get(ref, `/skus/${sku.id}/products`, { token })).body?.products ?? []) as Json[]) shops.add(p.shop_id);
    }
    if (shops.size >= 3) break;
  }
  return [...shops];
}

/** Whether page 2 of `path` (q and per=1) holds an item that the unpaged answer to q does not. */
async function page2LeavesQ(ref: RunningReference, token: string, path: string, key: string, q: string): Promise<boolean> {
  const all = ((await get(ref, `${path}?q=${q}&per=100`, { token })).body?.[key] ?? []) as Json[];
  const page2 = ((await get(ref, `${path}?q=${q}&per=1&page=2`, { token })).body?.[key] ?? []) as Json[];
  return page2.some((item) => !all.some((a) => a.id === item.id));
}

export const PAGINATION_PROBES: ProbeTable = {
  'search-q-dropped-past-page-1': async (ref, { app: token }) => page2LeavesQ(ref, token, '/search', 'categories', 'qxzjbcdfgvqkx'),
  'shop-search-q-dropped-past-page-1': async (ref, { app: token }) => page2LeavesQ(ref, token, '/shops/search', 'shops', 'qxzjbcdfgvqkx'),
  'shop-reviews-per-ignored': async (ref, { app: token }) => {
    for (const id of await someShops(ref, token)) {
      const r = await get(ref, `/shops/${id}/reviews?per=1`, { token });
      if (r.body.meta.pagination.total_results < 2) continue;
      // Compared as a number: another fault gives per as a string.
      return Number(r.body.meta.pagination.per) !== 1 || r.body.reviews.length !== 1;
    }
    throw new Error('no shop with 2 reviews or more');
  },
  'manufacturer-skus-total-counts-page': async (ref, { app: token }) => {
    for (const m of ((await get(ref, '/manufacturers?per=100', { token })).body.manufacturers as Json[]).slice(0, 10)) {
      const all = (await get(ref, `/manufacturers/${m.id}/skus?per=100`, { token })).body;
      if (all.skus.length < 2) continue;
      return (await get(ref, `/manufacturers/${m.id}/skus?per=1`, { token })).body.meta.pagination.total_results !== all.skus.length;
    }
    throw new Error('no manufacturer with 2 SKUs or more');
  },
  'favorites-link-missing': async (ref, { app, user }) => {
    const r = await get(ref, '/favorites?per=2', { token: user });
    if (r.body.meta.pagination.total_pages < 2) throw new Error('the demo user has fewer than 3 favorites');
    // Only the favorites listings: other collections keep their Link header (not link-header-missing).
    const others = await get(ref, '/categories?per=2', { token: app });
    return r.headers.get('link') === null && others.headers.get('link') !== null;
  },

  'manufacturers-per-as-string': async (ref, { app: token }) =>
    typeof (await get(ref, '/manufacturers', { token })).body?.meta?.pagination?.per === 'string' &&
    typeof (await get(ref, '/categories', { token })).body?.meta?.pagination?.per === 'number',
  'manufacturers-page-zero-based': async (ref, { app: token }) =>
    (await get(ref, '/manufacturers', { token })).body?.meta?.pagination?.page === 0 && (await get(ref, '/categories', { token })).body?.meta?.pagination?.page === 1,
};
