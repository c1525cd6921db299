// SKU fields whose blank or form the spec leaves open, shared by every serializer that shows a
// SKU (the SKU resource, the SKU embedded in notifications), so all endpoints agree. The
// reference's default: ean "" without an EAN, first_product_shop_info "shop|availability|shipping"
// (null without products), a future SKU priced 0, absolute image URLs, a main picture for every
// SKU. Legal variants (variants/catalog-readings.ts) serve the other readings.

import type { SkuImages, SkuRecord } from '../model.ts';
import type { Variants } from '../variants.ts';

/** ean: "" ("may be empty"), or (variant) null for a SKU without EAN. */
export function skuEan(s: SkuRecord, variants: Variants): string | null {
  return s.ean === '' && variants.has('sku-ean-null') ? null : s.ean;
}

/** first_product_shop_info: "" rather than null without products, or the shop name alone (variants). */
export function skuShopInfo(s: SkuRecord, variants: Variants): string | null {
  const info = s.first_product_shop_info;
  if (info === null) return variants.has('sku-shop-info-empty-without-products') ? '' : null;
  return variants.has('sku-shop-info-shop-name-only') ? (info.split('|')[0] ?? info) : info;
}

/** price_min and price_max: a future SKU (no offers) has them null under the variant, blank rather than 0. */
export function skuPrices(s: SkuRecord, variants: Variants): { price_max: number | null; price_min: number | null } {
  if (s.future && variants.has('future-sku-prices-null')) return { price_max: null, price_min: null };
  return { price_max: s.price_max, price_min: s.price_min };
}

/** A future SKU has no pictures yet under the variants that serve pictureless SKUs. */
function withoutPictures(s: SkuRecord, variants: Variants): 'empty' | 'null' | null {
  if (!s.future) return null;
  if (variants.has('sku-without-pictures-empty')) return 'empty';
  if (variants.has('sku-without-pictures-null')) return 'null';
  return null;
}

/** "https://img.host/p" -> "//img.host/p": a protocol-relative reference. */
function protocolRelative(uri: string): string {
  return uri.replace(/^https?:/, '');
}

/** images: {main, alternatives}, or for a SKU without pictures {main: null, alternatives: []} or null (variants). */
export function skuImages(s: SkuRecord, variants: Variants): SkuImages | { main: null; alternatives: string[] } | null {
  const pictureless = withoutPictures(s, variants);
  if (pictureless === 'null') return null;
  if (pictureless === 'empty') return { main: null, alternatives: [] };
  const form = variants.has('sku-image-uris-protocol-relative') ? protocolRelative : (uri: string) => uri;
  return { main: form(s.images.main), alternatives: s.images.alternatives.map(form) };
}
