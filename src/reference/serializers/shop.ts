// Serializers of Shop, Shop review and Shop location (spec "Resources": Shop, Shop review, Shop
// location). Blank fields are present with value null. Fields the Change history adds after
// 3.0.23 are dropped for older versions through applyVersion; shipping.shipping_cost_enabled
// (3.1.1) sits inside an object, so it is dropped here.

import type { LocationAddress, LocationRecord, ShopRecord, ShopReviewRecord } from '../model.ts';
import type { FaultName } from '../faults.ts';
import type { ApiContext } from '../router.ts';
import type { Variants } from '../variants.ts';
import { applyVersion, versionAtLeast, type ApiVersion } from '../versioning.ts';

type Json = Record<string, unknown>;

export interface ShopSerializeOptions {
  version: ApiVersion;
  fault: FaultName | null;
  /** The shop's reviews (for the live score of fault shop-review-score-not-rounded). */
  reviews?: () => readonly ShopReviewRecord[];
}

/** Rounds to one decimal (review_score, "rounded to 1 decimal"). */
export function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/** A payment flag; the bug: a tinyint column's 0 or 1. */
function paymentFlag(value: boolean, fault: FaultName | null): boolean | number {
  return fault === 'shop-payment-flags-as-tinyint' ? Number(value) : value;
}

export function serializeShop(s: ShopRecord, opts: ShopSerializeOptions): Json {
  let score = round1(s.review_score);
  // Before 3.0.23 (variant implements-3.0.22) the score was not rounded: the live average of the counted reviews.
  if (opts.fault === 'shop-review-score-not-rounded' || !versionAtLeast(opts.version, '3.0.23')) {
    // The bug: the score is averaged live from the reviews counted for it, and never rounded.
    const counted = (opts.reviews?.() ?? []).filter((r) => r.latest);
    const avg = counted.length === 0 ? s.review_score : counted.reduce((sum, r) => sum + r.rating, 0) / counted.length;
    score = avg;
  }
  const shipping: Json = {
    free: s.shipping.free,
    free_from: s.shipping.free_from,
    free_from_info: s.shipping.free_from_info,
    min_price: s.shipping.min_price,
    shipping_cost_enabled: s.shipping.shipping_cost_enabled,
  };
  if (!versionAtLeast(opts.version, '3.1.1')) delete shipping['shipping_cost_enabled'];
  const out: Json = {
    id: s.id,
    name: s.name,
    link: s.link,
    phone: s.phone,
    image_url: s.image_url,
    thumbshot_url: s.thumbshot_url,
    web_uri: s.web_uri,
    // The bugs: a count and the score as strings; the payment flags as tinyint 0 or 1.
    reviews_count: opts.fault === 'shop-reviews-count-as-string' ? String(s.reviews_count) : s.reviews_count,
    latest_reviews_count: opts.fault === 'shop-latest-reviews-count-as-string' ? String(s.latest_reviews_count) : s.latest_reviews_count,
    review_score: opts.fault === 'shop-review-score-as-string' && score !== null ? score.toFixed(1) : score,
    payment_methods: {
      credit_card: paymentFlag(s.payment_methods.credit_card, opts.fault),
      paypal: paymentFlag(s.payment_methods.paypal, opts.fault),
      bank: paymentFlag(s.payment_methods.bank, opts.fault),
      spot_cash: paymentFlag(s.payment_methods.spot_cash, opts.fault),
      installments: s.payment_methods.installments,
    },
    shipping,
    extra_info: { time_on_platform: s.extra_info.time_on_platform, orders_per_week: s.extra_info.orders_per_week },
    top_positive_reasons: [...s.top_positive_reasons],
  };
  return applyVersion('shop', out, opts.version);
}

/** A Shop as this request shows it. */
export function shopJson(ctx: ApiContext, shop: ShopRecord): Json {
  const out = serializeShop(shop, {
    version: ctx.version,
    fault: ctx.fault,
    reviews: () => [...ctx.data.shopReviews.values()].filter((r) => r.shopId === shop.id),
  });
  return withBlankShopFields(out, shop, ctx.variants);
}

/**
 * The variants that show a shop's missing data as null (or ""): no score without a review
 * counted for it, no installments text when none are offered, no minimum price for a shop that
 * ships free, and no platform data for some shops (a deterministic half: the whole extra_info
 * for ids divisible by 4, orders_per_week alone for the other even ids).
 */
function withBlankShopFields(out: Json, shop: ShopRecord, variants: Variants): Json {
  if (variants.has('shop-review-score-null-unreviewed') && shop.latest_reviews_count === 0) out['review_score'] = null;
  const payment = out['payment_methods'] as Json;
  if (variants.has('shop-installments-null-when-none') && shop.payment_methods.installments === 'none') payment['installments'] = null;
  const shipping = out['shipping'] as Json;
  if (variants.has('shop-min-price-null-when-none') && shop.shipping.free) shipping['min_price'] = null;
  if (variants.has('shop-extra-info-null') && shop.id % 2 === 0) {
    out['extra_info'] = shop.id % 4 === 0 ? null : { ...(out['extra_info'] as Json), orders_per_week: null };
  }
  return out;
}

export function serializeShopReview(r: ShopReviewRecord, version: ApiVersion): Json {
  const out: Json = {
    id: r.id,
    user_id: r.user_id,
    review: r.review,
    rating: r.rating,
    shop_reply: r.shop_reply,
    created_at: r.created_at,
    negative: r.negative,
    reasons: [...r.reasons],
  };
  return applyVersion('shop_review', out, version);
}

/** A location as this request shows it (variant location-address-null-unembedded: address null until embedded). */
export function locationJson(ctx: ApiContext, l: LocationRecord): Json {
  const out = serializeLocation(l, ctx.version);
  return ctx.variants.has('location-address-null-unembedded') ? { ...out, address: null } : out;
}

export function serializeLocation(l: LocationRecord, version: ApiVersion): Json {
  const out: Json = {
    id: l.id,
    headquarter: l.headquarter,
    pickup_point: l.pickup_point,
    store: l.store,
    phones: [...l.phones],
    full_address: l.full_address,
    format: l.format,
    // A location never geocoded (variant location-coordinates-null's data) has no coordinates.
    lat: l.lat === '' ? null : l.lat,
    lng: l.lng === '' ? null : l.lng,
    info: l.info,
  };
  return applyVersion('location', out, version);
}

/**
 * The id of a location's address as the API shows it: null for an unstructured location (spec
 * "Shop location": the address's fields, id included, are null when the format is
 * unstructured), so embed_ids gives [] and include gives address_id null and adds nothing.
 * Under the fault unstructured-address-fields-not-null the address is treated as parsed and
 * keeps its id; under the variant unstructured-address-id the id is not one of the nulled
 * fields.
 */
export function locationAddressId(l: LocationRecord, fault: FaultName | null, variants: Variants): number | null {
  const keepsId = fault === 'unstructured-address-fields-not-null' || variants.has('unstructured-address-id');
  return l.format === 'unstructured' && !keepsId ? null : l.address.id;
}

/**
 * The embedded address of a location. For an unstructured location every field, id included,
 * is null, whatever the record holds (the address was never parsed into parts); the variant
 * unstructured-address-id keeps the id.
 */
export function serializeLocationAddress(l: LocationRecord, fault: FaultName | null, variants: Variants): Json | null {
  const a: LocationAddress = l.address;
  // Variant unstructured-address-null: an address never parsed into parts is no address at all.
  if (l.format === 'unstructured' && variants.has('unstructured-address-null') && fault !== 'unstructured-address-fields-not-null') return null;
  if (l.format === 'unstructured') {
    if (fault === 'unstructured-address-fields-not-null') {
      // The bug: the free-text address is split into parts as if it were structured.
      const parts = l.full_address.split(',').map((p) => p.trim());
      return {
        id: a.id,
        street_number: null,
        street: parts[0] ?? l.full_address,
        postcode: null,
        city: parts[1] ?? null,
        region: parts[2] ?? null,
        country: null,
      };
    }
    const id = locationAddressId(l, fault, variants);
    return { id, street_number: null, street: null, postcode: null, city: null, region: null, country: null };
  }
  // Variant address-numbers: the numeric parts as numbers (a postcode with letters stays a string).
  const numeric = variants.has('address-numbers');
  const asNumber = (v: string | null): string | number | null => (numeric && v !== null && /^\d{1,9}$/.test(v) ? Number(v) : v);
  return {
    id: a.id,
    street_number: asNumber(a.street_number),
    street: a.street,
    postcode: asNumber(a.postcode),
    city: a.city,
    region: a.region,
    country: a.country,
  };
}
