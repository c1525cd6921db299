// The spec's Change history as one table: every version, its date and its requirement id (read
// from the catalogue's CHG rows, which quote the table), and the behaviours and endpoints each
// version brought, by name. Every version-dependent check of the kit asks this table (through
// VersionScope, ./version-scope.ts) whether the version a deployment serves has a feature; fields
// a version added are the schemas' `x-since`, which a test holds to the same rows.
import { requirements } from '../requirements/catalogue.ts';
import { compareVersions } from '../util/version.ts';

export interface ChangeRow {
  /** major.minor.patch */
  version: string;
  /** YYYY-MM-DD, as the table gives it (its dates are not always in order: CHG-24). */
  date: string;
  /** The requirement quoting the row (CHG-n). */
  requirement: string;
  /** The row's list of changes. */
  changes: string;
}

const ROW = /^\|\s*(\d+\.\d+\.\d+)\s*\|\s*(\d{4}-\d{2}-\d{2})\s*\|\s*(.+?)\s*\|$/;

let rows: ChangeRow[] | undefined;

/** The Change history, newest first, as the spec lists it: one row per version, from the CHG requirements. */
export function changeHistory(): readonly ChangeRow[] {
  if (rows) return rows;
  const found: ChangeRow[] = [];
  for (const r of requirements().values()) {
    if (!r.id.startsWith('CHG-') || r.quote.length !== 1) continue;
    const m = ROW.exec(r.quote[0]!.trim());
    if (m && !found.some((f) => f.version === m[1])) found.push({ version: m[1]!, date: m[2]!, requirement: r.id, changes: m[3]! });
  }
  found.sort((a, b) => compareVersions(b.version, a.version));
  return (rows = found);
}

/** The row of a version, or undefined for a version the history does not list (3.0.0, the base). */
export function changeRow(version: string): ChangeRow | undefined {
  return changeHistory().find((r) => r.version === version);
}

/** The newest version of the Change history: what a deployment implements unless CATALOGUE_IMPLEMENTS says otherwise. */
export function newestVersion(): string {
  return changeHistory()[0]?.version ?? '3.0.0';
}

/**
 * Behaviours and endpoints the Change history dates, by the name the kit's checks use. `phrase`
 * is the words of the version's row that name it (a test holds each phrase to its row).
 */
export const FEATURES = {
  'shop-product-search': { since: '3.0.1', phrase: 'shop product search by shop_uid' },
  'reviews-recent-non-demoted-first': { since: '3.0.2', phrase: 'SKU reviews: most recent non-demoted first' },
  'filter-groups-cached': { since: '3.0.3', phrase: 'filter groups cached for 5 minutes' },
  'search-meta-q': { since: '3.0.4', phrase: 'q in search meta' },
  'future-skus-no-products': { since: '3.0.5', phrase: 'future SKUs return an empty product list' },
  'category-path': { since: '3.0.7', phrase: 'path on Category' },
  'sku-order-by-rating': { since: '3.0.8', phrase: 'ordering SKUs by rating' },
  'notification-embeds': { since: '3.0.10', phrase: 'notification associations embedded' },
  'notifications-view': { since: '3.0.11', phrase: 'POST /notifications/view' },
  'notification-review-rating': { since: '3.0.12', phrase: 'review_rating on sku_review notifications' },
  'price-history': { since: '3.0.15', phrase: 'price_history endpoint' },
  'location-format': { since: '3.0.16', phrase: 'format on Location' },
  'review-votes': { since: '3.0.17', phrase: 'review votes endpoint' },
  'review-flags': { since: '3.0.21', phrase: 'flagged' },
  'review-score-rounded': { since: '3.0.23', phrase: 'review_score rounded to 1 decimal' },
  'specifications-ordered': { since: '3.0.23', phrase: 'order on specifications (returned in order)' },
  'sku-rating-breakdown': { since: '3.0.23', phrase: 'sku_rating_breakdown' },
  'shop-rating-breakdown': { since: '3.0.23', phrase: 'shop_rating_breakdown' },
  'minor-versions': { since: '3.1.0', phrase: 'minor-version support' },
  'normalized-errors': { since: '3.1.0', phrase: 'normalized error format' },
  'favorited-on-category-skus': { since: '3.1.0', phrase: 'favorited on Category Skus' },
  'sparse-fieldsets': { since: '3.1.1', phrase: 'sparse fieldsets' },
  'category-specifications': { since: '3.1.1', phrase: 'category specifications endpoint' },
  'review-aggregation': { since: '3.1.3', phrase: 'sku reviews aggregation meta' },
  'most-helpful-sort': { since: '3.1.3', phrase: 'sorting by most_helpful' },
  'own-review': { since: '3.1.3', phrase: 'own_review' },
  'review-writes': { since: '3.2.0', phrase: 'SKU review create, update, delete' },
  'address-writes': { since: '3.2.0', phrase: 'user address create, update, delete' },
  'product-blp': { since: '3.2.0', phrase: 'blp on Product' },
  'too-new-no-history': { since: '3.2.0', phrase: 'no price history for too-new SKUs' },
  'oem-hidden-for-tiles': { since: '3.2.0', phrase: 'OEM manufacturers are not returned for tiles-layout categories' },
  'profile-update': { since: '3.2.0', phrase: 'profile update' },
  'saved-orders': { since: '3.2.0', phrase: 'saved orders list' },
  'full-description': { since: '3.2.0', phrase: 'full_description in SKU specifications meta' },
  'dynamic-order-methods': { since: '3.2.0', phrase: 'dynamic order_by methods in category SKUs' },
  'adult-content-shown': { since: '3.2.0', phrase: 'adult content shown in Category and Search' },
  'owned-excluded-by-default': { since: '3.2.0', phrase: 'favorites listings exclude owned favorites unless owned=true' },
  'sku-listing-filters': { since: '3.2.1', phrase: 'SKU listing filters by shop_id, distance, availability' },
  'product-filters': { since: '3.2.1', phrase: 'SKU products filters by size, distance, availability, zero_installments' },
} as const satisfies Record<string, { since: string; phrase: string }>;

export type Feature = keyof typeof FEATURES;

const CATEGORY_REMOVED = { show_in_tiles: '3.0.18' };
/**
 * Fields a row of the Change history removes ("name removed from User", "layout_mode ... replaces
 * show_in_tiles", "user_notified, user_id, subscription_id, mail_event removed"), by the schema
 * of the resource, with the version that removed them: an answer of an older version may carry
 * them, documented then.
 */
export const REMOVED_FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'resources/user.json': { name: '3.0.23' },
  'resources/category.json': CATEGORY_REMOVED,
  'resources/category-detail.json': CATEGORY_REMOVED,
  'resources/search-category.json': CATEGORY_REMOVED,
  'resources/notification.json': { user_notified: '3.0.9', user_id: '3.0.9', subscription_id: '3.0.9', mail_event: '3.0.9' },
};

/** Whether `field` of the resource `schemaId` documents was removed by a version later than the one served (`serves`): documented then. */
export function removedLater(schemaId: string, field: string, serves: (since: string) => boolean): boolean {
  const removedIn = REMOVED_FIELDS[schemaId]?.[field];
  return removedIn !== undefined && !serves(removedIn);
}

/** The version a feature came with. */
export function featureSince(feature: Feature): string {
  return FEATURES[feature].since;
}
