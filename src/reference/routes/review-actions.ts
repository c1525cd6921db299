// POST /skus/:sku_id/reviews/:review_id/votes and .../flags: a user's vote on and flag of a review
// (the choices are listed in reviews.ts).

import type { FlagRecord, SkuReviewRecord, VoteRecord } from '../data.ts';
import { ApiError, formatTimestamp, type ApiResult } from '../http.ts';
import type { ApiContext } from '../router.ts';
import { serializeFlag, serializeVote } from '../serializers/review.ts';
import { requestedLinks, respondOne, type Link } from '../shape.ts';
import { invalidParameter, parameterMissing, toBoolean } from './params.ts';
import { adjustAuthorStats, currentUser, deferVoteCounts, findReview, findSku, isObject, serializer, settleVoteCounts, validationFailed, type Json } from './review-records.ts';

const REVIEW_ACTIONS_SCOPE = 'publish_sku_review_actions';

export function voteOnReview(ctx: ApiContext): ApiResult {
  settleVoteCounts(ctx);
  if (ctx.fault !== 'vote-without-permission-accepted') requirePermission(ctx);
  const sku = findSku(ctx, ctx.params['sku_id']);
  let review = findReview(ctx, sku, ctx.params['review_id']);
  // The bug: the vote goes to another review of the SKU.
  if (ctx.fault === 'vote-applied-to-other-review') review = otherReview(ctx, review);
  const links = [reviewLink(ctx)];
  requestedLinks(ctx, links);
  const helpful = helpfulOf(ctx);
  const userId = currentUser(ctx);
  // Variant own-review-vote-refused: no vote on one's own review (403); flagging it is allowed.
  if (review.user_id === userId && ctx.variants.has('own-review-vote-refused')) throw new ApiError(403, 'Forbidden', ['You cannot vote on your own review']);
  const earlier = [...ctx.data.votes.values()].some((v) => v.sku_review_id === review.id && v.user_id === userId);
  if (earlier && ctx.variants.has('second-vote-refused')) throw validationFailed(['You have already voted on this review']);
  let votesCount = review.votes_count;
  let helpfulCount = review.helpful_votes_count;
  let firstVote: VoteRecord | undefined;
  for (const old of [...ctx.data.votes.values()]) {
    if (old.sku_review_id !== review.id || old.user_id !== userId) continue;
    firstVote = old;
    ctx.data.votes.delete(old.id);
    votesCount -= 1;
    if (old.helpful) helpfulCount -= 1;
  }
  const replaced = votesCount !== review.votes_count;
  // Variant vote-updated-in-place: a repeated vote updates the first record (same id and created_at).
  const kept = ctx.variants.has('vote-updated-in-place') ? firstVote : undefined;
  const vote: VoteRecord = {
    id: kept?.id ?? ctx.data.nextId('vote'),
    sku_review_id: review.id,
    user_id: userId,
    helpful,
    created_at: kept?.created_at ?? formatTimestamp(ctx.now()),
  };
  // Variant vote-sku-review-null: sku_review is always a key of the vote, null unless embed=sku_review fills it.
  const serialize = ctx.variants.has('vote-sku-review-null') ? (v: VoteRecord) => ({ ...serializeVote(v), sku_review: null }) : serializeVote;
  // The bug: the vote is answered, never written.
  if (ctx.fault === 'vote-not-stored') return respondOne(ctx, 'sku_review_vote', vote, serialize, { status: 201, links });
  ctx.data.votes.set(vote.id, vote);
  // Variant own-votes-not-counted: the author's own vote is stored but not counted (the fault counts every vote twice).
  const added = ctx.fault === 'vote-counted-twice' ? 2 : ctx.variants.has('own-votes-not-counted') && review.user_id === userId ? 0 : 1;
  const counted = { ...review, votes_count: Math.max(0, votesCount) + added, helpful_votes_count: Math.max(0, helpfulCount) + (helpful ? added : 0) };
  // Variant vote-counts-later: the counts wait for the periodic recount.
  if (ctx.variants.has('vote-counts-later')) deferVoteCounts(ctx, review, counted);
  else ctx.data.skuReviews.set(review.id, counted);
  if (!replaced) adjustAuthorStats(ctx, review.user_id, 0, +1);
  // Variant second-vote-updated-200: a repeated vote, which replaces the first, is answered 200.
  const status = replaced && ctx.variants.has('second-vote-updated-200') ? 200 : 201;
  return respondOne(ctx, 'sku_review_vote', vote, serialize, { status, links });
}

export function flagReview(ctx: ApiContext): ApiResult {
  requirePermission(ctx);
  const sku = findSku(ctx, ctx.params['sku_id']);
  const asked = findReview(ctx, sku, ctx.params['review_id']);
  // The bug: the flag goes to another review of the SKU.
  const review = ctx.fault === 'flag-applied-to-other-review' ? otherReview(ctx, asked) : asked;
  requestedLinks(ctx, []);
  const reason = reasonOf(ctx);
  const userId = currentUser(ctx);
  const stamp = formatTimestamp(ctx.now());
  const existing = [...ctx.data.flags.values()].find((f) => f.flaggable_type === 'SkuReview' && f.flaggable_id === review.id && f.user_id === userId);
  if (existing && ctx.variants.has('second-flag-refused')) throw validationFailed(['You have already flagged this review']);
  const flag: FlagRecord = existing
    ? { ...existing, reason, updated_at: stamp }
    : {
        id: ctx.data.nextId('flag'),
        flaggable_id: review.id,
        flaggable_type: 'SkuReview',
        user_id: userId,
        reason,
        created_at: stamp,
        updated_at: stamp,
      };
  // The bug: the flag is answered, never written.
  if (ctx.fault !== 'flag-not-stored') ctx.data.flags.set(flag.id, flag);
  return flagResult(ctx, flag);
}

function requirePermission(ctx: ApiContext): void {
  if (!ctx.token.scopes.includes(REVIEW_ACTIONS_SCOPE)) {
    throw new ApiError(401, 'Unauthorized', [`The access token's scope does not include "${REVIEW_ACTIONS_SCOPE}"`]);
  }
}

/** The bug of the faults vote- and flag-applied-to-other-review: another review of the SKU (the lowest id), when it has one. */
function otherReview(ctx: ApiContext, review: SkuReviewRecord): SkuReviewRecord {
  const others = [...ctx.data.skuReviews.values()].filter((r) => r.sku_id === review.sku_id && r.id !== review.id).sort((a, b) => a.id - b.id);
  return others[0] ?? review;
}

function reviewLink(ctx: ApiContext): Link<VoteRecord> {
  return {
    name: 'sku_review',
    plural: 'sku_reviews',
    idOf: (v) => v.sku_review_id,
    objectOf: (v) => {
      const r = ctx.data.skuReviews.get(v.sku_review_id);
      return r ? serializer(ctx)(r) : null;
    },
  };
}

function helpfulOf(ctx: ApiContext): boolean {
  const fromBody = isObject(ctx.body?.['vote']) ? (ctx.body['vote'] as Json)['helpful'] : undefined;
  const raw = fromBody ?? ctx.query.get('vote[helpful]') ?? undefined;
  return asValidationFailure(ctx, () => {
    if (raw === undefined) throw parameterMissing('vote[helpful]');
    return toBoolean(raw, 'vote[helpful]')!;
  });
}

/** Variant review-action-validation-422: a missing or invalid vote or flag value fails the record's validation (422 RecordInvalid), not 400. */
function asValidationFailure<T>(ctx: ApiContext, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof ApiError && e.status === 400 && ctx.variants.has('review-action-validation-422')) throw validationFailed(e.messages);
    throw e;
  }
}

function reasonOf(ctx: ApiContext): string {
  const fromBody = isObject(ctx.body?.['flag']) ? (ctx.body['flag'] as Json)['reason'] : undefined;
  const raw = fromBody ?? ctx.query.get('flag[reason]') ?? undefined;
  return asValidationFailure(ctx, () => {
    if (raw === undefined || raw === '') throw parameterMissing('flag[reason]');
    const reasons = ctx.data.flagReasons.map((f) => f.reason);
    if (typeof raw !== 'string' || (!reasons.includes(raw) && ctx.fault !== 'flag-unknown-reason-accepted')) {
      throw invalidParameter(`flag[reason] must be one of ${reasons.join(', ')}`);
    }
    return raw;
  });
}

/** The flag answer: {flag: record}, or (variants) no body or the bare record. */
function flagResult(ctx: ApiContext, flag: FlagRecord): ApiResult {
  // Variant flaggable-type-namespaced: the server's class for SKU reviews is named Sku::Review.
  const serialize = ctx.variants.has('flaggable-type-namespaced') ? (f: FlagRecord) => ({ ...serializeFlag(f), flaggable_type: 'Sku::Review' }) : serializeFlag;
  if (ctx.variants.has('flag-empty-body')) return { status: 201, headers: { 'Content-Length': '0' } };
  if (ctx.variants.has('flag-bare-record')) return { status: 201, body: serialize(flag) };
  return respondOne(ctx, 'flag', flag, serialize, { status: 201 });
}
