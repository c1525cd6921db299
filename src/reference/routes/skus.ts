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
//   lowest-price series is not sent (history has only average).

import type { SkuRecord, SpecificationRecord } from '../model.ts';
import { ApiError, formatTimestamp, recordNotFound } from '../http.ts';
import type { ApiContext, RouteModule } from '../router.ts';
import { prng } from '../data.ts';
import { round2 } from '../serializers/product.ts';
import { serializeSpecification, specGroupLink } from '../serializers/specification.ts';
import { paginate } from '../pagination.ts';
import { respondMany, respondOne } from '../shape.ts';
import { versionAtLeast } from '../versioning.ts';
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
  const out: { date: string; price: number }[] = [];
  // Variant price-history-weekly: the same weekday as today, a week apart.
  const step = ctx.variants.has('price-history-weekly') ? 7 : 1;
  for (let day = today - Math.floor((today - first) / step) * step; day <= today; day += step) {
    out.push({ date: formatTimestamp(day * DAY_MS).slice(0, 10), price: averagePriceOn(sku, day) });
  }
  return out;
}

export const skuRoutes: RouteModule = (router) => {
  router.get('/skus/:id/products', (ctx) => respondProducts(ctx, productsOf(ctx, findSku(ctx))));

  router.get('/skus/:id/product_cards', (ctx) => {
    const sku = findSku(ctx);
    const { entries, meta } = productListing(ctx, productsOf(ctx, sku));
    const serialize = (g: CardGroup): Json => ({
      cards: g.cards.map((c) => {
        const shop = ctx.data.shops.get(c.shopId);
        return {
          products: c.entries.map((e) => productJson(ctx, e, true)),
          shop: shop ? shopJson(ctx, shop) : null,
          // Variant blp-and-personalization-from-3-2: no card blp before 3.2.0 (blpCompanionsLeftOut).
          ...(blpCompanionsLeftOut(ctx) ? {} : { blp: { ...c.entries[0]!.blp } }),
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
    const specs = [...sku.specValues.keys()]
      .map((id) => ctx.data.specifications.get(id))
      .filter((s): s is SpecificationRecord => s !== undefined)
      .sort((a, b) => (ctx.fault === 'sku-specifications-sorted-by-name' ? a.name.localeCompare(b.name) : a.order - b.order) || a.id - b.id);
    // meta holds only full_description, new in 3.2.0: nothing to hold before.
    let meta: Json | undefined;
    if (versionAtLeast(ctx.version, '3.2.0')) {
      const described = sku.fullDescription !== null || ctx.variants.has('full-description-null');
      meta = described ? { full_description: sku.fullDescription } : ctx.variants.has('full-description-meta-absent') ? undefined : {};
    }
    return respondMany(ctx, 'specifications', specs, (s) => serializeSpecification(s, sku.specValues.get(s.id) ?? [], ctx.version), {
      links: [specGroupLink(ctx)],
      meta,
      paginate: ctx.fault === 'sku-specifications-paginated',
    });
  });

  router.get('/skus/:id/price_history', (ctx) => {
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
    return respondOne(ctx, 'history', sku, (s) => ({ average: priceHistory(ctx, s) }));
  });
};
