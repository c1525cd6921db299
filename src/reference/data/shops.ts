// Shops and their locations, the map they lie on (its centre, the regions' points), and the shop
// fields that come from the shop reviews (people.ts makes those).

import type { LocationRecord, ShopRecord, ShopReviewRecord } from '../model.ts';
import { round1, slug, type GenContext, type Rnd } from './context.ts';

export const PAYMENT_METHODS = ['credit_card', 'paypal', 'bank', 'spot_cash'] as const;

function installmentsText(rnd: Rnd, zeroCommission: boolean): string {
  if (zeroCommission) return `up to ${rnd.pick([6, 10, 12])} installments, 0% commission`;
  return rnd.chance(0.5) ? `up to ${rnd.pick([3, 6])} installments` : 'none';
}

export function makeShops(ctx: GenContext): Map<number, ShopRecord> {
  const rnd = ctx.stream('shops');
  const out = new Map<number, ShopRecord>();
  ctx.names.shops.forEach((name, i) => {
    const id = ctx.ids.next('shop');
    const s = slug(name);
    const payment = {
      credit_card: rnd.chance(0.8),
      paypal: rnd.chance(0.5),
      bank: rnd.chance(0.6),
      // Cash on delivery is the default personalization's method: most shops take it, not all.
      spot_cash: i % 5 !== 3,
    };
    // Every third shop offers 0% installments (needs a card), so zero_installments filters something.
    const zeroCommission = i % 3 === 1;
    if (zeroCommission) payment.credit_card = true;
    const free = rnd.chance(0.25);
    const freeFrom = free ? null : rnd.chance(0.5) ? rnd.pick([30, 50, 100]) : null;
    const paymentMethodCost: Record<string, number | null> = {};
    for (const m of PAYMENT_METHODS) paymentMethodCost[m] = payment[m] ? (m === 'spot_cash' ? rnd.money(1, 4) : rnd.chance(0.6) ? 0 : rnd.money(0.5, 2)) : null;
    out.set(id, {
      id,
      name,
      link: `https://${s}.shops.${ctx.names.host}/`,
      phone: `+${rnd.int(30, 49)} ${rnd.int(100, 999)} ${rnd.int(100000, 999999)}`,
      image_url: ctx.url('img', `/shops/${id}.png`),
      thumbshot_url: ctx.url('img', `/shops/${id}-thumb.jpg`),
      web_uri: ctx.url('', `/shops/${id}-${s}`),
      reviews_count: 0,
      latest_reviews_count: 0,
      review_score: 0,
      payment_methods: { ...payment, installments: installmentsText(rnd, zeroCommission) },
      shipping: {
        free,
        free_from: freeFrom,
        free_from_info: freeFrom === null ? null : `Free shipping on orders over ${freeFrom}`,
        min_price: free ? '0.00' : rnd.money(2, 6).toFixed(2),
        shipping_cost_enabled: !free,
      },
      extra_info: { time_on_platform: `${rnd.int(1, 12)} years`, orders_per_week: rnd.pick(['<10', '10-50', '50-200', '200-1000', '>1000']) },
      top_positive_reasons: [],
      shippingCost: free ? 0 : rnd.money(2.5, 9.9),
      paymentMethodCost,
      zeroCommissionInstallments: zeroCommission,
      locationIds: [],
    });
  });
  return out;
}

export interface Point {
  lat: number;
  lng: number;
}

export function centreOf(ctx: GenContext): Point {
  return ctx.name === 'default' ? { lat: 52.2, lng: -1.5 } : { lat: 43.8, lng: 11.2 };
}

/** Half the height and half the width (degrees) of the map area the shop locations cover. */
const HALF_LAT = 1.5;
const HALF_LNG = 2;

/**
 * Where each region lies: the regions tile the map area as a grid (as many rows as columns, or
 * one fewer), in the fixture's order from the north-west corner, row by row southwards; a
 * region's point is the centre of its cell. Shop locations take the region of the nearest
 * point; addresses are geocoded near their region's point (data/people.ts geocodeAddress), so
 * addresses in different regions lie far apart (a cell is about 100 km across).
 */
export function regionCentres(ctx: GenContext): Record<string, Point> {
  const centre = centreOf(ctx);
  const names = ctx.names.regions;
  const cols = Math.ceil(Math.sqrt(names.length));
  const rows = Math.ceil(names.length / cols);
  const out: Record<string, Point> = {};
  names.forEach((name, i) => {
    const row = Math.floor(i / cols);
    const col = i % cols;
    out[name] = {
      lat: round6(centre.lat + HALF_LAT - ((row + 0.5) * 2 * HALF_LAT) / rows),
      lng: round6(centre.lng - HALF_LNG + ((col + 0.5) * 2 * HALF_LNG) / cols),
    };
  });
  return out;
}

function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/** The region whose point is nearest to (lat, lng) (equirectangular distance; ties: fixture order). */
export function nearestRegion(centres: Readonly<Record<string, Point>>, lat: number, lng: number): string {
  const k = Math.cos((lat * Math.PI) / 180);
  let best = '';
  let bestD = Infinity;
  for (const [name, c] of Object.entries(centres)) {
    const d = (c.lat - lat) ** 2 + ((c.lng - lng) * k) ** 2;
    if (d < bestD) {
      best = name;
      bestD = d;
    }
  }
  return best;
}

/**
 * 1-4 locations per shop, and more than 25 for one shop (pagination). The first location of a
 * shop is its headquarter; about a third are unstructured (free-text address, every address
 * field but id null: the record keeps an address id because the model needs one, but the API
 * shows none, see serializers/shop.ts). A structured address's region is the region the
 * location lies in.
 */
export function makeLocations(ctx: GenContext, shops: ReadonlyMap<number, ShopRecord>): { locations: Map<number, LocationRecord>; bigShopId: number } {
  const rnd = ctx.stream('locations');
  const centre = centreOf(ctx);
  const centres = regionCentres(ctx);
  const out = new Map<number, LocationRecord>();
  const shopList = [...shops.values()];
  const bigShop = shopList[ctx.name === 'default' ? 4 : 7]!;
  for (const shop of shopList) {
    const count = shop === bigShop ? (ctx.name === 'default' ? 28 : 27) : rnd.int(1, 4);
    for (let i = 0; i < count; i++) {
      const id = ctx.ids.next('location');
      const addressId = ctx.ids.next('location_address');
      // Unstructured on every third location after the first: each shop with 2+ has a mix.
      const structured = i % 3 !== 2;
      const lat = centre.lat + (rnd.next() - 0.5) * 2 * HALF_LAT;
      const lng = centre.lng + (rnd.next() - 0.5) * 2 * HALF_LNG;
      const city = rnd.pick(ctx.names.cities);
      const street = rnd.pick(ctx.names.streets);
      const number = String(rnd.int(1, 250));
      const postcode =
        ctx.name === 'default'
          ? `${city.slice(0, 2).toUpperCase()}${rnd.int(1, 20)} ${rnd.int(1, 9)}${String.fromCharCode(65 + rnd.int(0, 25))}${String.fromCharCode(65 + rnd.int(0, 25))}`
          : String(rnd.int(10000, 99999));
      // The region the location lies in (the draw keeps the later draws of the stream as they were).
      rnd.next();
      const region = nearestRegion(centres, lat, lng);
      out.set(id, {
        id,
        headquarter: i === 0,
        pickup_point: i === 0 ? false : rnd.chance(0.6),
        store: i === 0 ? rnd.chance(0.5) : rnd.chance(0.7),
        phones: Array.from({ length: rnd.int(0, 2) }, () => `+${rnd.int(30, 49)} ${rnd.int(100, 999)} ${rnd.int(100000, 999999)}`),
        full_address: structured
          ? `${street} ${number}, ${postcode} ${city}, ${region}, ${ctx.names.countryName}`
          : `${rnd.pick(['Unit', 'Kiosk', 'Stand'])} ${rnd.int(1, 40)}, ${rnd.pick(['retail park', 'shopping centre', 'station concourse'])} near ${city}`,
        format: structured ? 'structured' : 'unstructured',
        lat: lat.toFixed(6),
        lng: lng.toFixed(6),
        info: rnd.pick(['Mon-Fri 9:00-18:00', 'Mon-Sat 8:00-20:00', 'Daily 10:00-22:00', 'By appointment']),
        address: structured
          ? { id: addressId, street_number: number, street, postcode, city, region, country: ctx.names.country }
          : { id: addressId, street_number: null, street: null, postcode: null, city: null, region: null, country: null },
        shopId: shop.id,
      });
      shop.locationIds.push(id);
    }
  }
  return { locations: out, bigShopId: bigShop.id };
}

/**
 * reviews_count, latest_reviews_count, review_score (mean rating of the latest reviews, 1
 * decimal) and top_positive_reasons (most frequent reasons of positive reviews) of each shop.
 */
export function applyShopReviews(shops: ReadonlyMap<number, ShopRecord>, reviews: Iterable<ShopReviewRecord>): void {
  const byShop = new Map<number, ShopReviewRecord[]>();
  for (const r of reviews) byShop.set(r.shopId, [...(byShop.get(r.shopId) ?? []), r]);
  for (const shop of shops.values()) {
    const list = byShop.get(shop.id) ?? [];
    const latest = list.filter((r) => r.latest);
    shop.reviews_count = list.length;
    shop.latest_reviews_count = latest.length;
    shop.review_score = latest.length === 0 ? 0 : round1(latest.reduce((a, r) => a + r.rating, 0) / latest.length);
    const counts = new Map<string, number>();
    for (const r of list) if (!r.negative) for (const reason of r.reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
    shop.top_positive_reasons = [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 3)
      .map(([reason]) => reason);
  }
}
