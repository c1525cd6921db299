// GET /shops/:id, /shops/search, /shops/:id/reviews, /shops/:shop_id/locations,
// /shops/:shop_id/locations/:id (spec "Endpoints > Shops"). GET /shops/:shop_id/products/search
// is in ./products.ts.
//
// Choices where the spec is silent:
// - GET /shops/search: q is required (missing or blank: 400 ParameterMissing; variant
//   shop-search-missing-q-422: 422 InvalidSearch, as /search). A shop matches
//   when its name contains q, ignoring case, accents and surrounding spaces; results are ordered
//   by id and paginated; meta is {pagination}.
// - Shop reviews: newest first (created_at descending, then id descending), paginated.
//   include_meta=shop_rating_breakdown (or include_meta[]=) adds meta.shop_rating_breakdown:
//   always two entries, positive then negative, counting all the shop's reviews (negative true
//   is a negative impression); percentages are integers by largest remainder, summing to 100
//   when there are reviews and both 0 when there are none (variant
//   shop-rating-breakdown-nonzero: an impression no review has is left out). Another include_meta value is 400
//   InvalidParameter. Shop reviews have no linked names.
// - Locations: ordered by id, paginated. address is linked (embed, embed_ids, include) on the
//   collection and on a single location. Every field of an unstructured location's address, id
//   included, is null (so embed_ids gives [] and include gives address_id null; variant
//   unstructured-address-id: the id is kept, so embed_ids gives [id] and include adds the
//   address). A location of another shop under /shops/:shop_id/locations/:id is 404
//   RecordNotFound (Location), as is an unknown id (variant location-of-other-shop-served: it is
//   served).
// - shipping.shipping_cost_enabled is sent from 3.1.1 on; review_score is rounded to 1 decimal.
// - Variants of the catalogue's readings (variants/products-readings.ts) are marked where they act.

import type { LocationRecord, ShopRecord, ShopReviewRecord } from '../model.ts';
import { ApiError, recordNotFound, type ApiResult } from '../http.ts';
import { slug } from '../data/context.ts';
import type { ApiContext, RouteModule } from '../router.ts';
import { locationAddressId, locationJson, serializeLocationAddress, serializeShopReview, shopJson } from '../serializers/shop.ts';
import { respondMany, respondOne, type Link } from '../shape.ts';
import { findById, parameterMissing, parseId } from './params.ts';
import { includeMeta } from './products.ts';

type Json = Record<string, unknown>;

function reviewsOf(ctx: ApiContext, shop: ShopRecord): ShopReviewRecord[] {
  return [...ctx.data.shopReviews.values()].filter((r) => r.shopId === shop.id);
}

function normalize(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}

/** Integer percentages of `counts` by largest remainder: they sum to 100 unless all are 0. */
export function percentages(counts: readonly number[]): number[] {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return counts.map(() => 0);
  const exact = counts.map((c) => (c * 100) / total);
  const out = exact.map(Math.floor);
  let left = 100 - out.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i]! += 1;
    left -= 1;
  }
  return out;
}

/** Integer percentages of `counts`, each rounded half up on its own; all 0 when the counts are. */
function roundedEach(counts: readonly number[]): number[] {
  const total = counts.reduce((a, b) => a + b, 0);
  return counts.map((c) => (total === 0 ? 0 : Math.round((c * 100) / total)));
}

/**
 * The shop of a sub-collection's path; null where variant missing-shop-empty-subcollections
 * takes an unknown integer id as a shop with nothing under it (a malformed id stays 404).
 */
function shopOfSubcollection(ctx: ApiContext, raw: string | undefined): ShopRecord | null {
  if (ctx.variants.has('missing-shop-empty-subcollections') && !ctx.data.shops.has(parseId(raw, 'Shop'))) return null;
  return findById(ctx.data.shops, raw, 'Shop');
}

function ratingBreakdown(ctx: ApiContext, reviews: readonly ShopReviewRecord[]): Json[] {
  const negative = reviews.filter((r) => r.negative).length;
  const counts = [reviews.length - negative, negative];
  // Variant rating-breakdown-rounded-each: each percentage rounded on its own (half up), so two halves sum to 101.
  const pct = ctx.variants.has('rating-breakdown-rounded-each') ? roundedEach(counts) : percentages(counts);
  const entries = [
    { impression: 'positive', percentage: pct[0], count: counts[0] },
    { impression: 'negative', percentage: pct[1], count: counts[1] },
  ];
  if (ctx.variants.has('rating-breakdown-negative-first')) entries.reverse();
  return ctx.variants.has('shop-rating-breakdown-nonzero') ? entries.filter((e) => e.count !== 0) : entries;
}

function addressLink(ctx: ApiContext): Link<LocationRecord> {
  return {
    name: 'address',
    plural: 'addresses',
    idOf: (l) => locationAddressId(l, ctx.fault, ctx.variants),
    objectOf: (l) => serializeLocationAddress(l, ctx.fault, ctx.variants),
  };
}

function locationsOf(ctx: ApiContext, shop: ShopRecord): LocationRecord[] {
  return [...ctx.data.locations.values()].filter((l) => l.shopId === shop.id).sort((a, b) => a.id - b.id);
}

/** The path segment that names a shop at its canonical address (variant shop-canonical-redirect). */
function canonicalShopId(shop: ShopRecord): string {
  return `${shop.id}-${slug(shop.name)}`;
}

/** 301 to the same request with the shop named by its canonical segment (the query kept). */
function redirectToCanonical(ctx: ApiContext, segment: string): ApiResult {
  const target = new URL(ctx.url.href);
  const prefix = ctx.url.pathname.slice(0, ctx.url.pathname.length - ctx.path.length);
  target.pathname = `${prefix}/shops/${segment}`;
  return { status: 301, headers: { Location: target.href } };
}

export const shopRoutes: RouteModule = (router) => {
  router.get('/shops/search', (ctx) => {
    const q = ctx.query.get('q');
    if (q === null || q.trim() === '') {
      if (ctx.variants.has('shop-search-missing-q-422')) throw new ApiError(422, 'InvalidSearch', ['The search query q must not be missing or blank']);
      throw parameterMissing('q');
    }
    // Variant shop-search-short-q-422: as /search, a query needs two characters.
    if (ctx.variants.has('shop-search-short-q-422') && [...q.trim()].length < 2)
      throw new ApiError(422, 'InvalidSearch', ['The search query must have at least 2 characters, got 1']);
    const needle = normalize(q);
    // The bug: q is applied on the first page only.
    const dropsQ = ctx.fault === 'shop-search-q-dropped-past-page-1' && Number(ctx.query.get('page') ?? 1) > 1;
    const shops = [...ctx.data.shops.values()].filter((s) => dropsQ || normalize(s.name).includes(needle)).sort((a, b) => a.id - b.id);
    return respondMany(ctx, 'shops', shops, (s) => shopJson(ctx, s));
  });

  router.get('/shops/:id', (ctx) => {
    // Variant shop-canonical-redirect: the canonical address is /shops/<id>-<slug of the name>, as web_uri.
    const canonical = ctx.variants.has('shop-canonical-redirect');
    const raw = ctx.params['id'];
    const shop = findById(ctx.data.shops, canonical ? (/^(\d{1,15})-[a-z0-9-]+$/.exec(raw ?? '')?.[1] ?? raw) : raw, 'Shop');
    if (canonical && raw !== canonicalShopId(shop)) return redirectToCanonical(ctx, canonicalShopId(shop));
    return respondOne(ctx, 'shop', shop, (s) => shopJson(ctx, s));
  });

  router.get('/shops/:id/reviews', (ctx) => {
    const shop = shopOfSubcollection(ctx, ctx.params['id']);
    const metas = includeMeta(ctx, ['shop_rating_breakdown']);
    const reviews = (shop ? reviewsOf(ctx, shop) : []).sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id));
    const meta: Json = {};
    // Variant shop-rating-breakdown-always: the breakdown comes whether asked or not.
    if (metas.has('shop_rating_breakdown') || ctx.variants.has('shop-rating-breakdown-always')) meta['shop_rating_breakdown'] = ratingBreakdown(ctx, reviews);
    // Fault shop-reviews-per-ignored: the page size of the request is dropped before paging.
    const paging = ctx.fault === 'shop-reviews-per-ignored' ? { ...ctx, query: new URLSearchParams([...ctx.query].filter(([key]) => key !== 'per')) } : ctx;
    return respondMany(paging, 'reviews', reviews, (r) => serializeShopReview(r, ctx.version), { meta });
  });

  router.get('/shops/:shop_id/locations', (ctx) => {
    const shop = shopOfSubcollection(ctx, ctx.params['shop_id']);
    return respondMany(ctx, 'locations', shop ? locationsOf(ctx, shop) : [], (l) => locationJson(ctx, l), {
      links: [addressLink(ctx)],
    });
  });

  router.get('/shops/:shop_id/locations/:id', (ctx) => {
    const shop = findById(ctx.data.shops, ctx.params['shop_id'], 'Shop');
    const id = parseId(ctx.params['id'], 'Location');
    // The bug: the location is looked up among the shop's without the id, so the first one is answered.
    const location = ctx.fault === 'location-id-ignored' ? locationsOf(ctx, shop)[0] : ctx.data.locations.get(id);
    if (!location || (location.shopId !== shop.id && !ctx.variants.has('location-of-other-shop-served'))) throw recordNotFound('Location', id);
    return respondOne(ctx, 'location', location, (l) => locationJson(ctx, l), { links: [addressLink(ctx)] });
  });
};
