// GET /products/:id and GET /shops/:shop_id/products/search (spec "Endpoints > SKUs and their
// products"), and the product-list machinery that GET /skus/:id/products and
// /skus/:id/product_cards share (ordering, filters, meta).
//
// Choices where the spec is silent:
// - Personalization: blp and meta.personalization use the requesting user's personalization (in
//   every version; variant blp-and-personalization-from-3-2: only from 3.2.0, with blp); an
//   application token, or a user who has none, gets defaultPersonalization (serializers/
//   product.ts: a quick_address labelled "Map centre" at the centroid of the dataset's shop
//   locations, address_id null, country_code the locations' country, payment method spot_cash).
//   blp rules are at the top of serializers/product.ts.
// - order_by: net_price (default) sorts by price, then id; final_price sorts by blp.final_price,
//   products whose final_price is null (payment method not offered) last (variant
//   final-price-nulls-first: first), then by price, then id. Any other value is 400
//   InvalidParameter. order_dir is not taken (ascending only).
//   final_price ordering is accepted in every version (the blp it sorts by is shown from 3.2.0).
// - Filters (size, distance, availability, zero_installments) arrived in 3.2.1: older versions
//   ignore them (no filtering, no validation). In 3.2.1 an empty value means "no filter"; a bad
//   value is 400 InvalidParameter.
//   - size: a number x (e.g. "40", "40.5") keeps products with a size whose number is in
//     [x, x+1); any other text keeps products with a size of exactly that label (case-insensitive).
//   - distance: km, a non-negative number; keeps products of shops with a location within that
//     distance of the personalization's location.
//   - availability: a non-negative integer n of days; keeps products available within n days
//     ("0": immediately).
//   - zero_installments: true/false (1/0); true keeps products of shops offering zero-commission
//     installments, false filters nothing.
// - include_meta (also include_meta[]; comma-separated values accepted): "filters" adds
//   meta.filters in every version; any other value is 400 InvalidParameter. meta.filters is
//   computed over the whole list before filtering (variant product-filter-meta-filtered: over
//   the filtered list): distance_ranges and availability_wordings map the accepted filter
//   values to labels; size_filter lists the whole sizes present (numeric ascending, then
//   labels); zero_commission_installments tells whether any shop of the list offers them.
// - Product lists are paginated (meta.pagination, Link) and offer embed / embed_ids / include
//   of shop. meta key order: ordered_by, personalization, filters, pagination.
// - GET /shops/:shop_id/products/search: shop_uid is matched as a string, exactly (surrounding
//   spaces ignored; variant shop-uid-substring-match: every shop_uid containing it), against the
//   products of that shop (Product.shop_uid is a string); a
//   non-integer shop_uid is accepted and simply matches what it matches (often nothing: 200 with
//   an empty list; variant shop-uid-non-integer-400: 400 InvalidParameter). A missing or
//   blank shop_uid is 400 ParameterMissing; an unknown shop is 404.
//   The search takes the product-list parameters too.
// - GET /products/:id: embed=shop (and embed_ids / include) as on lists; meta is
//   {personalization} only.
// - Variants of the catalogue's readings (variants/products-readings.ts) are marked where they act.

import type { ProductRecord, ProductSize } from '../model.ts';
import type { ApiResult } from '../http.ts';
import type { ApiContext, RouteModule } from '../router.ts';
import { computeBlp, personalizationOf, serializeProduct, shopDistanceKm, type Blp } from '../serializers/product.ts';
import { shopJson } from '../serializers/shop.ts';
import { serializePersonalization } from '../serializers/user.ts';
import { respondMany, respondOne, type Link } from '../shape.ts';
import { versionAtLeast } from '../versioning.ts';
import { enumParam, findById, invalidParameter, parameterMissing, toBoolean } from './params.ts';

type Json = Record<string, unknown>;

/** A product with its blp for this request. */
export interface ProductEntry {
  product: ProductRecord;
  blp: Blp;
}

export const ORDER_BY = ['net_price', 'final_price'] as const;
export type ProductOrder = (typeof ORDER_BY)[number];

/** Variant product-ordered-by-label: meta.ordered_by as the label a client shows. */
const ORDER_LABELS: Readonly<Record<ProductOrder, string>> = Object.freeze({ net_price: 'Price', final_price: 'Final price' });

/** Filter values meta.filters offers (accepted values -> labels). */
export const DISTANCE_RANGES: Readonly<Record<string, string>> = Object.freeze({
  '1': 'Up to 1 km',
  '5': 'Up to 5 km',
  '10': 'Up to 10 km',
  '25': 'Up to 25 km',
  '50': 'Up to 50 km',
});
export const AVAILABILITY_WORDINGS: Readonly<Record<string, string>> = Object.freeze({
  '0': 'Available immediately',
  '3': 'Delivery within 1 to 3 days',
  '7': 'Delivery within 4 to 7 days',
  '15': 'Delivery within 8 to 15 days',
});

function listParam(ctx: ApiContext, name: string): string[] {
  return [...ctx.query.getAll(name), ...ctx.query.getAll(`${name}[]`)]
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** include_meta values of the request; 400 for a value the endpoint does not know. */
export function includeMeta(ctx: ApiContext, allowed: readonly string[]): Set<string> {
  const values = listParam(ctx, 'include_meta');
  for (const v of values) {
    if (!allowed.includes(v)) {
      throw invalidParameter(`include_meta=${v.slice(0, 64)}: unknown meta; this endpoint offers ${allowed.join(', ')}`);
    }
  }
  return new Set(values);
}

/** A size label as a number ("40", "40.5", "40,5"), or null. */
function sizeNumber(label: string): number | null {
  const t = label.trim().replace(',', '.');
  return /^\d{1,4}(\.\d{1,3})?$/.test(t) ? Number(t) : null;
}

function sizeMatches(filter: string, sizes: readonly ProductSize[], ctx: ApiContext): boolean {
  const x = sizeNumber(filter);
  if (x === null) return sizes.some((s) => s.value.trim().toLowerCase() === filter.trim().toLowerCase());
  return sizes.some((s) => {
    const v = sizeNumber(s.value);
    if (v === null || v < x) return false;
    return ctx.fault === 'size-filter-includes-next-size' ? v <= x + 1 : v < x + 1;
  });
}

interface Filters {
  size?: string;
  distance?: number;
  availability?: number;
  zeroInstallments?: boolean;
}

function nonEmpty(ctx: ApiContext, name: string): string | undefined {
  const raw = ctx.query.get(name);
  return raw === null || raw.trim() === '' ? undefined : raw.trim();
}

function parseFilters(ctx: ApiContext): Filters {
  if (!versionAtLeast(ctx.version, '3.2.1')) return {};
  const f: Filters = {};
  const size = nonEmpty(ctx, 'size');
  if (size !== undefined) f.size = size;
  const distance = nonEmpty(ctx, 'distance');
  if (distance !== undefined) {
    if (!/^\d{1,6}(\.\d{1,6})?$/.test(distance)) throw invalidParameter(`distance must be a number of km, got "${distance.slice(0, 64)}"`);
    // Variant distance-filter-keys-only: only the ranges meta.filters.distance_ranges offers.
    if (ctx.variants.has('distance-filter-keys-only') && !(distance in DISTANCE_RANGES)) {
      throw invalidParameter(`distance must be one of ${Object.keys(DISTANCE_RANGES).join(', ')}, got "${distance.slice(0, 64)}"`);
    }
    f.distance = Number(distance);
  }
  const availability = nonEmpty(ctx, 'availability');
  if (availability !== undefined) {
    if (!(ctx.fault === 'availability-zero-refused' ? /^[1-9]\d{0,5}$/ : /^\d{1,6}$/).test(availability)) {
      throw invalidParameter(`availability must be a non-negative integer of days (0: immediate), got "${availability.slice(0, 64)}"`);
    }
    if (ctx.variants.has('availability-exact-class') && !(availability in AVAILABILITY_WORDINGS)) {
      throw invalidParameter(`availability must be one of ${Object.keys(AVAILABILITY_WORDINGS).join(', ')}, got "${availability.slice(0, 64)}"`);
    }
    f.availability = Number(availability);
  }
  const zero = nonEmpty(ctx, 'zero_installments');
  if (zero !== undefined && ctx.fault === 'zero-installments-true-refused' && zero !== '1' && zero !== '0') throw invalidParameter('zero_installments must be 1 or 0');
  if (zero !== undefined) f.zeroInstallments = toBoolean(zero, 'zero_installments');
  return f;
}

function compareEntries(order: ProductOrder, ctx: ApiContext): (a: ProductEntry, b: ProductEntry) => number {
  const byNet = (a: ProductEntry, b: ProductEntry): number => a.product.price - b.product.price || a.product.id - b.product.id;
  if (order === 'net_price' || ctx.fault === 'order-by-final-price-sorts-by-net-price') return byNet;
  // Where the products without a final price go: last, or first (variant).
  const nulls = ctx.variants.has('final-price-nulls-first') ? -1 : 1;
  return (a, b) => {
    const fa = a.blp.final_price;
    const fb = b.blp.final_price;
    if (fa === null && fb !== null) return nulls;
    if (fa !== null && fb === null) return -nulls;
    return (fa ?? 0) - (fb ?? 0) || byNet(a, b);
  };
}

function filterMeta(ctx: ApiContext, products: readonly ProductRecord[]): Json {
  const whole = new Set<number>();
  const labels = new Set<string>();
  for (const p of products) {
    for (const s of p.sizes) {
      const n = sizeNumber(s.value);
      if (n === null) labels.add(s.value);
      else whole.add(Math.floor(n));
    }
  }
  const shops = new Set(products.map((p) => p.shop_id));
  return {
    distance_ranges: { ...DISTANCE_RANGES },
    availability_wordings: { ...AVAILABILITY_WORDINGS },
    size_filter: [...[...whole].sort((a, b) => a - b).map(String), ...[...labels].sort()],
    zero_commission_installments: [...shops].some((id) => ctx.data.shops.get(id)?.zeroCommissionInstallments === true),
  };
}

export interface ProductListing {
  /** Filtered and ordered. */
  entries: ProductEntry[];
  /** meta without pagination: ordered_by, personalization and (when asked) filters. */
  meta: Json;
}

/** order_by (variant final-price-order-from-3-2: final_price, which needs blp, is ignored before 3.2.0). */
function orderParam(ctx: ApiContext): ProductOrder {
  const order = enumParam(ctx, 'order_by', ORDER_BY) ?? 'net_price';
  return order === 'final_price' && ctx.variants.has('final-price-order-from-3-2') && !versionAtLeast(ctx.version, '3.2.0') ? 'net_price' : order;
}

/** Variant include-meta-brackets-only: only include_meta[]=filters names the filter meta; include_meta=... is not a parameter. */
function bracketedMetas(ctx: ApiContext): Set<string> {
  const values = ctx.query
    .getAll('include_meta[]')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  for (const v of values) if (v !== 'filters') throw invalidParameter(`include_meta[]=${v.slice(0, 64)}: unknown meta; this endpoint offers filters`);
  return new Set(values);
}

/** Whether a product is available as the availability filter's value asks (days: its value). */
function availableWithin(ctx: ApiContext, p: ProductRecord, days: number): boolean {
  // Variant availability-immediate-pickup: 'immediate' is a pickup today, not stock shipped today.
  if (ctx.variants.has('availability-immediate-pickup') && (days === 0 || p.immediate_pickup)) return p.immediate_pickup;
  // Variant availability-exact-class: the value names one class of meta.filters.availability_wordings, (previous key, value].
  if (ctx.variants.has('availability-exact-class')) {
    const keys = Object.keys(AVAILABILITY_WORDINGS).map(Number);
    const lower = Math.max(-1, ...keys.filter((k) => k < days));
    return p.availabilityDays > lower && p.availabilityDays <= days;
  }
  return p.availabilityDays <= days;
}

function applyFilters(ctx: ApiContext, all: ProductEntry[], filters: Filters, pers: ReturnType<typeof personalizationOf>): ProductEntry[] {
  let entries = all;
  if (filters.size !== undefined) {
    const size = filters.size;
    entries = entries.filter((e) => sizeMatches(size, e.product.sizes, ctx));
  }
  if (filters.distance !== undefined) {
    const max = filters.distance;
    // Variant distance-filter-keeps-unlocated: a shop with no known place (online only) is not too far.
    const keepsUnknown = ctx.variants.has('distance-filter-keeps-unlocated');
    entries = entries.filter((e) => {
      const km = shopDistanceKm(ctx.data, e.product.shop_id, pers);
      return km === null ? keepsUnknown : km <= max;
    });
  }
  if (filters.availability !== undefined) {
    const days = filters.availability;
    entries = entries.filter((e) => availableWithin(ctx, e.product, days));
  }
  // Variant zero-installments-false-excludes: false keeps the offers without zero-commission installments.
  const excludes = filters.zeroInstallments === false && ctx.variants.has('zero-installments-false-excludes');
  if (filters.zeroInstallments === true || excludes) {
    const wanted = filters.zeroInstallments === true;
    entries = entries.filter((e) => (ctx.data.shops.get(e.product.shop_id)?.zeroCommissionInstallments === true) === wanted);
  }
  return entries;
}

/** Orders and filters `products` as the request asks, with each product's blp. */
export function productListing(ctx: ApiContext, products: readonly ProductRecord[]): ProductListing {
  const order = orderParam(ctx);
  const metas = ctx.variants.has('include-meta-brackets-only') ? bracketedMetas(ctx) : includeMeta(ctx, ['filters']);
  const filters = parseFilters(ctx);
  const pers = personalizationOf(ctx.data, userForCosts(ctx));
  const scope = ctx.fault === 'distance-filter-lists-other-skus' && filters.distance !== undefined ? [...ctx.data.products.values()] : products;
  // Variant size-filter-ignored-unsized: a list without sizes has nothing for the size filter to pick.
  if (ctx.variants.has('size-filter-ignored-unsized') && products.every((p) => p.sizes.length === 0)) delete filters.size;
  const entries = applyFilters(
    ctx,
    scope.map((product) => ({ product, blp: computeBlp(ctx.data, product, pers, ctx.fault, ctx.variants) })),
    filters,
    pers,
  );
  entries.sort(compareEntries(order, ctx));
  // Variant filter-meta-from-3-2-1: the filter meta describes the 3.2.1 filters, so none before.
  if (ctx.variants.has('filter-meta-from-3-2-1') && !versionAtLeast(ctx.version, '3.2.1')) metas.delete('filters');
  const meta: Json = { ordered_by: ctx.variants.has('product-ordered-by-label') ? ORDER_LABELS[order] : order, ...personalizationMeta(ctx, pers) };
  if (metas.has('filters')) {
    meta['filters'] = filterMeta(ctx, ctx.variants.has('product-filter-meta-filtered') ? entries.map((e) => e.product) : products);
  }
  return { entries, meta };
}

/** The shop of a product (embed=shop, embed_ids=shop, include=shop). */
export function shopLink(ctx: ApiContext): Link<ProductEntry> {
  return {
    name: 'shop',
    plural: 'shops',
    idOf: (e) => (ctx.data.shops.has(e.product.shop_id) ? e.product.shop_id : null),
    objectOf: (e) => {
      const shop = ctx.data.shops.get(e.product.shop_id);
      return shop ? shopJson(ctx, shop) : null;
    },
  };
}

export function productJson(ctx: ApiContext, e: ProductEntry, color = false): Json {
  const out = serializeProduct(e.product, { version: ctx.version, blp: e.blp, color: color || ctx.variants.has('product-color-everywhere') });
  // Variants: a blank sizes list as null; no personalization (an application token), no blp; shop present as null until embedded.
  if (ctx.variants.has('product-sizes-null-when-none') && e.product.sizes.length === 0) out['sizes'] = null;
  if (ctx.variants.has('blp-null-for-app-token') && ctx.userId === null && 'blp' in out) out['blp'] = null;
  if (ctx.variants.has('product-shop-null-unembedded') && !color) out['shop'] = null;
  return out;
}

/** `{products, meta}` for a product list. */
export function respondProducts(ctx: ApiContext, products: readonly ProductRecord[]): ApiResult {
  const { entries, meta } = productListing(ctx, products);
  return respondMany(ctx, 'products', entries, (e) => productJson(ctx, e), { links: [shopLink(ctx)], meta });
}

/**
 * Whether what goes with blp on Product (3.2.0) is left out of this answer: a product card's blp
 * and the personalization blp is computed from (variant blp-and-personalization-from-3-2, before
 * 3.2.0); the reference sends them in every version.
 */
export function blpCompanionsLeftOut(ctx: ApiContext): boolean {
  return ctx.variants.has('blp-and-personalization-from-3-2') && !versionAtLeast(ctx.version, '3.2.0');
}

/** meta's personalization, the one blp is computed from (none where blpCompanionsLeftOut). */
function personalizationMeta(ctx: ApiContext, pers: ReturnType<typeof personalizationOf>): Json {
  return blpCompanionsLeftOut(ctx) ? {} : { personalization: serializePersonalization(pers) };
}

/** Whose personalization the costs are computed from (the bug: nobody's, the default one). */
function userForCosts(ctx: ApiContext): number | null {
  return ctx.fault === 'products-ignore-user-personalization' ? null : ctx.userId;
}

export const productRoutes: RouteModule = (router) => {
  router.get('/products/:id', (ctx) => {
    const product = findById(ctx.data.products, ctx.params['id'], 'Product');
    const pers = personalizationOf(ctx.data, userForCosts(ctx));
    const entry: ProductEntry = { product, blp: computeBlp(ctx.data, product, pers, ctx.fault, ctx.variants) };
    const meta = personalizationMeta(ctx, pers);
    // meta holds only personalization: none where it is left out (blpCompanionsLeftOut).
    const result = respondOne(ctx, 'product', entry, (e) => productJson(ctx, e), {
      links: [shopLink(ctx)],
      ...(Object.keys(meta).length ? { meta } : {}),
    });
    if (ctx.fault === 'product-embed-shop-ignored') delete ((result.body as Json)['product'] as Json)['shop'];
    return result;
  });

  router.get(
    '/shops/:shop_id/products/search',
    (ctx) => {
      const shop = findById(ctx.data.shops, ctx.params['shop_id'], 'Shop');
      const uid = ctx.query.get('shop_uid');
      if (uid === null || uid.trim() === '') throw parameterMissing('shop_uid');
      // "documented as integer": a deployment may hold it to that.
      if (ctx.variants.has('shop-uid-non-integer-400') && !/^\d{1,18}$/.test(uid.trim())) {
        throw invalidParameter(`shop_uid must be an integer, got "${uid.trim().slice(0, 64)}"`);
      }
      // Variant shop-uid-substring-match: a search that matches partially.
      const matchesUid = ctx.variants.has('shop-uid-substring-match')
        ? (shopUid: string) => shopUid.toLowerCase().includes(uid.trim().toLowerCase())
        : (shopUid: string) => shopUid === uid.trim();
      const matches = [...ctx.data.products.values()].filter((p) => p.shop_id === shop.id && matchesUid(p.shop_uid));
      return respondProducts(ctx, matches);
    },
    { since: '3.0.1' },
  );
};
