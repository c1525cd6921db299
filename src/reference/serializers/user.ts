// Serializers of the user area: User, User address, Saved order, Personalization (spec
// "Resources and their fields"). Blank fields are present with value null.

import type { Dataset } from '../data.ts';
import type { FaultName } from '../faults.ts';
import type { AddressRecord, PersonalizationRecord, SavedOrderRecord, UserRecord } from '../model.ts';
import { NO_VARIANTS, type Variants } from '../variants.ts';
import { applyVersion, type ApiVersion } from '../versioning.ts';

type Json = Record<string, unknown>;

/** Every field of the User table, in its order; fields the version lacks are removed. */
export function serializeUser(u: UserRecord, version: ApiVersion, fault: FaultName | null): Json {
  const out: Json = {
    id: u.id,
    username: u.username,
    type: u.type,
    sex: u.sex,
    avatar: u.avatar,
    created_at: u.created_at,
    email: u.email,
    birthyear: u.birthyear,
    mobile: u.mobile,
    stats: { ...u.stats },
    email_notifications: u.email_notifications.map((n) => ({ ...n })),
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
export function serializeUserSummary(u: UserRecord): Json {
  return { id: u.id, username: u.username, avatar: u.avatar };
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
      label: p.location.label,
      lat: p.location.lat,
      lng: p.location.lng,
      type: p.location.type,
      country_code: p.location.country_code,
    },
    payment_method: { type: p.payment_method.type },
  };
}
