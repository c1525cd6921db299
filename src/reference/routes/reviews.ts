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
// - own_review: a field of every review in a listing for a user token: the user's review of this
//   SKU (without its own own_review) or null; absent for application tokens and outside
//   listings. Like sentiments it arrived in 3.1.3. Variant own-review-in-meta: meta.own_review
//   once per listing (user tokens, 3.1.3+), not on the reviews.
// - sentiments: the arrays the review has, an empty one left out (variant sentiments-always-three:
//   all three, [] when empty; see serializers/review.ts).
// - Review forms (new, edit) and create / update / delete need a user token (application token:
//   401) with the public scope, and are served from 3.2.0 (older versions: 404), the version
//   that brought review create / update / delete.
// - requires_body is true for every SKU. The questions are the dataset's (the same for every
//   SKU). The new form is served even when the user has reviewed the SKU already.
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
//   reviews.
// - A second vote by the same user on a review replaces the first (the old vote is removed, a
//   new one with a new id is created: 201; variant second-vote-refused: 422 RecordInvalid).
//   votes_count / helpful_votes_count count current votes.
// - A flag answers 201 with the flag record {flag: {...}} (variant flag-empty-body: no body;
//   flag-bare-record: the record itself). A second flag by the same user on a review updates
//   that record (same id, new reason and updated_at), also 201 (variant second-flag-refused:
//   422 RecordInvalid).
// - GET /flags is not paginated (no meta).
// - Mutating requests check embed / include / embed_ids names before changing anything.

import { sentimentsFromAnswers, type Dataset, type FlagRecord, type SkuRecord, type SkuReviewRecord, type VoteRecord } from '../data.ts';
import { applySkuReviews } from '../data/catalog.ts';
import { ApiError, formatTimestamp, recordNotFound, type ApiResult } from '../http.ts';
import type { ApiContext, RouteModule } from '../router.ts';
import {
  reviewViewer,
  serializeFlag,
  serializeReviewForm,
  serializeSkuReview,
  serializeVote,
  type ReviewViewer,
} from '../serializers/review.ts';
import { requestedLinks, respondMany, respondOne, type Link } from '../shape.ts';
import { versionAtLeast } from '../versioning.ts';
import { bodyObject, findById, invalidParameter, parameterMissing, parseId, toBoolean } from './params.ts';
import { refuseMissingFields } from './validation.ts';

const REQUIRES_BODY = true;
const REVIEW_ACTIONS_SCOPE = 'publish_sku_review_actions';
type Sort = 'most_recent' | 'most_helpful';
const META_NAMES = ['sku_reviews_aggregation', 'sku_rating_breakdown'] as const;
type MetaName = (typeof META_NAMES)[number];

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Lookups

function findSku(ctx: ApiContext, raw: string | undefined): SkuRecord {
  return findById(ctx.data.skus, raw, 'Sku');
}

/** A review of `sku`; a review of another SKU is as missing as an unknown id. */
/** The bug of the faults vote- and flag-applied-to-other-review: another review of the SKU (the lowest id), when it has one. */
function otherReview(ctx: ApiContext, review: SkuReviewRecord): SkuReviewRecord {
  const others = [...ctx.data.skuReviews.values()].filter((r) => r.sku_id === review.sku_id && r.id !== review.id).sort((a, b) => a.id - b.id);
  return others[0] ?? review;
}

function findReview(ctx: ApiContext, sku: SkuRecord, raw: string | undefined): SkuReviewRecord {
  const id = parseId(raw, 'SkuReview');
  const r = ctx.data.skuReviews.get(id);
  if (!r || r.sku_id !== sku.id) throw recordNotFound('SkuReview', id);
  return r;
}

/** A review of `sku` written by the requesting user; other users' reviews are 404. */
function findOwnReview(ctx: ApiContext, sku: SkuRecord, raw: string | undefined): SkuReviewRecord {
  const r = findReview(ctx, sku, raw);
  if (r.user_id !== currentUser(ctx)) throw recordNotFound('SkuReview', r.id);
  return r;
}

function currentUser(ctx: ApiContext): number {
  // Routes that call this are registered with user: true; this guards the type.
  if (ctx.userId === null) throw new ApiError(401, 'Unauthorized', ['This action needs a user token (authorization code grant)']);
  return ctx.userId;
}

function requirePermission(ctx: ApiContext): void {
  if (!ctx.token.scopes.includes(REVIEW_ACTIONS_SCOPE)) {
    throw new ApiError(401, 'Unauthorized', [`The access token's scope does not include "${REVIEW_ACTIONS_SCOPE}"`]);
  }
}

function reviewsOf(data: Dataset, skuId: number): SkuReviewRecord[] {
  return [...data.skuReviews.values()].filter((r) => r.sku_id === skuId);
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------------
// Listing

function listParam(query: URLSearchParams, name: string): string[] {
  return [...query.getAll(name), ...query.getAll(`${name}[]`)]
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function sortOf(ctx: ApiContext): Sort {
  const name = ctx.variants.has('review-sort-order-by') || !ctx.query.has('sort') ? 'order_by' : 'sort';
  const raw = ctx.query.get(name);
  if (raw === null) return 'most_recent';
  const allowed: Sort[] = ['most_recent'];
  if (versionAtLeast(ctx.version, '3.1.3') && ctx.fault !== 'reviews-most-helpful-refused') allowed.push('most_helpful');
  if (!(allowed as string[]).includes(raw)) {
    const note = raw === 'most_helpful' ? ` (most_helpful is served from version 3.1.3; this request got ${ctx.version.label})` : '';
    throw invalidParameter(`${name} must be one of ${allowed.join(', ')}, got "${raw.slice(0, 64)}"${note}`);
  }
  return raw as Sort;
}

function metaNamesOf(ctx: ApiContext): Set<MetaName> {
  const out = new Set<MetaName>();
  for (const raw of listParam(ctx.query, 'include_meta')) {
    const known = (META_NAMES as readonly string[]).includes(raw);
    if (!known) throw invalidParameter(`include_meta must be one of ${META_NAMES.join(', ')}, got "${raw.slice(0, 64)}"`);
    if (raw === 'sku_reviews_aggregation' && !versionAtLeast(ctx.version, '3.1.3')) {
      throw invalidParameter(`include_meta=sku_reviews_aggregation is served from version 3.1.3; this request got ${ctx.version.label}`);
    }
    out.add(raw as MetaName);
  }
  return out;
}

function compareReviews(sort: Sort, fault: ApiContext['fault']): (a: SkuReviewRecord, b: SkuReviewRecord) => number {
  return (a, b) => {
    if (a.demoted !== b.demoted) {
      const demotedFirst = fault === 'reviews-demoted-listed-first';
      return (a.demoted ? 1 : -1) * (demotedFirst ? -1 : 1);
    }
    // The bug (most-helpful-sorted-as-recent): most_helpful is accepted, then sorted as most_recent.
    if (sort === 'most_helpful' && fault !== 'most-helpful-sorted-as-recent' && a.helpful_votes_count !== b.helpful_votes_count) return b.helpful_votes_count - a.helpful_votes_count;
    if (a.createdMs !== b.createdMs) return b.createdMs - a.createdMs;
    return b.id - a.id;
  };
}

function ratingBreakdown(reviews: readonly SkuReviewRecord[]): Record<string, number> {
  const out: Record<string, number> = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  for (const r of reviews) {
    const key = String(r.rating);
    if (key in out) out[key] = out[key]! + 1;
  }
  return out;
}

function reviewsAggregation(reviews: readonly SkuReviewRecord[], fault: ApiContext['fault']): Json[] {
  const tally = new Map<string, { positive: number; mediocre: number; negative: number }>();
  for (const r of reviews) {
    for (const kind of ['positive', 'mediocre', 'negative'] as const) {
      for (const label of r.sentiments[kind] ?? []) {
        const t = tally.get(label) ?? { positive: 0, mediocre: 0, negative: 0 };
        t[kind] += 1;
        tally.set(label, t);
      }
    }
  }
  return [...tally.entries()]
    .map(([label, t]) => {
      const mentions = t.positive + t.mediocre + t.negative;
      const score = Math.round((100 * (t.positive + t.mediocre / 2)) / mentions);
      return { label, mentions, score, style: score >= 70 ? 'positive' : score >= 40 ? 'mediocre' : 'negative' };
    })
    .sort((a, b) => b.mentions - a.mentions || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
    .map(({ label, score, style }) => ({ label, score: fault === 'review-aggregation-score-string' ? String(score) : score, style }));
}

// ---------------------------------------------------------------------------------------------
// Review input (create / update)

function integerValue(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  if (typeof v === 'string' && /^\s*-?\d{1,15}\s*$/.test(v)) return Number(v);
  return null;
}

interface ReviewChanges {
  rating?: number;
  answerIds?: number[];
  review?: string;
}

/** Reads `{review: {...}}`; every problem becomes a message of one 422. */
function readReviewInput(ctx: ApiContext, input: Json, current: SkuReviewRecord | null): { changes: ReviewChanges; errors: string[] } {
  const errors: string[] = [];
  const changes: ReviewChanges = {};
  // The form requires rating and (requires_body) review.
  if (current === null) refuseMissingFields(ctx, ['rating', 'review'].filter((k) => input[k] === undefined).map((k) => `review[${k}]`));

  const rawRating = input['rating'];
  if (rawRating === undefined) {
    if (current === null) errors.push('rating is required: an integer from 1 to 5');
  } else {
    const n = integerValue(rawRating);
    if (n === null || n < 1 || n > 5) errors.push('rating must be an integer from 1 to 5');
    else changes.rating = n;
  }

  const rawAnswers = input['answer_ids'];
  if (rawAnswers !== undefined) {
    const ids: number[] = [];
    const malformed = !Array.isArray(rawAnswers) || rawAnswers.some((v) => v !== '' && integerValue(v) === null);
    if (malformed) errors.push('answer_ids must be an array of integers');
    else {
      for (const v of rawAnswers as unknown[]) {
        const n = v === '' ? null : integerValue(v);
        if (n !== null && !ids.includes(n)) ids.push(n);
      }
      const questionOf = new Map<number, number>();
      ctx.data.reviewQuestions.forEach((q, qi) => q.answers.forEach((a) => questionOf.set(a.id, qi)));
      const unknown = ids.filter((id) => !questionOf.has(id));
      if (unknown.length > 0) errors.push(`answer_ids: no such answer in the review form: ${unknown.join(', ')}`);
      else {
        ctx.data.reviewQuestions.forEach((q, qi) => {
          const picked = ids.filter((id) => questionOf.get(id) === qi);
          if (q.type === 'eval_sentiment' && picked.length > 1) {
            errors.push(`answer_ids: the question "${q.text}" takes at most one answer, got ${picked.join(', ')}`);
          }
        });
        changes.answerIds = ids;
      }
    }
  }

  const rawText = input['review'];
  if (rawText !== undefined && typeof rawText !== 'string') errors.push('review must be a string');
  else {
    if (typeof rawText === 'string') changes.review = rawText;
    // An update that leaves the text alone is not judged on it.
    const judged = current === null || rawText !== undefined;
    if (REQUIRES_BODY && judged && (changes.review ?? '').trim() === '') {
      errors.push("review can't be blank: the review form requires a body");
    }
  }
  return { changes, errors };
}

function validationFailed(errors: string[]): ApiError {
  return new ApiError(422, 'RecordInvalid', errors);
}

/** sku.reviews_count and sku.reviewscore from the SKU's reviews, as the dataset computes them. */
function syncSku(ctx: ApiContext, sku: SkuRecord): void {
  applySkuReviews(new Map([[sku.id, sku]]), reviewsOf(ctx.data, sku.id));
}

/** The author's stats: sku_review_count (reviews written) and received_votes (votes on them). */
function adjustAuthorStats(ctx: ApiContext, userId: number, reviews: number, votes: number): void {
  const stats = ctx.data.users.get(userId)?.stats;
  if (!stats) return;
  stats.sku_review_count = Math.max(0, stats.sku_review_count + reviews);
  stats.received_votes = Math.max(0, stats.received_votes + votes);
}

// ---------------------------------------------------------------------------------------------
// Responses

function serializer(ctx: ApiContext, viewer: ReviewViewer = reviewViewer(ctx.data, ctx.userId)): (r: SkuReviewRecord) => Json {
  return (r) => serializeSkuReview(r, { version: ctx.version, fault: ctx.fault, variants: ctx.variants, viewer });
}

/**
 * own_review of a listing: the user's review of the SKU or null; undefined (no key) for an
 * application token, unless the variant review-user-fields-false-for-app gives it null.
 */
function ownReviewOf(ctx: ApiContext, reviews: readonly SkuReviewRecord[]): SkuReviewRecord | null | undefined {
  if (ctx.userId === null) return ctx.variants.has('review-user-fields-false-for-app') ? null : undefined;
  return reviews.find((r) => r.user_id === ctx.userId) ?? null;
}

/** Variant own-review-in-meta: own_review goes once into the meta of a user's listing (3.1.3+). */
function ownReviewInMeta(ctx: ApiContext): boolean {
  return ctx.userId !== null && ctx.variants.has('own-review-in-meta') && versionAtLeast(ctx.version, '3.1.3');
}

/** The flag answer: {flag: record}, or (variants) no body or the bare record. */
function flagResult(ctx: ApiContext, flag: FlagRecord): ApiResult {
  if (ctx.variants.has('flag-empty-body')) return { status: 201, headers: { 'Content-Length': '0' } };
  if (ctx.variants.has('flag-bare-record')) return { status: 201, body: serializeFlag(flag) };
  return respondOne(ctx, 'flag', flag, serializeFlag, { status: 201 });
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
  if (raw === undefined) throw parameterMissing('vote[helpful]');
  return toBoolean(raw, 'vote[helpful]')!;
}

function reasonOf(ctx: ApiContext): string {
  const fromBody = isObject(ctx.body?.['flag']) ? (ctx.body['flag'] as Json)['reason'] : undefined;
  const raw = fromBody ?? ctx.query.get('flag[reason]') ?? undefined;
  if (raw === undefined || raw === '') throw parameterMissing('flag[reason]');
  const reasons = ctx.data.flagReasons.map((f) => f.reason);
  if (typeof raw !== 'string' || (!reasons.includes(raw) && ctx.fault !== 'flag-unknown-reason-accepted')) {
    throw invalidParameter(`flag[reason] must be one of ${reasons.join(', ')}`);
  }
  return raw;
}

// ---------------------------------------------------------------------------------------------
// Routes

export const reviewRoutes: RouteModule = (router) => {
  router.get('/skus/:id/reviews', (ctx) => {
    const sku = findSku(ctx, ctx.params['id']);
    const sort = sortOf(ctx);
    const metaNames = metaNamesOf(ctx);
    const all = reviewsOf(ctx.data, sku.id).sort(compareReviews(sort, ctx.fault));
    const meta: Json = {};
    if (metaNames.has('sku_reviews_aggregation')) meta['sku_reviews_aggregation'] = reviewsAggregation(all, ctx.fault);
    if (metaNames.has('sku_rating_breakdown')) meta['sku_rating_breakdown'] = ratingBreakdown(all);
    const viewer = reviewViewer(ctx.data, ctx.userId);
    const own = ownReviewOf(ctx, all);
    const inMeta = ownReviewInMeta(ctx);
    const base = { version: ctx.version, fault: ctx.fault, variants: ctx.variants, viewer };
    if (inMeta) meta['own_review'] = own ? serializeSkuReview(own, base) : null;
    const ownReview = inMeta ? undefined : own;
    return respondMany(ctx, 'reviews', all, (r) => serializeSkuReview(r, { ...base, ownReview }), { meta });
  });

  router.get(
    '/skus/:id/reviews/new',
    (ctx) => {
      const sku = findSku(ctx, ctx.params['id']);
      return respondOne(ctx, 'review_form', sku, () =>
        serializeReviewForm(ctx.data.reviewQuestions, { requiresBody: REQUIRES_BODY, fault: ctx.fault }),
      );
    },
    { user: true, since: '3.2.0' },
  );

  router.get(
    '/skus/:id/reviews/:review_id/edit',
    (ctx) => {
      const sku = findSku(ctx, ctx.params['id']);
      const review = findOwnReview(ctx, sku, ctx.params['review_id']);
      return respondOne(ctx, 'review_form', review, (r) =>
        serializeReviewForm(ctx.data.reviewQuestions, { requiresBody: REQUIRES_BODY, edit: r, fault: ctx.fault }),
      );
    },
    { user: true, since: '3.2.0' },
  );

  router.post(
    '/skus/:id/reviews',
    (ctx) => {
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
        review: changes.review ?? '',
        rating: changes.rating!,
        created_at: formatTimestamp(now),
        demoted: false,
        votes_count: 0,
        helpful_votes_count: 0,
        sentiments: sentimentsFromAnswers(ctx.data.reviewQuestions, changes.answerIds ?? []),
        answerIds: changes.answerIds ?? [],
        createdMs: now,
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
          return out;
        },
        { status: 201 },
      );
    },
    { user: true, since: '3.2.0' },
  );

  router.put(
    '/skus/:id/reviews/:review_id',
    (ctx) => {
      const sku = findSku(ctx, ctx.params['id']);
      const current = findOwnReview(ctx, sku, ctx.params['review_id']);
      requestedLinks(ctx, []);
      const { changes, errors } = readReviewInput(ctx, bodyObject(ctx, 'review'), current);
      if (errors.length > 0) throw validationFailed(errors);
      const updated: SkuReviewRecord = {
        ...current,
        ...(changes.rating !== undefined ? { rating: changes.rating } : {}),
        ...(changes.review !== undefined ? { review: changes.review } : {}),
        ...(changes.answerIds !== undefined
          ? { answerIds: changes.answerIds, sentiments: sentimentsFromAnswers(ctx.data.reviewQuestions, changes.answerIds) }
          : {}),
      };
      // The bug: the answer is built from the change, but it is never written.
      if (ctx.fault === 'review-update-not-stored') return respondOne(ctx, 'sku_review', updated, serializer(ctx));
      ctx.data.skuReviews.set(updated.id, updated);
      syncSku(ctx, sku);
      return respondOne(ctx, 'sku_review', updated, serializer(ctx));
    },
    { user: true, since: '3.2.0' },
  );

  router.delete(
    '/skus/:id/reviews/:review_id',
    (ctx): ApiResult => {
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
    },
    { user: true, since: '3.2.0' },
  );

  router.post(
    '/skus/:sku_id/reviews/:review_id/votes',
    (ctx) => {
      if (ctx.fault !== 'vote-without-permission-accepted') requirePermission(ctx);
      const sku = findSku(ctx, ctx.params['sku_id']);
      let review = findReview(ctx, sku, ctx.params['review_id']);
      // The bug: the vote goes to another review of the SKU.
      if (ctx.fault === 'vote-applied-to-other-review') review = otherReview(ctx, review);
      const links = [reviewLink(ctx)];
      requestedLinks(ctx, links);
      const helpful = helpfulOf(ctx);
      const userId = currentUser(ctx);
      const earlier = [...ctx.data.votes.values()].some((v) => v.sku_review_id === review.id && v.user_id === userId);
      if (earlier && ctx.variants.has('second-vote-refused')) throw validationFailed(['You have already voted on this review']);
      let votesCount = review.votes_count;
      let helpfulCount = review.helpful_votes_count;
      for (const old of [...ctx.data.votes.values()]) {
        if (old.sku_review_id !== review.id || old.user_id !== userId) continue;
        ctx.data.votes.delete(old.id);
        votesCount -= 1;
        if (old.helpful) helpfulCount -= 1;
      }
      const replaced = votesCount !== review.votes_count;
      const vote: VoteRecord = {
        id: ctx.data.nextId('vote'),
        sku_review_id: review.id,
        user_id: userId,
        helpful,
        created_at: formatTimestamp(ctx.now()),
      };
      // The bug: the vote is answered, never written.
      if (ctx.fault === 'vote-not-stored') return respondOne(ctx, 'sku_review_vote', vote, serializeVote, { status: 201, links });
      ctx.data.votes.set(vote.id, vote);
      // Variant own-votes-not-counted: the author's own vote is stored but not counted (the fault counts every vote twice).
      const added = ctx.fault === 'vote-counted-twice' ? 2 : ctx.variants.has('own-votes-not-counted') && review.user_id === userId ? 0 : 1;
      review = { ...review, votes_count: Math.max(0, votesCount) + added, helpful_votes_count: Math.max(0, helpfulCount) + (helpful ? added : 0) };
      ctx.data.skuReviews.set(review.id, review);
      if (!replaced) adjustAuthorStats(ctx, review.user_id, 0, +1);
      return respondOne(ctx, 'sku_review_vote', vote, serializeVote, { status: 201, links });
    },
    // The permission is checked in the handler (above), so that its absence is one visible bug.
    { scope: null, user: true },
  );

  router.post(
    '/skus/:sku_id/reviews/:review_id/flags',
    (ctx) => {
      requirePermission(ctx);
      const sku = findSku(ctx, ctx.params['sku_id']);
      const asked = findReview(ctx, sku, ctx.params['review_id']);
      // The bug: the flag goes to another review of the SKU.
      const review = ctx.fault === 'flag-applied-to-other-review' ? otherReview(ctx, asked) : asked;
      requestedLinks(ctx, []);
      const reason = reasonOf(ctx);
      const userId = currentUser(ctx);
      const stamp = formatTimestamp(ctx.now());
      const existing = [...ctx.data.flags.values()].find(
        (f) => f.flaggable_type === 'SkuReview' && f.flaggable_id === review.id && f.user_id === userId,
      );
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
    },
    { scope: null, user: true },
  );

  router.get('/flags', (ctx) =>
    respondMany(ctx, 'flags', ctx.data.flagReasons, (f) => ({ reason: f.reason, description: f.description }), { paginate: false }),
  );
};
