// SKU product cards, shipping in blp, the fields of later versions, GET /products/:id, the shop
// product search, 404s and SKU specifications, on both datasets under a base path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from './server.ts';
import { get, ids, SHOP_FIELDS, sorted } from '../testing/reference/testkit.ts';
import { ascending, cents, expectPersonalization, loadProductLists, PRODUCT_FIELDS, sampleOf, surchargeCents, withProductsOf } from '../testing/reference/sku-products.ts';

type Json = Record<string, any>;

describe.each(['default', 'alt'] as const)('product lists (%s dataset)', (dataset) => {
  let ref: RunningReference;
  let token: string;
  let skus: Json[];
  let products: Map<number, Json[]>;

  beforeAll(async () => {
    ({ ref, token, skus, products } = await loadProductLists(dataset));
  });
  afterAll(async () => {
    await ref.close();
  });
  const withProducts = (): Json[] => withProductsOf(skus, products);
  /** Every 4th SKU with products, and the one with the most: enough variety, fewer requests. */
  const sample = (): Json[] => sampleOf(skus, products);

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
    // meta holds only full_description, new in 3.2.0: no meta before.
    const old = await get(ref, `/skus/${s.id}/specifications`, { token, version: '3.1' });
    expect('meta' in old.body).toBe(false);
  });
});
