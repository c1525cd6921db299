// Category specifications, manufacturers, filter groups and SKU listing (spec "Endpoints >
// Categories" and the category SKU listing's parameters and meta). Ids, names and counts are
// discovered through the API; every test runs on both datasets, the second under a base path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from './server.ts';
import { allCategories, byName, expectError, get, ids, leavesOf, parseLink, SETUPS, SKU_FIELDS, sorted, startServer, TIMESTAMP, type Reply } from '../testing/reference/testkit.ts';

type Json = any;

const FILTER_GROUP_FIELDS = ['id', 'name', 'active', 'category_id', 'created_at', 'updated_at', 'hint', 'combined', 'filter_type'];
const METHODS = ['pricevat', 'rank', 'rating', 'popularity', 'price'];

describe.each(SETUPS)('catalogue listings (%s)', (_name, options) => {
  let ref: RunningReference;
  let app: string;
  let user: string;
  let cats: Json[];
  let leaves: Json[];
  let inner: Json[];
  let root: Json;
  /** Leaf id -> its full SKU listing (per=100) with available_filters. */
  const listings = new Map<number, Json>();
  let rich: Json;

  const api = (path: string, opts: { token?: string; version?: string; headers?: Record<string, string> } = {}): Promise<Reply> =>
    get(ref, path, { token: opts.token ?? app, version: opts.version ?? null, ...(opts.headers ? { headers: opts.headers } : {}) });

  beforeAll(async () => {
    ({ ref, app, user } = await startServer(options));
    cats = await allCategories(ref, app);
    leaves = leavesOf(cats);
    inner = cats.filter((c) => c.children_count > 0);
    root = cats.find((c) => c.parent_id === 0);
    for (const leaf of leaves) {
      const r = await api(`/categories/${leaf.id}/skus?per=100&include_meta[]=available_filters`);
      expect(r.status).toBe(200);
      listings.set(leaf.id, r.body);
    }
    // The leaf with the most SKUs, for the filter tests.
    rich = leaves.reduce((a, b) => (listings.get(b.id).meta.pagination.total_results > listings.get(a.id).meta.pagination.total_results ? b : a));
  });
  afterAll(async () => {
    await ref?.close();
  });

  describe('GET /categories/:id/specifications', () => {
    it("lists a leaf's specification definitions in order, with empty values, without meta", async () => {
      let multi = 0;
      const units: string[] = [];
      for (const leaf of leaves) {
        const r = await api(`/categories/${leaf.id}/specifications`);
        expect(r.status).toBe(200);
        expect(Object.keys(r.body)).toEqual(['specifications']);
        const specs = r.body.specifications as Json[];
        for (const s of specs) {
          expect(sorted(Object.keys(s))).toEqual(['id', 'name', 'order', 'unit', 'values']);
          expect(s.values).toEqual([]);
          expect(typeof s.name).toBe('string');
          expect(Number.isInteger(s.order)).toBe(true);
          units.push(s.unit);
        }
        const orders = specs.map((s) => s.order as number);
        expect(orders).toEqual([...orders].sort((a, b) => a - b));
        if (specs.length > 1) multi += 1;
        // Not paginated: per changes nothing.
        if (specs.length > 1) expect((await api(`/categories/${leaf.id}/specifications?per=1`)).body).toEqual(r.body);
      }
      expect(multi).toBeGreaterThan(0);
      expect(units.every((u) => typeof u === 'string')).toBe(true);
      expect(units).toContain('');
    });

    it('include=group adds group_id to each and the groups once each at the top level', async () => {
      for (const leaf of leaves) {
        const plain = (await api(`/categories/${leaf.id}/specifications`)).body.specifications as Json[];
        const r = await api(`/categories/${leaf.id}/specifications?include=group`);
        expect(sorted(Object.keys(r.body))).toEqual(['groups', 'specifications']);
        const specs = r.body.specifications as Json[];
        expect(specs.map(({ group_id: _g, ...rest }) => rest)).toEqual(plain);
        const groups = r.body.groups as Json[];
        for (const g of groups) expect(sorted(Object.keys(g))).toEqual(['id', 'name', 'order']);
        expect(new Set(ids(groups)).size).toBe(groups.length);
        expect(new Set(specs.map((s) => s.group_id))).toEqual(new Set(ids(groups)));
      }
    });

    it('non-leaf categories have none; unknown ids are 404; the endpoint arrived in 3.1.1', async () => {
      expect((await api(`/categories/${inner[0].id}/specifications`)).body).toEqual({ specifications: [] });
      expect((await api(`/categories/${inner[0].id}/specifications?include=group`)).body).toEqual({ specifications: [], groups: [] });
      expectError(await api('/categories/999999999/specifications'), 404, 'RecordNotFound', 'unknown');
      expectError(await api('/categories/abc/specifications'), 404, 'RecordNotFound', 'non-integer');
      const old = await api(`/categories/${leaves[0].id}/specifications`, { version: '3.0' });
      expect(old.status).toBe(404);
      expect(old.body.errors[0].code).toBe('NotFound');
      expect((await api(`/categories/${leaves[0].id}/specifications`, { version: '3.1' })).status).toBe(200);
    });
  });

  describe('GET /categories/:id/manufacturers', () => {
    const all = async (id: number, query = '', version = '3.2'): Promise<Json[]> => {
      const r = await api(`/categories/${id}/manufacturers?per=100${query}`, { version });
      expect(r.status).toBe(200);
      expect(r.body.meta.pagination.total_results).toBe(r.body.manufacturers.length);
      return r.body.manufacturers;
    };

    it('lists the manufacturers of the SKUs in and below the category, by name by default', async () => {
      const everywhere = new Set<number>();
      for (const leaf of leaves) {
        const skuMakers = new Set((listings.get(leaf.id).skus as Json[]).map((s) => s.manufacturer_id));
        skuMakers.forEach((m) => everywhere.add(m));
        const list = await all(leaf.id, '', '3.1');
        expect(new Set(ids(list))).toEqual(skuMakers);
        for (const m of list) expect(sorted(Object.keys(m))).toEqual(['id', 'image_url', 'name']);
        expect(list).toEqual([...list].sort(byName));
      }
      expect(new Set(ids(await all(root.id, '', '3.1')))).toEqual(everywhere);
    });

    it('is paginated', async () => {
      const full = await all(root.id);
      expect(full.length).toBeGreaterThan(3);
      const r = await api(`/categories/${root.id}/manufacturers?per=3&page=2`);
      expect(r.body.manufacturers).toEqual(full.slice(3, 6));
      expect(r.body.meta.pagination).toEqual({ total_results: full.length, total_pages: Math.ceil(full.length / 3), page: 2, per: 3 });
      expect(parseLink(r.headers.get('link')).last).toContain('per=3');
    });

    it('orders by name or popularity, asc or desc; anything else is 400', async () => {
      const asc = await all(root.id, '&order_by=name&order_dir=asc');
      expect(asc).toEqual(await all(root.id));
      expect(await all(root.id, '&order_by=name')).toEqual(asc);
      const desc = await all(root.id, '&order_by=name&order_dir=desc');
      expect(desc).toEqual([...asc].sort((a, b) => byName(b, a) || a.id - b.id));
      expect(await all(root.id, '&order_dir=desc')).toEqual(desc);
      const popDesc = await all(root.id, '&order_by=popularity&order_dir=desc');
      const popAsc = await all(root.id, '&order_by=popularity&order_dir=asc');
      expect(await all(root.id, '&order_by=popularity')).toEqual(popDesc);
      expect(new Set(ids(popAsc))).toEqual(new Set(ids(asc)));
      expect(ids(popDesc)).not.toEqual(ids(popAsc));
      expect(ids(popDesc)).not.toEqual(ids(asc));
      expectError(await api(`/categories/${root.id}/manufacturers?order_by=price`), 400, 'InvalidParameter', 'order_by=price');
      expectError(await api(`/categories/${root.id}/manufacturers?order_dir=up`), 400, 'InvalidParameter', 'order_dir=up');
      expectError(await api('/categories/999999999/manufacturers'), 404, 'RecordNotFound', 'unknown');
    });

    it('leaves OEM manufacturers out for tiles-layout categories from 3.2.0', async () => {
      let hidden = 0;
      for (const c of cats) {
        const v31 = ids(await all(c.id, '', '3.1'));
        const v32 = ids(await all(c.id, '', '3.2'));
        if (c.layout_mode === 'tiles') {
          expect(v31).toEqual(expect.arrayContaining(v32));
          hidden += v31.length - v32.length;
        } else {
          expect(v32).toEqual(v31);
        }
      }
      expect(hidden).toBeGreaterThan(0);
    });
  });

  describe('GET /categories/:category_id/filter_groups', () => {
    it("lists the category's filter groups with Cache-Control: max-age=300, private", async () => {
      let seen = 0;
      for (const leaf of leaves) {
        const r = await api(`/categories/${leaf.id}/filter_groups?per=100`);
        expect(r.status).toBe(200);
        expect(r.headers.get('cache-control')).toBe('max-age=300, private');
        const groups = r.body.filter_groups as Json[];
        expect(r.body.meta.pagination.total_results).toBe(groups.length);
        expect(ids(groups)).toEqual([...ids(groups)].sort((a, b) => a - b));
        for (const g of groups) {
          expect(sorted(Object.keys(g))).toEqual(sorted(FILTER_GROUP_FIELDS));
          expect(g.category_id).toBe(leaf.id);
          expect([0, 1, 2, 3, 4, 5]).toContain(g.filter_type);
          for (const f of ['created_at', 'updated_at']) if (g[f] !== null) expect(g[f]).toMatch(TIMESTAMP);
          expect(typeof g.hint).toBe('string');
          expect(typeof g.active).toBe('boolean');
          expect(typeof g.combined).toBe('boolean');
        }
        seen += groups.length;
      }
      expect(seen).toBeGreaterThan(0);
    });

    it('is paginated; a 304 keeps Cache-Control; unknown categories are 404', async () => {
      const leaf = leaves.find((l) => listings.has(l.id))!;
      const full = (await api(`/categories/${leaf.id}/filter_groups?per=100`)).body.filter_groups as Json[];
      expect(full.length).toBeGreaterThan(1);
      const p2 = await api(`/categories/${leaf.id}/filter_groups?per=1&page=2`);
      expect(p2.body.filter_groups).toEqual([full[1]]);
      expect(p2.body.meta.pagination).toEqual({ total_results: full.length, total_pages: full.length, page: 2, per: 1 });
      expect(parseLink(p2.headers.get('link')).last).toBeDefined();
      const first = await api(`/categories/${leaf.id}/filter_groups`);
      const again = await api(`/categories/${leaf.id}/filter_groups`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
      expect(again.status).toBe(304);
      expect(again.headers.get('cache-control')).toBe('max-age=300, private');
      expectError(await api('/categories/999999999/filter_groups'), 404, 'RecordNotFound', 'unknown');
    });
  });

  describe('GET /categories/:category_id/skus', () => {
    it('SKUs of a leaf carry every SKU field; favorited only for user tokens (3.1.0+)', async () => {
      let total = 0;
      for (const leaf of leaves) {
        const body = listings.get(leaf.id);
        for (const s of body.skus as Json[]) {
          expect(sorted(Object.keys(s))).toEqual(sorted(SKU_FIELDS));
          expect(s.category_id).toBe(leaf.id);
        }
        total += body.skus.length;
      }
      expect(total).toBeGreaterThan(0);
      const r = await api(`/categories/${rich.id}/skus`, { token: user });
      for (const s of r.body.skus as Json[]) {
        expect(sorted(Object.keys(s))).toEqual(sorted([...SKU_FIELDS, 'favorited']));
        expect(typeof s.favorited).toBe('boolean');
      }
      const v31 = await api(`/categories/${rich.id}/skus`, { token: user, version: '3.1' });
      expect(v31.body.skus[0].favorited).toEqual(expect.any(Boolean));
      const v30 = await api(`/categories/${rich.id}/skus`, { token: user, version: '3.0' });
      for (const f of ['favorited', 'comparable', 'reviewable', 'description']) expect(v30.body.skus[0]).not.toHaveProperty(f);
    });

    it("favorited follows the user's favorites", async () => {
      const before = (await api(`/categories/${rich.id}/skus?per=100`, { token: user })).body.skus as Json[];
      const target = before.find((s) => s.favorited === false)!;
      expect(target).toBeDefined();
      const created = await fetch(`${ref.baseUrl}/favorites`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${user}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ favorite: { sku_id: target.id } }),
      });
      expect(created.status).toBe(201);
      const favorite = ((await created.json()) as Json).favorite;
      try {
        const after = (await api(`/categories/${rich.id}/skus?per=100`, { token: user })).body.skus as Json[];
        expect(after.find((s) => s.id === target.id).favorited).toBe(true);
        expect(after.filter((s) => s.id !== target.id).map((s) => s.favorited)).toEqual(before.filter((s) => s.id !== target.id).map((s) => s.favorited));
      } finally {
        await fetch(`${ref.baseUrl}/favorites/${favorite.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${user}` } });
      }
      const restored = (await api(`/categories/${rich.id}/skus?per=100`, { token: user })).body.skus as Json[];
      expect(restored.find((s) => s.id === target.id).favorited).toBe(false);
    });

    it('meta: ordered_by is a key of order_by_methods; methods and defaults differ across categories', async () => {
      const sets = new Set<string>();
      const defaults = new Set<string>();
      for (const leaf of leaves) {
        const meta = listings.get(leaf.id).meta;
        expect(sorted(Object.keys(meta))).toEqual(['available_filters', 'order_by_methods', 'ordered_by', 'pagination']);
        const keys = Object.keys(meta.order_by_methods);
        for (const k of keys) {
          expect(METHODS).toContain(k);
          expect(typeof meta.order_by_methods[k]).toBe('string');
        }
        expect(keys).toContain(meta.ordered_by);
        sets.add(sorted(keys).join());
        defaults.add(meta.ordered_by);
      }
      expect(sets.size).toBeGreaterThan(1);
      expect(defaults.size).toBeGreaterThan(1);
      // Before 3.2.0 ("dynamic order_by methods") every category offers the same methods.
      const old = new Set<string>();
      for (const leaf of leaves.slice(0, 8)) {
        const meta = (await api(`/categories/${leaf.id}/skus?per=1`, { version: '3.1' })).body.meta;
        old.add(sorted(Object.keys(meta.order_by_methods)).join());
        expect(Object.keys(meta.order_by_methods)).toContain(meta.ordered_by);
      }
      expect(old.size).toBe(1);
    });

    it('accepts every key of order_by_methods with order_dir asc or desc; anything else is 400', async () => {
      for (const leaf of leaves) {
        const { meta, skus } = listings.get(leaf.id);
        const keys = Object.keys(meta.order_by_methods);
        for (const key of keys) {
          for (const dir of ['asc', 'desc']) {
            const r = await api(`/categories/${leaf.id}/skus?per=100&order_by=${key}&order_dir=${dir}`);
            expect(r.status, `${leaf.id} ${key} ${dir}`).toBe(200);
            expect(r.body.meta.ordered_by).toBe(key);
            expect(new Set(ids(r.body.skus))).toEqual(new Set(ids(skus)));
            const sign = dir === 'asc' ? 1 : -1;
            const field = key === 'price' || key === 'pricevat' ? 'price_min' : key === 'rating' ? 'reviewscore' : null;
            if (field) {
              const values = (r.body.skus as Json[]).map((s) => s[field] as number);
              for (let i = 1; i < values.length; i++) expect(sign * (values[i]! - values[i - 1]!)).toBeGreaterThanOrEqual(0);
            }
          }
        }
        for (const other of [...METHODS.filter((m) => !keys.includes(m)), 'name', '']) {
          expectError(await api(`/categories/${leaf.id}/skus?order_by=${other}`), 400, 'InvalidParameter', `${leaf.id} order_by=${other}`);
        }
        expectError(await api(`/categories/${leaf.id}/skus?order_dir=sideways`), 400, 'InvalidParameter', 'order_dir');
      }
    });

    it('only leaf categories have SKUs; unknown categories are 404', async () => {
      for (const c of inner) {
        const r = await api(`/categories/${c.id}/skus`);
        expect(r.status).toBe(200);
        expect(r.body.skus).toEqual([]);
        expect(r.body.meta.pagination.total_results).toBe(0);
        expect(Object.keys(r.body.meta.order_by_methods)).toContain(r.body.meta.ordered_by);
      }
      expectError(await api('/categories/999999999/skus'), 404, 'RecordNotFound', 'unknown');
      expectError(await api('/categories/x1/skus'), 404, 'RecordNotFound', 'non-integer');
    });

    it('is paginated', async () => {
      const full = listings.get(rich.id).skus as Json[];
      expect(full.length).toBeGreaterThan(4);
      const r = await api(`/categories/${rich.id}/skus?per=2&page=2`);
      expect(ids(r.body.skus)).toEqual(ids(full.slice(2, 4)));
      expect(r.body.meta.pagination).toEqual({ total_results: full.length, total_pages: Math.ceil(full.length / 2), page: 2, per: 2 });
      expect(parseLink(r.headers.get('link')).next).toContain('page=3');
    });

    it('available_filters: filters, manufacturers, shops map ids to counts; availabilities and distances list {id, label, count}', () => {
      for (const leaf of leaves) {
        const { meta, skus } = listings.get(leaf.id);
        const af = meta.available_filters;
        expect(sorted(Object.keys(af))).toEqual(['availabilities', 'distances', 'filters', 'manufacturers', 'shops']);
        for (const key of ['filters', 'manufacturers', 'shops']) {
          for (const [id, n] of Object.entries(af[key] as Record<string, number>)) {
            expect(id).toMatch(/^\d+$/);
            expect(Number.isInteger(n) && n >= 0 && n <= skus.length).toBe(true);
          }
        }
        const makers = af.manufacturers as Record<string, number>;
        expect(Object.values(makers).reduce((a, b) => a + b, 0)).toBe(skus.length);
        for (const s of skus as Json[]) expect(makers[String(s.manufacturer_id)]).toBeGreaterThan(0);
        for (const key of ['availabilities', 'distances']) {
          expect((af[key] as Json[]).length).toBeGreaterThan(0);
          for (const o of af[key] as Json[]) {
            expect(sorted(Object.keys(o))).toEqual(['count', 'id', 'label']);
            expect(Number.isInteger(o.id) && typeof o.label === 'string' && Number.isInteger(o.count)).toBe(true);
          }
        }
      }
    });

    it('manufacturer_ids[], filter_ids[] and q narrow the list, agreeing with the counts', async () => {
      const { meta, skus } = listings.get(rich.id);
      const total = skus.length;
      const af = meta.available_filters;
      for (const [m, n] of Object.entries(af.manufacturers as Record<string, number>)) {
        const r = await api(`/categories/${rich.id}/skus?per=100&manufacturer_ids[]=${m}`);
        expect(r.body.meta.pagination.total_results).toBe(n);
        for (const s of r.body.skus as Json[]) expect(s.manufacturer_id).toBe(Number(m));
      }
      const makers = Object.keys(af.manufacturers);
      const two = await api(`/categories/${rich.id}/skus?per=100&manufacturer_ids[]=${makers[0]}&manufacturer_ids[]=${makers[1] ?? makers[0]}`);
      expect(two.body.meta.pagination.total_results).toBe(af.manufacturers[makers[0]!] + (makers[1] ? af.manufacturers[makers[1]] : 0));
      let partial = 0;
      for (const [f, n] of Object.entries(af.filters as Record<string, number>)) {
        const r = await api(`/categories/${rich.id}/skus?per=100&filter_ids[]=${f}`);
        expect(r.body.meta.pagination.total_results).toBe(n);
        if (n > 0 && n < total) partial += 1;
      }
      expect(partial).toBeGreaterThan(0);
      const sku = skus[skus.length - 1];
      const word = String(sku.name).split(/\s+/)[0]!;
      const q = await api(`/categories/${rich.id}/skus?per=100&q=${encodeURIComponent(word)}`);
      expect(ids(q.body.skus)).toContain(sku.id);
      expect(q.body.meta.pagination.total_results).toBeLessThanOrEqual(total);
      expect((await api(`/categories/${rich.id}/skus?q=zzqxjvw`)).body.skus).toEqual([]);
      expectError(await api(`/categories/${rich.id}/skus?manufacturer_ids[]=abc`), 400, 'InvalidParameter', 'manufacturer_ids');
      expectError(await api(`/categories/${rich.id}/skus?filter_ids[]=1.5`), 400, 'InvalidParameter', 'filter_ids');
    });

    it('shop_ids[], distance and availability filter from 3.2.1, agreeing with the counts', async () => {
      const { meta, skus } = listings.get(rich.id);
      const af = meta.available_filters;
      const shops = Object.entries(af.shops as Record<string, number>);
      expect(shops.length).toBeGreaterThan(0);
      for (const [s, n] of shops.slice(0, 5)) {
        expect((await api(`/categories/${rich.id}/skus?per=100&shop_ids[]=${s}`)).body.meta.pagination.total_results).toBe(n);
      }
      for (const key of ['distance', 'availability']) {
        const options = af[key === 'distance' ? 'distances' : 'availabilities'] as Json[];
        for (const o of options) {
          expect((await api(`/categories/${rich.id}/skus?per=100&${key}=${o.id}`)).body.meta.pagination.total_results, `${key}=${o.id}`).toBe(o.count);
        }
        const unknown = Math.max(...options.map((o) => o.id)) + 1000;
        expectError(await api(`/categories/${rich.id}/skus?${key}=${unknown}`), 400, 'InvalidParameter', `${key}=${unknown}`);
      }
      // Filters combine with AND.
      const [shop, shopCount] = shops.find(([, n]) => n > 0)!;
      const [maker, makerCount] = Object.entries(af.manufacturers as Record<string, number>)[0]!;
      const both = (await api(`/categories/${rich.id}/skus?per=100&shop_ids[]=${shop}&manufacturer_ids[]=${maker}`)).body.meta.pagination.total_results;
      expect(both).toBeLessThanOrEqual(Math.min(shopCount, makerCount));
      // Before 3.2.1 those parameters are ignored; available_filters still has all five keys
      // (the spec gives them without a version), counted over the result they did not narrow.
      for (const version of ['3.0', '3.1']) {
        const old = await api(`/categories/${rich.id}/skus?per=100&shop_ids[]=${shop}&distance=999&availability=1&include_meta[]=available_filters`, { version });
        expect(old.status).toBe(200);
        expect(old.body.meta.pagination.total_results).toBe(skus.length);
        expect(sorted(Object.keys(old.body.meta.available_filters)), version).toEqual(['availabilities', 'distances', 'filters', 'manufacturers', 'shops']);
        expect(old.body.meta.available_filters, version).toEqual(af);
      }
    });

    it("distance measures from the requester's personalization, as the product lists' distance filter does", async () => {
      const { meta, skus } = listings.get(rich.id);
      const counts: number[][] = [];
      for (const token of [app, user]) {
        const options = (await api(`/categories/${rich.id}/skus?per=1&include_meta[]=available_filters`, { token })).body.meta.available_filters.distances as Json[];
        expect(options.map((o) => o.id)).toEqual((meta.available_filters.distances as Json[]).map((o) => o.id));
        counts.push(options.map((o) => o.count));
        for (const o of options) {
          const km = Number(/(\d+) km/.exec(o.label)![1]);
          const listed = ids((await api(`/categories/${rich.id}/skus?per=100&distance=${o.id}`, { token })).body.skus);
          const near: number[] = [];
          for (const s of skus as Json[]) {
            const products = await api(`/skus/${s.id}/products?per=1&distance=${km}`, { token });
            if (products.body.meta.pagination.total_results > 0) near.push(s.id);
          }
          expect(sorted(listed), `${token === app ? 'app' : 'user'} distance=${o.id}`).toEqual(sorted(near));
          expect(listed).toHaveLength(o.count);
        }
      }
      // Not vacuous: some distance keeps some SKUs and drops others.
      expect(counts.flat().some((n) => n > 0 && n < skus.length)).toBe(true);
    });

    it('include_meta[]=applied_filters echoes the filters applied; other include_meta values are 400', async () => {
      const { meta } = listings.get(rich.id);
      const maker = Number(Object.keys(meta.available_filters.manufacturers)[0]);
      const none = await api(`/categories/${rich.id}/skus?include_meta[]=applied_filters`);
      expect(sorted(Object.keys(none.body.meta))).toEqual(['applied_filters', 'order_by_methods', 'ordered_by', 'pagination']);
      expect(none.body.meta.applied_filters).toEqual({ q: null, manufacturer_ids: [], filter_ids: [], shop_ids: [], distance: null, availability: null });
      const some = await api(
        `/categories/${rich.id}/skus?include_meta=applied_filters,available_filters&q=%20x%20&manufacturer_ids[]=${maker}&manufacturer_ids[]=${maker}&distance=1`,
      );
      expect(some.body.meta.applied_filters).toEqual({ q: 'x', manufacturer_ids: [maker], filter_ids: [], shop_ids: [], distance: 1, availability: null });
      expect(some.body.meta.available_filters).toBeDefined();
      // Every key in every version; before 3.2.1 shop_ids, distance and availability are ignored.
      for (const version of ['3.0', '3.1']) {
        const old = await api(`/categories/${rich.id}/skus?include_meta[]=applied_filters&shop_ids[]=1&distance=1&availability=1&manufacturer_ids[]=${maker}`, { version });
        expect(old.body.meta.applied_filters, version).toEqual({ q: null, manufacturer_ids: [maker], filter_ids: [], shop_ids: [], distance: null, availability: null });
      }
      expectError(await api(`/categories/${rich.id}/skus?include_meta[]=filters`), 400, 'InvalidParameter', 'include_meta');
    });
  });
});
