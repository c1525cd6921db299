// SKU products, product cards, specifications, price history, GET /products/:id and the shop
// product search. Ids, names and counts are discovered through the API; the listing tests run
// on both datasets under a base path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from './server.ts';
import { allSkus, call, get, ids, makeClock, parseLink, SHOP_FIELDS, sorted, startServer, startWithToken, userTokens } from '../testing/reference/testkit.ts';

type Json = Record<string, any>;

const PRODUCT_FIELDS = [
  'id',
  'name',
  'sku_id',
  'shop_id',
  'category_id',
  'availability',
  'click_url',
  'shop_uid',
  'expenses',
  'web_uri',
  'sizes',
  'price',
  'immediate_pickup',
  'blp',
].sort();
const cents = (n: number): number => Math.round(n * 100);
const ascending = (xs: readonly number[]): boolean => xs.every((x, i) => i === 0 || xs[i - 1]! <= x);

function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(a));
}

/**
 * The reference's blp distance surcharge (docs/reference-choices.md), in cents, for a shop with
 * `locations` seen from `here`: by the nearest location, up to 25 km 0, up to 75 km 1.00, up to
 * 150 km 2.00, up to 250 km 3.50, farther 5.00; no location: 0.
 */
function surchargeCents(here: Json, locations: readonly Json[]): number {
  if (locations.length === 0) return 0;
  const km = Math.min(...locations.map((l) => haversineKm(Number(here.lat), Number(here.lng), Number(l.lat), Number(l.lng))));
  return km <= 25 ? 0 : km <= 75 ? 100 : km <= 150 ? 200 : km <= 250 ? 350 : 500;
}

function expectPersonalization(p: Json): void {
  expect(Object.keys(p).sort()).toEqual(['location', 'payment_method']);
  expect(Object.keys(p.location).sort()).toEqual(['address_id', 'country_code', 'label', 'lat', 'lng', 'type']);
  expect(['address', 'quick_address']).toContain(p.location.type);
  expect(p.location.lat).toEqual(expect.any(String));
  expect(p.payment_method).toEqual({ type: expect.any(String) });
}

describe.each(['default', 'alt'] as const)('product lists (%s dataset)', (dataset) => {
  let ref: RunningReference;
  let token: string;
  let skus: Json[];
  const products = new Map<number, Json[]>();
  const sizeNum = (v: string): number => Number(v);

  beforeAll(async () => {
    ({ ref, token } = await startWithToken({ dataset, basePath: '/api' }));
    skus = await allSkus(ref, token);
    await Promise.all(
      skus.map(async (s) => {
        products.set(s.id, (await get(ref, `/skus/${s.id}/products?per=100`, { token })).body.products);
      }),
    );
  });
  afterAll(async () => {
    await ref.close();
  });
  const withProducts = (): Json[] => skus.filter((s) => products.get(s.id)!.length > 0);
  /** Every 4th SKU with products, and the one with the most: enough variety, fewer requests. */
  const sample = (): Json[] => {
    const all = withProducts();
    const biggest = all.reduce((a, b) => (products.get(b.id)!.length > products.get(a.id)!.length ? b : a));
    return [biggest, ...all.filter((x, i) => i % 4 === 0 && x !== biggest)];
  };

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

  it('groups product cards by color and shop, with the shop, blp and colored products', async () => {
    for (const s of sample()) {
      for (const order of ['net_price', 'final_price']) {
        const list = (await get(ref, `/skus/${s.id}/products?order_by=${order}&per=100`, { token })).body.products as Json[];
        const r = await get(ref, `/skus/${s.id}/product_cards?order_by=${order}&per=100`, { token });
        expect(Object.keys(r.body).sort()).toEqual(['meta', 'product_cards']);
        expect(Object.keys(r.body.meta).sort()).toEqual(['ordered_by', 'pagination', 'personalization']);
        expect(r.body.meta.ordered_by).toBe(order);
        const groups = r.body.product_cards as Json[];
        expect(r.body.meta.pagination.total_results).toBe(groups.length);
        const colors = groups.map((g) => g.cards[0].products[0].color);
        expect(new Set(colors).size).toBe(groups.length);
        const flat: Json[] = [];
        const listIndex = (p: Json): number => ids(list).indexOf(p.id);
        for (const g of groups) {
          expect(Object.keys(g)).toEqual(['cards']);
          const shops = g.cards.map((c: Json) => c.shop.id);
          expect(new Set(shops).size).toBe(shops.length);
          for (const c of g.cards) {
            expect(Object.keys(c).sort()).toEqual(['blp', 'products', 'shop']);
            expect(Object.keys(c.shop).sort()).toEqual(sorted(SHOP_FIELDS));
            expect(c.blp).toEqual(c.products[0].blp);
            expect(ascending(c.products.map(listIndex))).toBe(true);
            for (const p of c.products) {
              expect(Object.keys(p).sort()).toEqual([...PRODUCT_FIELDS, 'color'].sort());
              expect(p.color).toBe(colors[groups.indexOf(g)]);
              expect(p.shop_id).toBe(c.shop.id);
              const { color: _color, ...plain } = p;
              expect(plain).toEqual(list[listIndex(p)]);
              flat.push(p);
            }
          }
          expect(ascending(g.cards.map((c: Json) => listIndex(c.products[0])))).toBe(true);
        }
        expect(ascending(groups.map((g) => listIndex(g.cards[0].products[0])))).toBe(true);
        expect([...ids(flat)].sort()).toEqual([...ids(list)].sort());
        expect(list.some((p) => 'color' in p)).toBe(false);
      }
    }
    const s = withProducts().find((x) => x.shop_count >= 3)!;
    const sized = await get(ref, `/skus/${s.id}/product_cards?availability=0&per=100`, { token });
    const now = (await get(ref, `/skus/${s.id}/products?availability=0&per=100`, { token })).body.products as Json[];
    expect(sized.body.product_cards.flatMap((g: Json) => g.cards.flatMap((c: Json) => ids(c.products))).sort()).toEqual(ids(now).sort());
    expect((await get(ref, `/skus/${s.id}/product_cards?order_by=x`, { token })).status).toBe(400);
  });

  it('computes shipping from expenses, free shipping, or the shop cost plus a surcharge by distance band', async () => {
    const big = withProducts().reduce((a, b) => (products.get(b.id)!.length > products.get(a.id)!.length ? b : a));
    const here = (await get(ref, `/skus/${big.id}/products`, { token })).body.meta.personalization.location;
    const base = new Map<number, Set<number>>();
    const shops = new Map<number, Json>();
    const surcharge = new Map<number, number>();
    for (const s of withProducts()) {
      for (const p of products.get(s.id)!) {
        if (p.expenses !== null) continue;
        if (!shops.has(p.shop_id)) {
          shops.set(p.shop_id, (await get(ref, `/shops/${p.shop_id}`, { token })).body.shop);
          surcharge.set(p.shop_id, surchargeCents(here, (await get(ref, `/shops/${p.shop_id}/locations?per=100`, { token })).body.locations));
        }
        const shop = shops.get(p.shop_id)!;
        const free = shop.shipping.free || (shop.shipping.free_from !== null && p.price >= shop.shipping.free_from);
        if (free) {
          expect(p.blp.shipping_cost).toBe(0);
          continue;
        }
        const set = base.get(p.shop_id) ?? new Set<number>();
        set.add(cents(p.blp.shipping_cost) - surcharge.get(p.shop_id)!);
        base.set(p.shop_id, set);
      }
    }
    expect(base.size).toBeGreaterThan(0);
    for (const [shopId, set] of base) expect(set.size, `shop ${shopId}`).toBe(1);
  });

  it('drops the fields of later versions: blp before 3.2, immediate_pickup before 3.1', async () => {
    const s = withProducts()[0]!;
    const v31 = await get(ref, `/skus/${s.id}/products?per=100`, { token, version: '3.1' });
    for (const p of v31.body.products) expect(Object.keys(p).sort()).toEqual(PRODUCT_FIELDS.filter((f) => f !== 'blp'));
    const v30 = await get(ref, `/skus/${s.id}/products?per=100`, { token, version: '3.0' });
    for (const p of v30.body.products) expect(Object.keys(p).sort()).toEqual(PRODUCT_FIELDS.filter((f) => f !== 'blp' && f !== 'immediate_pickup'));
    const cards = await get(ref, `/skus/${s.id}/product_cards`, { token, version: '3.1' });
    const card = cards.body.product_cards[0].cards[0];
    expect(Object.keys(card.blp).sort()).toEqual(['final_price', 'payment_method_cost', 'shipping_cost']);
    expect('blp' in card.products[0]).toBe(false);
    expect('shipping_cost_enabled' in (await get(ref, `/skus/${s.id}/products?embed=shop`, { token, version: '3.0' })).body.products[0].shop.shipping).toBe(false);
  });

  it('GET /products/:id returns the product with meta.personalization and embed=shop', async () => {
    for (const s of withProducts().slice(0, 10)) {
      const p = products.get(s.id)![0]!;
      const r = await get(ref, `/products/${p.id}`, { token });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['meta', 'product']);
      expect(r.body.product).toEqual(p);
      expect(Object.keys(r.body.meta)).toEqual(['personalization']);
      expectPersonalization(r.body.meta.personalization);
      const e = await get(ref, `/products/${p.id}?embed=shop`, { token });
      expect(e.body.product.shop).toEqual((await get(ref, `/shops/${p.shop_id}`, { token })).body.shop);
      const i = await get(ref, `/products/${p.id}?include=shop`, { token });
      expect(i.body.product.shop_id).toBe(p.shop_id);
      expect(i.body.shops).toEqual([e.body.product.shop]);
    }
  });

  it('finds a shop product by shop_uid; shop_uid is required; any string is accepted', async () => {
    for (const s of withProducts().slice(0, 10)) {
      const p = products.get(s.id)![0]!;
      const r = await get(ref, `/shops/${p.shop_id}/products/search?shop_uid=${encodeURIComponent(p.shop_uid)}`, { token });
      expect(r.status).toBe(200);
      expect(ids(r.body.products)).toContain(p.id);
      for (const x of r.body.products) expect([x.shop_id, x.shop_uid]).toEqual([p.shop_id, p.shop_uid]);
      expect(Object.keys(r.body.meta).sort()).toEqual(['ordered_by', 'pagination', 'personalization']);
      const other = withProducts()
        .flatMap((k) => products.get(k.id)!)
        .find((x) => x.shop_id !== p.shop_id)!;
      const elsewhere = await get(ref, `/shops/${other.shop_id}/products/search?shop_uid=${encodeURIComponent(p.shop_uid)}`, { token });
      expect(ids(elsewhere.body.products)).not.toContain(p.id);
    }
    const p = withProducts().map((s) => products.get(s.id)![0]!)[0]!;
    for (const q of ['', '?shop_uid=', '?shop_uid=%20']) {
      const r = await get(ref, `/shops/${p.shop_id}/products/search${q}`, { token });
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].code).toBe('ParameterMissing');
    }
    const text = await get(ref, `/shops/${p.shop_id}/products/search?shop_uid=not-a-number`, { token });
    expect(text.status).toBe(200);
    expect(text.body.products).toEqual([]);
    expect((await get(ref, `/shops/99999999/products/search?shop_uid=1`, { token })).status).toBe(404);
  });

  it('answers 404 RecordNotFound for unknown SKUs and products', async () => {
    for (const path of ['products', 'product_cards', 'specifications', 'price_history']) {
      for (const id of ['99999999', 'abc']) {
        const r = await get(ref, `/skus/${id}/${path}`, { token });
        expect(r.status, `${id}/${path}`).toBe(404);
        expect(r.body.errors[0].code).toBe('RecordNotFound');
        expect(r.body.errors[0].messages[0]).toMatch(/Sku/);
      }
    }
    const p = await get(ref, '/products/99999999', { token });
    expect(p.status).toBe(404);
    expect(p.body.errors[0].messages[0]).toMatch(/Product with id=99999999/);
  });

  it('lists SKU specifications in order with values, meta.full_description when available, and include=group', async () => {
    let withFull = 0;
    let withoutFull = 0;
    const answers = await Promise.all(skus.map((s) => get(ref, `/skus/${s.id}/specifications`, { token })));
    for (const [i, s] of skus.entries()) {
      const r = answers[i]!;
      expect(Object.keys(r.body).sort()).toEqual(['meta', 'specifications']);
      const specs = r.body.specifications as Json[];
      expect(specs.length).toBeGreaterThan(0);
      for (const x of specs) {
        expect(Object.keys(x).sort()).toEqual(['id', 'name', 'order', 'unit', 'values']);
        expect(x.values.length).toBeGreaterThan(0);
        for (const v of x.values) expect(typeof v).toBe('string');
        expect(typeof x.unit).toBe('string');
      }
      expect(ascending(specs.map((x) => x.order))).toBe(true);
      expect('pagination' in r.body.meta).toBe(false);
      if ('full_description' in r.body.meta) {
        withFull += 1;
        expect(typeof r.body.meta.full_description).toBe('string');
        // SKU description is the truncated form of the full text.
        const short = (s.description as string).replace(/\.\.\.$/, '');
        expect(r.body.meta.full_description.startsWith(short)).toBe(true);
      } else {
        withoutFull += 1;
        expect(r.body.meta).toEqual({});
      }
    }
    expect(withFull).toBeGreaterThan(0);
    expect(withoutFull).toBeGreaterThan(0);
    const s = skus[0]!;
    const plain = (await get(ref, `/skus/${s.id}/specifications?per=1`, { token })).body;
    const grouped = await get(ref, `/skus/${s.id}/specifications?include=group`, { token });
    expect(Object.keys(grouped.body).sort()).toEqual(['groups', 'meta', 'specifications']);
    const groups = grouped.body.groups as Json[];
    for (const g of groups) expect(Object.keys(g).sort()).toEqual(['id', 'name', 'order']);
    expect(new Set(groups.map((g) => g.id)).size).toBe(groups.length);
    expect(grouped.body.specifications.map(({ group_id: _g, ...rest }: Json) => rest)).toEqual(plain.specifications);
    for (const x of grouped.body.specifications) expect(groups.map((g) => g.id)).toContain(x.group_id);
    const old = await get(ref, `/skus/${s.id}/specifications`, { token, version: '3.1' });
    expect(old.body.meta).toEqual({});
  });
});

describe('user personalization in product lists', () => {
  it('uses the user\u2019s own personalization for blp and meta', async () => {
    const { ref, token } = await startWithToken();
    try {
      const user = (await userTokens(ref, 'public')).access;
      const mine = (await get(ref, '/personalization', { token: user })).body.personalization;
      const sku = (await allSkus(ref, token)).find((s) => !s.future && s.shop_count > 0)!;
      const r = await get(ref, `/skus/${sku.id}/products`, { token: user });
      expect(r.body.meta.personalization).toEqual(mine);
      const app = await get(ref, `/skus/${sku.id}/products`, { token });
      expect(app.body.meta.personalization).not.toEqual(mine);
      const one = await get(ref, `/products/${r.body.products[0].id}`, { token: user });
      expect(one.body.meta.personalization).toEqual(mine);
    } finally {
      await ref.close();
    }
  });
});

describe.each(['default', 'alt'] as const)('blp follows the personalization (%s dataset)', (dataset) => {
  it("moving the personalization between the demo user's addresses changes blp of many products; an application token's blp stays", async () => {
    const { ref, app, user } = await startServer({ dataset, basePath: '/api' }, 'public');
    try {
      const skus = (await allSkus(ref, app)).filter((s) => !s.future && s.shop_count > 0);
      const productsOf = async (token: string): Promise<Json[]> =>
        (await Promise.all(skus.map((s) => get(ref, `/skus/${s.id}/products?per=100`, { token })))).flatMap((r) => r.body.products as Json[]);
      const blpOf = (list: readonly Json[]): Map<number, Json> => new Map(list.map((p) => [p.id as number, p.blp as Json]));
      const appBefore = blpOf(await productsOf(app));

      const addresses = (await call(ref, 'GET', '/user/addresses', { token: user })).body.addresses as Json[];
      expect(addresses.length).toBeGreaterThanOrEqual(2);
      const places: { location: Json; list: Json[] }[] = [];
      for (const a of addresses) {
        const put = await call(ref, 'PUT', '/personalization', { token: user, body: { personalization: { location: { address_id: a.id } } } });
        expect(put.status, put.text).toBe(200);
        places.push({ location: put.body.personalization.location, list: await productsOf(user) });
      }
      // The addresses lie far apart (different regions).
      expect(new Set(addresses.map((a) => a.region)).size).toBe(addresses.length);
      for (const [i, x] of places.entries()) {
        for (const y of places.slice(i + 1)) {
          expect(haversineKm(Number(x.location.lat), Number(x.location.lng), Number(y.location.lat), Number(y.location.lng))).toBeGreaterThan(100);
        }
      }
      // Every switch changes shipping_cost and final_price of a good share of the products (a third
      // to a half of them are priced by the shop's rules, neither an exact cost nor free shipping;
      // final_price is null where the shop does not take the payment method);
      // only shipping moves (payment_method_cost stays, final_price moves with shipping_cost).
      for (const [i, x] of places.entries()) {
        const from = blpOf(x.list);
        const to = blpOf(places[(i + 1) % places.length]!.list);
        expect([...to.keys()].sort()).toEqual([...from.keys()].sort());
        let shipping = 0;
        let final = 0;
        for (const [id, b] of from) {
          const c = to.get(id)!;
          if (c.shipping_cost !== b.shipping_cost) shipping += 1;
          if (c.final_price !== b.final_price) final += 1;
          expect(c.payment_method_cost).toBe(b.payment_method_cost);
          if (b.final_price !== null) expect(cents(c.final_price) - cents(b.final_price)).toBe(cents(c.shipping_cost) - cents(b.shipping_cost));
        }
        expect(shipping / from.size, `${x.location.label}: shipping_cost changed for ${shipping} of ${from.size}`).toBeGreaterThan(0.2);
        expect(final / from.size, `${x.location.label}: final_price changed for ${final} of ${from.size}`).toBeGreaterThan(0.12);
      }
      // One rule at every place: per shop, the shipping of products priced by the shop's rules is
      // one base cost plus the distance band's surcharge.
      const shopIds = [...new Set(places[0]!.list.map((p) => p.shop_id as number))];
      const shops = new Map<number, Json>();
      const locations = new Map<number, Json[]>();
      await Promise.all(
        shopIds.map(async (id) => {
          shops.set(id, (await get(ref, `/shops/${id}`, { token: app })).body.shop);
          locations.set(id, (await get(ref, `/shops/${id}/locations?per=100`, { token: app })).body.locations);
        }),
      );
      const base = new Map<number, Set<number>>();
      const bands = new Set<number>();
      for (const { location, list } of places) {
        for (const p of list) {
          const shop = shops.get(p.shop_id)!;
          if (p.expenses !== null || shop.shipping.free || (shop.shipping.free_from !== null && p.price >= shop.shipping.free_from)) continue;
          const extra = surchargeCents(location, locations.get(p.shop_id)!);
          bands.add(extra);
          base.set(p.shop_id, (base.get(p.shop_id) ?? new Set<number>()).add(cents(p.blp.shipping_cost) - extra));
        }
      }
      for (const [shopId, set] of base) expect(set.size, `shop ${shopId}`).toBe(1);
      expect(bands.size).toBeGreaterThan(2);

      // Back at the first address, the first blp again; the application token's blp never moved.
      await call(ref, 'PUT', '/personalization', { token: user, body: { personalization: { location: { address_id: addresses[0]!.id } } } });
      expect(blpOf(await productsOf(user))).toEqual(blpOf(places[0]!.list));
      expect(blpOf(await productsOf(app))).toEqual(appBefore);
    } finally {
      await ref.close();
    }
  });
});

describe('price history', () => {
  const clock = makeClock();
  let ref: RunningReference;
  let token: string;
  let skus: Json[];
  const DAY = 86_400_000;
  const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
  const sixMonthsBefore = (ms: number): string => {
    const d = new Date(ms);
    return day(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 6, d.getUTCDate()));
  };
  const history = async (id: number, version?: string): Promise<Json[]> =>
    (await get(ref, `/skus/${id}/price_history`, { token, ...(version ? { version } : {}) })).body.history.average;

  const histories = new Map<number, Json[]>();

  beforeAll(async () => {
    ({ ref, token } = await startWithToken({ now: clock.now }));
    skus = await allSkus(ref, token);
    await Promise.all(
      skus.map(async (s) => {
        const r = await get(ref, `/skus/${s.id}/price_history`, { token });
        expect(Object.keys(r.body)).toEqual(['history']);
        expect(Object.keys(r.body.history)).toEqual(['average']);
        histories.set(s.id, r.body.history.average);
      }),
    );
  });
  afterAll(async () => {
    await ref.close();
  });

  it('has daily {date, price} points up to today, never older than 6 months, the same on every call', async () => {
    const today = day(clock.now());
    let full = 0;
    for (const s of skus.filter((x) => !x.future)) {
      const avg = histories.get(s.id)!;
      if (avg.length === 0) continue;
      const bad = avg.filter((p) => Object.keys(p).sort().join() !== 'date,price' || !/^\d{4}-\d{2}-\d{2}$/.test(p.date) || !(p.price > 0));
      expect(bad, `SKU ${s.id}`).toEqual([]);
      const dates = avg.map((p) => p.date as string);
      expect(dates[dates.length - 1]).toBe(today);
      expect(dates[0]! >= sixMonthsBefore(clock.now())).toBe(true);
      expect([...dates].sort()).toEqual(dates);
      expect(new Set(dates).size).toBe(dates.length);
      if (dates.length > 150) full += 1;
      if (full === 1) expect(await history(s.id)).toEqual(avg);
    }
    expect(full).toBeGreaterThan(0);
    for (const s of skus.filter((x) => x.future)) expect(histories.get(s.id)).toEqual([]);
  });

  it('gives too-new SKUs no data from 3.2 (3.0 and 3.1 return the days they have), and follows the clock', async () => {
    const tooNew: number[] = [];
    for (const s of skus.filter((x) => !x.future && x.shop_count > 0)) if (histories.get(s.id)!.length === 0) tooNew.push(s.id);
    expect(tooNew.length).toBeGreaterThan(0);
    for (const id of tooNew) {
      const old = await history(id, '3.1');
      expect(old.length).toBeGreaterThan(0);
      expect(old.length).toBeLessThanOrEqual(8);
      expect(old[old.length - 1]!.date).toBe(day(clock.now()));
    }
    const normal = skus.find((x) => !x.future && !tooNew.includes(x.id))!;
    const before = await history(normal.id);
    clock.advance(10 * DAY);
    try {
      for (const id of tooNew) expect((await history(id)).length).toBeGreaterThan(0);
      const after = await history(normal.id);
      expect(after[after.length - 1]!.date).toBe(day(clock.now()));
      expect(after[0]!.date >= sixMonthsBefore(clock.now())).toBe(true);
      // A day's price does not change when the clock moves.
      const overlap = after.filter((p) => before.some((q) => q.date === p.date));
      expect(overlap.length).toBeGreaterThan(0);
      for (const p of overlap) expect(before.find((q) => q.date === p.date)).toEqual(p);
    } finally {
      clock.advance(-10 * DAY);
    }
  });
});
