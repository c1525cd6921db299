// GET /manufacturers, /manufacturers/:id, /manufacturers/:id/categories, /manufacturers/:id/skus
// (spec "Endpoints > Manufacturers").
//
// Choices where the spec is silent:
// - Unknown or non-integer ids: 404 RecordNotFound naming the Manufacturer (variant
//   missing-manufacturer-empty-collections: the categories and SKUs of an unknown integer id are
//   200 with an empty collection).
// - GET /manufacturers is ordered by id (variant manufacturers-default-popularity: popularity
//   desc, then id, as a manufacturer listing without order_by).
// - /manufacturers/:id/categories: the leaf categories holding the manufacturer's SKUs. Default
//   order name asc; popularity is the sum of the popularity of the manufacturer's SKUs in the
//   category. order_by without order_dir: name asc, popularity desc.
// - /manufacturers/:id/skus: default order popularity desc (variant manufacturer-skus-default-price:
//   price asc); price sorts by price_min (variant manufacturer-skus-price-max: by price_max, the
//   SKUs without offers last). Categories: variant manufacturer-categories-default-popularity
//   orders them by popularity desc by default.
//   order_by without order_dir: price asc, popularity desc. The SKUs carry no favorited
//   (see serializers/sku.ts).
// - Names compare case-insensitively by code point; ties by id ascending in both directions
//   (variant name-order-collation: Intl.Collator, accents and case ignored, ties by id descending).
// - Every list is paginated (page, per); an invalid order_by or order_dir is 400
//   InvalidParameter.

import type { CategoryRecord } from '../data.ts';
import type { ApiResult } from '../http.ts';
import type { ManufacturerRecord, SkuRecord } from '../model.ts';
import type { ApiContext, RouteModule } from '../router.ts';
import { serializeCategory } from '../serializers.ts';
import { serializeManufacturer } from '../serializers/manufacturer.ts';
import { serializeSku } from '../serializers/sku.ts';
import { respondMany, respondOne } from '../shape.ts';
import { slug } from '../data/context.ts';
import { catalogIndex } from './catalog-index.ts';
import { defaultManufacturerOrder, findManufacturer, nameOrder, orderDirParam, sortBy, type Dir } from './listing.ts';
import { enumParam } from './params.ts';

function manufacturerSkus(ctx: ApiContext, manufacturerId: number): readonly SkuRecord[] {
  return catalogIndex(ctx.data).skusByManufacturer.get(manufacturerId) ?? [];
}

/**
 * The manufacturer id of a sub-collection's path; variant missing-manufacturer-empty-collections:
 * an unknown integer id too, whose collections are empty.
 */
function parentId(ctx: ApiContext): number {
  const raw = ctx.params['id'] ?? '';
  if (ctx.variants.has('missing-manufacturer-empty-collections') && /^\d{1,15}$/.test(raw)) return Number(raw);
  return findManufacturer(ctx, raw).id;
}

function categories(ctx: ApiContext): ApiResult {
  const m = { id: parentId(ctx) };
  const orderBy = enumParam(ctx, 'order_by', ['name', 'popularity'] as const) ?? (ctx.variants.has('manufacturer-categories-default-popularity') ? 'popularity' : 'name');
  // The bug: order_dir is never read; each method keeps its default direction.
  const asked = ctx.fault === 'manufacturer-categories-order-dir-ignored' ? null : orderDirParam(ctx);
  const dir: Dir = asked ?? (orderBy === 'name' ? 'asc' : 'desc');
  const popularity = new Map<number, number>();
  for (const s of manufacturerSkus(ctx, m.id)) popularity.set(s.category_id, (popularity.get(s.category_id) ?? 0) + s.popularity);
  const found = [...popularity.keys()].map((id) => ctx.data.categories.get(id)).filter((c): c is CategoryRecord => c !== undefined);
  const names = nameOrder(ctx);
  const sorted =
    orderBy === 'name' ? sortBy(found, (a, b) => names.compare(a.name, b.name), dir, names.ties) : sortBy(found, (a, b) => popularity.get(a.id)! - popularity.get(b.id)!, dir);
  return respondMany(ctx, 'categories', sorted, (c) => serializeCategory(c, { view: 'list', version: ctx.version, fault: ctx.fault, variants: ctx.variants }));
}

/** Every manufacturer: by id, or by popularity (most popular first) under the variant. */
function allManufacturers(ctx: ApiContext): ManufacturerRecord[] {
  const all = [...ctx.data.manufacturers.values()].sort((a, b) => a.id - b.id);
  return defaultManufacturerOrder(ctx) === 'popularity' ? sortBy(all, (a, b) => a.popularity - b.popularity, 'desc') : all;
}

function skus(ctx: ApiContext): ApiResult {
  const m = { id: parentId(ctx) };
  const orderBy = enumParam(ctx, 'order_by', ['price', 'popularity'] as const) ?? (ctx.variants.has('manufacturer-skus-default-price') ? 'price' : 'popularity');
  const chosen: Dir = orderDirParam(ctx) ?? (orderBy === 'price' ? 'asc' : 'desc');
  // The bug: the price comparator is written the wrong way round.
  const dir: Dir = ctx.fault === 'manufacturer-skus-price-order-reversed' && orderBy === 'price' ? (chosen === 'asc' ? 'desc' : 'asc') : chosen;
  const byPriceMax = orderBy === 'price' && ctx.variants.has('manufacturer-skus-price-max');
  const price = (s: SkuRecord): number => (byPriceMax ? s.price_max : s.price_min);
  const compare = orderBy === 'price' ? (a: SkuRecord, b: SkuRecord) => price(a) - price(b) : (a: SkuRecord, b: SkuRecord) => a.popularity - b.popularity;
  const sorted = sortBy(manufacturerSkus(ctx, m.id), compare, dir);
  // Variant manufacturer-skus-price-max: by the highest offer, SKUs without offers last in either direction.
  const ordered = byPriceMax ? [...sorted.filter((s) => s.shop_count > 0), ...sorted.filter((s) => s.shop_count === 0)] : sorted;
  const result = respondMany(ctx, 'skus', ordered, (s) => serializeSku(s, ctx));
  if (ctx.fault === 'manufacturer-skus-total-counts-page') {
    // The bug: the count is taken from the page that is returned, not from the manufacturer's SKUs.
    const body = result.body as { skus: unknown[]; meta: { pagination: { total_results: number; total_pages: number; per: number } } };
    body.meta.pagination.total_results = body.skus.length;
    body.meta.pagination.total_pages = Math.ceil(body.skus.length / body.meta.pagination.per);
  }
  return result;
}

/** 301 to `path` under the API's base path, the query kept. */
function redirectTo(ctx: ApiContext, path: string): ApiResult {
  const target = new URL(ctx.url.href);
  target.pathname = `${ctx.url.pathname.slice(0, ctx.url.pathname.length - ctx.path.length)}${path}`;
  return { status: 301, headers: { Location: target.href } };
}

export const manufacturerRoutes: RouteModule = (router) => {
  router.get('/manufacturers', (ctx) => {
    const result = respondMany(ctx, 'manufacturers', allManufacturers(ctx), serializeManufacturer);
    // The bugs: this listing builds its pagination by hand, per as a string or the page from 0.
    const pagination = (result.body as { meta?: { pagination?: Record<string, unknown> } }).meta?.pagination;
    if (pagination && ctx.fault === 'manufacturers-per-as-string') pagination['per'] = String(pagination['per']);
    if (pagination && ctx.fault === 'manufacturers-page-zero-based') pagination['page'] = Number(pagination['page']) - 1;
    return result;
  });
  router.get('/manufacturers/:id', (ctx) => {
    // Variant manufacturer-canonical-redirect: the canonical address is /manufacturers/<id>-<slug of the name>.
    if (!ctx.variants.has('manufacturer-canonical-redirect')) return respondOne(ctx, 'manufacturer', findManufacturer(ctx, ctx.params['id']), serializeManufacturer);
    const raw = ctx.params['id'] ?? '';
    const m = findManufacturer(ctx, /^(\d{1,15})-[a-z0-9-]+$/.exec(raw)?.[1] ?? raw);
    const segment = `${m.id}-${slug(m.name)}`;
    return raw === segment ? respondOne(ctx, 'manufacturer', m, serializeManufacturer) : redirectTo(ctx, `/manufacturers/${segment}`);
  });
  router.get('/manufacturers/:id/categories', categories);
  router.get('/manufacturers/:id/skus', skus);
};
