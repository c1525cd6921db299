// Probes of the faults in src/reference/faults/catalog.ts: each resolves true when the server shows the bug (test-only code).
// Leaves are found by structure (testkit's leafCategories), never by children_count, and every
// list is read with per=100, so that the other faults do not disturb them.

import { expect } from 'vitest';
import type { RunningReference } from '../../../reference/server.ts';
import { get, leafCategories } from '../testkit.ts';
import type { ProbeTable } from './probe.ts';

type Json = any;

/** The first leaf (by id) for which `test` holds on GET `path(id)`, with that body. */
async function findLeaf(ref: RunningReference, token: string, path: (id: number) => string, test: (body: Json) => boolean): Promise<{ id: number; body: Json }> {
  for (const { id } of await leafCategories(ref, token)) {
    const r = await get(ref, path(id), { token });
    if (r.status === 200 && test(r.body)) return { id, body: r.body };
  }
  throw new Error(`no leaf category answers ${path(0)} as the probe needs`);
}

export const CATALOG_PROBES: ProbeTable = {
  // Served (another fault refuses it with 400).
  'search-short-query-accepted': async (ref, { app: token }) => (await get(ref, '/search?q=a', { token })).status === 200,

  'search-no-match-404': async (ref, { app: token }) => (await get(ref, '/search?q=zzqxjvw', { token })).status === 404,

  'search-match-count-missing': async (ref, { app: token }) => {
    // The root's name finds every leaf holding SKUs.
    const root = (await get(ref, '/categories/root', { token })).body.category;
    const r = await get(ref, `/search?q=${encodeURIComponent(root.name)}&per=100`, { token });
    // Nothing found (another fault, search-finds-nothing) shows no category to judge.
    if (r.status !== 200 || r.body.categories.length === 0) return false;
    return (r.body.categories as Json[]).some((c) => !('match_count' in c));
  },

  'search-finds-nothing': async (ref, { app: token }) => {
    // The root's name finds every leaf holding SKUs (another fault gives it as a localized object).
    const root = (await get(ref, '/categories/root', { token })).body.category;
    if (typeof root.name !== 'string') return false;
    const r = await get(ref, `/search?q=${encodeURIComponent(root.name)}`, { token });
    return r.status === 200 && r.body.categories.length === 0;
  },

  'search-matches-everything': async (ref, { app: token }) => {
    const r = await get(ref, '/search?q=qxzjbcdfgvqkx', { token });
    return r.status === 200 && r.body.categories.length > 0;
  },

  'autocomplete-ignores-q': async (ref, { app: token }) => {
    const r = await get(ref, '/autocomplete?q=qxzjbcdfgvqkx', { token });
    return r.status === 200 && r.body.autocomplete.length > 0;
  },

  'favorited-always-false': async (ref, { user }) => {
    const favorites = (await get(ref, '/favorites?per=100', { token: user })).body?.favorites ?? [];
    const f = favorites.find((x: Json) => x.favorite_list_id !== null);
    if (!f) return false;
    const sku = (await get(ref, `/categories/${f.category_id ?? 0}/skus?per=100`, { token: user })).body?.skus?.find((s: Json) => s.id === f.sku_id);
    if (sku) return sku.favorited === false;
    // The favorite carries no category: its SKU is looked up in every leaf.
    for (const leaf of await leafCategories(ref, user)) {
      const found = (await get(ref, `/categories/${leaf.id}/skus?per=100`, { token: user })).body?.skus?.find((s: Json) => s.id === f.sku_id);
      if (found) return found.favorited === false;
    }
    return false;
  },

  'invalid-order-by-500': async (ref, { app: token }) => {
    const m = (await get(ref, '/manufacturers', { token })).body.manufacturers[0];
    return (await get(ref, `/manufacturers/${m.id}/categories?order_by=cc_not_a_method`, { token })).status >= 500;
  },

  'sku-q-filter-ignored': async (ref, { app: token }) => {
    const { id } = await findLeaf(
      ref,
      token,
      (id) => `/categories/${id}/skus?per=100`,
      (b) => b.skus.length > 0,
    );
    const r = await get(ref, `/categories/${id}/skus?per=100&q=qxzjbcdfgvqkx`, { token });
    return r.status === 200 && r.body.skus.length > 0;
  },

  'sku-q-filter-whole-name': async (ref, { app: token }) => {
    // A SKU whose name has several words: its longest word alone must keep it.
    const { id, body } = await findLeaf(
      ref,
      token,
      (id) => `/categories/${id}/skus?per=100`,
      (b) => b.skus.some((s: Json) => String(s.name).split(' ').length > 1),
    );
    const sku = body.skus.find((s: Json) => String(s.name).split(' ').length > 1);
    const word: string =
      String(sku.name)
        .split(' ')
        .sort((a: string, b: string) => b.length - a.length)[0] ?? '';
    const r = await get(ref, `/categories/${id}/skus?per=100&q=${encodeURIComponent(word)}`, { token });
    return r.status === 200 && !r.body.skus.some((s: Json) => s.id === sku.id);
  },

  'sku-order-by-pricevat-refused': async (ref, { app: token }) => {
    const { id } = await findLeaf(
      ref,
      token,
      (c) => `/categories/${c}/skus?per=1`,
      (b) => 'pricevat' in b.meta.order_by_methods,
    );
    return (await get(ref, `/categories/${id}/skus?per=1&order_by=pricevat`, { token })).status === 400;
  },

  'category-manufacturers-order-dir-ignored': async (ref, { app: token }) => {
    const root = (await get(ref, '/categories/root', { token })).body.category.id as number;
    const ids = async (dir: string): Promise<number[]> =>
      ((await get(ref, `/categories/${root}/manufacturers?per=100&order_by=name&order_dir=${dir}`, { token })).body.manufacturers as Json[]).map((m) => m.id);
    const asc = await ids('asc');
    expect(asc.length).toBeGreaterThan(1);
    return (await ids('desc'))[0] === asc[0];
  },

  'category-manufacturers-miss-one': async (ref, { app: token }) => {
    const [leaf] = await leafCategories(ref, token);
    const listed = new Set(((await get(ref, `/categories/${leaf!.id}/manufacturers?per=100`, { token })).body.manufacturers as { id: number }[]).map((m) => m.id));
    // The leaf's own SKUs (another fault lists one of another leaf).
    const skus = (await get(ref, `/categories/${leaf!.id}/skus?per=100`, { token })).body.skus as { manufacturer_id: number; category_id: number }[];
    return skus.some((s) => s.category_id === leaf!.id && !listed.has(s.manufacturer_id));
  },
  'filter-groups-of-another-category': async (ref, { app: token }) => {
    const [leaf] = await leafCategories(ref, token);
    const groups = (await get(ref, `/categories/${leaf!.id}/filter_groups`, { token })).body.filter_groups as { category_id: number }[];
    // Another fault separates the path's ids with slashes.
    const path = String((await get(ref, `/categories/${leaf!.id}`, { token })).body.category.path)
      .split(/[,/]/)
      .map(Number);
    return groups.some((g) => !path.includes(g.category_id));
  },
  'filter-groups-cache-control-missing': async (ref, { app: token }) => {
    const [leaf] = await leafCategories(ref, token);
    const r = await get(ref, `/categories/${leaf!.id}/filter_groups`, { token });
    expect(r.status).toBe(200);
    return !/max-age=300/.test(r.headers.get('cache-control') ?? '');
  },

  'specifications-groups-array-missing': async (ref, { app: token }) => {
    const { body } = await findLeaf(
      ref,
      token,
      (c) => `/categories/${c}/specifications?include=group`,
      (b) => b.specifications.length > 0,
    );
    return !Array.isArray(body.groups);
  },

  'specifications-out-of-order': async (ref, { app: token }) => {
    const { body } = await findLeaf(
      ref,
      token,
      (c) => `/categories/${c}/specifications`,
      (b) => new Set((b.specifications as Json[]).map((s) => s.order)).size > 1,
    );
    const orders = (body.specifications as Json[]).map((s) => s.order as number);
    return orders.some((o, i) => i > 0 && o < orders[i - 1]!);
  },

  'category-skus-favorited-missing': async (ref, { user: token }) => {
    const { body } = await findLeaf(
      ref,
      token,
      (c) => `/categories/${c}/skus?per=1`,
      (b) => b.skus.length > 0,
    );
    return !('favorited' in body.skus[0]);
  },

  'sku-filter-ids-ignored': async (ref, { app: token }) => {
    const partial = (b: Json): [string, number] | undefined =>
      Object.entries(b.meta.available_filters.filters as Record<string, number>).find(([, n]) => n > 0 && n < b.meta.pagination.total_results);
    const { id, body } = await findLeaf(
      ref,
      token,
      (c) => `/categories/${c}/skus?per=1&include_meta[]=available_filters`,
      (b) => partial(b) !== undefined,
    );
    const [filterId, count] = partial(body)!;
    const r = await get(ref, `/categories/${id}/skus?per=1&filter_ids[]=${filterId}`, { token });
    return r.body.meta.pagination.total_results !== count;
  },

  'manufacturer-ids-dropped-with-order-by': async (ref, { app: token }) => {
    const mixed = (b: Json): boolean => new Set((b.skus as Json[]).map((s) => s.manufacturer_id)).size > 1;
    const { id, body } = await findLeaf(ref, token, (c) => `/categories/${c}/skus`, mixed);
    const manufacturer = (body.skus as Json[])[0].manufacturer_id as number;
    const others = (query: string) =>
      get(ref, `/categories/${id}/skus?manufacturer_ids[]=${manufacturer}${query}`, { token }).then((r) => (r.body.skus as Json[]).some((s) => s.manufacturer_id !== manufacturer));
    // Alone the filter works; with an order it is dropped.
    const method = Object.keys(body.meta.order_by_methods as Record<string, unknown>)[0]!;
    return !(await others('')) && (await others(`&order_by=${method}`));
  },

  'sku-shop-filter-ignored': async (ref, { app: token }) => {
    const partial = (b: Json): [string, number] | undefined =>
      Object.entries(b.meta.available_filters.shops as Record<string, number>).find(([, n]) => n > 0 && n < b.meta.pagination.total_results);
    const { id, body } = await findLeaf(
      ref,
      token,
      (c) => `/categories/${c}/skus?per=1&include_meta[]=available_filters`,
      (b) => partial(b) !== undefined,
    );
    const [shopId, count] = partial(body)!;
    const r = await get(ref, `/categories/${id}/skus?per=1&shop_ids[]=${shopId}`, { token });
    expect(r.status).toBe(200);
    return r.body.meta.pagination.total_results !== count;
  },

  'sku-distance-takes-km': async (ref, { app: token }) => {
    // An option id that is no option's km (1 is not 5, 10, 25 or 50).
    const { id, body } = await findLeaf(
      ref,
      token,
      (c) => `/categories/${c}/skus?per=1&include_meta[]=available_filters`,
      (b) => b.skus.length > 0,
    );
    const option = (body.meta.available_filters.distances as Json[])[0];
    return (await get(ref, `/categories/${id}/skus?per=1&distance=${option.id}`, { token })).status === 400;
  },

  'sku-rating-order-reversed': async (ref, { app: token }) => {
    const { id } = await findLeaf(
      ref,
      token,
      (c) => `/categories/${c}/skus?per=1`,
      (b) => b.skus.length > 0 && 'rating' in b.meta.order_by_methods,
    );
    const scores = ((await get(ref, `/categories/${id}/skus?per=100&order_by=rating&order_dir=desc`, { token })).body.skus as Json[]).map((s) => s.reviewscore as number);
    return scores.some((x, i) => i > 0 && x > scores[i - 1]!);
  },

  'category-skus-order-dir-ignored': async (ref, { app: token }) => {
    // order_by=price: the fault sku-order-by-pricevat-refused refuses pricevat.
    const { id } = await findLeaf(
      ref,
      token,
      (c) => `/categories/${c}/skus?per=1`,
      (b) => b.skus.length > 0 && 'price' in b.meta.order_by_methods,
    );
    // The leaf's own SKUs (another fault appends one of another leaf).
    const skus = (await get(ref, `/categories/${id}/skus?per=100&order_by=price&order_dir=desc`, { token })).body.skus as Json[];
    const prices = skus.filter((s) => s.category_id === id).map((s) => s.price_min as number);
    return prices.some((x, i) => i > 0 && x > prices[i - 1]!);
  },

  'manufacturer-categories-order-dir-ignored': async (ref, { app: token }) => {
    for (const m of (await get(ref, '/manufacturers?per=100', { token })).body.manufacturers as Json[]) {
      const names = ((await get(ref, `/manufacturers/${m.id}/categories?per=100&order_by=name&order_dir=desc`, { token })).body.categories as Json[]).map((c) => c.name as string);
      if (new Set(names).size > 1) return names[0]!.localeCompare(names.at(-1)!) < 0;
    }
    throw new Error('no manufacturer with categories of two names');
  },

  'manufacturer-skus-price-order-reversed': async (ref, { app: token }) => {
    for (const m of (await get(ref, '/manufacturers?per=100', { token })).body.manufacturers as Json[]) {
      const prices = ((await get(ref, `/manufacturers/${m.id}/skus?per=100&order_by=price&order_dir=asc`, { token })).body.skus as Json[]).map((s) => s.price_min as number);
      if (new Set(prices).size > 1) return prices.some((x, i) => i > 0 && x < prices[i - 1]!);
    }
    throw new Error('no manufacturer with SKUs of two prices');
  },

  'sku-availability-filter-drops-category': async (ref, { app: token }) => {
    const { id, body } = await findLeaf(
      ref,
      token,
      (c) => `/categories/${c}/skus?per=1&include_meta[]=available_filters`,
      (b) => b.skus.length > 0,
    );
    const option = (body.meta.available_filters.availabilities as Json[]).at(-1);
    const r = await get(ref, `/categories/${id}/skus?per=1&availability=${option.id}`, { token });
    expect(r.status).toBe(200);
    return r.body.meta.pagination.total_results > body.meta.pagination.total_results;
  },

  'short-query-answered-400': async (ref, { app: token }) => (await get(ref, '/search?q=a', { token })).status === 400,
  'match-count-as-string': async (ref, { app: token }) => {
    // The root's name finds every leaf holding SKUs.
    const root = (await get(ref, '/categories/root', { token })).body.category;
    const body = (await get(ref, `/search?q=${encodeURIComponent(root.name)}&per=100`, { token })).body;
    return ((body?.categories ?? []) as Json[]).some((c) => typeof c['match_count'] === 'string');
  },
};
