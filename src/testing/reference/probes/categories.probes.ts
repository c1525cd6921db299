// Probes of the Category field and envelope faults: each resolves true when the server shows the bug (test-only code).

import { allCategories, get, leavesOf, type CategoryRef } from '../testkit.ts';
import type { ProbeTable, ProbeTokens } from './probe.ts';
import type { RunningReference } from '../../../reference/server.ts';

type Json = Record<string, any>;

/** Every category of GET /categories, as listed. */
async function listed(ref: RunningReference, { app: token }: ProbeTokens): Promise<Json[]> {
  return (await allCategories(ref, token)) as unknown as Json[];
}

/** GET /categories/:id of a category two levels below the root (it has a parent and a grandparent), as answered. */
async function deepDetail(ref: RunningReference, tokens: ProbeTokens): Promise<Json> {
  const deep = (await listed(ref, tokens)).find((c) => String(c['path']).split(/[,/]/).length >= 3 || (Array.isArray(c['path']) && c['path'].length >= 3))!;
  const body = (await get(ref, `/categories/${deep['id']}`, { token: tokens.app })).body;
  return (body?.category ?? body?.data) as Json;
}

/** Does some listed category (or, with `detail`, the deep category's single answer) show `bad` for `field`? */
function listedShows(field: string, bad: (v: unknown) => boolean) {
  return async (ref: RunningReference, tokens: ProbeTokens): Promise<boolean> => (await listed(ref, tokens)).some((c) => bad(c[field]));
}
function detailShows(field: string, bad: (v: unknown) => boolean) {
  return async (ref: RunningReference, tokens: ProbeTokens): Promise<boolean> => bad((await deepDetail(ref, tokens))[field]);
}
const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null;
const isString = (v: unknown): boolean => typeof v === 'string';
const isNumber = (v: unknown): boolean => typeof v === 'number';

/** The first leaf holding SKUs (the root's name finds every such leaf, but a leaf's listing is asked directly here). */
async function firstLeaf(ref: RunningReference, tokens: ProbeTokens): Promise<CategoryRef> {
  for (const leaf of leavesOf((await listed(ref, tokens)) as unknown as CategoryRef[])) {
    const r = await get(ref, `/categories/${leaf.id}/skus?per=1`, { token: tokens.app });
    if ((r.body?.meta?.pagination?.total_results ?? 0) > 1) return leaf;
  }
  throw new Error('no leaf holds two SKUs');
}

/** The top-level keys of GET <path>'s body. */
async function keysOf(ref: RunningReference, path: string, token: string): Promise<string[]> {
  return Object.keys((await get(ref, path, { token })).body ?? {});
}

export const CATEGORY_PROBES: ProbeTable = {
  'category-name-localized': listedShows('name', isObject),
  'category-image-url-object': listedShows('image_url', isObject),
  'fashion-as-tinyint': listedShows('fashion', isNumber),
  'category-web-uri-object': listedShows('web_uri', isObject),
  'category-code-is-id': listedShows('code', isNumber),
  'show-specifications-as-string': listedShows('show_specifications', isString),
  'manufacturer-title-localized': listedShows('manufacturer_title', isObject),
  'listed-categories-without-web-uri': async (ref, tokens) => (await listed(ref, tokens)).some((c) => !('web_uri' in c)) && 'web_uri' in (await deepDetail(ref, tokens)),
  'children-count-as-string': listedShows('children_count', isString),
  'children-count-zero-based': async (ref, tokens) => {
    const cats = (await listed(ref, tokens)) as unknown as CategoryRef[];
    return cats.some((c) => c.children_count === cats.filter((x) => String(x.parent_id) === String(c.id) && x.id !== c.id).length - 1);
  },
  'parent-id-as-string': listedShows('parent_id', isString),
  'layout-mode-enum-index': listedShows('layout_mode', isNumber),
  'layout-mode-grid': listedShows('layout_mode', (v) => v === 'grid'),
  'path-as-array': listedShows('path', Array.isArray),
  'path-slash-separated': listedShows('path', (v) => isString(v) && (v as string).includes('/')),
  'path-skips-parent': async (ref, tokens) => {
    const cats = await listed(ref, tokens);
    return cats.some((c) => isString(c['path']) && String(c['parent_id']) !== '0' && !(c['path'] as string).split(/[,/]/).includes(String(c['parent_id'])));
  },
  'family-id-as-string': detailShows('family_id', isString),
  'family-id-missing': async (ref, tokens) => {
    const c = await deepDetail(ref, tokens);
    return !('family_id' in c) && 'adult' in c;
  },
  'show-manufacturers-filter-as-tinyint': detailShows('show_manufacturers_filter', isNumber),
  'adult-as-tinyint': detailShows('adult', isNumber),
  'onclick-behaviour-enum-index': detailShows('onclick_behaviour', isNumber),
  'show-spec-summary-as-tinyint': detailShows('show_spec_summary', isNumber),
  'unit-price-label-object': detailShows('unit_price_label', isObject),
  'reviewable-as-tinyint': detailShows('reviewable', isNumber),
  'comparable-as-string': detailShows('comparable', isString),
  'detail-fields-missing': async (ref, tokens) => {
    const c = await deepDetail(ref, tokens);
    return 'family_id' in c && !('adult' in c);
  },
  'match-count-outside-search': listedShows('match_count', isNumber),
  'category-under-data-key': async (ref, tokens) => 'data' in (await get(ref, `/categories/${(await listed(ref, tokens))[1]!['id']}`, { token: tokens.app })).body,
  'parent-under-parent-key': async (ref, tokens) => {
    const child = (await listed(ref, tokens)).find((c) => c['parent_id'] !== 0)!;
    return (await keysOf(ref, `/categories/${child['id']}/parent`, tokens.app)).includes('parent');
  },
  'root-under-root-key': async (ref, { app: token }) => (await keysOf(ref, '/categories/root', token)).includes('root'),
  'children-under-children-key': async (ref, tokens) => {
    const parent = (await listed(ref, tokens)).find((c) => c['parent_id'] === 0)!;
    return (await keysOf(ref, `/categories/${parent['id']}/children`, tokens.app)).includes('children');
  },

  'root-endpoint-parent-id-null': async (ref, tokens) =>
    (await get(ref, '/categories/root', { token: tokens.app })).body?.category?.parent_id === null && (await listed(ref, tokens)).some((c) => c['parent_id'] === 0),
  'categories-per-ignored': async (ref, { app: token }) => ((await get(ref, '/categories?per=5', { token })).body?.categories ?? []).length !== 5,
  'children-drops-first-child': async (ref, tokens) => {
    const cats = await listed(ref, tokens);
    const parent = cats.find((c) => c['parent_id'] === 0)!;
    const body = (await get(ref, `/categories/${parent['id']}/children?per=100`, { token: tokens.app })).body;
    return (body?.categories ?? []).length === cats.filter((c) => c['parent_id'] === parent['id']).length - 1;
  },
  'specifications-under-data-key': async (ref, tokens) => {
    const leaf = leavesOf((await listed(ref, tokens)) as unknown as CategoryRef[])[0]!;
    return (await keysOf(ref, `/categories/${leaf.id}/specifications`, tokens.app)).includes('data');
  },
  'category-manufacturers-under-brands-key': async (ref, tokens) =>
    (await keysOf(ref, `/categories/${(await firstLeaf(ref, tokens)).id}/manufacturers`, tokens.app)).includes('brands'),
  'category-manufacturers-name-order-ignored': async (ref, tokens) => {
    const body = (await get(ref, `/categories/${(await firstLeaf(ref, tokens)).id}/manufacturers?order_by=name&per=100`, { token: tokens.app })).body;
    const names = ((body?.manufacturers ?? []) as Json[]).map((m) => String(m['name']));
    return names.some((n, i) => i > 0 && n.localeCompare(names[i - 1]!) < 0);
  },
  'category-manufacturers-per-ignored': async (ref, tokens) => {
    const body = (await get(ref, `/categories/${(await firstLeaf(ref, tokens)).id}/manufacturers?per=1`, { token: tokens.app })).body;
    return (body?.manufacturers ?? []).length > 1;
  },
  'filter-groups-under-groups-key': async (ref, tokens) => (await keysOf(ref, `/categories/${(await firstLeaf(ref, tokens)).id}/filter_groups`, tokens.app)).includes('groups'),
  'filter-groups-per-ignored': async (ref, tokens) => {
    for (const leaf of leavesOf((await listed(ref, tokens)) as unknown as CategoryRef[])) {
      const body = (await get(ref, `/categories/${leaf.id}/filter_groups?per=1`, { token: tokens.app })).body;
      if ((body?.meta?.pagination?.total_results ?? 0) > 1) return (body?.filter_groups ?? []).length > 1;
    }
    return false;
  },
  'category-skus-under-products-key': async (ref, tokens) => (await keysOf(ref, `/categories/${(await firstLeaf(ref, tokens)).id}/skus`, tokens.app)).includes('products'),
  'category-skus-stray-sku-last': async (ref, tokens) => {
    const leaf = await firstLeaf(ref, tokens);
    const body = (await get(ref, `/categories/${leaf.id}/skus?per=100`, { token: tokens.app })).body;
    return ((body?.skus ?? []) as Json[]).some((s) => s['category_id'] !== leaf.id);
  },
  'available-filters-not-added': async (ref, tokens) => {
    const r = await get(ref, `/categories/${(await firstLeaf(ref, tokens)).id}/skus?include_meta[]=available_filters`, { token: tokens.app });
    return r.status === 200 && !('available_filters' in (r.body?.meta ?? {}));
  },
  'applied-filters-not-added': async (ref, tokens) => {
    const r = await get(ref, `/categories/${(await firstLeaf(ref, tokens)).id}/skus?include_meta[]=applied_filters`, { token: tokens.app });
    return r.status === 200 && !('applied_filters' in (r.body?.meta ?? {}));
  },
  'ordered-by-missing': async (ref, tokens) =>
    !('ordered_by' in ((await get(ref, `/categories/${(await firstLeaf(ref, tokens)).id}/skus`, { token: tokens.app })).body?.meta ?? {})),
  'ordered-by-always-default': async (ref, tokens) => {
    const path = `/categories/${(await firstLeaf(ref, tokens)).id}/skus`;
    const meta = (await get(ref, path, { token: tokens.app })).body?.meta ?? {};
    const other = Object.keys(meta.order_by_methods ?? {}).find((m) => m !== meta.ordered_by);
    if (other === undefined || typeof meta.ordered_by !== 'string') return false;
    // Served (other faults refuse a method), and named the default.
    const r = await get(ref, `${path}?order_by=${other}`, { token: tokens.app });
    return r.status === 200 && r.body?.meta?.ordered_by === meta.ordered_by;
  },
  'order-by-methods-missing': async (ref, tokens) =>
    !('order_by_methods' in ((await get(ref, `/categories/${(await firstLeaf(ref, tokens)).id}/skus`, { token: tokens.app })).body?.meta ?? {})),
  'order-by-methods-labels-objects': async (ref, tokens) => {
    const methods = (await get(ref, `/categories/${(await firstLeaf(ref, tokens)).id}/skus`, { token: tokens.app })).body?.meta?.order_by_methods ?? {};
    return Object.values(methods).some(isObject);
  },
};
