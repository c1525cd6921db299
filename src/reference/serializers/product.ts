// Serializer of Product (spec "Resources > Product") with its blp (best landed price), and the
// personalization the blp is computed from.
//
// blp, for the requester's personalization (the user's own one; the default below for an
// application token or a user who has none):
// - shipping_cost: the product's expenses when the shop set an exact cost; otherwise 0 when the
//   shop ships free (shipping.free, or price >= shipping.free_from); otherwise the shop's
//   shipping cost plus a distance surcharge (SHIPPING_BANDS) by the distance in km from the
//   personalization's location to the shop's nearest location: up to 25 km +0, up to 75 km
//   +1.00, up to 150 km +2.00, up to 250 km +3.50, farther +5.00 (no surcharge when the
//   distance is unknown: a shop without locations). So moving the personalization to an address
//   in another region (the demo user's addresses lie in regions 100-300 km apart, see
//   data/people.ts) changes blp of most products priced by the shop's rules.
// - payment_method_cost: what the shop charges for the personalization's payment method; null
//   when the shop does not offer that method.
// - final_price: price + shipping_cost + payment_method_cost, rounded to cents; null when
//   payment_method_cost is null.

import type { Dataset } from '../data.ts';
import type { FaultName } from '../faults.ts';
import type { PersonalizationRecord, ProductRecord } from '../model.ts';
import { NO_VARIANTS, type Variants } from '../variants.ts';
import { applyVersion, type ApiVersion } from '../versioning.ts';

type Json = Record<string, unknown>;

const defaults = new WeakMap<Dataset, PersonalizationRecord>();

/**
 * The personalization used for an application token and for a user who has none: a quick
 * address at the centroid of the dataset's shop locations (mean lat/lng, 6 decimals), label
 * "Map centre", country_code the most common country of the structured location addresses,
 * paying cash on delivery (spot_cash). Computed once per dataset (locations never change).
 */
export function defaultPersonalization(data: Dataset): PersonalizationRecord {
  const known = defaults.get(data);
  if (known) return known;
  let lat = 0;
  let lng = 0;
  let n = 0;
  const countries = new Map<string, number>();
  for (const l of data.locations.values()) {
    const a = Number(l.lat);
    const b = Number(l.lng);
    if (l.lat.trim() !== '' && l.lng.trim() !== '' && Number.isFinite(a) && Number.isFinite(b)) {
      lat += a;
      lng += b;
      n += 1;
    }
    if (l.address.country !== null) countries.set(l.address.country, (countries.get(l.address.country) ?? 0) + 1);
  }
  const country = [...countries.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0]?.[0] ?? '';
  const p: PersonalizationRecord = {
    location: {
      address_id: null,
      label: 'Map centre',
      lat: (n === 0 ? 0 : lat / n).toFixed(6),
      lng: (n === 0 ? 0 : lng / n).toFixed(6),
      type: 'quick_address',
      country_code: country,
    },
    payment_method: { type: 'spot_cash' },
  };
  defaults.set(data, p);
  return p;
}

/** Shipping surcharge by distance: the first band whose upToKm (inclusive) the distance is within. */
export const SHIPPING_BANDS: readonly { readonly upToKm: number; readonly surcharge: number }[] = Object.freeze([
  { upToKm: 25, surcharge: 0 },
  { upToKm: 75, surcharge: 1 },
  { upToKm: 150, surcharge: 2 },
  { upToKm: 250, surcharge: 3.5 },
  { upToKm: Infinity, surcharge: 5 },
]);

/** The distance surcharge for a shop `km` away (null: distance unknown, no surcharge). */
export function distanceSurcharge(km: number | null): number {
  if (km === null) return 0;
  return SHIPPING_BANDS.find((b) => km <= b.upToKm)?.surcharge ?? 0;
}

/** The personalization of the requester (userId null: application token). */
export function personalizationOf(data: Dataset, userId: number | null): PersonalizationRecord {
  return (userId === null ? undefined : data.personalization.get(userId)) ?? defaultPersonalization(data);
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Great-circle distance in km between two points given in degrees. */
function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
}

function coordinate(s: string): number | null {
  const n = s.trim() === '' ? NaN : Number(s);
  return Number.isFinite(n) ? n : null;
}

/**
 * Distance in km from the personalization's location to the shop's nearest location: what the
 * distance filters (product lists and the category SKU listing) and the blp surcharge use.
 * null when the shop is unknown or has no location, or a coordinate does not parse.
 */
export function shopDistanceKm(data: Dataset, shopId: number, p: PersonalizationRecord): number | null {
  const lat = coordinate(p.location.lat);
  const lng = coordinate(p.location.lng);
  const shop = data.shops.get(shopId);
  if (lat === null || lng === null || !shop) return null;
  let nearest: number | null = null;
  for (const id of shop.locationIds) {
    const l = data.locations.get(id);
    const llat = l ? coordinate(l.lat) : null;
    const llng = l ? coordinate(l.lng) : null;
    if (llat === null || llng === null) continue;
    const km = haversineKm(lat, lng, llat, llng);
    if (nearest === null || km < nearest) nearest = km;
  }
  return nearest;
}

export interface Blp {
  shipping_cost: number | null;
  payment_method_cost: number | null;
  final_price: number | null;
}

/** The shipping cost to the personalization's place; null where a variant finds it cannot be computed. */
function shippingCost(data: Dataset, product: ProductRecord, p: PersonalizationRecord, variants: Variants): number | null {
  const shop = data.shops.get(product.shop_id);
  const km = shop ? shopDistanceKm(data, shop.id, p) : null;
  // Variant expenses-plus-distance-surcharge: the shop's set cost is to its own area, farther costs more.
  if (product.expenses !== null) return round2(product.expenses + (variants.has('expenses-plus-distance-surcharge') ? distanceSurcharge(km) : 0));
  if (!shop) return 0;
  if (shop.shipping.free || (shop.shipping.free_from !== null && product.price >= shop.shipping.free_from)) return 0;
  // Variant shipping-cost-null-unknown-distance: a cost by distance to a shop of no known place cannot be computed.
  if (km === null && variants.has('shipping-cost-null-unknown-distance')) return null;
  return round2(shop.shippingCost + distanceSurcharge(km));
}

export function computeBlp(data: Dataset, product: ProductRecord, p: PersonalizationRecord, fault: FaultName | null, variants: Variants = NO_VARIANTS): Blp {
  const shop = data.shops.get(product.shop_id);
  const shipping = shippingCost(data, product, p, variants);
  const cost = shop?.paymentMethodCost[p.payment_method.type];
  const payment = cost === undefined || cost === null ? null : round2(cost);
  let finalPrice: number | null = null;
  if (payment !== null && shipping !== null) {
    finalPrice = fault === 'final-price-omits-payment-cost' ? round2(product.price + shipping) : round2(product.price + shipping + payment);
  }
  return { shipping_cost: shipping, payment_method_cost: payment, final_price: finalPrice };
}

export interface ProductSerializeOptions {
  version: ApiVersion;
  blp: Blp;
  /** Products inside product cards carry color. */
  color?: boolean;
}

export function serializeProduct(p: ProductRecord, opts: ProductSerializeOptions): Json {
  const out: Json = {
    id: p.id,
    name: p.name,
    sku_id: p.sku_id,
    shop_id: p.shop_id,
    category_id: p.category_id,
    availability: p.availability,
    click_url: p.click_url,
    shop_uid: p.shop_uid,
    expenses: p.expenses,
    web_uri: p.web_uri,
    sizes: p.sizes.map((s) => ({ value: s.value, mapping: { ...s.mapping } })),
    price: p.price,
    immediate_pickup: p.immediate_pickup,
    blp: { ...opts.blp },
  };
  if (opts.color) out['color'] = p.color;
  return applyVersion('product', out, opts.version);
}
