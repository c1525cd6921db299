// Serializer of the SKU resource (spec "Resources and their fields > SKU"), for every endpoint
// that returns SKUs (category and manufacturer listings, search strong matches, single SKUs,
// embeds). Blank fields are present with value null.
//
// favorited (choice): the SKU table says "user-authenticated requests; category SKU listing" and
// the Change history "favorited on Category Skus" (3.1.0). The reference reads both conditions
// together: favorited is present only where the caller asks for it (the category SKU listing,
// GET /categories/:category_id/skus) and only for a user token; it is absent (not false) for
// application tokens, on every other SKU response, and before 3.1.0. It is true when the user
// has a favorite for the SKU in any list (owned favorites included).
// Variant favorited-everywhere: every SKU object carries favorited from 3.1.0, false for an
// application token (the field's "category SKU listing" read as an example, not a limit).
//
// unit_price (choice: the spec gives no type): a string such as "12.40 per kg", or null
// (variant unit-price-number: the number, 12.4).

import type { FaultName } from '../faults.ts';
import type { SkuRecord } from '../model.ts';
import type { ApiContext } from '../router.ts';
import { NO_VARIANTS, type Variants } from '../variants.ts';
import { applyVersion } from '../versioning.ts';
import { skuEan, skuImages, skuPrices, skuShopInfo } from './sku-fields.ts';

type Json = Record<string, unknown>;

/** What the serializer reads from the request. */
export type SkuContext = Pick<ApiContext, 'version' | 'userId' | 'data'> & { readonly fault: FaultName | null; readonly variants?: Variants };

export interface SkuOptions {
  /**
   * true on the category SKU listing: adds favorited when the request has a user token.
   * Default false (true under the variant favorited-everywhere); an explicit false (a fault)
   * leaves it out whatever the variants.
   */
  favorited?: boolean;
}

/** Ids of the SKUs the request's user has favorited (empty for an application token). */
export function favoritedSkuIds(ctx: SkuContext): Set<number> {
  const ids = new Set<number>();
  // The bug: the favorites are looked up for no user (the token's user id is not passed on).
  if (ctx.userId === null || ctx.fault === 'favorited-always-false') return ids;
  for (const f of ctx.data.favorites.values()) if (f.user_id === ctx.userId) ids.add(f.sku_id);
  return ids;
}

/**
 * Every field of the SKU table, in its order; fields the requested version lacks are removed.
 * `favoritedIds` may be passed to avoid recomputing favoritedSkuIds for each SKU of a page.
 */
export function serializeSku(s: SkuRecord, ctx: SkuContext, opts: SkuOptions = {}, favoritedIds?: ReadonlySet<number>): Json {
  const variants = ctx.variants ?? NO_VARIANTS;
  const out: Json = {
    id: s.id,
    ean: skuEan(s, variants),
    pn: s.pn,
    name: s.name,
    display_name: s.display_name,
    category_id: s.category_id,
    first_product_shop_info: skuShopInfo(s, variants),
    click_url: s.click_url,
    ...skuPrices(s, variants),
    // The bugs: the score and the shop count as strings (a DECIMAL column, a COUNT()).
    reviewscore: ctx.fault === 'sku-reviewscore-as-string' ? String(s.reviewscore) : s.reviewscore,
    shop_count: ctx.fault === 'sku-shop-count-as-string' ? String(s.shop_count) : s.shop_count,
    plain_spec_summary: s.plain_spec_summary,
    manufacturer_id: s.manufacturer_id,
    // The bugs: future as a string on the future SKUs alone; reviews_count as a string; virtual as 0 or 1.
    future: ctx.fault === 'future-sku-future-as-string' && s.future ? 'true' : s.future,
    reviews_count: ctx.fault === 'sku-reviews-count-as-string' ? String(s.reviews_count) : s.reviews_count,
    virtual: ctx.fault === 'sku-virtual-as-tinyint' ? Number(s.virtual) : s.virtual,
    images: skuImages(s, variants),
    web_uri: s.web_uri,
  };
  const everywhere = variants.has('favorited-everywhere');
  if ((opts.favorited ?? everywhere) && (ctx.userId !== null || everywhere)) {
    out['favorited'] = ctx.userId !== null && (favoritedIds ?? favoritedSkuIds(ctx)).has(s.id);
  }
  Object.assign(out, {
    comparable: s.comparable,
    reviewable: s.reviewable,
    name_source: s.name_source,
    sizes: s.sizes === null ? null : [...s.sizes],
    ecommerce_enabled: s.ecommerce_enabled,
    unit_price: variants.has('unit-price-number') ? unitPriceNumber(s.unit_price) : s.unit_price,
    description: s.description,
  });
  return applyVersion('sku', out, ctx.version);
}

/** The amount of a unit price ("12.40 per kg" -> 12.4), or null. */
function unitPriceNumber(text: string | null): number | null {
  const n = text === null ? NaN : Number.parseFloat(text);
  return Number.isFinite(n) ? n : null;
}
