import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset } from './data.ts';
import type { RunningReference } from './server.ts';
import { get, parseLink, startWithToken } from '../testing/reference/testkit.ts';

const LIST_FIELDS = ['id', 'name', 'children_count', 'image_url', 'parent_id', 'fashion', 'layout_mode', 'web_uri', 'code', 'path', 'show_specifications', 'manufacturer_title'];
const DETAIL_FIELDS = [...LIST_FIELDS, 'family_id', 'show_manufacturers_filter', 'adult', 'onclick_behaviour', 'show_spec_summary', 'unit_price_label', 'reviewable', 'comparable'];

type Cat = Record<string, unknown> & { id: number; parent_id: number; children_count: number; path: string };

let ref: RunningReference;
let token: string;
let all: Cat[];
const byId = new Map<number, Cat>();

beforeAll(async () => {
  ({ ref, token } = await startWithToken({ basePath: '/api', limits: { perMinute: 10_000 } }));
  const r = await get(ref, '/categories?per=100', { token });
  all = r.body.categories as Cat[];
  for (const c of all) byId.set(c.id, c);
});
afterAll(async () => {
  await ref.close();
});

describe('GET /categories', () => {
  it('pages through every category, ordered by id, 25 per page by default', async () => {
    expect(all.length).toBeGreaterThanOrEqual(40);
    expect(all.map((c) => c.id)).toEqual([...all.map((c) => c.id)].sort((a, b) => a - b));
    const p1 = await get(ref, '/categories', { token });
    expect(p1.status).toBe(200);
    expect(p1.body.meta.pagination).toEqual({ total_results: all.length, total_pages: Math.ceil(all.length / 25), page: 1, per: 25 });
    expect(p1.body.categories).toHaveLength(25);
    const lastPage = Math.ceil(all.length / 25);
    const pl = await get(ref, `/categories?page=${lastPage}`, { token });
    expect(pl.body.categories).toHaveLength(all.length - (lastPage - 1) * 25);
    expect(pl.body.categories[0]).toEqual(all[(lastPage - 1) * 25]);
    const past = await get(ref, `/categories?page=${lastPage + 1}`, { token });
    expect(past.status).toBe(200);
    expect(past.body).toEqual({
      categories: [],
      meta: { pagination: { total_results: all.length, total_pages: lastPage, page: lastPage + 1, per: 25 } },
    });
  });

  it('clamps per to 100 and rejects non-integer or < 1 page/per with 400', async () => {
    const big = await get(ref, '/categories?per=1000', { token });
    expect(big.body.meta.pagination.per).toBe(100);
    for (const q of ['page=0', 'page=abc', 'per=0', 'per=-1', 'per=1.5', 'page=', 'page=1e2']) {
      const r = await get(ref, `/categories?${q}`, { token });
      expect(r.status, q).toBe(400);
      expect(r.body).toEqual({ errors: [{ code: 'InvalidParameter', messages: [expect.any(String)] }] });
    }
  });

  it('sends Link next/last exactly when other pages exist: absolute, base path and params kept, no oauth_token', async () => {
    const origin = new URL(ref.baseUrl).origin;
    const p1 = await get(ref, '/categories?per=10&lang=en&page=1', { token, inQuery: true });
    const links = parseLink(p1.headers.get('link'));
    expect(p1.headers.get('link')).toMatch(/^<[^>]+>; rel="next", <[^>]+>; rel="last"$/);
    const last = Math.ceil(all.length / 10);
    expect(links).toEqual({
      next: `${origin}/api/categories?per=10&lang=en&page=2`,
      last: `${origin}/api/categories?per=10&lang=en&page=${last}`,
    });
    const followed = await get(ref, links.next!.slice(ref.baseUrl.length), { token });
    expect(followed.body.meta.pagination.page).toBe(2);
    const atLast = parseLink((await get(ref, `/categories?per=10&page=${last}`, { token })).headers.get('link'));
    expect(Object.keys(atLast)).toEqual(['last']);
    const past = parseLink((await get(ref, `/categories?per=10&page=${last + 5}`, { token })).headers.get('link'));
    expect(Object.keys(past)).toEqual(['last']);
    const encoded = parseLink((await get(ref, '/categories?q=a%20b&per=10&x[]=1', { token, inQuery: true })).headers.get('link'));
    expect(encoded.next).toBe(`${origin}/api/categories?q=a%20b&per=10&x[]=1&page=2`);
    const single = await get(ref, '/categories?per=100', { token });
    expect(single.headers.get('link')).toBeNull();
  });

  it('list items carry exactly the list fields (no match_count)', () => {
    for (const c of all) expect(Object.keys(c).sort()).toEqual([...LIST_FIELDS].sort());
  });
});

describe('category invariants', () => {
  it('has one root with parent_id 0, reachable as /categories/root', async () => {
    const roots = all.filter((c) => c.parent_id === 0);
    expect(roots).toHaveLength(1);
    const root = await get(ref, '/categories/root', { token });
    expect(root.status).toBe(200);
    expect(root.body.category.id).toBe(roots[0]!.id);
    expect(root.body.category.parent_id).toBe(0);
    expect(root.body.category.path).toBe(String(roots[0]!.id));
    const byIdRoot = await get(ref, `/categories/${roots[0]!.id}`, { token });
    expect(byIdRoot.text).toBe(root.text);
  });

  it('path runs from the root down to the category and agrees with parent_id', () => {
    for (const c of all) {
      const ids = c.path.split(',').map(Number);
      expect(ids[ids.length - 1]).toBe(c.id);
      expect(byId.get(ids[0]!)!.parent_id).toBe(0);
      if (c.parent_id !== 0) expect(ids[ids.length - 2]).toBe(c.parent_id);
      for (let i = 1; i < ids.length; i++) expect(byId.get(ids[i]!)!.parent_id).toBe(ids[i - 1]);
    }
  });

  it('children_count equals the number of children; the tree has the required shape', async () => {
    const depth = (c: Cat): number => c.path.split(',').length - 1;
    for (const c of all) {
      const kids = all.filter((k) => k.parent_id === c.id);
      expect(c.children_count, `category ${c.id}`).toBe(kids.length);
      const r = await get(ref, `/categories/${c.id}/children?per=100`, { token });
      expect(r.body.categories.map((k: Cat) => k.id)).toEqual(kids.map((k) => k.id));
      expect(r.body.meta.pagination.total_results).toBe(kids.length);
    }
    const leaves = all.filter((c) => c.children_count === 0);
    expect(new Set(leaves.map(depth)).size).toBeGreaterThanOrEqual(3);
    expect(Math.max(...all.map(depth))).toBeGreaterThanOrEqual(3);
    expect(all.some((c) => c.children_count > 25)).toBe(true);
    expect(all.some((c) => c.image_url === null)).toBe(true);
    expect(all.some((c) => typeof c.image_url === 'string')).toBe(true);
  });

  it('paginates children of a category with more than 25 children', async () => {
    const big = all.find((c) => c.children_count > 25)!;
    const r = await get(ref, `/categories/${big.id}/children`, { token });
    expect(r.body.categories).toHaveLength(25);
    expect(r.body.meta.pagination).toEqual({ total_results: big.children_count, total_pages: 2, page: 1, per: 25 });
    expect(parseLink(r.headers.get('link')).next).toBe(`${ref.baseUrl}/categories/${big.id}/children?page=2`);
    const leaf = all.find((c) => c.children_count === 0)!;
    const none = await get(ref, `/categories/${leaf.id}/children`, { token });
    expect(none.body).toEqual({ categories: [], meta: { pagination: { total_results: 0, total_pages: 0, page: 1, per: 25 } } });
    expect(none.headers.get('link')).toBeNull();
  });
});

describe('single category', () => {
  it('carries the detail fields, matching the list entry', async () => {
    const c = all.find((x) => x.children_count === 0 && x.parent_id !== 0)!;
    const r = await get(ref, `/categories/${c.id}`, { token });
    expect(Object.keys(r.body).sort()).toEqual(['category']);
    expect(Object.keys(r.body.category).sort()).toEqual([...DETAIL_FIELDS].sort());
    for (const f of LIST_FIELDS) expect(r.body.category[f]).toEqual(c[f]);
    expect(r.body.category.family_id).not.toBe(c.parent_id);
    expect(['list', 'tiles', 'wide_tiles']).toContain(r.body.category.layout_mode);
  });

  it('GET /categories/:id/parent returns the parent; the root has none (404)', async () => {
    const c = all.find((x) => x.path.split(',').length === 3)!;
    const r = await get(ref, `/categories/${c.id}/parent`, { token });
    expect(r.status).toBe(200);
    expect(r.body.category.id).toBe(c.parent_id);
    expect(r.body.category.family_id).toEqual(expect.any(Number));
    const root = all.find((x) => x.parent_id === 0)!;
    const none = await get(ref, `/categories/${root.id}/parent`, { token });
    expect(none.status).toBe(404);
    expect(none.body.errors[0].code).toBe('RecordNotFound');
  });

  it('answers 404 RecordNotFound naming the record for unknown and non-integer ids', async () => {
    const r = await get(ref, '/categories/999999', { token });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ errors: [{ code: 'RecordNotFound', messages: ["Couldn't find Category with id=999999"] }] });
    for (const p of ['/categories/abc', '/categories/999999/children', '/categories/999999/parent', '/categories/root/children']) {
      const x = await get(ref, p, { token });
      expect(x.status, p).toBe(404);
      expect(x.body.errors[0].code, p).toBe('RecordNotFound');
    }
  });
});

describe('datasets', () => {
  it('are deterministic', () => {
    expect(createDataset('default').categoryList).toEqual(createDataset('default').categoryList);
    expect(createDataset('alt').categoryList).toEqual(createDataset('alt').categoryList);
  });

  it("'alt' differs in ids, names, counts and shape", async () => {
    const d = createDataset('default');
    const a = createDataset('alt');
    const dIds = new Set(d.categoryList.map((c) => c.id));
    expect(a.categoryList.some((c) => dIds.has(c.id))).toBe(false);
    expect(a.categoryList.length).not.toBe(d.categoryList.length);
    expect(a.categoryList.length).toBeGreaterThanOrEqual(40);
    const dNames = new Set(d.categoryList.map((c) => c.name));
    expect(a.categoryList.filter((c) => dNames.has(c.name))).toEqual([]);
    const steps = a.categoryList.slice(1).map((c, i) => c.id - a.categoryList[i]!.id);
    expect(new Set(steps).size).toBeGreaterThan(1);
    expect(Math.max(...a.categoryList.map((c) => c.childIds.length))).toBeGreaterThan(25);

    const alt = await startWithToken({ dataset: 'alt' });
    try {
      const r = await get(alt.ref, '/categories/root', { token: alt.token });
      expect(r.body.category.id).toBe(a.rootId);
      expect(r.body.category.id).not.toBe(d.rootId);
      const list = await get(alt.ref, '/categories', { token: alt.token });
      expect(list.body.meta.pagination.total_results).toBe(a.categoryList.length);
    } finally {
      await alt.ref.close();
    }
  });
});
