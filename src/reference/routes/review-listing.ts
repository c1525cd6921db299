// GET /skus/:id/reviews: the sort, the include_meta names and the meta they bring (rating
// breakdown, sentiment aggregation), and own_review (the choices are listed in reviews.ts).

import type { ApiResult } from '../http.ts';
import type { SkuReviewRecord } from '../data.ts';
import type { ApiContext } from '../router.ts';
import { reviewViewer, serializeSkuReview } from '../serializers/review.ts';
import { respondMany } from '../shape.ts';
import { versionAtLeast } from '../versioning.ts';
import { invalidParameter, parseId } from './params.ts';
import { findSku, reviewsOf, settleVoteCounts, type Json } from './review-records.ts';

type Sort = 'most_recent' | 'most_helpful';
const META_NAMES = ['sku_reviews_aggregation', 'sku_rating_breakdown'] as const;
type MetaName = (typeof META_NAMES)[number];

export function listReviews(ctx: ApiContext): ApiResult {
  settleVoteCounts(ctx);
  const skuId = skuIdOf(ctx);
  const sort = sortOf(ctx);
  const metaNames = metaNamesOf(ctx);
  // Before 3.0.2 (variant implements-3.0.0) reviews came in the order they were written, demoted ones among them.
  const order = versionAtLeast(ctx.version, '3.0.2')
    ? compareReviews(sort, ctx.fault, ctx.variants.has('most-helpful-by-ratio'))
    : (a: SkuReviewRecord, b: SkuReviewRecord) => a.id - b.id;
  const all = reviewsOf(ctx.data, skuId).sort(order);
  const meta: Json = {};
  // Variant reviews-aggregation-null-when-empty: a SKU without reviews has no aggregation (null), not [].
  const emptyAggregation = all.length === 0 && ctx.variants.has('reviews-aggregation-null-when-empty');
  if (metaNames.has('sku_reviews_aggregation')) meta['sku_reviews_aggregation'] = emptyAggregation ? null : reviewsAggregation(all, ctx.fault);
  if (metaNames.has('sku_rating_breakdown')) meta['sku_rating_breakdown'] = ratingBreakdown(all);
  const viewer = reviewViewer(ctx.data, ctx.userId, ctx.token.scopes);
  const own = ownReviewOf(ctx, all);
  const once = ownReviewOnce(ctx);
  const base = { version: ctx.version, fault: ctx.fault, variants: ctx.variants, viewer };
  if (once === 'meta') meta['own_review'] = own ? serializeSkuReview(own, base) : null;
  const ownReview = once ? undefined : own;
  const result = respondMany(ctx, 'reviews', all, (r) => serializeSkuReview(r, { ...base, ownReview }), { meta });
  if (once === 'top' && result.body) (result.body as Json)['own_review'] = own ? serializeSkuReview(own, base) : null;
  return result;
}

/**
 * The SKU of the listing: 404 for a missing one, unless variant missing-sku-reviews-empty takes
 * its reviews as an existing, empty sub-collection.
 */
function skuIdOf(ctx: ApiContext): number {
  if (!ctx.variants.has('missing-sku-reviews-empty')) return findSku(ctx, ctx.params['id']).id;
  return parseId(ctx.params['id'], 'Sku');
}

/** Variant include-meta-bracket-ignored: only the literal include_meta is read, include_meta[] ignored. */
function listParam(query: URLSearchParams, name: string, bracketForm = true): string[] {
  return [...query.getAll(name), ...(bracketForm ? query.getAll(`${name}[]`) : [])]
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
  const aggregationServed = versionAtLeast(ctx.version, '3.1.3');
  for (const raw of listParam(ctx.query, 'include_meta', !ctx.variants.has('include-meta-bracket-ignored'))) {
    const known = (META_NAMES as readonly string[]).includes(raw);
    if (!known) throw invalidParameter(`include_meta must be one of ${META_NAMES.join(', ')}, got "${raw.slice(0, 64)}"`);
    if (raw === 'sku_reviews_aggregation' && !aggregationServed) {
      // Variant reviews-aggregation-ignored-before-3.1.3: an older version does not know the name and ignores it.
      if (ctx.variants.has('reviews-aggregation-ignored-before-3.1.3')) continue;
      throw invalidParameter(`include_meta=sku_reviews_aggregation is served from version 3.1.3; this request got ${ctx.version.label}`);
    }
    out.add(raw as MetaName);
  }
  // Variant reviews-aggregation-always: the aggregation comes with every listing that serves it, asked or not.
  if (aggregationServed && ctx.variants.has('reviews-aggregation-always')) out.add('sku_reviews_aggregation');
  return out;
}

/** Variant most-helpful-by-ratio: helpfulness is helpful_votes_count / votes_count (0 without votes), not the count. */
function helpfulness(r: SkuReviewRecord, byRatio: boolean): number {
  if (!byRatio) return r.helpful_votes_count;
  return r.votes_count === 0 ? 0 : r.helpful_votes_count / r.votes_count;
}

function compareReviews(sort: Sort, fault: ApiContext['fault'], byRatio: boolean): (a: SkuReviewRecord, b: SkuReviewRecord) => number {
  return (a, b) => {
    if (a.demoted !== b.demoted) {
      const demotedFirst = fault === 'reviews-demoted-listed-first';
      return (a.demoted ? 1 : -1) * (demotedFirst ? -1 : 1);
    }
    // The bug (most-helpful-sorted-as-recent): most_helpful is accepted, then sorted as most_recent.
    if (sort === 'most_helpful' && fault !== 'most-helpful-sorted-as-recent' && helpfulness(a, byRatio) !== helpfulness(b, byRatio))
      return helpfulness(b, byRatio) - helpfulness(a, byRatio);
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

/**
 * own_review of a listing: the user's review of the SKU or null; undefined (no key) for an
 * application token, unless the variant review-user-fields-false-for-app gives it null.
 */
function ownReviewOf(ctx: ApiContext, reviews: readonly SkuReviewRecord[]): SkuReviewRecord | null | undefined {
  if (ctx.userId === null) return ctx.variants.has('review-user-fields-false-for-app') ? null : undefined;
  return reviews.find((r) => r.user_id === ctx.userId) ?? null;
}

/**
 * Where a user's listing carries own_review once instead of on each review (3.1.3+): variant
 * own-review-in-meta, in meta; variant own-review-top-level, at the top level beside reviews and
 * meta; null: on each review (the reference).
 */
function ownReviewOnce(ctx: ApiContext): 'meta' | 'top' | null {
  if (ctx.userId === null || !versionAtLeast(ctx.version, '3.1.3')) return null;
  if (ctx.variants.has('own-review-in-meta')) return 'meta';
  return ctx.variants.has('own-review-top-level') ? 'top' : null;
}
