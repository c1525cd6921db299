// Users and what they own besides reviews (reviews.ts) and favorites (favorites.ts): regions and
// avatar presets, addresses (and the geocoder that places them), personalization and saved
// orders. The demo user (the one every user token belongs to) gets a full set of each; a few
// other users get some, so that "only the user's own records" is testable.

import { createHash } from 'node:crypto';
import type {
  AddressRecord,
  EmailNotificationSetting,
  PersonalizationRecord,
  ProductRecord,
  SavedOrderLineItem,
  SavedOrderRecord,
  ShopRecord,
  SkuRecord,
  UserRecord,
} from '../model.ts';
import { DAY_MS, round2, slug, ts, type GenContext } from './context.ts';
import { nearestRegion, type Point } from './shops.ts';

/** The five e-mail settings of every user (spec "User"). */
const EMAIL_SETTINGS: readonly Omit<EmailNotificationSetting, 'enabled'>[] = [
  { field: 'notifications', label: 'Notifications', description: 'Price and availability alerts for your favorites' },
  { field: 'mail_events', label: 'News and offers', description: 'Occasional news about the service' },
  { field: 'sku_review_email', label: 'Product reviews', description: 'When someone reviews a product you favorited' },
  { field: 'shop_review_email', label: 'Shop reviews', description: 'Replies of shops to your reviews' },
  { field: 'smart_cart_email', label: 'Smart cart', description: 'Reminders about items left in your cart' },
];

const USER_TYPES = ['catalogue', 'open_id', 'facebook', 'google', 'apple'] as const;

export function makeRegions(ctx: GenContext): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of ctx.names.regions) out[name] = ctx.ids.next('region');
  return out;
}

export function makeAvatars(ctx: GenContext): string[] {
  return ctx.names.avatars.map((file) => ctx.url('img', `/avatars/presets/${file}`));
}

export function makeUsers(ctx: GenContext, avatars: readonly string[]): { users: Map<number, UserRecord>; demoUserId: number } {
  const rnd = ctx.stream('users');
  const out = new Map<number, UserRecord>();
  const demo = ctx.names.demoUser;
  const demoId = ctx.ids.next('user');
  out.set(demoId, {
    id: demoId,
    username: demo.username,
    type: 'catalogue',
    sex: 'female',
    avatar: avatars[0]!,
    created_at: ts(ctx.now - 3 * 365 * DAY_MS - 17 * DAY_MS),
    email: demo.email,
    birthyear: 1988,
    mobile: ctx.name === 'default' ? '+44 7700 900123' : '+39 320 555 0142',
    stats: { sku_review_count: 0, shop_review_count: 0, sku_comment_count: 2, received_votes: 0 },
    // A mix, so that a client can see both states.
    email_notifications: EMAIL_SETTINGS.map((s, i) => ({ ...s, enabled: i !== 1 && i !== 4 })),
    is_staff: false,
    resend_verification_email: false,
    loyalty_tier_level: 2,
    total_acquired_points: 1340,
  });
  const count = ctx.name === 'default' ? 43 : 37;
  const taken = new Set([demo.username]);
  for (let i = 0; i < count; i++) {
    const id = ctx.ids.next('user');
    const first = rnd.pick(ctx.names.firstNames);
    const last = rnd.pick(ctx.names.lastNames);
    let username = '';
    do username = `${first.toLowerCase()}_${slug(last).replace(/-/g, '')}${rnd.int(1, 99)}`;
    while (taken.has(username));
    taken.add(username);
    out.set(id, {
      id,
      username,
      type: rnd.pick(USER_TYPES),
      sex: rnd.pick(['male', 'female', null] as const),
      avatar: rnd.chance(0.5) ? rnd.pick(avatars) : ctx.url('img', `/avatars/uploads/${id}.jpg`),
      created_at: ts(ctx.now - rnd.int(30, 3000) * DAY_MS - rnd.int(0, 86_399) * 1000),
      email: `${username}@mail.${ctx.names.host}`,
      birthyear: rnd.chance(0.3) ? null : rnd.int(1950, 2005),
      mobile: rnd.chance(0.5) ? null : `+${rnd.int(30, 49)} ${rnd.int(300, 399)} ${rnd.int(1000000, 9999999)}`,
      stats: { sku_review_count: 0, shop_review_count: 0, sku_comment_count: rnd.int(0, 6), received_votes: 0 },
      email_notifications: EMAIL_SETTINGS.map((s) => ({ ...s, enabled: rnd.chance(0.6) })),
      is_staff: i === 3, // one staff member among the reviewers
      resend_verification_email: rnd.chance(0.1),
      loyalty_tier_level: rnd.int(0, 4),
      total_acquired_points: rnd.int(0, 5000),
    });
  }
  return { users: out, demoUserId: demoId };
}

/** The address fields the geocoder reads. */
export type GeocodeInput = Pick<AddressRecord, 'region' | 'city' | 'zip' | 'street_name' | 'street_number'>;

/**
 * The simulated geocoder: a deterministic point (6 decimals) within about 20 km of the address's
 * region point (data/shops.ts regionCentres), varying with the street, number, zip and city;
 * `fallback` stands in for the region point when the region has none. Used for the generated
 * addresses and for those created or moved by requests (routes/user.ts).
 */
export function geocodeAddress(centres: Readonly<Record<string, Point>>, a: GeocodeInput, fallback: Point): { lat: string; lng: string } {
  const anchor = centres[a.region] ?? fallback;
  const h = createHash('sha256').update([a.region, a.city, a.zip, a.street_name, a.street_number].join('|')).digest();
  const offset = (i: number, span: number): number => (h.readUInt16BE(i) / 0xffff - 0.5) * span;
  return { lat: (anchor.lat + offset(0, 0.25)).toFixed(6), lng: (anchor.lng + offset(2, 0.35)).toFixed(6) };
}

function kmBetween(a: Point, b: Point): number {
  const k = Math.cos((((a.lat + b.lat) / 2) * Math.PI) / 180);
  return 111.2 * Math.hypot(a.lat - b.lat, (a.lng - b.lng) * k);
}

/** The region whose point is farthest from `from` (ties: fixture order). */
function farthestRegion(centres: Readonly<Record<string, Point>>, from: Point): string {
  return Object.entries(centres).reduce((best, cur) => (kmBetween(cur[1], from) > kmBetween(best[1], from) ? cur : best))[0];
}

/**
 * Three addresses for the demo user, in regions far apart, so that moving the personalization
 * between them changes blp: Home in the region at the map centre, Work in the region farthest
 * from it (a corner of the map), Parents in the region farthest from Work (the opposite side;
 * no coordinates until geocoded). One address each for some other users, in a random region.
 */
export function makeAddresses(
  ctx: GenContext,
  users: ReadonlyMap<number, UserRecord>,
  demoUserId: number,
  centre: Point,
  centres: Readonly<Record<string, Point>>,
): Map<number, AddressRecord> {
  const rnd = ctx.stream('addresses');
  const out = new Map<number, AddressRecord>();
  const demo = ctx.names.demoUser;
  const add = (userId: number, label: string, first: string, last: string, region: string, coords: boolean): void => {
    const id = ctx.ids.next('address');
    const base = {
      id,
      label,
      first_name: first,
      last_name: last,
      street_name: rnd.pick(ctx.names.streets),
      street_number: String(rnd.int(1, 180)),
      city: rnd.pick(ctx.names.cities),
      zip: ctx.name === 'default' ? `${rnd.int(10, 99)}${rnd.int(100, 999)}` : String(rnd.int(10000, 99999)),
      region,
      phone: rnd.chance(0.5) ? `+${rnd.int(30, 49)} ${rnd.int(10, 99)} ${rnd.int(100000, 999999)}` : null,
      mobile: rnd.chance(0.6) ? `+${rnd.int(30, 49)} ${rnd.int(300, 399)} ${rnd.int(1000000, 9999999)}` : null,
      userId,
    };
    const point = coords ? geocodeAddress(centres, base, centre) : null;
    out.set(id, { ...base, lat: point?.lat ?? null, lng: point?.lng ?? null });
  };
  const home = nearestRegion(centres, centre.lat, centre.lng);
  const work = farthestRegion(centres, centres[home]!);
  const parents = farthestRegion(centres, centres[work]!);
  add(demoUserId, 'Home', demo.firstName, demo.lastName, home, true);
  add(demoUserId, 'Work', demo.firstName, demo.lastName, work, true);
  add(demoUserId, 'Parents', demo.firstName, demo.lastName, parents, false); // no coordinates: both null
  const others = [...users.values()].filter((u) => u.id !== demoUserId).slice(0, 8);
  for (const u of others) add(u.id, 'Home', rnd.pick(ctx.names.firstNames), rnd.pick(ctx.names.lastNames), rnd.pick(ctx.names.regions), rnd.chance(0.7));
  return out;
}

/** The demo user's personalization points at their first address; one other user uses a quick address. */
/** The label a location takes from its address: the address's label, or its street for one without (variant address-made-elsewhere). */
export function locationLabel(a: Pick<AddressRecord, 'label' | 'street_name' | 'street_number'>): string {
  return a.label ?? `${a.street_name} ${a.street_number}`;
}

export function makePersonalization(
  ctx: GenContext,
  addresses: ReadonlyMap<number, AddressRecord>,
  users: ReadonlyMap<number, UserRecord>,
  demoUserId: number,
  centre: Point,
): Map<number, PersonalizationRecord> {
  const out = new Map<number, PersonalizationRecord>();
  const home = [...addresses.values()].find((a) => a.userId === demoUserId && a.lat !== null)!;
  out.set(demoUserId, {
    location: { address_id: home.id, label: locationLabel(home), lat: home.lat!, lng: home.lng!, type: 'address', country_code: ctx.names.country },
    payment_method: { type: 'spot_cash' },
  });
  const other = [...users.keys()].find((id) => id !== demoUserId)!;
  out.set(other, {
    location: { address_id: null, label: ctx.names.cities[0]!, lat: centre.lat.toFixed(6), lng: centre.lng.toFixed(6), type: 'quick_address', country_code: ctx.names.country },
    payment_method: { type: 'credit_card' },
  });
  return out;
}

/**
 * Saved orders, newest first: seven for the demo user, two for another user. Some line items
 * are no longer in the catalogue (gift wrap, a delisted item): sku_id, product_id,
 * category_id and image null.
 */
export function makeSavedOrders(
  ctx: GenContext,
  products: ReadonlyMap<number, ProductRecord>,
  skus: ReadonlyMap<number, SkuRecord>,
  shops: ReadonlyMap<number, ShopRecord>,
  users: ReadonlyMap<number, UserRecord>,
  demoUserId: number,
): SavedOrderRecord[] {
  const rnd = ctx.stream('saved-orders');
  const byShop = new Map<number, ProductRecord[]>();
  for (const p of products.values()) byShop.set(p.shop_id, [...(byShop.get(p.shop_id) ?? []), p]);
  const shopIds = [...byShop.keys()];
  const other = [...users.keys()].find((id) => id !== demoUserId)!;
  const out: SavedOrderRecord[] = [];
  const owners = [...Array<number>(ctx.name === 'default' ? 7 : 6).fill(demoUserId), other, other];
  owners.forEach((userId, n) => {
    const shopId = rnd.pick(shopIds);
    const offers = byShop.get(shopId)!;
    const items: SavedOrderLineItem[] = rnd.sample(offers, rnd.int(1, 3)).map((p) => ({
      name: p.name,
      quantity: rnd.int(1, 3),
      price: p.price,
      image: skus.get(p.sku_id)!.images.main,
      sku_id: p.sku_id,
      product_id: p.id,
      category_id: p.category_id,
    }));
    if (n % 3 === 0)
      items.push({
        name: rnd.pick(['Gift wrapping', 'Discontinued item', 'Extended warranty']),
        quantity: 1,
        price: rnd.money(1, 15),
        image: null,
        sku_id: null,
        product_id: null,
        category_id: null,
      });
    const productsCost = round2(items.reduce((s, i) => s + i.quantity * i.price, 0));
    const shippingCost = shops.get(shopId)!.shippingCost;
    const date = ctx.now - rnd.int(2, 400) * DAY_MS - rnd.int(0, 86_399) * 1000;
    out.push({
      date: ts(date),
      products_cost: productsCost,
      shipping_cost: shippingCost,
      total_cost: round2(productsCost + shippingCost),
      line_items: items,
      shop_id: shopId,
      order_code: `${ctx.names.orderPrefix}${rnd.int(100000, 999999)}`,
      userId,
    });
  });
  return out.sort((a, b) => b.date.localeCompare(a.date));
}
