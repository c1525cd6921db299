// Users and everything they make or own: shop and SKU reviews, votes, flags, addresses,
// personalization, saved orders, favorite lists, favorites and notifications. The demo user
// (the one every user token belongs to) gets a full set of each; a few other users get some,
// so that "only the user's own records" is testable.

import type {
  AddressRecord,
  EmailNotificationSetting,
  FavoriteListRecord,
  FavoriteRecord,
  FlagReason,
  FlagRecord,
  NotificationEtype,
  NotificationRecord,
  PersonalizationRecord,
  ProductRecord,
  ReviewQuestionRecord,
  SavedOrderLineItem,
  SavedOrderRecord,
  ShopRecord,
  ShopReviewRecord,
  SkuRecord,
  SkuReviewRecord,
  UserRecord,
  VoteRecord,
} from '../model.ts';
import { createHash } from 'node:crypto';
import type { CategoryRecord } from '../data.ts';
import { nearestRegion, type Point } from './catalog.ts';
import { DAY_MS, numberInOrder, round2, slug, ts, type GenContext, type Rnd } from './context.ts';

export const FLAG_REASONS: readonly FlagReason[] = Object.freeze([
  { reason: 'bad_language', description: 'The review contains offensive or abusive language' },
  { reason: 'wrong_section', description: 'The review is about another product or belongs elsewhere' },
  { reason: 'spam', description: 'The review is advertising or unrelated to the product' },
]);

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

export function makeReviewQuestions(ctx: GenContext): ReviewQuestionRecord[] {
  return ctx.names.questions.map((q) => ({
    text: q.text,
    type: q.type,
    answers: q.answers.map((text) => ({ id: ctx.ids.next('answer'), text })),
  }));
}

/**
 * The sentiments of a review from its chosen answers: each eval_sentiment question whose
 * first / middle / last answer was chosen adds its text to positive / mediocre / negative.
 * Keys without entries are left out (each is optional). Exported for the review routes.
 */
export function sentimentsFromAnswers(questions: readonly ReviewQuestionRecord[], answerIds: readonly number[]): SkuReviewRecord['sentiments'] {
  const out: SkuReviewRecord['sentiments'] = {};
  for (const q of questions) {
    if (q.type !== 'eval_sentiment') continue;
    const index = q.answers.findIndex((a) => answerIds.includes(a.id));
    if (index === -1) continue;
    const key = index === 0 ? 'positive' : index === q.answers.length - 1 ? 'negative' : 'mediocre';
    (out[key] ??= []).push(q.text);
  }
  return out;
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

/** A rating 1-5 leaning positive, like real reviews. */
function rating(rnd: Rnd): number {
  return rnd.pick([1, 2, 3, 4, 4, 5, 5, 5]);
}

/**
 * Shop reviews: more than 25 for one shop, 0-8 for the others (some shops have none), two by
 * the demo user. Ratings 1-2 are negative reviews with negative reasons; reviews of the last
 * 12 months are the "latest" ones that make the score.
 */
export function makeShopReviews(
  ctx: GenContext,
  shops: ReadonlyMap<number, ShopRecord>,
  users: ReadonlyMap<number, UserRecord>,
  demoUserId: number,
): { reviews: Map<number, ShopReviewRecord>; bigShopId: number } {
  const rnd = ctx.stream('shop-reviews');
  const others = [...users.keys()].filter((id) => id !== demoUserId);
  const shopList = [...shops.values()];
  const bigShop = shopList[ctx.name === 'default' ? 2 : 5]!;
  const out: Omit<ShopReviewRecord, 'id'>[] = [];
  shopList.forEach((shop, i) => {
    const count = shop === bigShop ? (ctx.name === 'default' ? 31 : 28) : i % 4 === 3 ? 0 : rnd.int(1, 8);
    const authors = rnd.sample(others, count);
    if (i === 0 || i === 1) authors.push(demoUserId);
    for (const userId of authors) {
      const r = rating(rnd);
      const negative = r <= 2;
      const ageDays = rnd.int(1, 3 * 365);
      out.push({
        user_id: userId,
        review: rnd.pick(negative ? ctx.names.shopReviewTexts.negative : ctx.names.shopReviewTexts.positive),
        rating: r,
        shop_reply: rnd.chance(negative ? 0.6 : 0.3) ? rnd.pick(ctx.names.shopReplies) : null,
        created_at: ts(ctx.now - ageDays * DAY_MS - rnd.int(0, 86_399) * 1000),
        negative,
        reasons: rnd.sample(negative ? ctx.names.negativeReasons : ctx.names.positiveReasons, rnd.int(1, 2)),
        shopId: shop.id,
        latest: ageDays <= 365,
      });
    }
  });
  const reviews = numberInOrder<ShopReviewRecord>(ctx, 'shop_review', out, (a, b) => a.created_at.localeCompare(b.created_at));
  return { reviews, bigShopId: bigShop.id };
}

/**
 * SKU reviews of reviewable SKUs that are not future: more than 25 for one SKU (the review-heavy
 * SKU), 0-5 for about half the others, three by the demo user (not on the review-heavy SKU).
 * About one in eight is demoted. One review per user per SKU.
 */
export function makeSkuReviews(
  ctx: GenContext,
  skus: ReadonlyMap<number, SkuRecord>,
  users: ReadonlyMap<number, UserRecord>,
  demoUserId: number,
  questions: readonly ReviewQuestionRecord[],
): { reviews: Map<number, SkuReviewRecord>; heavySkuId: number } {
  const rnd = ctx.stream('sku-reviews');
  const others = [...users.keys()].filter((id) => id !== demoUserId);
  const reviewable = [...skus.values()].filter((s) => s.reviewable && !s.future);
  if (reviewable.length < 5) throw new Error(`dataset ${ctx.name}: too few reviewable SKUs`);
  const heavy = reviewable.find((s) => s.shop_count >= 3) ?? reviewable[0]!;
  const demoSkus = reviewable.filter((s) => s !== heavy).slice(1, 4);
  const out: Omit<SkuReviewRecord, 'id'>[] = [];
  for (const sku of reviewable) {
    const count = sku === heavy ? (ctx.name === 'default' ? 34 : 27) : rnd.chance(0.5) ? rnd.int(1, 5) : 0;
    const authors = rnd.sample(others, count);
    if (demoSkus.includes(sku)) authors.push(demoUserId);
    authors.forEach((userId, i) => {
      const r = rating(rnd);
      const createdMs = Math.min(ctx.now - 3_600_000, sku.addedAt + rnd.int(1, Math.max(1, Math.floor((ctx.now - sku.addedAt) / 1000) - 3600)) * 1000);
      // Some reviews skip the form's questions: no answers, no sentiments.
      const answerIds = rnd.chance(0.2)
        ? []
        : questions.map((q) => {
            if (q.type === 'profiling_multiple') return rnd.pick(q.answers).id;
            // Answers lean with the rating: good ratings pick the first (positive) answer.
            const bias = r >= 4 ? 0 : r === 3 ? 1 : 2;
            const index = rnd.chance(0.7) ? Math.min(bias, q.answers.length - 1) : rnd.int(0, q.answers.length - 1);
            return q.answers[index]!.id;
          });
      out.push({
        sku_id: sku.id,
        user_id: userId,
        review: rnd.pick(ctx.names.skuReviewTexts),
        rating: r,
        created_at: ts(createdMs),
        // Every seventh review of the heavy SKU, so several demoted ones exist on one list.
        demoted: userId !== demoUserId && (sku === heavy ? i % 7 === 3 : rnd.chance(0.12)),
        votes_count: 0,
        helpful_votes_count: 0,
        sentiments: sentimentsFromAnswers(questions, answerIds),
        answerIds,
        createdMs,
      });
    });
  }
  const reviews = numberInOrder<SkuReviewRecord>(ctx, 'sku_review', out, (a, b) => a.createdMs - b.createdMs);
  return { reviews, heavySkuId: heavy.id };
}

/** Votes on SKU reviews (never by the author), three by the demo user; counts follow them. */
export function makeVotes(
  ctx: GenContext,
  reviews: ReadonlyMap<number, SkuReviewRecord>,
  users: ReadonlyMap<number, UserRecord>,
  demoUserId: number,
  heavySkuId: number,
): Map<number, VoteRecord> {
  const rnd = ctx.stream('votes');
  const others = [...users.keys()].filter((id) => id !== demoUserId);
  const list: Omit<VoteRecord, 'id'>[] = [];
  const add = (review: SkuReviewRecord, userId: number): void => {
    const createdMs = Math.min(ctx.now - 60_000, review.createdMs + rnd.int(60, 20 * 86_400) * 1000);
    list.push({ sku_review_id: review.id, user_id: userId, helpful: rnd.chance(0.7), created_at: ts(createdMs) });
  };
  const demoTargets = [...reviews.values()].filter((r) => r.user_id !== demoUserId && r.sku_id !== heavySkuId).slice(0, 3);
  for (const review of reviews.values()) {
    const voters = rnd.sample(others.filter((id) => id !== review.user_id), review.sku_id === heavySkuId ? rnd.int(0, 9) : rnd.int(0, 4));
    for (const userId of voters) add(review, userId);
    if (demoTargets.includes(review)) add(review, demoUserId);
  }
  const votes = numberInOrder<VoteRecord>(ctx, 'vote', list, (a, b) => a.created_at.localeCompare(b.created_at));
  for (const v of votes.values()) {
    const review = reviews.get(v.sku_review_id)!;
    review.votes_count += 1;
    if (v.helpful) review.helpful_votes_count += 1;
  }
  return votes;
}

/** A few flags by other users and one by the demo user (on a review not of their own). */
export function makeFlags(
  ctx: GenContext,
  reviews: ReadonlyMap<number, SkuReviewRecord>,
  users: ReadonlyMap<number, UserRecord>,
  demoUserId: number,
): Map<number, FlagRecord> {
  const rnd = ctx.stream('flags');
  const others = [...users.keys()].filter((id) => id !== demoUserId);
  const targets = rnd.sample([...reviews.values()], 5);
  const out = new Map<number, FlagRecord>();
  targets.forEach((review, i) => {
    const candidates = i === 0 && review.user_id !== demoUserId ? [demoUserId] : others.filter((id) => id !== review.user_id);
    const userId = rnd.pick(candidates);
    const at = ts(Math.min(ctx.now - 60_000, review.createdMs + rnd.int(1, 30) * DAY_MS));
    const id = ctx.ids.next('flag');
    out.set(id, { id, flaggable_id: review.id, flaggable_type: 'SkuReview', user_id: userId, reason: rnd.pick(FLAG_REASONS).reason, created_at: at, updated_at: at });
  });
  return out;
}

/** stats of each user from the reviews and votes. */
export function applyUserStats(
  users: ReadonlyMap<number, UserRecord>,
  skuReviews: ReadonlyMap<number, SkuReviewRecord>,
  shopReviews: ReadonlyMap<number, ShopReviewRecord>,
): void {
  for (const u of users.values()) {
    u.stats.sku_review_count = 0;
    u.stats.shop_review_count = 0;
    u.stats.received_votes = 0;
  }
  for (const r of skuReviews.values()) {
    const u = users.get(r.user_id)!;
    u.stats.sku_review_count += 1;
    u.stats.received_votes += r.votes_count;
  }
  for (const r of shopReviews.values()) users.get(r.user_id)!.stats.shop_review_count += 1;
}

/** The address fields the geocoder reads. */
export type GeocodeInput = Pick<AddressRecord, 'region' | 'city' | 'zip' | 'street_name' | 'street_number'>;

/**
 * The simulated geocoder: a deterministic point (6 decimals) within about 20 km of the address's
 * region point (data/catalog.ts regionCentres), varying with the street, number, zip and city;
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
    location: { address_id: home.id, label: home.label, lat: home.lat!, lng: home.lng!, type: 'address', country_code: ctx.names.country },
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
    if (n % 3 === 0) items.push({ name: rnd.pick(['Gift wrapping', 'Discontinued item', 'Extended warranty']), quantity: 1, price: rnd.money(1, 15), image: null, sku_id: null, product_id: null, category_id: null });
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

export interface Favorites {
  lists: Map<number, FavoriteListRecord>;
  favorites: Map<number, FavoriteRecord>;
}

/**
 * The demo user's favorites: custom lists (positive ids; SKUs of several categories, including
 * the review-heavy SKU, a too-new and a future SKU), auto lists (negative ids; one category
 * each) and owned favorites (no list, have_it true); more than 25 in all. Two other users get
 * one auto list each. One favorite per user and SKU.
 */
export function makeFavorites(
  ctx: GenContext,
  skus: ReadonlyMap<number, SkuRecord>,
  categories: ReadonlyMap<number, CategoryRecord>,
  users: ReadonlyMap<number, UserRecord>,
  demoUserId: number,
  heavySkuId: number,
  tooNewSkuIds: readonly number[],
): Favorites {
  const rnd = ctx.stream('favorites');
  const lists = new Map<number, FavoriteListRecord>();
  const favs: Omit<FavoriteRecord, 'id'>[] = [];
  const skuList = [...skus.values()];
  const bySku = (ids: Iterable<number>): SkuRecord[] => [...ids].map((id) => skus.get(id)!);
  const used = new Map<number, Set<number>>();
  const addFav = (userId: number, sku: SkuRecord, listId: number | null, haveIt: boolean | null, listCreated: number): void => {
    const seen = used.get(userId) ?? new Set<number>();
    if (seen.has(sku.id)) return;
    seen.add(sku.id);
    used.set(userId, seen);
    const createdMs = Math.min(ctx.now - 60_000, listCreated + rnd.int(1, 60) * DAY_MS + rnd.int(0, 86_399) * 1000);
    const updatedMs = rnd.chance(0.3) ? Math.min(ctx.now - 1000, createdMs + rnd.int(1, 20) * DAY_MS) : createdMs;
    favs.push({
      have_it: haveIt,
      user_id: userId,
      user_notes: rnd.chance(0.3) ? rnd.pick(['for the kitchen', 'wait for a sale', 'compare with the shop', 'gift']) : null,
      sku_id: sku.id,
      created_at: ts(createdMs),
      updated_at: ts(updatedMs),
      get_absolute_threshold: !sku.future && rnd.chance(0.3) ? (sku.price_min * 0.9).toFixed(2) : null,
      favorite_list_id: listId,
      createdMs,
    });
  };
  const newList = (userId: number, type: 'custom' | 'auto', name: string, categoryId: number | null): FavoriteListRecord => {
    const id = ctx.ids.next(type === 'auto' ? 'auto_list' : 'favorite_list');
    const list: FavoriteListRecord = { id, name, category_id: categoryId, type, userId, createdMs: ctx.now - rnd.int(120, 700) * DAY_MS };
    lists.set(id, list);
    return list;
  };

  // Auto lists: four categories with at least four SKUs, each list holding 4-7 of them.
  const leavesBySize = [...new Set(skuList.map((s) => s.category_id))]
    .map((cid) => ({ cid, skus: skuList.filter((s) => s.category_id === cid && !s.future) }))
    .filter((x) => x.skus.length >= 4)
    .slice(0, 4);
  for (const { cid, skus: inCat } of leavesBySize) {
    const list = newList(demoUserId, 'auto', categories.get(cid)!.name, cid);
    for (const sku of rnd.sample(inCat, rnd.int(4, 7))) addFav(demoUserId, sku, list.id, rnd.chance(0.25) ? false : null, list.createdMs);
  }
  // Custom lists: SKUs of several categories; the first holds the review-heavy, a too-new and a future SKU.
  const customNames = ctx.names.customLists;
  const future = skuList.filter((s) => s.future);
  customNames.forEach((name, i) => {
    const list = newList(demoUserId, 'custom', name, null);
    const picks = rnd.sample(skuList.filter((s) => !s.future), rnd.int(3, 5));
    if (i === 0) picks.unshift(...bySku([heavySkuId, ...tooNewSkuIds.slice(0, 1)]), ...future.slice(0, 1));
    for (const sku of picks) addFav(demoUserId, sku, list.id, rnd.chance(0.2) ? false : null, list.createdMs);
  });
  // Owned favorites: no list, have_it true.
  for (const sku of rnd.sample(skuList.filter((s) => !s.future), 6)) addFav(demoUserId, sku, null, true, ctx.now - 400 * DAY_MS);
  // Other users: an auto list each, so that lists and favorites of others exist.
  for (const userId of [...users.keys()].filter((id) => id !== demoUserId).slice(0, 2)) {
    const { cid, skus: inCat } = leavesBySize[0]!;
    const list = newList(userId, 'auto', categories.get(cid)!.name, cid);
    for (const sku of inCat.slice(0, 2)) addFav(userId, sku, list.id, null, list.createdMs);
  }
  const favorites = numberInOrder<FavoriteRecord>(ctx, 'favorite', favs, (a, b) => a.createdMs - b.createdMs);
  return { lists, favorites };
}

/** The etypes whose notifications embed a Sku (spec "Events": "Embedding rules"); the serializer shows it. */
export const SKU_EMBED_ETYPES: ReadonlySet<NotificationEtype> = new Set(['price_up', 'price_drop', 'sku_review', 'availability_true', 'availability_false']);

/**
 * Notifications of the demo user, more than 25 and every etype, about their favorited SKUs and
 * their own reviews; and three for another user. Choices where the spec is silent: snapshot
 * latest_price is the price before the change, price_min the new lowest price, change_rate the
 * relative change (negative for a drop); other etypes carry the SKU's current price, rate 0.
 */
export function makeNotifications(
  ctx: GenContext,
  skus: ReadonlyMap<number, SkuRecord>,
  favorites: ReadonlyMap<number, FavoriteRecord>,
  reviews: ReadonlyMap<number, SkuReviewRecord>,
  demoUserId: number,
): Map<number, NotificationRecord> {
  const rnd = ctx.stream('notifications');
  const plan: NotificationEtype[] = [
    'price_drop', 'price_drop', 'price_drop', 'price_drop', 'price_drop', 'price_drop', 'price_drop', 'price_drop',
    'price_up', 'price_up', 'price_up', 'price_up',
    'availability_true', 'availability_true', 'availability_true',
    'availability_false', 'availability_false', 'availability_false',
    'sku_release', 'sku_release',
    'sku_review', 'sku_review', 'sku_review', 'sku_review', 'sku_review',
    'sku_review_rephrase_request', 'sku_review_rephrase_request',
    'sku_review_approve_after_update', 'sku_review_approve_after_update',
  ];
  if (ctx.name === 'default') plan.push('price_drop', 'availability_true', 'sku_review');
  const list: Omit<NotificationRecord, 'id'>[] = [];
  const reviewsOf = new Map<number, SkuReviewRecord[]>();
  for (const r of reviews.values()) reviewsOf.set(r.sku_id, [...(reviewsOf.get(r.sku_id) ?? []), r]);
  const make = (userId: number, etype: NotificationEtype, index: number): void => {
    const favSkus = [...favorites.values()].filter((f) => f.user_id === userId).map((f) => skus.get(f.sku_id)!);
    const priced = favSkus.filter((s) => !s.future);
    const createdMs = ctx.now - rnd.int(1, 60 * 24) * 3_600_000;
    const updatedMs = rnd.chance(0.3) ? Math.min(ctx.now, createdMs + rnd.int(1, 48) * 3_600_000) : createdMs;
    const base = {
      etype,
      event_text: null as string | null,
      is_viewed: index % 5 === 1 || index % 5 === 3, // 40% viewed
      aggregated: false,
      created_at: ts(createdMs),
      updated_at: ts(updatedMs),
      reviewRating: null as number | null,
      reviewText: null as string | null,
      reviewUserId: null as number | null,
      userId,
      createdMs,
    };
    const aboutSku = (sku: SkuRecord): Pick<NotificationRecord, 'eventable_id' | 'eventable_type' | 'eventable_name' | 'eventable_url' | 'skuId'> => ({
      eventable_id: sku.id,
      eventable_type: 'Sku',
      eventable_name: sku.display_name,
      eventable_url: sku.web_uri,
      skuId: SKU_EMBED_ETYPES.has(etype) ? sku.id : null,
    });
    const flat = (sku: SkuRecord) => ({ price_min: sku.price_min, latest_price: sku.price_min, change_rate: 0, from_threshold: false });
    if (etype === 'price_drop' || etype === 'price_up') {
      const sku = rnd.pick(priced);
      const rate = (etype === 'price_drop' ? -1 : 1) * rnd.int(3, 25) / 100;
      const before = round2(sku.price_min / (1 + rate));
      const threshold = etype === 'price_drop' && rnd.chance(0.3);
      list.push({
        ...base,
        ...aboutSku(sku),
        event_text: `${etype === 'price_drop' ? 'Price dropped' : 'Price went up'} from ${before.toFixed(2)} to ${sku.price_min.toFixed(2)}`,
        snapshot: { price_min: sku.price_min, latest_price: before, change_rate: Math.round(rate * 1000) / 1000, from_threshold: threshold },
      });
    } else if (etype === 'availability_true' || etype === 'availability_false') {
      const sku = rnd.pick(priced);
      list.push({ ...base, ...aboutSku(sku), event_text: etype === 'availability_true' ? 'Available again' : 'No longer available at a shop', snapshot: flat(sku) });
    } else if (etype === 'sku_release') {
      // Released: a recently added SKU the user was waiting for.
      const recent = [...priced].sort((a, b) => b.addedAt - a.addedAt)[0] ?? rnd.pick(favSkus);
      list.push({ ...base, ...aboutSku(recent), event_text: 'Now available in shops', snapshot: flat(recent) });
    } else if (etype === 'sku_review') {
      const byOthers = (skuId: number): SkuReviewRecord[] => (reviewsOf.get(skuId) ?? []).filter((r) => r.user_id !== userId);
      const sku = rnd.pick(priced.filter((s) => byOthers(s.id).length > 0));
      const ofSku = byOthers(sku.id);
      const review = ofSku[ofSku.length - 1 - (index % ofSku.length)]!;
      // Every other sku_review notification aggregates several reviews: no review text then.
      const aggregated = index % 2 === 0 && ofSku.length > 1;
      list.push({
        ...base,
        ...aboutSku(sku),
        aggregated,
        event_text: aggregated ? `${Math.min(ofSku.length, rnd.int(2, 5))} new reviews` : 'New review',
        snapshot: flat(sku),
        reviewRating: review.rating,
        reviewText: aggregated ? null : review.review,
        reviewUserId: review.user_id,
      });
    } else {
      const own = [...reviews.values()].filter((r) => r.user_id === userId);
      const review = own[index % own.length]!;
      const sku = skus.get(review.sku_id)!;
      list.push({
        ...base,
        eventable_id: review.id,
        eventable_type: 'SkuReview',
        eventable_name: sku.display_name,
        eventable_url: `${sku.web_uri}#review-${review.id}`,
        event_text: etype === 'sku_review_rephrase_request' ? 'Please rephrase your review' : 'Your review has been approved',
        snapshot: flat(sku),
        skuId: null,
      });
    }
  };
  plan.forEach((etype, i) => make(demoUserId, etype, i));
  const other = [...favorites.values()].find((f) => f.user_id !== demoUserId)?.user_id;
  if (other !== undefined) (['price_drop', 'availability_true', 'price_up'] as const).forEach((etype, i) => make(other, etype, i));
  return numberInOrder<NotificationRecord>(ctx, 'notification', list, (a, b) => a.createdMs - b.createdMs);
}
