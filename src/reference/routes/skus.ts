// GET /skus/:id/products, /skus/:id/product_cards, /skus/:id/specifications,
// /skus/:id/price_history (spec "Endpoints > SKUs and their products").
//
// Choices where the spec is silent (product-list choices are at the top of ./products.ts):
// - A future SKU has no products: /products and /product_cards are empty lists (Change history
//   3.0.5, so in every served version).
// - Product cards: one entry of product_cards per color, each {cards}; one card per shop within
//   that color, holding that shop's products of that color in list order, the shop (full Shop)
//   and the blp of the card's first product. Entries follow the list order of their first
//   product, cards too (so order_by and the filters apply as on /products). The entries are
//   paginated (meta.pagination counts entries; variants product-cards-count-cards and
//   product-cards-count-products: the cards, or the products, are paged and regrouped into
//   entries); meta also has ordered_by and personalization.
//   Products in cards carry color; products elsewhere do not. The card's blp is sent in every
//   version (the Product's blp field only from 3.2.0; variant blp-and-personalization-from-3-2:
//   the card's too). No linked names (embed=shop is 400).
// - SKU specifications: the specifications the SKU has values for, ordered by order, then id;
//   no pagination. meta holds only full_description (3.2.0): before 3.2.0 there is no meta; from
//   3.2.0 it is {full_description} when the SKU has a full description, otherwise {} (variant
//   full-description-null: {full_description: null}; variant full-description-meta-absent: no meta).
//   include=group adds group_id and the top-level groups array (embed=group and embed_ids=group
//   work too).
// - Price history: one point per UTC day, {date, price} with price the day's average price
//   (deterministic per SKU and date), from 180 days before today (the server clock; variant
//   price-history-184-days: 184, the longest six calendar months) to today, or from the day the
//   SKU was added when that is later (variant price-history-weekly: one point a week, on today's
//   weekday). A SKU added less than 7 days ago (TOO_NEW_DAYS; variant too-new-30-days: 30) is too
//   new: from 3.2.0 its average is [] (variants too-new-history-404, too-new-history-204,
//   too-new-history-null: 404, 204 No Content, {history: null}); 3.0 and 3.1 still return the
//   days it has. A future SKU (no offers, so no prices) has [] in every version. The
//   lowest-price series is not sent (history has only average; variant
//   price-history-lowest-series: lowest too). Points oldest first, up to today (variants
//   price-history-newest-first, price-history-ends-yesterday, price-history-change-days-only).

import type { SkuRecord, SpecificationRecord } from '../model.ts';
import { ApiError, formatTimestamp, recordNotFound, type ApiResult } from '../http.ts';
import type { ApiContext, RouteModule } from '../router.ts';
import { prng } from '../data.ts';
import { round2 } from '../serializers/product.ts';
import { serializeSpecification, specGroupLink } from '../serializers/specification.ts';
import { paginate } from '../pagination.ts';
import { respondMany, respondOne } from '../shape.ts';
import { versionAtLeast } from '../versioning.ts';
import { catalogIndex } from './catalog-index.ts';
import { findById } from './params.ts';
import { blpCompanionsLeftOut, productJson, productListing, respondProducts, type ProductEntry } from './products.ts';
import { shopJson } from '../serializers/shop.ts';
import { TOO_NEW_DAYS } from '../data.ts';

type Json = Record<string, unknown>;

const DAY_MS = 86_400_000;
/** Days of price history: today and the 180 days before (never more than 6 months). */
export const HISTORY_DAYS = 180;
/** Variant price-history-184-days: six calendar months at their longest (31 August back to 28 February). */
const HISTORY_DAYS_LONGEST = 184;
/** Variant too-new-30-days: the age below which a SKU has no price history. */
const TOO_NEW_DAYS_LONG = 30;

function findSku(ctx: ApiContext): SkuRecord {
  return findById(ctx.data.skus, ctx.params['id'], 'Sku');
}

function productsOf(ctx: ApiContext, sku: SkuRecord) {
  // Before 3.0.5 (variant implements-3.0.0) a future SKU's product list was an error.
  if (sku.future && !versionAtLeast(ctx.version, '3.0.5')) throw new ApiError(422, 'RecordInvalid', ['The SKU is not released yet']);
  if (sku.future) return [];
  return [...ctx.data.products.values()].filter((p) => p.sku_id === sku.id);
}

interface CardGroup {
  color: string;
  cards: { shopId: number; entries: ProductEntry[] }[];
}

function groupCards(entries: readonly ProductEntry[]): CardGroup[] {
  const groups: CardGroup[] = [];
  for (const e of entries) {
    let g = groups.find((x) => x.color === e.product.color);
    if (!g) groups.push((g = { color: e.product.color, cards: [] }));
    let card = g.cards.find((c) => c.shopId === e.product.shop_id);
    if (!card) g.cards.push((card = { shopId: e.product.shop_id, entries: [] }));
    card.entries.push(e);
  }
  return groups;
}

/** Deterministic 32-bit hash of a SKU id and a day number. */
function dayNoise(skuId: number, day: number): number {
  return prng(((skuId * 2654435761) ^ (day * 40503)) >>> 0)();
}

/** The SKU's average price on a UTC day (days since the epoch); depends only on SKU and day. */
export function averagePriceOn(sku: SkuRecord, day: number): number {
  const base = (sku.price_min + sku.price_max) / 2 || sku.price_min || 1;
  const phase = (sku.id % 97) / 7;
  const wave = 0.06 * Math.sin(day / 23 + phase) + 0.03 * Math.sin(day / 5 + phase * 2);
  const noise = 0.02 * (dayNoise(sku.id, day) - 0.5);
  return Math.max(0.01, round2(base * (1 + wave + noise)));
}

/** Added too recently for a price history (not for a future SKU, which has none at all). */
function addedTooRecently(ctx: ApiContext, sku: SkuRecord): boolean {
  const tooNewDays = ctx.variants.has('too-new-30-days') ? TOO_NEW_DAYS_LONG : TOO_NEW_DAYS;
  return ctx.now() - sku.addedAt < tooNewDays * DAY_MS;
}

export function priceHistory(ctx: ApiContext, sku: SkuRecord): { date: string; price: number }[] {
  const now = ctx.now();
  const today = Math.floor(now / DAY_MS);
  if (sku.future) {
    // The bug: a future SKU gets the generated prices of the last 30 days.
    if (ctx.fault !== 'future-sku-price-history') return [];
    return Array.from({ length: 30 }, (_, i) => today - 29 + i).map((day) => ({ date: formatTimestamp(day * DAY_MS).slice(0, 10), price: averagePriceOn(sku, day) }));
  }
  if (addedTooRecently(ctx, sku) && versionAtLeast(ctx.version, '3.2.0')) return [];
  const window = ctx.fault === 'price-history-older-than-six-months' ? 240 : ctx.variants.has('price-history-184-days') ? HISTORY_DAYS_LONGEST : HISTORY_DAYS;
  const first = Math.max(today - window, Math.floor(sku.addedAt / DAY_MS));
  // Variant price-history-ends-yesterday: today's average is not known before the day is over.
  const last = ctx.variants.has('price-history-ends-yesterday') ? today - 1 : today;
  const out: { date: string; price: number }[] = [];
  // Variant price-history-weekly: the same weekday as today, a week apart.
  const step = ctx.variants.has('price-history-weekly') ? 7 : 1;
  for (let day = last - Math.floor((last - first) / step) * step; day <= last; day += step) {
    out.push({ date: formatTimestamp(day * DAY_MS).slice(0, 10), price: averagePriceOn(sku, day) });
  }
  const points = ctx.variants.has('price-history-change-days-only') ? changeDaysOnly(sku, out) : out;
  return ctx.variants.has('price-history-newest-first') ? points.reverse() : points;
}

/**
 * Variant price-history-change-days-only: the price is repriced on some days only (a
 * deterministic third of them) and held in between; a point is listed on the window's first
 * day and on each day the price changed.
 */
function changeDaysOnly(sku: SkuRecord, daily: readonly { date: string; price: number }[]): { date: string; price: number }[] {
  const out: { date: string; price: number }[] = [];
  for (const point of daily) {
    const day = Math.floor(Date.parse(`${point.date}T00:00:00Z`) / DAY_MS);
    if (out.length === 0 || dayNoise(sku.id + 7919, day) < 0.35) out.push(point);
  }
  return out;
}

/**
 * Variant price-history-lowest-series: history also carries `lowest`, the day's lowest offer,
 * a series whose shape the spec does not show: dated by full timestamps (midnight UTC), for the
 * days of average.
 */
function lowestSeries(average: readonly { date: string; price: number }[]): { date: string; price: number }[] {
  return average.map((p) => ({ date: formatTimestamp(Date.parse(`${p.date}T00:00:00Z`)), price: round2(p.price * 0.92) }));
}

/** Variant sku-spec-values-partial: a future SKU has values for its category's first three specifications only. */
const FUTURE_SKU_KNOWN_SPECS = 3;

/** The SKU's values of a specification ([] where it has none). */
function skuSpecValues(ctx: ApiContext, sku: SkuRecord, s: SpecificationRecord): readonly string[] {
  if (sku.future && s.order > FUTURE_SKU_KNOWN_SPECS && ctx.variants.has('sku-spec-values-partial')) return [];
  return sku.specValues.get(s.id) ?? [];
}

/** The specifications listed: those the SKU has values for, or (variant) every one of its category. */
function skuSpecificationIds(ctx: ApiContext, sku: SkuRecord): number[] {
  if (!ctx.variants.has('sku-spec-values-partial')) return [...sku.specValues.keys()];
  return (catalogIndex(ctx.data).specsByCategory.get(sku.category_id) ?? []).map((s) => s.id);
}

/** A card's blp: its first product's (variants: null for every card, or as the product's for an application token). */
function cardBlp(ctx: ApiContext, first: ProductEntry): Json | null {
  if (ctx.variants.has('product-card-blp-null')) return null;
  if (ctx.variants.has('blp-null-for-app-token') && ctx.userId === null) return null;
  return { ...first.blp };
}

/** GET /skus/:id/price_history (from 3.0.15). */
function priceHistoryOf(ctx: ApiContext): ApiResult {
  const sku = findSku(ctx);
  // Variant: "no data" as no resource. The faults of a future SKU's history stay visible with the
  // variant on, as the mutation runs need.
  const tooNew = sku.future ? ctx.fault !== 'future-sku-price-history' : addedTooRecently(ctx, sku);
  if (ctx.fault === 'future-sku-price-history-500' && sku.future) throw new ApiError(500, 'InternalServerError', ['Something went wrong']);
  const noData = tooNew && versionAtLeast(ctx.version, '3.2.0');
  if (ctx.variants.has('too-new-history-404') && noData) throw recordNotFound('PriceHistory', sku.id);
  // Variants: "no data" as no content, or as a blank history (GEN-8).
  if (ctx.variants.has('too-new-history-204') && noData) return { status: 204 };
  if (ctx.variants.has('too-new-history-null') && noData) return { status: 200, body: { history: null } };
  // Shaped like every other resource, so sparse fieldsets apply to history too.
  return respondOne(ctx, 'history', sku, (s) => {
    const average = priceHistory(ctx, s);
    return ctx.variants.has('price-history-lowest-series') ? { average, lowest: lowestSeries(average) } : { average };
  });
}

export const skuRoutes: RouteModule = (router) => {
  router.get('/skus/:id/products', (ctx) => {
    // Variant missing-sku-products-empty: the products of an unknown integer id are an empty collection.
    const missing = ctx.variants.has('missing-sku-products-empty') && /^\d{1,15}$/.test(ctx.params['id'] ?? '') && !ctx.data.skus.has(Number(ctx.params['id']));
    return respondProducts(ctx, missing ? [] : productsOf(ctx, findSku(ctx)));
  });

  router.get('/skus/:id/product_cards', (ctx) => {
    const sku = findSku(ctx);
    const listing = productListing(ctx, productsOf(ctx, sku));
    const entries = listing.entries;
    // Variant product-cards-meta-pagination-only: the product-list meta stays with /products.
    const meta = ctx.variants.has('product-cards-meta-pagination-only') ? {} : listing.meta;
    const serialize = (g: CardGroup): Json => ({
      cards: g.cards.map((c) => {
        const shop = ctx.data.shops.get(c.shopId);
        return {
          products: c.entries.map((e) => productJson(ctx, e, true)),
          shop: shop ? shopJson(ctx, shop) : null,
          // Variant blp-and-personalization-from-3-2: no card blp before 3.2.0 (blpCompanionsLeftOut).
          ...(blpCompanionsLeftOut(ctx) ? {} : { blp: cardBlp(ctx, c.entries[0]!) }),
        };
      }),
    });
    // What meta.pagination counts is not shown: the entries, or (variants) the cards or the
    // products, a page of which is regrouped into entries.
    const units: ProductEntry[][] | null = ctx.variants.has('product-cards-count-products')
      ? entries.map((e) => [e])
      : ctx.variants.has('product-cards-count-cards')
        ? groupCards(entries).flatMap((g) => g.cards.map((c) => c.entries))
        : null;
    if (!units) return respondMany(ctx, 'product_cards', groupCards(entries), serialize, { meta });
    const page = paginate(ctx, units);
    return respondMany(ctx, 'product_cards', groupCards(page.items.flat()), serialize, { meta: { ...meta, pagination: page.pagination }, paginate: false, headers: page.headers });
  });

  router.get('/skus/:id/specifications', (ctx) => {
    const sku = findSku(ctx);
    // Variant sku-specifications-paging-refused: "no pagination", so page and per are not parameters here.
    const paging = ['page', 'per'].find((name) => ctx.query.has(name));
    if (paging !== undefined && ctx.variants.has('sku-specifications-paging-refused')) {
      throw new ApiError(400, 'InvalidParameter', [`${paging}: SKU specifications are not paginated`]);
    }
    const specs = [...skuSpecificationIds(ctx, sku)]
      .map((id) => ctx.data.specifications.get(id))
      .filter((s): s is SpecificationRecord => s !== undefined)
      .sort((a, b) => (ctx.fault === 'sku-specifications-sorted-by-name' ? a.name.localeCompare(b.name) : a.order - b.order) || a.id - b.id);
    // meta holds only full_description, new in 3.2.0: nothing to hold before.
    let meta: Json | undefined;
    if (versionAtLeast(ctx.version, '3.2.0')) {
      const described = sku.fullDescription !== null || ctx.variants.has('full-description-null');
      meta = described ? { full_description: sku.fullDescription } : ctx.variants.has('full-description-meta-absent') ? undefined : {};
      if (!described && ctx.variants.has('full-description-empty')) meta = { full_description: '' };
    }
    return respondMany(ctx, 'specifications', specs, (s) => serializeSpecification(ctx, s, skuSpecValues(ctx, sku, s)), {
      links: [specGroupLink(ctx)],
      meta,
      paginate: ctx.fault === 'sku-specifications-paginated',
    });
  });

  router.get('/skus/:id/price_history', priceHistoryOf, { since: '3.0.15' });
};
