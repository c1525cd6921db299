// Probes of the faults in src/reference/faults/products.ts: each resolves true when the server shows the bug (test-only code).
//
// SKUs are found through the category SKU listings (testkit's allSkus, cached per server: probes
// run one after the other against the same server), shops through shop search.

import type { RunningReference } from '../../../reference/server.ts';
import { allSkus, get } from '../testkit.ts';
import type { ProbeTable } from './probe.ts';

type Json = Record<string, any>;

async function productsOf(ref: RunningReference, token: string, skuId: number, query = ''): Promise<Json[]> {
  return (await get(ref, `/skus/${skuId}/products?per=100${query}`, { token })).body.products as Json[];
}

/** Shops whose names contain a common vowel (shop search). */
async function someShops(ref: RunningReference, token: string): Promise<Json[]> {
  const byId = new Map<number, Json>();
  for (const q of ['a', 'e', 'o', 'i', 'u']) {
    for (const s of (await get(ref, `/shops/search?q=${q}&per=100`, { token })).body.shops as Json[]) byId.set(s.id, s);
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

const cents = (n: number): number => Math.round(n * 100);
const DAY = 86_400_000;

export const PRODUCT_PROBES: ProbeTable = {
  'final-price-omits-payment-cost': async (ref, { app: token }) => {
    for (const sku of (await allSkus(ref, token)).filter((s) => !s.future)) {
      for (const p of await productsOf(ref, token, sku.id)) {
        const b = p.blp;
        if (b.payment_method_cost !== null && b.payment_method_cost > 0) {
          return cents(b.final_price) !== cents(p.price + b.shipping_cost + b.payment_method_cost);
        }
      }
    }
    return false;
  },

  'order-by-final-price-sorts-by-net-price': async (ref, { app: token }) => {
    for (const sku of (await allSkus(ref, token)).filter((s) => !s.future && s.shop_count >= 3)) {
      const list = await productsOf(ref, token, sku.id, '&order_by=final_price');
      const finals = list.map((p) => p.blp.final_price as number | null);
      const firstNull = finals.indexOf(null);
      const known = (firstNull === -1 ? finals : finals.slice(0, firstNull)) as number[];
      const sortedByFinal = known.every((f, i) => i === 0 || known[i - 1]! <= f) && finals.slice(known.length).every((f) => f === null);
      if (!sortedByFinal) return true;
      const prices = list.map((p) => p.price as number);
      // Sorted by final price and not by net price: the ordering is shown correct.
      if (prices.some((x, i) => i > 0 && prices[i - 1]! > x)) return false;
    }
    return false;
  },

  'size-filter-includes-next-size': async (ref, { app: token }) => {
    for (const sku of (await allSkus(ref, token)).filter((s) => !s.future && Array.isArray(s.sizes) && s.sizes.length > 0)) {
      const whole = new Set((sku.sizes as string[]).map((v) => Math.floor(Number(v)) - 1).filter((x) => Number.isFinite(x)));
      for (const x of whole) {
        for (const p of await productsOf(ref, token, sku.id, `&size=${x}`)) {
          if (!(p.sizes as { value: string }[]).some((s) => Number(s.value) >= x && Number(s.value) < x + 1)) return true;
        }
      }
    }
    return false;
  },

  'distance-filter-lists-other-skus': async (ref, { app: token }) => {
    const sku = (await allSkus(ref, token)).find((s) => !s.future && s.shop_count > 0)!;
    return (await productsOf(ref, token, sku.id, '&distance=999999')).some((p) => p.sku_id !== sku.id);
  },

  'availability-zero-refused': async (ref, { app: token }) => {
    const sku = (await allSkus(ref, token)).find((s) => !s.future && s.shop_count > 0)!;
    return (await get(ref, `/skus/${sku.id}/products?availability=0`, { token })).status === 400;
  },

  'zero-installments-true-refused': async (ref, { app: token }) => {
    const sku = (await allSkus(ref, token)).find((s) => !s.future && s.shop_count > 0)!;
    return (await get(ref, `/skus/${sku.id}/products?zero_installments=true`, { token })).status === 400;
  },

  'future-sku-price-history': async (ref, { app: token }) => {
    const future = (await allSkus(ref, token)).find((s) => s.future);
    if (!future) throw new Error('no future SKU');
    const reply = await get(ref, `/skus/${future.id}/price_history`, { token });
    return reply.status === 200 && (reply.body.history.average as Json[]).length > 0;
  },

  'future-sku-price-history-500': async (ref, { app: token }) => {
    const future = (await allSkus(ref, token)).find((s) => s.future);
    if (!future) throw new Error('no future SKU');
    return (await get(ref, `/skus/${future.id}/price_history`, { token })).status === 500;
  },

  'price-history-older-than-six-months': async (ref, { app: token }) => {
    const now = new Date();
    const limit = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 6, now.getUTCDate()) - DAY;
    for (const sku of (await allSkus(ref, token)).filter((s) => !s.future)) {
      const average = (await get(ref, `/skus/${sku.id}/price_history`, { token })).body.history.average as { date: string }[];
      if (average.length > 0) return Date.parse(`${average[0]!.date}T00:00:00Z`) < limit;
    }
    return false;
  },

  'shop-review-score-not-rounded': async (ref, { app: token }) => (await someShops(ref, token)).some((s) => Math.abs(s.review_score * 10 - Math.round(s.review_score * 10)) > 1e-9),

  'unstructured-address-fields-not-null': async (ref, { app: token }) => {
    for (const shop of await someShops(ref, token)) {
      const locs = (await get(ref, `/shops/${shop.id}/locations?embed=address&per=100`, { token })).body.locations as Json[];
      const loose = locs.find((l) => l.format === 'unstructured');
      // Every field of an unstructured location's address, id included, is null.
      if (loose) return Object.values(loose.address as Json).some((v) => v !== null);
    }
    return false;
  },

  'product-embed-shop-ignored': async (ref, { app: token }) => {
    const sku = (await allSkus(ref, token)).find((s) => !s.future && s.shop_count > 0)!;
    const product = (await productsOf(ref, token, sku.id))[0]!;
    const r = await get(ref, `/products/${product.id}?embed=shop`, { token });
    return typeof r.body?.product?.shop !== 'object' || r.body.product.shop === null;
  },

  'location-id-ignored': async (ref, { app: token }) => {
    for (const shop of await someShops(ref, token)) {
      const locs = (await get(ref, `/shops/${shop.id}/locations?per=100`, { token })).body.locations as Json[];
      if (locs.length < 2) continue;
      const asked = locs[1]!.id;
      const r = await get(ref, `/shops/${shop.id}/locations/${asked}`, { token });
      return r.status !== 200 || r.body?.location?.id !== asked;
    }
    throw new Error('no shop with two locations');
  },

  'sku-specifications-paginated': async (ref, { app: token }) => {
    const sku = (await allSkus(ref, token))[0]!;
    const r = await get(ref, `/skus/${sku.id}/specifications`, { token });
    return r.body.meta !== undefined && 'pagination' in r.body.meta;
  },

  'sku-specifications-sorted-by-name': async (ref, { app: token }) => {
    for (const sku of await allSkus(ref, token)) {
      const specs = (await get(ref, `/skus/${sku.id}/specifications`, { token })).body.specifications as { name: string; order: number }[];
      if (specs.some((s, i) => i > 0 && specs[i - 1]!.order > s.order)) return true;
      const names = specs.map((s) => s.name);
      // In order and not in name order: the ordering is shown correct.
      if (names.some((n, i) => i > 0 && names[i - 1]!.localeCompare(n) > 0)) return false;
    }
    return false;
  },

  'shop-reviews-count-as-string': async (ref, { app: token }) => (await someShops(ref, token)).some((s) => typeof s.reviews_count === 'string'),
  'shop-review-score-as-string': async (ref, { app: token }) => (await someShops(ref, token)).some((s) => typeof s.review_score === 'string'),
  'shop-payment-flags-as-tinyint': async (ref, { app: token }) => (await someShops(ref, token)).some((s) => typeof s.payment_methods?.paypal === 'number'),
  'future-sku-future-as-string': async (ref, { app: token }) => {
    const skus = await allSkus(ref, token);
    return skus.some((s) => s.future === 'true') && skus.some((s) => s.future === false);
  },
  'sku-reviews-count-as-string': async (ref, { app: token }) => (await allSkus(ref, token)).some((s) => typeof s.reviews_count === 'string'),
  'sku-virtual-as-tinyint': async (ref, { app: token }) => (await allSkus(ref, token)).some((s) => typeof s.virtual === 'number'),

  'sku-reviewscore-as-string': async (ref, { app: token }) => (await allSkus(ref, token)).some((s) => typeof s.reviewscore === 'string'),
  'sku-shop-count-as-string': async (ref, { app: token }) => (await allSkus(ref, token)).some((s) => typeof s.shop_count === 'string'),
  'shop-latest-reviews-count-as-string': async (ref, { app: token }) => (await someShops(ref, token)).some((s) => typeof s.latest_reviews_count === 'string'),
};
