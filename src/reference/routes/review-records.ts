// What the review routes (reviews.ts, review-listing.ts, review-actions.ts) share: finding the
// SKU and the review a path names, the requesting user, the upkeep of the counts a review
// changes, and the review serializer bound to a request.

import type { Dataset, SkuRecord, SkuReviewRecord } from '../data.ts';
import { applySkuReviews } from '../data/catalog.ts';
import { ApiError, recordNotFound } from '../http.ts';
import type { ApiContext } from '../router.ts';
import { reviewViewer, serializeSkuReview, type ReviewViewer } from '../serializers/review.ts';
import { findById, parseId } from './params.ts';

export type Json = Record<string, unknown>;

export function findSku(ctx: ApiContext, raw: string | undefined): SkuRecord {
  return findById(ctx.data.skus, raw, 'Sku');
}

/** A review of `sku`; a review of another SKU is as missing as an unknown id. */
export function findReview(ctx: ApiContext, sku: SkuRecord, raw: string | undefined): SkuReviewRecord {
  const id = parseId(raw, 'SkuReview');
  const r = ctx.data.skuReviews.get(id);
  if (!r || r.sku_id !== sku.id) throw recordNotFound('SkuReview', id);
  return r;
}

/** A review of `sku` written by the requesting user; other users' reviews are 404. */
export function findOwnReview(ctx: ApiContext, sku: SkuRecord, raw: string | undefined): SkuReviewRecord {
  const r = findReview(ctx, sku, raw);
  if (r.user_id !== currentUser(ctx)) throw recordNotFound('SkuReview', r.id);
  return r;
}

export function currentUser(ctx: ApiContext): number {
  // Routes that call this are registered with user: true; this guards the type.
  if (ctx.userId === null) throw new ApiError(401, 'Unauthorized', ['This action needs a user token (authorization code grant)']);
  return ctx.userId;
}

export function reviewsOf(data: Dataset, skuId: number): SkuReviewRecord[] {
  return [...data.skuReviews.values()].filter((r) => r.sku_id === skuId);
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function validationFailed(errors: string[]): ApiError {
  return new ApiError(422, 'RecordInvalid', errors);
}

/** sku.reviews_count and sku.reviewscore from the SKU's reviews, as the dataset computes them. */
export function syncSku(ctx: ApiContext, sku: SkuRecord): void {
  // A review awaiting moderation (variant reviews-moderated) counts once approved.
  applySkuReviews(
    new Map([[sku.id, sku]]),
    reviewsOf(ctx.data, sku.id).filter((r) => r.pending !== true),
  );
}

/** The author's stats: sku_review_count (reviews written) and received_votes (votes on them). */
export function adjustAuthorStats(ctx: ApiContext, userId: number, reviews: number, votes: number): void {
  const stats = ctx.data.users.get(userId)?.stats;
  if (!stats) return;
  stats.sku_review_count = Math.max(0, stats.sku_review_count + reviews);
  stats.received_votes = Math.max(0, stats.received_votes + votes);
}

/** A change of a review's vote counts waiting for the recount (variant vote-counts-later). */
interface PendingCounts {
  reviewId: number;
  votes: number;
  helpful: number;
  dueMs: number;
}

/** Variant vote-counts-later: the recount runs every so often; a vote shows in the counts at the first run after it. */
const RECOUNT_EVERY_MS = 15 * 60_000;
const pendingCounts = new WeakMap<Dataset, PendingCounts[]>();

/** Queues the change from `before` to `after` of a review's counts for the next recount. */
export function deferVoteCounts(ctx: ApiContext, before: SkuReviewRecord, after: SkuReviewRecord): void {
  const queue = pendingCounts.get(ctx.data) ?? [];
  const dueMs = Math.ceil((ctx.now() + 1) / RECOUNT_EVERY_MS) * RECOUNT_EVERY_MS;
  queue.push({ reviewId: before.id, votes: after.votes_count - before.votes_count, helpful: after.helpful_votes_count - before.helpful_votes_count, dueMs });
  pendingCounts.set(ctx.data, queue);
}

/** Applies the queued count changes whose recount has run (variant vote-counts-later). */
export function settleVoteCounts(ctx: ApiContext): void {
  const queue = pendingCounts.get(ctx.data);
  if (!queue) return;
  const now = ctx.now();
  for (const p of queue.filter((x) => x.dueMs <= now)) {
    const r = ctx.data.skuReviews.get(p.reviewId);
    if (r) ctx.data.skuReviews.set(r.id, { ...r, votes_count: Math.max(0, r.votes_count + p.votes), helpful_votes_count: Math.max(0, r.helpful_votes_count + p.helpful) });
  }
  pendingCounts.set(
    ctx.data,
    queue.filter((x) => x.dueMs > now),
  );
}

export function serializer(ctx: ApiContext, viewer: ReviewViewer = reviewViewer(ctx.data, ctx.userId, ctx.token.scopes)): (r: SkuReviewRecord) => Json {
  return (r) => serializeSkuReview(r, { version: ctx.version, fault: ctx.fault, variants: ctx.variants, viewer });
}
