// GET /manufacturers, /manufacturers/:id, /manufacturers/:id/categories, /manufacturers/:id/skus
// (spec "Endpoints > Manufacturers", resource "Manufacturer"). Ids, names and counts are
// discovered through the API; every test runs on both datasets, the second under a base path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from './server.ts';
import { allSkus, byName, CATEGORY_FIELDS, expectError, get, ids, parseLink, SETUPS, sorted, startWithToken, userTokens, type Reply } from '../testing/reference/testkit.ts';

type Json = any;

describe.each(SETUPS)('manufacturers (%s)', (_name, options) => {
  let ref: RunningReference;
  let app: string;
  let manufacturers: Json[];
  /** Manufacturer id -> its SKUs, gathered from the category SKU listings. */
  const skusOf = new Map<number, Json[]>();
  /** The manufacturer with the most SKUs. */
  let busy: Json;

  const api = (path: string, opts: { token?: string; version?: string } = {}): Promise<Reply> => get(ref, path, { token: opts.token ?? app, version: opts.version ?? null });
  const list = async (path: string): Promise<Json> => {
    const r = await api(path);
    expect(r.status, path).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    ({ ref, token: app } = await startWithToken(options));
    manufacturers = (await list('/manufacturers?per=100')).manufacturers;
    for (const s of await allSkus(ref, app)) {
      const mine = skusOf.get(s.manufacturer_id) ?? [];
      mine.push(s);
      skusOf.set(s.manufacturer_id, mine);
    }
    busy = manufacturers.reduce((a, b) => ((skusOf.get(b.id)?.length ?? 0) > (skusOf.get(a.id)?.length ?? 0) ? b : a));
  });
  afterAll(async () => {
    await ref?.close();
  });

  it('GET /manufacturers lists every manufacturer by id, paginated, with id, name, image_url', async () => {
    expect(manufacturers.length).toBeGreaterThan(25);
    expect(ids(manufacturers)).toEqual([...ids(manufacturers)].sort((a, b) => a - b));
    for (const m of manufacturers) {
      expect(sorted(Object.keys(m))).toEqual(['id', 'image_url', 'name']);
      expect(Number.isInteger(m.id) && typeof m.name === 'string').toBe(true);
      expect(m.image_url === null || typeof m.image_url === 'string').toBe(true);
    }
    expect(manufacturers.some((m) => m.image_url === null)).toBe(true);
    const p1 = await api('/manufacturers');
    expect(p1.body.manufacturers).toEqual(manufacturers.slice(0, 25));
    expect(p1.body.meta.pagination).toEqual({ total_results: manufacturers.length, total_pages: Math.ceil(manufacturers.length / 25), page: 1, per: 25 });
    expect(parseLink(p1.headers.get('link')).next).toContain('page=2');
    // Every SKU's manufacturer is listed.
    for (const id of skusOf.keys()) expect(ids(manufacturers)).toContain(id);
  });

  it('GET /manufacturers/:id returns the manufacturer; unknown ids are 404 RecordNotFound', async () => {
    for (const m of manufacturers.slice(0, 5)) expect((await api(`/manufacturers/${m.id}`)).body).toEqual({ manufacturer: m });
    const missing = await api('/manufacturers/999999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ errors: [{ code: 'RecordNotFound', messages: ["Couldn't find Manufacturer with id=999999999"] }] });
    for (const path of ['/manufacturers/abc', '/manufacturers/999999999/categories', '/manufacturers/999999999/skus', '/manufacturers/-1/skus']) {
      const r = await api(path);
      expect(r.status, path).toBe(404);
      expect(r.body.errors[0].code, path).toBe('RecordNotFound');
    }
  });

  describe('GET /manufacturers/:id/categories', () => {
    it("lists the leaf categories holding the manufacturer's SKUs, by name by default", async () => {
      for (const m of manufacturers) {
        const body = await list(`/manufacturers/${m.id}/categories?per=100`);
        const expected = new Set((skusOf.get(m.id) ?? []).map((s) => s.category_id));
        expect(new Set(ids(body.categories))).toEqual(expected);
        expect(body.meta.pagination.total_results).toBe(expected.size);
        for (const c of body.categories as Json[]) {
          expect(sorted(Object.keys(c))).toEqual(sorted(CATEGORY_FIELDS));
          expect(c.children_count).toBe(0);
        }
        expect(body.categories).toEqual([...body.categories].sort(byName));
      }
    });

    it('orders by name or popularity, asc or desc; anything else is 400; paginated', async () => {
      const base = `/manufacturers/${busy.id}/categories?per=100`;
      const asc = (await list(`${base}&order_by=name&order_dir=asc`)).categories;
      expect(asc.length).toBeGreaterThan(2);
      expect((await list(base)).categories).toEqual(asc);
      expect((await list(`${base}&order_by=name&order_dir=desc`)).categories).toEqual([...asc].sort((a, b) => byName(b, a) || a.id - b.id));
      const popDesc = ids((await list(`${base}&order_by=popularity&order_dir=desc`)).categories);
      const popAsc = ids((await list(`${base}&order_by=popularity&order_dir=asc`)).categories);
      expect(ids((await list(`${base}&order_by=popularity`)).categories)).toEqual(popDesc);
      expect(new Set(popAsc)).toEqual(new Set(ids(asc)));
      expect(popAsc).not.toEqual(popDesc);
      expectError(await api(`${base}&order_by=price`), 400, 'InvalidParameter', 'order_by=price');
      expectError(await api(`${base}&order_dir=DESC`), 400, 'InvalidParameter', 'order_dir=DESC');
      const page = await api(`/manufacturers/${busy.id}/categories?per=1&page=2`);
      expect(ids(page.body.categories)).toEqual([asc[1].id]);
      expect(page.body.meta.pagination).toEqual({ total_results: asc.length, total_pages: asc.length, page: 2, per: 1 });
    });
  });

  describe('GET /manufacturers/:id/skus', () => {
    it("lists the manufacturer's SKUs, without favorited even for a user token", async () => {
      const user = (await userTokens(ref, 'public favorites')).access;
      for (const m of manufacturers) {
        const body = await list(`/manufacturers/${m.id}/skus?per=100`);
        const expected = skusOf.get(m.id) ?? [];
        expect(sorted(ids(body.skus).map(String))).toEqual(sorted(ids(expected).map(String)));
        expect(body.meta.pagination.total_results).toBe(expected.length);
        for (const s of body.skus as Json[]) {
          expect(s.manufacturer_id).toBe(m.id);
          expect(s).toEqual(expected.find((x) => x.id === s.id));
        }
      }
      const asUser = await api(`/manufacturers/${busy.id}/skus`, { token: user });
      for (const s of asUser.body.skus as Json[]) expect(s).not.toHaveProperty('favorited');
    });

    it('orders by price or popularity, asc or desc; anything else is 400; paginated', async () => {
      const base = `/manufacturers/${busy.id}/skus?per=100`;
      const all = (await list(base)).skus as Json[];
      expect(all.length).toBeGreaterThan(2);
      expect(ids((await list(`${base}&order_by=popularity&order_dir=desc`)).skus)).toEqual(ids(all));
      expect(ids((await list(`${base}&order_by=popularity`)).skus)).toEqual(ids(all));
      expect(ids((await list(`${base}&order_by=popularity&order_dir=asc`)).skus)).not.toEqual(ids(all));
      for (const dir of ['asc', 'desc']) {
        const prices = ((await list(`${base}&order_by=price&order_dir=${dir}`)).skus as Json[]).map((s) => s.price_min as number);
        expect(prices).toEqual([...prices].sort((a, b) => (dir === 'asc' ? a - b : b - a)));
      }
      const byPrice = ((await list(`${base}&order_by=price`)).skus as Json[]).map((s) => s.price_min as number);
      expect(byPrice).toEqual([...byPrice].sort((a, b) => a - b));
      expectError(await api(`${base}&order_by=name`), 400, 'InvalidParameter', 'order_by=name');
      expectError(await api(`${base}&order_dir=up`), 400, 'InvalidParameter', 'order_dir=up');
      const page = await api(`/manufacturers/${busy.id}/skus?per=2&page=2`);
      expect(ids(page.body.skus)).toEqual(ids(all.slice(2, 4)));
      expect(page.body.meta.pagination.total_pages).toBe(Math.ceil(all.length / 2));
    });
  });
});
