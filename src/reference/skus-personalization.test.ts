// The personalization in SKU product lists: a user's own personalization in blp and meta, and blp
// following the demo user's address (shipping by distance band), on both datasets.

import { describe, expect, it } from 'vitest';
import { allSkus, call, get, startServer, startWithToken, userTokens } from '../testing/reference/testkit.ts';
import { cents, haversineKm, surchargeCents } from '../testing/reference/sku-products.ts';

type Json = Record<string, any>;

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
