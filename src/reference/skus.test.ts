// SKU product lists: Product objects and blp, order, pagination, the shop of each product and the
// filters, on both datasets under a base path, ids and counts discovered through the API. Product
// cards and the rest: skus-cards.test.ts; skus-personalization and skus-price-history beside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from './server.ts';
import { get, ids, parseLink, SHOP_FIELDS, sorted } from '../testing/reference/testkit.ts';
import { ascending, cents, expectPersonalization, haversineKm, loadProductLists, PRODUCT_FIELDS, sampleOf, withProductsOf } from '../testing/reference/sku-products.ts';

type Json = Record<string, any>;

describe.each(['default', 'alt'] as const)('product lists (%s dataset)', (dataset) => {
  let ref: RunningReference;
  let token: string;
  let skus: Json[];
  let products: Map<number, Json[]>;
  const sizeNum = (v: string): number => Number(v);

  beforeAll(async () => {
    ({ ref, token, skus, products } = await loadProductLists(dataset));
  });
  afterAll(async () => {
    await ref.close();
  });
  const withProducts = (): Json[] => withProductsOf(skus, products);
  /** Every 4th SKU with products, and the one with the most: enough variety, fewer requests. */
  const sample = (): Json[] => sampleOf(skus, products);

  it('lists Product objects of the SKU with a consistent blp', () => {
    expect(withProducts().length).toBeGreaterThan(20);
    let nullFinal = 0;
    let exact = 0;
    for (const s of withProducts()) {
      for (const p of products.get(s.id)!) {
        expect(Object.keys(p).sort()).toEqual(PRODUCT_FIELDS);
        expect(p.sku_id).toBe(s.id);
        expect(p.category_id).toBe(s.category_id);
        expect(typeof p.shop_uid).toBe('string');
        expect(p.expenses === null || typeof p.expenses === 'number').toBe(true);
        for (const size of p.sizes) expect(size).toEqual({ value: expect.any(String), mapping: expect.any(Object) });
        const b = p.blp;
        expect(Object.keys(b).sort()).toEqual(['final_price', 'payment_method_cost', 'shipping_cost']);
        expect(typeof b.shipping_cost).toBe('number');
        if (p.expenses !== null) {
          expect(b.shipping_cost).toBe(p.expenses);
          exact += 1;
        }
        if (b.payment_method_cost === null) {
          expect(b.final_price).toBeNull();
          nullFinal += 1;
        } else {
          expect(cents(b.final_price)).toBe(cents(p.price + b.shipping_cost + b.payment_method_cost));
        }
      }
    }
    expect(nullFinal).toBeGreaterThan(0);
    expect(exact).toBeGreaterThan(0);
  });

  it('orders by net price by default, with meta ordered_by, personalization and pagination', async () => {
    for (const s of withProducts()) {
      const list = products.get(s.id)!;
      expect(ascending(list.map((p) => p.price))).toBe(true);
      expect(new Set(list.map((p) => p.shop_id)).size).toBe(s.shop_count);
    }
    const s = withProducts()[0]!;
    const r = await get(ref, `/skus/${s.id}/products`, { token });
    expect(Object.keys(r.body).sort()).toEqual(['meta', 'products']);
    expect(Object.keys(r.body.meta).sort()).toEqual(['ordered_by', 'pagination', 'personalization']);
    expect(r.body.meta.ordered_by).toBe('net_price');
    expect(r.body.meta.pagination.total_results).toBe(products.get(s.id)!.length);
    expectPersonalization(r.body.meta.personalization);
    // An application token gets the default personalization (no address of its own).
    expect(r.body.meta.personalization.location.address_id).toBeNull();
    expect(r.body.meta.personalization.location.type).toBe('quick_address');
    const net = await get(ref, `/skus/${s.id}/products?order_by=net_price&per=100`, { token });
    expect(ids(net.body.products)).toEqual(ids(products.get(s.id)!));
  });

  it('orders by final price (null last) with order_by=final_price; other values are 400', async () => {
    let differs = 0;
    for (const s of sample()) {
      const r = await get(ref, `/skus/${s.id}/products?order_by=final_price&per=100`, { token });
      expect(r.body.meta.ordered_by).toBe('final_price');
      const finals = r.body.products.map((p: Json) => p.blp.final_price as number | null);
      const known = finals.filter((f: number | null) => f !== null) as number[];
      expect(finals.slice(0, known.length)).toEqual(known);
      expect(ascending(known)).toBe(true);
      expect([...ids(r.body.products)].sort()).toEqual([...ids(products.get(s.id)!)].sort());
      if (ids(r.body.products).join() !== ids(products.get(s.id)!).join()) differs += 1;
    }
    expect(differs).toBeGreaterThan(0);
    const s = withProducts()[0]!;
    for (const q of ['order_by=price', 'order_by=', 'order_by=FINAL_PRICE']) {
      const r = await get(ref, `/skus/${s.id}/products?${q}`, { token });
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].code).toBe('InvalidParameter');
    }
  });

  it('gives future SKUs empty product lists and product cards', async () => {
    const future = skus.filter((s) => s.future);
    expect(future.length).toBeGreaterThan(0);
    for (const s of future) {
      expect(products.get(s.id)).toEqual([]);
      const r = await get(ref, `/skus/${s.id}/products`, { token });
      expect(r.body.meta.pagination.total_results).toBe(0);
      const cards = await get(ref, `/skus/${s.id}/product_cards`, { token });
      expect(cards.body.product_cards).toEqual([]);
    }
  });

  it('paginates a SKU with more than 25 products', async () => {
    const big = withProducts().find((s) => products.get(s.id)!.length > 25)!;
    const all = products.get(big.id)!;
    const r = await get(ref, `/skus/${big.id}/products`, { token });
    expect(r.body.products).toHaveLength(25);
    expect(r.body.meta.pagination).toEqual({ total_results: all.length, total_pages: Math.ceil(all.length / 25), page: 1, per: 25 });
    expect(parseLink(r.headers.get('link')).next).toBe(`${ref.baseUrl}/skus/${big.id}/products?page=2`);
    const p2 = await get(ref, `/skus/${big.id}/products?page=2`, { token });
    expect(ids(p2.body.products)).toEqual(ids(all.slice(25, 50)));
  });

  it('embeds, includes or lists the ids of the shop of each product', async () => {
    const s = withProducts().find((x) => x.shop_count >= 3)!;
    const list = products.get(s.id)!;
    const embedded = await get(ref, `/skus/${s.id}/products?embed=shop&per=100`, { token });
    for (const p of embedded.body.products) {
      expect(Object.keys(p.shop).sort()).toEqual(sorted(SHOP_FIELDS));
      expect(p.shop).toEqual((await get(ref, `/shops/${p.shop_id}`, { token })).body.shop);
    }
    const included = await get(ref, `/skus/${s.id}/products?include=shop&per=100`, { token });
    expect(included.body.products.map((p: Json) => p.shop_id)).toEqual(list.map((p) => p.shop_id));
    expect(included.body.shops.map((x: Json) => x.id)).toEqual([...new Set(list.map((p) => p.shop_id))]);
    const withIds = await get(ref, `/skus/${s.id}/products?embed_ids=shop&per=100`, { token });
    expect(withIds.body.products.map((p: Json) => p.shop_ids)).toEqual(list.map((p) => [p.shop_id]));
    expect((await get(ref, `/skus/${s.id}/products?embed=sku`, { token })).status).toBe(400);
  });

  it('filters by size: a number x keeps sizes in [x, x+1); 3.1 ignores the filter', async () => {
    const sized = withProducts().filter((s) => products.get(s.id)!.some((p) => p.sizes.length > 0));
    expect(sized.length).toBeGreaterThan(0);
    let narrowed = 0;
    for (const s of sized) {
      const list = products.get(s.id)!;
      const values = [...new Set(list.flatMap((p) => p.sizes.map((z: Json) => z.value as string)))];
      const wholes = [...new Set(values.map((v) => Math.floor(sizeNum(v))))];
      for (const x of [...wholes, wholes[0]! - 1, ...values.filter((v) => !Number.isInteger(sizeNum(v)))].map(Number)) {
        const r = await get(ref, `/skus/${s.id}/products?size=${x}&per=100`, { token });
        const expected = list.filter((p) => p.sizes.some((z: Json) => sizeNum(z.value) >= x && sizeNum(z.value) < x + 1));
        expect(ids(r.body.products), `size=${x}`).toEqual(ids(expected));
        if (expected.length < list.length) narrowed += 1;
      }
      const old = await get(ref, `/skus/${s.id}/products?size=${wholes[0]! - 1}&per=100`, { token, version: '3.1' });
      expect(old.body.products).toHaveLength(list.length);
    }
    expect(narrowed).toBeGreaterThan(0);
    const s = sized[0]!;
    expect((await get(ref, `/skus/${s.id}/products?size=XL`, { token })).body.products).toEqual([]);
    expect((await get(ref, `/skus/${s.id}/products?size=&per=100`, { token })).body.products).toHaveLength(products.get(s.id)!.length);
  });

  it('filters by distance in km from the personalization to the nearest shop location', async () => {
    const big = withProducts().reduce((a, b) => (products.get(b.id)!.length > products.get(a.id)!.length ? b : a));
    const list = products.get(big.id)!;
    const here = (await get(ref, `/skus/${big.id}/products`, { token })).body.meta.personalization.location;
    const nearest = new Map<number, number>();
    for (const shopId of new Set(list.map((p) => p.shop_id as number))) {
      const locs = (await get(ref, `/shops/${shopId}/locations?per=100`, { token })).body.locations as Json[];
      nearest.set(shopId, Math.min(...locs.map((l) => haversineKm(Number(here.lat), Number(here.lng), Number(l.lat), Number(l.lng)))));
    }
    const ds = [...nearest.values()].sort((a, b) => a - b);
    const cuts = [ds[0]! / 2, (ds[0]! + ds[1]!) / 2, ds[Math.floor(ds.length / 2)]! + 0.01, ds[ds.length - 1]! + 1];
    const sizes = new Set<number>();
    for (const d of cuts) {
      const q = d.toFixed(3);
      const r = await get(ref, `/skus/${big.id}/products?distance=${q}&per=100`, { token });
      const expected = list.filter((p) => nearest.get(p.shop_id)! <= Number(q));
      expect(ids(r.body.products), `distance=${q}`).toEqual(ids(expected));
      sizes.add(expected.length);
    }
    expect(sizes.size).toBeGreaterThan(2);
    for (const bad of ['abc', '-5', '1e3', '5km']) {
      const r = await get(ref, `/skus/${big.id}/products?distance=${bad}`, { token });
      expect(r.status, bad).toBe(400);
      expect(r.body.errors[0].code).toBe('InvalidParameter');
    }
    const old = await get(ref, `/skus/${big.id}/products?distance=abc&per=100`, { token, version: '3.0' });
    expect(old.body.products).toHaveLength(list.length);
  });

  it('filters by availability (0: immediate) and zero_installments', async () => {
    let split = 0;
    const zeroShops = new Set<number>();
    const otherShops = new Set<number>();
    for (const s of sample()) {
      const list = products.get(s.id)!;
      const [r0, r7, rz, roff, rmeta] = await Promise.all(
        ['availability=0', 'availability=7', 'zero_installments=true', 'zero_installments=false', 'include_meta[]=filters'].map((q) =>
          get(ref, `/skus/${s.id}/products?${q}&per=100`, { token }),
        ),
      );
      const now = r0!.body.products as Json[];
      const week = r7!.body.products as Json[];
      expect(ids(list).filter((id) => ids(now).includes(id))).toEqual(ids(now));
      expect(ids(now).every((id) => ids(week).includes(id))).toBe(true);
      // Same wording, same delay: the immediate ones never share a wording with the others.
      const left = list.filter((p) => !ids(now).includes(p.id)).map((p) => p.availability);
      for (const p of now) expect(left).not.toContain(p.availability);
      if (now.length > 0 && now.length < list.length) split += 1;
      const zero = rz!.body.products as Json[];
      for (const p of list) (ids(zero).includes(p.id) ? zeroShops : otherShops).add(p.shop_id);
      expect(ids(roff!.body.products)).toEqual(ids(list));
      const meta = rmeta!.body.meta.filters;
      expect(meta.zero_commission_installments).toBe(zero.length > 0);
    }
    expect(split).toBeGreaterThan(0);
    expect(zeroShops.size).toBeGreaterThan(0);
    expect(otherShops.size).toBeGreaterThan(0);
    // zero_installments is a property of the shop: no shop is on both sides.
    expect([...zeroShops].filter((id) => otherShops.has(id))).toEqual([]);
    const s = withProducts()[0]!;
    for (const q of ['availability=soon', 'availability=-1', 'zero_installments=maybe']) {
      expect((await get(ref, `/skus/${s.id}/products?${q}`, { token })).status, q).toBe(400);
    }
  });

  it('adds meta.filters with include_meta[]=filters; another include_meta is 400', async () => {
    const sized = withProducts().find((s) => products.get(s.id)!.some((p) => p.sizes.length > 0))!;
    const r = await get(ref, `/skus/${sized.id}/products?include_meta[]=filters&size=0`, { token });
    const f = r.body.meta.filters;
    expect(Object.keys(f).sort()).toEqual(['availability_wordings', 'distance_ranges', 'size_filter', 'zero_commission_installments']);
    const wholes = [...new Set(products.get(sized.id)!.flatMap((p) => p.sizes.map((z: Json) => Math.floor(Number(z.value)))))].sort((a, b) => a - b);
    expect(f.size_filter).toEqual(wholes.map(String));
    expect(typeof f.zero_commission_installments).toBe('boolean');
    for (const key of Object.keys(f.distance_ranges)) {
      expect(typeof f.distance_ranges[key]).toBe('string');
      expect((await get(ref, `/skus/${sized.id}/products?distance=${key}`, { token })).status).toBe(200);
    }
    for (const key of Object.keys(f.availability_wordings)) {
      expect((await get(ref, `/skus/${sized.id}/products?availability=${key}`, { token })).status).toBe(200);
    }
    expect(Object.keys(f.availability_wordings)).toContain('0');
    const plain = await get(ref, `/skus/${sized.id}/products?include_meta=filters`, { token });
    expect(plain.body.meta.filters).toEqual(f);
    const bad = await get(ref, `/skus/${sized.id}/products?include_meta[]=everything`, { token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe('InvalidParameter');
  });
});
