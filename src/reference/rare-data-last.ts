// Test setting rareDataLast (ReferenceOptions): the dataset with its rare items where a client
// meets them last. The discovery self-test (issue 38 point 4) needs a server whose only future
// SKU sits on the last page of the last leaf (GET /categories order) and whose only unstructured
// location sits on the last page of the shop with more than 25 locations, so that discovery
// that stops early (first pages, first leaves, first shops) visibly misses them. The generated
// dataset scatters both kinds, so the server started with the setting reshapes its dataset once,
// before serving (as variant-data.ts does); every endpoint then agrees.

import type { Dataset } from './data.ts';
import type { CategoryRecord, LocationRecord, ProductRecord, SkuRecord } from './model.ts';
import type { ApiContext } from './router.ts';
import { skuOrdering } from './routes/category-skus.ts';
import { sortBy, type Dir } from './routes/listing.ts';
import { NO_VARIANTS } from './variants.ts';
import { LATEST_VERSION } from './versioning.ts';

/**
 * The key and direction of the default orders that do not sort by price (routes/category-skus.ts
 * skuKey and DEFAULT_DIRS, without variants). A price order is left out: a future SKU is priced
 * 0, so turning one future would move it to the front.
 */
const UNPRICED_ORDERS: Readonly<Record<string, { key: (s: SkuRecord) => number; dir: Dir }>> = {
  rank: { key: (s) => s.rank, dir: 'asc' },
  rating: { key: (s) => s.reviewscore, dir: 'desc' },
  popularity: { key: (s) => s.popularity, dir: 'desc' },
};

/** The leaf's SKUs in its default order (the listing's without order_by or variants); null when that order is by price. */
function defaultOrder(data: Dataset, leaf: CategoryRecord): SkuRecord[] | null {
  // skuOrdering reads the version and the variants alone; every served version has the same default key.
  const ctx: Pick<ApiContext, 'variants' | 'version'> = { variants: NO_VARIANTS, version: LATEST_VERSION };
  const order = UNPRICED_ORDERS[skuOrdering(ctx as ApiContext, leaf).defaultMethod];
  if (!order) return null;
  const skus = [...data.skus.values()].filter((s) => s.category_id === leaf.id);
  return sortBy(skus, (a, b) => order.key(a) - order.key(b), order.dir);
}

/**
 * Whether the SKU can turn future with nothing else to change: no reviews (future SKUs have
 * none), no saved order line, no favorite price threshold and no notification about it, and
 * another SKU of its leaf keeps offers.
 */
function canTurnFuture(data: Dataset, sku: SkuRecord, leafSkus: readonly SkuRecord[]): boolean {
  if (sku.reviews_count > 0 || [...data.skuReviews.values()].some((r) => r.sku_id === sku.id)) return false;
  if (data.savedOrders.some((o) => o.line_items.some((li) => li.sku_id === sku.id))) return false;
  if ([...data.favorites.values()].some((f) => f.sku_id === sku.id && f.get_absolute_threshold !== null)) return false;
  if ([...data.notifications.values()].some((n) => n.skuId === sku.id || (n.eventable_type === 'Sku' && n.eventable_id === sku.id))) return false;
  return leafSkus.some((s) => s !== sku && s.shop_count > 0);
}

/** The SKU to turn future: the last of its leaf's default order, in the last leaf (GET /categories order) where that works. */
function chooseFutureSku(data: Dataset): SkuRecord {
  const leaves = data.categoryList.filter((c) => c.childIds.length === 0);
  for (const leaf of [...leaves].reverse()) {
    const ordered = defaultOrder(data, leaf);
    const last = ordered?.[ordered.length - 1];
    if (ordered && last && canTurnFuture(data, last, ordered)) return last;
  }
  throw new Error(`dataset ${data.name}: no leaf whose last SKU can turn future`);
}

/** The ids of the leaf's filters of one filter type (0 price bands, 5 sizes), with their labels. */
function leafFilters(data: Dataset, categoryId: number, filterType: number): Map<number, string> {
  const out = new Map<number, string>();
  for (const g of data.filterGroups.values()) if (g.category_id === categoryId && g.filter_type === filterType) for (const [id, label] of g.filters) out.set(id, label);
  return out;
}

/** Sets the SKU's sizes, and its size filters to match them (data/catalog.ts assignFilters). */
function setSizes(data: Dataset, sku: SkuRecord, sizes: string[]): void {
  const sizeFilters = leafFilters(data, sku.category_id, 5);
  sku.sizes = sizes;
  const kept = sku.filterIds.filter((id) => !sizeFilters.has(id));
  sku.filterIds = [...kept, ...[...sizeFilters].filter(([, label]) => sizes.includes(label)).map(([id]) => id)].sort((a, b) => a - b);
}

/** A generated future SKU (data/catalog.ts): no products, prices 0, no click URL or shop info, no price band, sizes announced. */
function turnFuture(data: Dataset, sku: SkuRecord): void {
  const products = data.products as Map<number, ProductRecord>;
  for (const p of [...products.values()]) if (p.sku_id === sku.id) products.delete(p.id);
  Object.assign(sku, { future: true, price_min: 0, price_max: 0, shop_count: 0, click_url: null, first_product_shop_info: null, unit_price: null });
  const priceBands = leafFilters(data, sku.category_id, 0);
  sku.filterIds = sku.filterIds.filter((id) => !priceBands.has(id));
  // Future SKUs of sized leaves announce the third to sixth sizes (the size filter group lists every size in order).
  if (sku.sizes !== null) setSizes(data, sku, [...leafFilters(data, sku.category_id, 5).values()].slice(2, 6));
}

/** The shop with the most locations (the one with more than 25, data/shops.ts makeLocations); ties: the first. */
function bigShopLocations(data: Dataset): LocationRecord[] {
  const shops = [...data.shops.values()];
  const big = shops.reduce<(typeof shops)[number] | undefined>((a, b) => (a === undefined || b.locationIds.length > a.locationIds.length ? b : a), undefined);
  return big ? locationsOf(data, big.id) : [];
}

/** A shop's locations in the order GET /shops/:shop_id/locations lists them (id order). */
function locationsOf(data: Dataset, shopId: number): LocationRecord[] {
  return [...data.locations.values()].filter((l) => l.shopId === shopId).sort((a, b) => a.id - b.id);
}

/** As a generated unstructured location: a free-text address, every address field but id null. */
function turnUnstructured(location: LocationRecord, blankCoordinates: boolean): void {
  if (location.format === 'unstructured') return;
  location.full_address = `Unit 12, retail park near ${location.address.city ?? 'the centre'}`;
  location.format = 'unstructured';
  location.address = { id: location.address.id, street_number: null, street: null, postcode: null, city: null, region: null, country: null };
  if (blankCoordinates) Object.assign(location, { lat: '', lng: '' });
}

/** Structured at the address and coordinates of another location of its shop (its own address id kept). */
function turnStructured(location: LocationRecord, model: LocationRecord): void {
  location.format = 'structured';
  location.full_address = model.full_address;
  location.address = { ...model.address, id: location.address.id };
  location.lat = model.lat;
  location.lng = model.lng;
}

/** Reshapes the dataset (in place, once, before serving): one future SKU, one unstructured location, both listed last. Returns it. */
export function withRareDataLast(data: Dataset): Dataset {
  const future = chooseFutureSku(data);
  for (const sku of data.skus.values()) {
    if (sku === future || !sku.future) continue;
    // A SKU without offers: as a generated SKU that is not future, its sizes are its offers' (none).
    sku.future = false;
    if (sku.sizes !== null) setSizes(data, sku, []);
  }
  turnFuture(data, future);

  const unstructured = [...data.locations.values()].filter((l) => l.format === 'unstructured');
  // Under the variant location-coordinates-null the generated unstructured locations have no coordinates.
  const blankCoordinates = unstructured.length > 0 && unstructured.every((l) => l.lat === '' && l.lng === '');
  const target = bigShopLocations(data).at(-1);
  for (const l of unstructured) {
    if (l === target) continue;
    const model = locationsOf(data, l.shopId).find((x) => x.format === 'structured' && x !== target);
    if (model) turnStructured(l, model);
  }
  if (target) turnUnstructured(target, blankCoordinates);
  return data;
}
