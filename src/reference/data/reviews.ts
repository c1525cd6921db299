// Reviews and what users do with them: the review form's questions, shop and SKU reviews, votes
// on and flags of SKU reviews, and the users' stats that count them.

import type { FlagReason, FlagRecord, ReviewQuestionRecord, ShopRecord, ShopReviewRecord, SkuRecord, SkuReviewRecord, UserRecord, VoteRecord } from '../model.ts';
import { DAY_MS, numberInOrder, ts, type GenContext, type Rnd } from './context.ts';

export const FLAG_REASONS: readonly FlagReason[] = Object.freeze([
  { reason: 'bad_language', description: 'The review contains offensive or abusive language' },
  { reason: 'wrong_section', description: 'The review is about another product or belongs elsewhere' },
  { reason: 'spam', description: 'The review is advertising or unrelated to the product' },
]);

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
    const voters = rnd.sample(
      others.filter((id) => id !== review.user_id),
      review.sku_id === heavySkuId ? rnd.int(0, 9) : rnd.int(0, 4),
    );
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
export function makeFlags(ctx: GenContext, reviews: ReadonlyMap<number, SkuReviewRecord>, users: ReadonlyMap<number, UserRecord>, demoUserId: number): Map<number, FlagRecord> {
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
export function applyUserStats(users: ReadonlyMap<number, UserRecord>, skuReviews: ReadonlyMap<number, SkuReviewRecord>, shopReviews: ReadonlyMap<number, ShopReviewRecord>): void {
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
