// Notification serializer (spec "Notification" and "Events").
//
// Which keys an etype carries (the spec mixes "blank fields are present with value null" with
// "present when"):
// - sku, category_name and user are fields of every notification: the embedded object (or the
//   category name) where the Events section embeds it, null otherwise.
//   sku: price_up, price_drop, sku_review, availability_true, availability_false.
//   category_name: price_up, price_drop. user: sku_review.
//   Variant notification-keys-absent: each of the three is a key only where the etype embeds it.
// - review_rating and review_text, which the table says are "present when", are keys only then:
//   review_rating on every sku_review notification, review_text on non-aggregated ones (their
//   value may be null when the data has none).
// - The embedded Sku has category_id and first_product_shop_info (variant
//   notification-sku-minimal: not).

import { SKU_EMBED_ETYPES, type Dataset } from '../data.ts';
import type { FaultName } from '../faults.ts';
import type { NotificationEtype, NotificationRecord, SkuRecord } from '../model.ts';
import { NO_VARIANTS, type Variants } from '../variants.ts';
import { applyVersion, type ApiVersion } from '../versioning.ts';
import { serializeUserSummary } from './user.ts';
import { skuImages, skuShopInfo } from './sku-fields.ts';

type Json = Record<string, unknown>;

/** Etypes that carry category_name. */
export const PRICE_ETYPES: ReadonlySet<NotificationEtype> = new Set(['price_up', 'price_drop']);

/**
 * The embedded SKU, in the Notification table's order. category_id and first_product_shop_info
 * ("later also") are undated in the Change history; every served version has them.
 */
export function serializeNotificationSku(s: SkuRecord, variants: Variants = NO_VARIANTS): Json {
  const out: Json = {
    id: s.id,
    category_id: s.category_id,
    display_name: s.display_name,
    images: skuImages(s, variants),
    click_url: s.click_url,
    virtual: s.virtual,
    future: s.future,
    first_product_shop_info: skuShopInfo(s, variants),
  };
  // The fields the Events section lists first, without the "later also" ones.
  if (variants.has('notification-sku-minimal')) {
    delete out['category_id'];
    delete out['first_product_shop_info'];
  }
  return out;
}

/**
 * The snapshot: the four members on every etype (the reference); variant snapshot-price-only: {}
 * on the etypes that are no price change; variant change-rate-percent: change_rate as an
 * unsigned percentage (the etype tells the direction).
 */
function snapshotOf(n: NotificationRecord, variants: Variants): Json {
  if (!PRICE_ETYPES.has(n.etype) && variants.has('snapshot-price-only')) return {};
  const rate = variants.has('change-rate-percent') ? Math.round(Math.abs(n.snapshot.change_rate) * 1000) / 10 : n.snapshot.change_rate;
  return { ...n.snapshot, change_rate: rate };
}

/**
 * review_rating: the rating of the review concerned (the reference, the latest one on an
 * aggregated notification); on aggregated notifications, variant aggregated-review-rating-average
 * gives the mean rating of the SKU's reviews (one decimal), variant aggregated-review-rating-null null.
 */
function reviewRatingOf(n: NotificationRecord, data: Dataset, variants: Variants): number | null {
  if (!n.aggregated) return n.reviewRating;
  if (variants.has('aggregated-review-rating-null')) return null;
  if (!variants.has('aggregated-review-rating-average') || n.skuId === null) return n.reviewRating;
  const ratings = [...data.skuReviews.values()].filter((r) => r.sku_id === n.skuId).map((r) => r.rating);
  return ratings.length === 0 ? n.reviewRating : Math.round((10 * ratings.reduce((a, b) => a + b, 0)) / ratings.length) / 10;
}

export function serializeNotification(n: NotificationRecord, data: Dataset, version: ApiVersion, fault: FaultName | null, variants: Variants = NO_VARIANTS): Json {
  const sku = SKU_EMBED_ETYPES.has(n.etype) && n.skuId !== null ? data.skus.get(n.skuId) : undefined;
  const hasCategoryName = PRICE_ETYPES.has(n.etype);
  // The category of the event: the SKU's, unless the notification kept the one it was in then (which may be gone).
  const categoryName = hasCategoryName && sku ? (data.categories.get(n.categoryId ?? sku.category_id)?.name ?? null) : null;
  const reviewer = n.etype === 'sku_review' && n.reviewUserId !== null ? data.users.get(n.reviewUserId) : undefined;
  const out: Json = {
    id: n.id,
    etype: n.etype,
    eventable_id: n.eventable_id,
    eventable_type: n.eventable_type,
    eventable_name: n.eventable_name,
    eventable_url: n.eventable_url,
    event_text: n.event_text,
    snapshot: snapshotOf(n, variants),
    is_viewed: n.is_viewed,
    aggregated: n.aggregated,
    created_at: n.created_at,
    updated_at: n.updated_at,
    sku: sku ? serializeNotificationSku(sku, variants) : null,
    category_name: categoryName,
    // Variant aggregated-review-user-null: an aggregated notification stands for several reviewers, so it names none.
    user: reviewer && !(n.aggregated && variants.has('aggregated-review-user-null')) ? serializeUserSummary(reviewer, variants) : null,
  };
  // Before 3.0.9 (variant implements-3.0.0): the fields that row removed (applyVersion keeps them only there).
  Object.assign(out, { user_notified: true, user_id: n.userId, subscription_id: null, mail_event: false });
  // The bug: only price_up is treated as a price notification, so price_drop gets no category_name key.
  if (fault === 'price-drop-notification-without-category-name' && n.etype === 'price_drop') delete out['category_name'];
  // The bug: the reviewing user is looked up but never embedded: the key is left out.
  if (fault === 'sku-review-notification-without-user' && n.etype === 'sku_review') delete out['user'];
  if (variants.has('notification-keys-absent')) {
    // Keys by etype (the Events section), whatever the value; a fault may still leave one null.
    if (!SKU_EMBED_ETYPES.has(n.etype)) delete out['sku'];
    if (!PRICE_ETYPES.has(n.etype)) delete out['category_name'];
    if (n.etype !== 'sku_review') delete out['user'];
  }
  if (n.etype === 'sku_review') {
    out['review_rating'] = reviewRatingOf(n, data, variants);
    if (!n.aggregated) out['review_text'] = n.reviewText;
  }
  return applyVersion('notification', out, version);
}
