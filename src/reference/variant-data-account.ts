// The dataset as a deployment making one of the account variants' choices holds it
// (variants/account-readings.ts; see variant-data.ts): a user without an avatar or outside the
// loyalty scheme, an address made on the web site without a label, reviews that are a rating
// alone. The server started with them reshapes its dataset once, before serving.

import type { Dataset } from './data.ts';
import type { Variants } from './variants.ts';

/** Applies the account variants' data choices to a freshly created dataset. */
export function withAccountVariantData(data: Dataset, variants: Variants): void {
  const demo = data.users.get(data.demoUserId);
  // The demo user never set an avatar.
  if (demo && variants.has('user-without-avatar')) demo.avatar = null;
  // The demo user has not joined the loyalty scheme: no tier, no points.
  if (demo && variants.has('user-outside-loyalty')) Object.assign(demo, { loyalty_tier_level: null, total_acquired_points: null });
  // The demo user's last address (not the personalization's) was made on the web site, without a label.
  if (variants.has('address-made-elsewhere')) {
    const home = data.personalization.get(data.demoUserId)?.location.address_id;
    const mine = [...data.addresses.values()].filter((a) => a.userId === data.demoUserId && a.id !== home).sort((a, b) => b.id - a.id);
    if (mine[0]) mine[0].label = null;
  }
  if (variants.has('rating-only-reviews')) ratingOnlyReviews(data);
  // The demo user never personalised: a quick address with no place ('' is shown as null), so no distance is known.
  const personalization = data.personalization.get(data.demoUserId);
  if (personalization && variants.has('personalization-unset-location-null')) {
    personalization.location = { address_id: null, label: '', lat: '', lng: '', type: 'quick_address', country_code: personalization.location.country_code };
  }
  // Auto lists are derived from the favorites: none is empty.
  if (variants.has('auto-lists-virtual')) {
    const held = new Set([...data.favorites.values()].map((f) => f.favorite_list_id));
    for (const l of [...data.favoriteLists.values()]) if (l.type === 'auto' && !held.has(l.id)) data.favoriteLists.delete(l.id);
  }
  // The SKU of the demo user's first price notification was in a category since deleted (it has moved on): the notification keeps that category's id.
  if (variants.has('notification-category-gone')) {
    const priced = [...data.notifications.values()].filter((n) => n.userId === data.demoUserId && (n.etype === 'price_drop' || n.etype === 'price_up')).sort((a, b) => a.id - b.id);
    if (priced[0]) priced[0].categoryId = Math.max(...data.categories.keys()) + 1;
  }
}

/**
 * Some reviews are a rating alone (text null): every seventh by id, and the review of the first
 * non-aggregated sku_review notification, whose review_text is then null too.
 */
function ratingOnlyReviews(data: Dataset): void {
  const reviewOf = (skuId: number | null, userId: number | null) => [...data.skuReviews.values()].find((r) => r.sku_id === skuId && r.user_id === userId);
  const told = [...data.notifications.values()].filter((n) => n.etype === 'sku_review' && !n.aggregated).sort((a, b) => a.id - b.id);
  const first = told[0] ? reviewOf(told[0].skuId, told[0].reviewUserId) : undefined;
  for (const r of data.skuReviews.values()) if (r.id % 7 === 0 || r === first) r.review = null;
  for (const n of told) if (reviewOf(n.skuId, n.reviewUserId)?.review === null) n.reviewText = null;
}
