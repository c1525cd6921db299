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
  applySkuReviews(new Map([[sku.id, sku]]), reviewsOf(ctx.data, sku.id));
}

/** The author's stats: sku_review_count (reviews written) and received_votes (votes on them). */
export function adjustAuthorStats(ctx: ApiContext, userId: number, reviews: number, votes: number): void {
  const stats = ctx.data.users.get(userId)?.stats;
  if (!stats) return;
  stats.sku_review_count = Math.max(0, stats.sku_review_count + reviews);
  stats.received_votes = Math.max(0, stats.received_votes + votes);
}

export function serializer(ctx: ApiContext, viewer: ReviewViewer = reviewViewer(ctx.data, ctx.userId, ctx.token.scopes)): (r: SkuReviewRecord) => Json {
  return (r) => serializeSkuReview(r, { version: ctx.version, fault: ctx.fault, variants: ctx.variants, viewer });
}
