// SKU reviews (list, forms, create, update, delete), votes, flags, GET /flags (spec "Endpoints >
// SKU reviews", "Resources > SKU review / SKU review vote / Flag / Review form").
//
// Choices where the spec is silent:
// - Sorting parameter: `sort` (most_recent, the default, or most_helpful); `order_by` is accepted
//   as a synonym (`sort` wins when both are sent). Variant review-sort-order-by: order_by only
//   (sort is ignored). Another value -> 400 InvalidParameter.
//   most_helpful arrived in 3.1.3: a 3.0 request with it gets 400.
// - Both sorts put non-demoted reviews first. most_recent: created_at descending; most_helpful:
//   helpful_votes_count descending, then created_at descending. Ties: id descending.
// - include_meta (also include_meta[], comma-separated): sku_rating_breakdown (every served
//   version) and sku_reviews_aggregation (3.1.3+; 400 for a 3.0 request); another value -> 400.
// - meta.sku_rating_breakdown: an object from star ("1".."5", all five present) to the number of
//   the SKU's reviews with that rating, demoted ones included.
// - meta.sku_reviews_aggregation: one entry per sentiment phrase found in the SKU's reviews:
//   label = the phrase; score = round(100 * (positive + mediocre / 2) / mentions); style =
//   positive (score >= 70), mediocre (>= 40) or negative. Most mentioned first, then by label.
// - voted, flagged, helpful: sent only for user tokens (absent for application tokens); helpful
//   is the user's own vote, false when they have not voted. Variant
//   review-user-fields-false-for-app: false for application tokens (and own_review null).
//   Variant review-user-fields-need-actions-scope: absent too for a user token without
//   publish_sku_review_actions (the permission for votes and flags), which the authorization
//   step then refuses.
// - own_review: a field of every review in a listing for a user token: the user's review of this
//   SKU (without its own own_review) or null; absent for application tokens and outside
//   listings. Like sentiments it arrived in 3.1.3. Variant own-review-in-meta: meta.own_review
//   once per listing (user tokens, 3.1.3+), not on the reviews; variant own-review-top-level:
//   own_review once at the top level of the body, beside reviews and meta.
// - sentiments: the arrays the review has, an empty one left out (variant sentiments-always-three:
//   all three, [] when empty; see serializers/review.ts).
// - Review forms (new, edit) and create / update / delete need a user token (application token:
//   401) with the public scope, and are served from 3.2.0 (older versions: 404), the version
//   that brought review create / update / delete.
// - requires_body is true for every SKU. The questions are the dataset's (the same for every
//   SKU). The new form is served even when the user has reviewed the SKU already (variant
//   review-form-refused-when-reviewed: 422 RecordInvalid then, and for a SKU that is not reviewable).
// - Only the author may open the edit form, update or delete a review; another user's review
//   (or a review of another SKU than the path's) is 404 RecordNotFound, as if it did not exist
//   (403 is the rate limit in this API).
// - Create: rating required (integer 1-5; a digit string is accepted, as forms send strings);
//   answer_ids optional (array of known answer ids, duplicates collapsed, at most one answer per
//   eval_sentiment question); review required and not blank (requires_body). One review per
//   user and SKU; a SKU with reviewable false accepts none. Every failure is 422
//   RecordInvalid listing all messages; a missing `review` object is 400 ParameterMissing.
//   Variant validation-as-400: a create without rating or review is 400 ParameterMissing.
//   No maximum review length (only the 2 MiB body cap). A created review has demoted false and
//   zero votes; its sentiments come from its answers as in the dataset (sentimentsFromAnswers:
//   an eval_sentiment question's first / middle / last answer -> positive / mediocre / negative).
// - Update: any subset of rating, answer_ids, review ({} changes nothing), same rules; 200.
//   created_at, demoted and the votes stay.
// - Delete: 204 empty; the review's votes and flags go with it.
// - sku.reviews_count and sku.reviewscore follow creates, updates and deletes; so do the
//   author's stats.sku_review_count and stats.received_votes (votes on their reviews).
// - Votes and flags: publish_sku_review_actions and a user token (401 otherwise). The value is
//   taken from the body ({vote: {helpful}} / {flag: {reason}}) when present, else from the query
//   (vote[helpful] / flag[reason]). Missing -> 400 ParameterMissing; helpful not true/false (or
//   1/0), or an unknown reason -> 400 InvalidParameter. Users may vote on and flag their own
//   reviews (variant own-review-vote-refused: a vote on one's own review is 403 Forbidden).
// - A second vote by the same user on a review replaces the first (the old vote is removed, a
//   new one with a new id is created: 201; variant second-vote-refused: 422 RecordInvalid;
//   variant second-vote-updated-200: 200).
//   votes_count / helpful_votes_count count current votes.
// - A flag answers 201 with the flag record {flag: {...}} (variant flag-empty-body: no body;
//   flag-bare-record: the record itself). A second flag by the same user on a review updates
//   that record (same id, new reason and updated_at), also 201 (variant second-flag-refused:
//   422 RecordInvalid).
// - GET /flags is not paginated (no meta), and served in every version (variant
//   flags-from-3.0.21: from 3.0.21, the version that brought flagging).
// - Mutating requests check embed / include / embed_ids names before changing anything.
//
// The routes are here; the listing in review-listing.ts, the body of a create or update in
// review-input.ts, votes and flags in review-actions.ts, what they share in review-records.ts.

import { sentimentsFromAnswers, type FlagReason, type SkuReviewRecord } from '../data.ts';
import { ApiError, formatTimestamp, type ApiResult } from '../http.ts';
import type { ApiContext, RouteModule } from '../router.ts';
import { serializeReviewForm } from '../serializers/review.ts';
import { requestedLinks, respondMany, respondOne } from '../shape.ts';
import { bodyObject } from './params.ts';
import { flagReview, voteOnReview } from './review-actions.ts';
import { readReviewInput, requiresBody } from './review-input.ts';
import { listReviews } from './review-listing.ts';
import { adjustAuthorStats, currentUser, findOwnReview, findSku, reviewsOf, serializer, syncSku, validationFailed } from './review-records.ts';
import { versionAtLeast } from '../versioning.ts';

export const reviewRoutes: RouteModule = (router, variants) => {
  // Variant review-writes-need-actions-scope: creating, updating and deleting a review need publish_sku_review_actions.
  const write = { user: true, since: '3.2.0', ...(variants.has('review-writes-need-actions-scope') ? { scope: 'publish_sku_review_actions' } : {}) };
  router.get('/skus/:id/reviews', listReviews);
  router.get('/skus/:id/reviews/new', showNewReviewForm, { user: true, since: '3.2.0' });
  router.get('/skus/:id/reviews/:review_id/edit', showEditReviewForm, { user: true, since: '3.2.0' });
  router.post('/skus/:id/reviews', createReview, write);
  router.put('/skus/:id/reviews/:review_id', updateReview, write);
  router.delete('/skus/:id/reviews/:review_id', deleteReview, write);
  // The permission is checked in the handler (review-actions.ts), so that its absence is one visible bug.
  router.post('/skus/:sku_id/reviews/:review_id/votes', voteOnReview, { scope: null, user: true, since: '3.0.17' });
  router.post('/skus/:sku_id/reviews/:review_id/flags', flagReview, { scope: null, user: true, since: '3.0.21' });
  router.get('/flags', listFlagReasons);
};

function showNewReviewForm(ctx: ApiContext): ApiResult {
  const sku = findSku(ctx, ctx.params['id']);
  // Variant review-form-refused-when-reviewed: no new form where a review could not be created.
  if (ctx.variants.has('review-form-refused-when-reviewed')) {
    const userId = currentUser(ctx);
    if (reviewsOf(ctx.data, sku.id).some((r) => r.user_id === userId)) throw validationFailed(['You have already reviewed this SKU: edit that review instead']);
    if (!sku.reviewable) throw validationFailed(['This SKU does not accept reviews (reviewable is false)']);
  }
  return respondOne(ctx, 'review_form', sku, () => serializeReviewForm(ctx.data.reviewQuestions, { requiresBody: requiresBody(ctx), fault: ctx.fault, variants: ctx.variants }));
}

function showEditReviewForm(ctx: ApiContext): ApiResult {
  const sku = findSku(ctx, ctx.params['id']);
  const review = findOwnReview(ctx, sku, ctx.params['review_id']);
  return respondOne(ctx, 'review_form', review, (r) =>
    serializeReviewForm(ctx.data.reviewQuestions, { requiresBody: requiresBody(ctx), edit: r, fault: ctx.fault, variants: ctx.variants }),
  );
}

function createReview(ctx: ApiContext): ApiResult {
  const sku = findSku(ctx, ctx.params['id']);
  const userId = currentUser(ctx);
  requestedLinks(ctx, []);
  const { changes, errors } = readReviewInput(ctx, bodyObject(ctx, 'review'), null);
  if (reviewsOf(ctx.data, sku.id).some((r) => r.user_id === userId)) {
    errors.push('You have already reviewed this SKU: update or delete that review instead');
  }
  if (!sku.reviewable) errors.push('This SKU does not accept reviews (reviewable is false)');
  if (errors.length > 0) throw validationFailed(errors);
  const now = ctx.now();
  const review: SkuReviewRecord = {
    id: ctx.data.nextId('sku_review'),
    sku_id: sku.id,
    user_id: userId,
    review: changes.review ?? null,
    rating: changes.rating!,
    created_at: formatTimestamp(now),
    demoted: false,
    votes_count: 0,
    helpful_votes_count: 0,
    sentiments: sentimentsFromAnswers(ctx.data.reviewQuestions, changes.answerIds ?? []),
    answerIds: changes.answerIds ?? [],
    createdMs: now,
    // Variant reviews-moderated: a new review waits for a moderator, demoted and out of the SKU's counts meanwhile.
    ...(ctx.variants.has('reviews-moderated') ? { demoted: true, pending: true } : {}),
  };
  ctx.data.skuReviews.set(review.id, review);
  syncSku(ctx, sku);
  adjustAuthorStats(ctx, userId, +1, 0);
  const serialize = serializer(ctx);
  return respondOne(
    ctx,
    'sku_review',
    review,
    (r) => {
      const out = serialize(r);
      // The bug: the response echoes the rating as the form sent it.
      if (ctx.fault === 'created-review-rating-string') out['rating'] = String(out['rating']);
      // Variant created-review-pending-fields-null: the user's relation and the sentiments are worked out after the create, null in its answer.
      if (ctx.variants.has('created-review-pending-fields-null')) for (const key of ['voted', 'flagged', 'helpful', 'sentiments']) if (key in out) out[key] = null;
      return out;
    },
    { status: 201 },
  );
}

function updateReview(ctx: ApiContext): ApiResult {
  const sku = findSku(ctx, ctx.params['id']);
  const current = findOwnReview(ctx, sku, ctx.params['review_id']);
  requestedLinks(ctx, []);
  const { changes, errors } = readReviewInput(ctx, bodyObject(ctx, 'review'), current);
  if (errors.length > 0) throw validationFailed(errors);
  const updated: SkuReviewRecord = {
    ...current,
    ...(changes.rating !== undefined ? { rating: changes.rating } : {}),
    ...(changes.review !== undefined ? { review: changes.review } : {}),
    ...(changes.answerIds !== undefined ? { answerIds: changes.answerIds, sentiments: sentimentsFromAnswers(ctx.data.reviewQuestions, changes.answerIds) } : {}),
    // Variant reviews-moderated: a changed review goes back to moderation, demoted until approved.
    ...(ctx.variants.has('reviews-moderated') && Object.keys(changes).length > 0 ? { demoted: true } : {}),
  };
  // The bug: the answer is built from the change, but it is never written.
  if (ctx.fault === 'review-update-not-stored') return respondOne(ctx, 'sku_review', updated, serializer(ctx));
  ctx.data.skuReviews.set(updated.id, updated);
  syncSku(ctx, sku);
  return respondOne(ctx, 'sku_review', updated, serializer(ctx));
}

function deleteReview(ctx: ApiContext): ApiResult {
  const sku = findSku(ctx, ctx.params['id']);
  const review = findOwnReview(ctx, sku, ctx.params['review_id']);
  const body = ctx.fault === 'review-delete-returns-200-with-body' ? respondOne(ctx, 'sku_review', review, serializer(ctx)) : null;
  // The bug: the delete is answered but never applied.
  if (ctx.fault === 'review-delete-not-stored') return { status: 204 };
  ctx.data.skuReviews.delete(review.id);
  for (const v of [...ctx.data.votes.values()]) if (v.sku_review_id === review.id) ctx.data.votes.delete(v.id);
  for (const f of [...ctx.data.flags.values()]) {
    if (f.flaggable_type === 'SkuReview' && f.flaggable_id === review.id) ctx.data.flags.delete(f.id);
  }
  syncSku(ctx, sku);
  adjustAuthorStats(ctx, review.user_id, -1, -review.votes_count);
  return body ?? { status: 204 };
}

function listFlagReasons(ctx: ApiContext): ApiResult {
  // Variant flags-from-3.0.21: the catalogue comes with flagging (3.0.21); an older version gets 404, as for an unknown route.
  if (ctx.variants.has('flags-from-3.0.21') && !versionAtLeast(ctx.version, '3.0.21')) {
    throw new ApiError(404, 'NotFound', [`GET /flags is served from version 3.0.21; this request got ${ctx.version.label}`]);
  }
  // Variant flag-reason-without-description: spam has no description in this catalogue (null).
  const description = (f: FlagReason): string | null => (ctx.variants.has('flag-reason-without-description') && f.reason === 'spam' ? null : f.description);
  // Variant flags-paginated: the catalogue is a paginated collection like the others, with meta.pagination.
  return respondMany(ctx, 'flags', ctx.data.flagReasons, (f) => ({ reason: f.reason, description: description(f) }), { paginate: ctx.variants.has('flags-paginated') });
}
