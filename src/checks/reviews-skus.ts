// What the reviews suite reads of the answers that find its SKUs and its own reviews
// (suites/reviews.suite.ts, through src/engines/reviews.ts): pure readings of category SKU listings,
// review listings, review forms and a created review's answer, and the orders SKUs are taken in.
import { isPlainObject } from './check.ts';
import type { Json } from './reviews.ts';

/** A SKU of a category listing, as a candidate for the review tests. */
export interface SkuCandidate {
  id: number;
  reviews_count: number;
  reviewable: boolean;
  future: boolean;
}

/** An item of a category SKU listing as a candidate (reviews_count 0 when not a number, reviewable unless false); null without an integer id. */
export function skuCandidateOf(s: unknown): SkuCandidate | null {
  if (!isPlainObject(s) || !Number.isInteger(s['id'])) return null;
  return {
    id: s['id'] as number,
    reviews_count: typeof s['reviews_count'] === 'number' ? s['reviews_count'] : 0,
    reviewable: s['reviewable'] !== false,
    future: s['future'] === true,
  };
}

export const reviewed = (s: SkuCandidate): boolean => s.reviews_count > 0;
export const writable = (s: SkuCandidate): boolean => s.reviewable && !s.future;

/** The most reviewed SKU of `found` with reviews, not among `given` (ties: the lowest id). */
export function mostReviewedOf(found: readonly SkuCandidate[], given: ReadonlySet<number>): SkuCandidate | undefined {
  return found.filter((s) => reviewed(s) && !given.has(s.id)).sort((a, b) => b.reviews_count - a.reviews_count || a.id - b.id)[0];
}

/** The writable SKUs of `found` not yet asked whether the user has reviewed them. */
export const unprobed = (found: readonly SkuCandidate[], probed: ReadonlySet<number>): SkuCandidate[] => found.filter((s) => writable(s) && !probed.has(s.id));

/**
 * The next SKU to ask whether the user has reviewed it. With `othersFirst` (the votes and flags):
 * few reviews, but some, so that a vote or a flag that lands on another review of the SKU shows
 * while no review but the kit's own is touched; then none. Without (a test that needs no other
 * review): none first, leaving the reviewed SKUs to the votes. Ties: fewest reviews, lowest id.
 */
export function nextToProbe(found: readonly SkuCandidate[], probed: ReadonlySet<number>, othersFirst = true): SkuCandidate | undefined {
  const none = (s: SkuCandidate) => ((s.reviews_count === 0) === othersFirst ? 1 : 0);
  return unprobed(found, probed).sort((a, b) => none(a) - none(b) || a.reviews_count - b.reviews_count || a.id - b.id)[0];
}

/**
 * own_review of a review listing's body, wherever the deployment puts it (REV-5 does not say): on
 * the first review, once in meta, or once at the top level beside reviews and meta; undefined
 * when none carries it.
 */
function listingOwnReview(body: { reviews?: unknown; meta?: unknown; own_review?: unknown }): unknown {
  const first: unknown = Array.isArray(body.reviews) ? body.reviews[0] : undefined;
  if (isPlainObject(first) && 'own_review' in first) return first['own_review'];
  if (isPlainObject(body.meta) && 'own_review' in body.meta) return body.meta['own_review'];
  return 'own_review' in body ? body.own_review : undefined;
}

/**
 * Whether a review listing's body (GET /skus/:id/reviews?per=1, user token) shows that the user has
 * no review of the SKU: no review at all, or own_review null (on the first review, in meta or at
 * the top level). False when it is not a listing or does not say.
 */
export function showsNoOwnReview(body: { reviews?: unknown; meta?: unknown; own_review?: unknown }): boolean {
  if (!Array.isArray(body.reviews)) return false;
  return body.reviews[0] === undefined || listingOwnReview(body) === null;
}

/** The first answer of each question: one answer per question suits both question types. */
export function answerIdsOf(form: Json): number[] {
  const questions = Array.isArray(form['questions']) ? form['questions'] : [];
  return questions.flatMap((q) => {
    const first = isPlainObject(q) && Array.isArray(q['answers']) ? q['answers'].find((a) => isPlainObject(a) && Number.isInteger(a['id'])) : undefined;
    return first ? [first['id'] as number] : [];
  });
}

/** An answer whose body is read as JSON (src/http/client.ts HttpResponse). */
interface JsonAnswer {
  status: number;
  json<T = unknown>(): T;
}

/** The id of the review a 2xx answer created, if its body says. */
export function createdId(response: JsonAnswer): unknown {
  try {
    return (response.json<{ sku_review?: { id?: unknown } }>() ?? {}).sku_review?.id;
  } catch {
    return undefined;
  }
}

/** Review `id` in a review listing's body: among its reviews, or as its own_review (in meta or at the top level); null when none shows it. */
export function ownReviewIn(body: unknown, id: number): Json | null {
  if (!isPlainObject(body)) return null;
  const listed = Array.isArray(body['reviews']) ? body['reviews'].find((r) => isPlainObject(r) && r['id'] === id) : undefined;
  if (isPlainObject(listed)) return listed;
  const own = [isPlainObject(body['meta']) ? body['meta']['own_review'] : undefined, body['own_review']].find((o) => isPlainObject(o) && o['id'] === id);
  return isPlainObject(own) ? own : null;
}

/** The reviews of a listing's answer (none when it is not one). */
export function reviewsOf(response: JsonAnswer): Json[] {
  if (response.status !== 200) return [];
  try {
    const body = response.json<Json>();
    return Array.isArray(body?.['reviews']) ? body['reviews'].filter(isPlainObject) : [];
  } catch {
    return [];
  }
}

/** The ids of `reviews` in order, as one string. */
export const idOrder = (reviews: readonly Json[]): string => reviews.map((r) => String(r['id'])).join(',');
