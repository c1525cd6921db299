// Serializers of the user area: User, User address, Saved order, Personalization (spec
// "Resources and their fields"). Blank fields are present with value null.

import type { Dataset } from '../data.ts';
import type { FaultName } from '../faults.ts';
import type { AddressRecord, PersonalizationRecord, SavedOrderRecord, UserRecord } from '../model.ts';
import { NO_VARIANTS, type Variants } from '../variants.ts';
import { applyVersion, type ApiVersion } from '../versioning.ts';

type Json = Record<string, unknown>;

/** Variant avatar-uris-protocol-relative: avatar URIs are written as network-path references (//host/path), whatever the scheme. */
export function avatarUri<T extends string | null>(uri: T, variants: Variants): T {
  if (uri === null) return uri;
  return variants.has('avatar-uris-protocol-relative') ? (uri.replace(/^[a-z][a-z0-9+.-]*:(?=\/\/)/i, '') as T) : uri;
}

/**
 * email_notifications as this server shows them: every setting (the reference); variant
 * email-settings-applicable-only: the review e-mails only to a user who has written such reviews;
 * variant email-settings-some-undescribed: the settings that need no explaining have description null.
 */
function emailSettings(u: UserRecord, variants: Variants): Json[] {
  const applies = (field: string): boolean =>
    !variants.has('email-settings-applicable-only') ||
    (field === 'sku_review_email' ? u.stats.sku_review_count > 0 : field === 'shop_review_email' ? u.stats.shop_review_count > 0 : true);
  const undescribed = (field: string): boolean => variants.has('email-settings-some-undescribed') && (field === 'notifications' || field === 'mail_events');
  return u.email_notifications.filter((n) => applies(n.field)).map((n) => ({ ...n, ...(undescribed(n.field) ? { description: null } : {}) }));
}

/** Every field of the User table, in its order; fields the version lacks are removed. */
export function serializeUser(u: UserRecord, version: ApiVersion, fault: FaultName | null, variants: Variants = NO_VARIANTS): Json {
  const out: Json = {
    id: u.id,
    username: u.username,
    // Removed in 3.0.23 (variant implements-3.0.22 serves it): the user's name, here the username.
    name: u.username,
    type: u.type,
    sex: u.sex,
    avatar: avatarUri(u.avatar, variants),
    created_at: u.created_at,
    email: u.email,
    birthyear: u.birthyear,
    mobile: u.mobile,
    // Variant comment-count-unknown: this server keeps no comments, so sku_comment_count is unknown (null).
    stats: { ...u.stats, ...(variants.has('comment-count-unknown') ? { sku_comment_count: null } : {}) },
    email_notifications: emailSettings(u, variants),
    is_staff: u.is_staff,
    resend_verification_email: u.resend_verification_email,
    loyalty_tier_level: u.loyalty_tier_level,
    total_acquired_points: u.total_acquired_points,
  };
  // The bug: email is gated on a later version than the 3.2.0 of the Change history.
  if (fault === 'user-email-missing-in-3-2') delete out['email'];
  return applyVersion('user', out, version);
}

/** A user as other resources embed it (notification `user`: id, username, avatar). */
export function serializeUserSummary(u: UserRecord, variants: Variants = NO_VARIANTS): Json {
  return { id: u.id, username: u.username, avatar: avatarUri(u.avatar, variants) };
}

/** A user address; lat and lng are null under the variant address-coordinates-null (nothing geocoded). */
export function serializeAddress(a: AddressRecord, data: Dataset, fault: FaultName | null, variants: Variants = NO_VARIANTS): Json {
  const geocoded = !variants.has('address-coordinates-null');
  return {
    id: a.id,
    label: a.label,
    first_name: a.first_name,
    last_name: a.last_name,
    street_name: a.street_name,
    street_number: a.street_number,
    city: a.city,
    zip: a.zip,
    // The bug: the form's region_id is echoed instead of the region name.
    region: fault === 'address-region-as-id' ? (data.regions[a.region] ?? a.region) : a.region,
    phone: a.phone,
    mobile: a.mobile,
    lng: geocoded ? a.lng : null,
    lat: geocoded ? a.lat : null,
  };
}

export function serializeSavedOrder(o: SavedOrderRecord): Json {
  return {
    date: o.date,
    products_cost: o.products_cost,
    shipping_cost: o.shipping_cost,
    total_cost: o.total_cost,
    line_items: o.line_items.map((li) => ({
      name: li.name,
      quantity: li.quantity,
      price: li.price,
      image: li.image,
      sku_id: li.sku_id,
      product_id: li.product_id,
      category_id: li.category_id,
    })),
    shop_id: o.shop_id,
    order_code: o.order_code,
  };
}

export function serializePersonalization(p: PersonalizationRecord): Json {
  return {
    location: {
      address_id: p.location.address_id,
      // A location never set (variant personalization-unset-location-null) holds '' here: blank, so null.
      label: p.location.label === '' ? null : p.location.label,
      lat: p.location.lat === '' ? null : p.location.lat,
      lng: p.location.lng === '' ? null : p.location.lng,
      type: p.location.type,
      country_code: p.location.country_code,
    },
    payment_method: { type: p.payment_method.type },
  };
}
