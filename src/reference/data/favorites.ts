// The demo user's favorite lists, favorites and notifications (a few for other users too).

import type { CategoryRecord, FavoriteListRecord, FavoriteRecord, NotificationEtype, NotificationRecord, SkuRecord, SkuReviewRecord, UserRecord } from '../model.ts';
import { DAY_MS, numberInOrder, round2, ts, type GenContext, type Rnd } from './context.ts';

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
    const picks = rnd.sample(
      skuList.filter((s) => !s.future),
      rnd.int(3, 5),
    );
    if (i === 0) picks.unshift(...bySku([heavySkuId, ...tooNewSkuIds.slice(0, 1)]), ...future.slice(0, 1));
    for (const sku of picks) addFav(demoUserId, sku, list.id, rnd.chance(0.2) ? false : null, list.createdMs);
  });
  // Owned favorites: no list, have_it true.
  for (const sku of rnd.sample(
    skuList.filter((s) => !s.future),
    6,
  ))
    addFav(demoUserId, sku, null, true, ctx.now - 400 * DAY_MS);
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
  const reviewsOf = new Map<number, SkuReviewRecord[]>();
  for (const r of reviews.values()) reviewsOf.set(r.sku_id, [...(reviewsOf.get(r.sku_id) ?? []), r]);
  const src: NotificationSources = { ctx, rnd: ctx.stream('notifications'), skus, favorites, reviews, reviewsOf };
  const list = notificationPlan(ctx).map((etype, i) => makeNotification(src, demoUserId, etype, i));
  const other = [...favorites.values()].find((f) => f.user_id !== demoUserId)?.user_id;
  if (other !== undefined) (['price_drop', 'availability_true', 'price_up'] as const).forEach((etype, i) => list.push(makeNotification(src, other, etype, i)));
  return numberInOrder<NotificationRecord>(ctx, 'notification', list, (a, b) => a.createdMs - b.createdMs);
}

/** The etypes of the demo user's notifications, in the order they are made. */
function notificationPlan(ctx: GenContext): NotificationEtype[] {
  const plan: NotificationEtype[] = [
    'price_drop',
    'price_drop',
    'price_drop',
    'price_drop',
    'price_drop',
    'price_drop',
    'price_drop',
    'price_drop',
    'price_up',
    'price_up',
    'price_up',
    'price_up',
    'availability_true',
    'availability_true',
    'availability_true',
    'availability_false',
    'availability_false',
    'availability_false',
    'sku_release',
    'sku_release',
    'sku_review',
    'sku_review',
    'sku_review',
    'sku_review',
    'sku_review',
    'sku_review_rephrase_request',
    'sku_review_rephrase_request',
    'sku_review_approve_after_update',
    'sku_review_approve_after_update',
  ];
  if (ctx.name === 'default') plan.push('price_drop', 'availability_true', 'sku_review');
  return plan;
}

/** What the notifications are made from; one random stream for all of them, drawn in order. */
interface NotificationSources {
  ctx: GenContext;
  rnd: Rnd;
  skus: ReadonlyMap<number, SkuRecord>;
  favorites: ReadonlyMap<number, FavoriteRecord>;
  reviews: ReadonlyMap<number, SkuReviewRecord>;
  /** SKU id -> its reviews. */
  reviewsOf: ReadonlyMap<number, SkuReviewRecord[]>;
}

type NotificationDraft = Omit<NotificationRecord, 'id'>;

/** The `index`th notification of `etype` for the user, about one of their favorited SKUs or their own reviews. */
function makeNotification(src: NotificationSources, userId: number, etype: NotificationEtype, index: number): NotificationDraft {
  const favSkus = [...src.favorites.values()].filter((f) => f.user_id === userId).map((f) => src.skus.get(f.sku_id)!);
  const priced = favSkus.filter((s) => !s.future);
  const base = notificationBase(src, userId, etype, index);
  if (etype === 'price_drop' || etype === 'price_up') return priceChange(src.rnd, base, priced);
  if (etype === 'availability_true' || etype === 'availability_false') {
    const sku = src.rnd.pick(priced);
    return { ...base, ...aboutSku(etype, sku), event_text: etype === 'availability_true' ? 'Available again' : 'No longer available at a shop', snapshot: flatSnapshot(sku) };
  }
  if (etype === 'sku_release') {
    // Released: a recently added SKU the user was waiting for.
    const recent = [...priced].sort((a, b) => b.addedAt - a.addedAt)[0] ?? src.rnd.pick(favSkus);
    return { ...base, ...aboutSku(etype, recent), event_text: 'Now available in shops', snapshot: flatSnapshot(recent) };
  }
  if (etype === 'sku_review') return newReview(src, base, priced, index);
  return ownReviewNews(src, base, index);
}

/** The fields every notification has: times, viewed (40%), and no event text or review yet. */
function notificationBase(src: NotificationSources, userId: number, etype: NotificationEtype, index: number) {
  const { ctx, rnd } = src;
  const createdMs = ctx.now - rnd.int(1, 60 * 24) * 3_600_000;
  const updatedMs = rnd.chance(0.3) ? Math.min(ctx.now, createdMs + rnd.int(1, 48) * 3_600_000) : createdMs;
  return {
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
}

type NotificationBase = ReturnType<typeof notificationBase>;

function aboutSku(etype: NotificationEtype, sku: SkuRecord): Pick<NotificationRecord, 'eventable_id' | 'eventable_type' | 'eventable_name' | 'eventable_url' | 'skuId'> {
  return {
    eventable_id: sku.id,
    eventable_type: 'Sku',
    eventable_name: sku.display_name,
    eventable_url: sku.web_uri,
    skuId: SKU_EMBED_ETYPES.has(etype) ? sku.id : null,
  };
}

/** The snapshot of a notification that is no price change: the SKU's current price, rate 0. */
function flatSnapshot(sku: SkuRecord): NotificationRecord['snapshot'] {
  return { price_min: sku.price_min, latest_price: sku.price_min, change_rate: 0, from_threshold: false };
}

/** price_drop / price_up: the price before and after, the relative change; some drops crossed the user's threshold. */
function priceChange(rnd: Rnd, base: NotificationBase, priced: readonly SkuRecord[]): NotificationDraft {
  const etype = base.etype;
  const sku = rnd.pick(priced);
  const rate = ((etype === 'price_drop' ? -1 : 1) * rnd.int(3, 25)) / 100;
  const before = round2(sku.price_min / (1 + rate));
  const threshold = etype === 'price_drop' && rnd.chance(0.3);
  return {
    ...base,
    ...aboutSku(etype, sku),
    event_text: `${etype === 'price_drop' ? 'Price dropped' : 'Price went up'} from ${before.toFixed(2)} to ${sku.price_min.toFixed(2)}`,
    snapshot: { price_min: sku.price_min, latest_price: before, change_rate: Math.round(rate * 1000) / 1000, from_threshold: threshold },
  };
}

/** sku_review: another user reviewed a favorited SKU; every other one aggregates several reviews. */
function newReview(src: NotificationSources, base: NotificationBase, priced: readonly SkuRecord[], index: number): NotificationDraft {
  const { rnd, reviewsOf } = src;
  const byOthers = (skuId: number): SkuReviewRecord[] => (reviewsOf.get(skuId) ?? []).filter((r) => r.user_id !== base.userId);
  const sku = rnd.pick(priced.filter((s) => byOthers(s.id).length > 0));
  const ofSku = byOthers(sku.id);
  const review = ofSku[ofSku.length - 1 - (index % ofSku.length)]!;
  // Every other sku_review notification aggregates several reviews: no review text then.
  const aggregated = index % 2 === 0 && ofSku.length > 1;
  return {
    ...base,
    ...aboutSku(base.etype, sku),
    aggregated,
    event_text: aggregated ? `${Math.min(ofSku.length, rnd.int(2, 5))} new reviews` : 'New review',
    snapshot: flatSnapshot(sku),
    reviewRating: review.rating,
    reviewText: aggregated ? null : review.review,
    reviewUserId: review.user_id,
  };
}

/** sku_review_rephrase_request / sku_review_approve_after_update: about one of the user's own reviews. */
function ownReviewNews(src: NotificationSources, base: NotificationBase, index: number): NotificationDraft {
  const own = [...src.reviews.values()].filter((r) => r.user_id === base.userId);
  const review = own[index % own.length]!;
  const sku = src.skus.get(review.sku_id)!;
  return {
    ...base,
    eventable_id: review.id,
    eventable_type: 'SkuReview',
    eventable_name: sku.display_name,
    eventable_url: `${sku.web_uri}#review-${review.id}`,
    event_text: base.etype === 'sku_review_rephrase_request' ? 'Please rephrase your review' : 'Your review has been approved',
    snapshot: flatSnapshot(sku),
    skuId: null,
  };
}
