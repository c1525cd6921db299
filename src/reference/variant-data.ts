// The dataset as a deployment making a variant's choice holds it: some legal variants
// (variants/products-readings.ts) describe data the generated dataset lacks (a location without
// coordinates, a shop sold online only, a product whose shop has gone), so the server started
// with them reshapes its dataset once, before serving. Every endpoint then agrees, as it reads
// the same records.

import type { Dataset } from './data.ts';
import type { LocationRecord, ShopRecord, ShopReviewRecord } from './model.ts';
import type { Variants } from './variants.ts';
import { withAccountVariantData } from './variant-data-account.ts';
import { withCatalogVariantData } from './variant-data-catalog.ts';

/** The shops in id order, the big one (more than 25 locations, kept for pagination) left out. */
function ordinaryShops(data: Dataset): ShopRecord[] {
  return [...data.shops.values()].filter((s) => s.locationIds.length <= 25).sort((a, b) => a.id - b.id);
}

function dropLocations(data: Dataset, shop: ShopRecord): void {
  const locations = data.locations as Map<number, LocationRecord>;
  for (const id of shop.locationIds) locations.delete(id);
  shop.locationIds = [];
}

/** Applies the variants' data choices to a freshly created dataset; returns it. */
export function withVariantData(data: Dataset, variants: Variants): Dataset {
  // An unstructured (free-text) location was never geocoded: no coordinates ('' shows as null).
  if (variants.has('location-coordinates-null')) {
    for (const l of data.locations.values()) if (l.format === 'unstructured') Object.assign(l, { lat: '', lng: '' });
  }
  // One shop sells online only: it has no location at all, so no distance to it is known.
  if (variants.has('distance-filter-keeps-unlocated') || variants.has('shipping-cost-null-unknown-distance')) {
    const online = ordinaryShops(data)[1];
    if (online) dropLocations(data, online);
  }
  // One shop has left the platform: its record, locations and reviews are gone, its products remain.
  if (variants.has('product-shop-gone')) {
    const gone = ordinaryShops(data)[2];
    if (gone) {
      dropLocations(data, gone);
      const reviews = data.shopReviews as Map<number, ShopReviewRecord>;
      for (const r of [...reviews.values()]) if (r.shopId === gone.id) reviews.delete(r.id);
      (data.shops as Map<number, ShopRecord>).delete(gone.id);
    }
  }
  withAccountVariantData(data, variants);
  withCatalogVariantData(data, variants);
  return data;
}
