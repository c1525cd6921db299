// Spec: Endpoints > SKU reviews (listing, forms, create, update, delete, votes, flags, GET /flags);
// Resources and their fields > SKU review, SKU review vote, Flag (reason catalogue) and flag record,
// Review form; Authentication > Permissions (publish_sku_review_actions); Errors; Change history
// (3.0.2 order, 3.0.17 votes and voted, 3.0.21 flagged, 3.0.22 helpful, 3.1.3 aggregation,
// sentiments, most_helpful, own_review, 3.2.0 review create, update, delete).
// SKUs come from the category SKU listings of discovered leaves. The write tests review a SKU the
// user has not reviewed (own_review null, or no review at all), vote and flag only on that review,
// and delete it in a finally block, which removes its votes and flags with it.
import { describe } from 'vitest';
import { fail, inContext, isPlainObject, pass, show, typed } from '../src/checks/check.ts';
import { errorBodyIsWellFormed, hasErrorCode } from '../src/checks/errors.ts';
import { hasCollectionEnvelope, hasSingleEnvelope, hasStatus, isRefused } from '../src/checks/http.ts';
import { paginationMetaIsWellFormed, readPagination, smallPageSize, type Pagination } from '../src/checks/pagination.ts';
import {
  aggregationWellFormed,
  demotedAfterNonDemoted,
  editFormSelects,
  flagStored,
  mostHelpfulFirst,
  FLAG_REASONS,
  flagCatalogueIsExact,
  isClientError,
  mostHelpfulVerdict,
  newFormHasNoEditFields,
  noUserClaimsForAppToken,
  nonDemotedNewestFirst,
  reviewHas,
  voteEmbedsReview,
  voteCounted,
  voteMatches,
  voteStored,
  votePermissionMatchesFlag,
  type Json,
} from '../src/checks/reviews.ts';
import { conformanceTest, type ConformanceContext } from '../src/harness/conformance.ts';
import type { Auth } from '../src/harness/api.ts';
import type { HttpResponse } from '../src/http/client.ts';

type Query = Record<string, string | number>;

interface SkuCandidate {
  id: number;
  reviews_count: number;
  reviewable: boolean;
  future: boolean;
}

/** Leaf categories whose SKU listing (first page) the suite reads at most. */
const LEAVES_SCANNED = 4;
/** Review listings read at most to find one with demoted and non-demoted reviews. */
const ORDER_SKUS_SCANNED = 5;
/** SKUs asked at most whether the user has reviewed them. */
const FREE_SKUS_TRIED = 6;
/** Names the reviews' sorting parameter may have (REV-20: not shown). */
const SORT_NAMES = ['sort', 'order_by', 'order'] as const;

/** Review creations tried at most (a 422 moves on to the next free SKU). */
const CREATE_TRIES = 3;

const USER = { auth: 'user' as const };
/** Vote and flag requests that may be refused: a 401 must not make the harness drop the run's token. */
const NO_RENEW = { renewOn401: false };


/** An id far above any a catalogue hands out. */
const unknownId = () => 2_000_000_000 + Math.floor(Math.random() * 100_000_000);

/** A review text naming the kit and the run, long enough for a form that requires a body. */
function reviewText(t: ConformanceContext, what: string): string {
  return `${t.kitName('review')} ${what}: written by the catalogue-conformance kit and deleted again at once. The product works as described, arrived in good order and does what the listing promises; fair value for the price.`;
}

// ---------------------------------------------------------------------------------------------
// Discovery: SKUs from the listings of leaf categories (kept for the file's later tests, by
// target: one worker may run the suite against several targets). Leaves are read one at a time,
// only when the SKUs of those read so far do not serve the test asking (issue 17).

interface LeafScan {
  /** Leaf categories to read, the discovered one first; the others once it is read. */
  leaves: number[];
  /** Leaves read so far (a prefix of `leaves`). */
  read: number;
  /** The SKUs found, in the order the listings gave them. */
  found: Map<number, SkuCandidate>;
  /** Whether GET /categories was read for the other leaves. */
  widened: boolean;
}

const leafScans = new Map<string, LeafScan>();

async function leafIds(t: ConformanceContext): Promise<number[]> {
  const first = await t.discover('leafCategory');
  // The largest per is not stated: a deployment that refuses 100 is asked for its default page.
  let response = await t.api.get('/categories', { query: { per: 100 } });
  if (response.status === 400 || response.status === 422) response = await t.api.get('/categories');
  const listed = response.status === 200 ? (response.json<{ categories?: unknown }>() ?? {}).categories : [];
  const others = Array.isArray(listed)
    ? listed.filter((c): c is Json => isPlainObject(c) && Number.isInteger(c['id']) && c['children_count'] === 0 && c['id'] !== first).map((c) => c['id'] as number)
    : [];
  return [first, ...others];
}

/**
 * The SKUs of the leaf categories read so far (first page of each listing), reading the next
 * leaf (up to LEAVES_SCANNED) while `enough` says they do not serve; skips the test when no leaf
 * lists a SKU.
 */
async function skuCandidates(t: ConformanceContext, enough: (found: readonly SkuCandidate[]) => boolean = () => true): Promise<SkuCandidate[]> {
  const key = t.api.url('/');
  let scan = leafScans.get(key);
  if (!scan) {
    scan = { leaves: [await t.discover('leafCategory')], read: 0, found: new Map(), widened: false };
    leafScans.set(key, scan);
  }
  while (scan.read === 0 || !enough([...scan.found.values()])) {
    if (scan.read >= scan.leaves.length && !scan.widened) {
      scan.widened = true;
      scan.leaves = [scan.leaves[0]!, ...(await leafIds(t)).filter((id) => id !== scan!.leaves[0])];
    }
    if (scan.read >= Math.min(scan.leaves.length, LEAVES_SCANNED)) break;
    const leaf = scan.leaves[scan.read++]!;
    const response = await t.api.get(`/categories/${leaf}/skus`);
    const skus = response.status === 200 ? (response.json<{ skus?: unknown }>() ?? {}).skus : [];
    for (const s of Array.isArray(skus) ? skus : []) {
      if (!isPlainObject(s) || !Number.isInteger(s['id'])) continue;
      scan.found.set(s['id'] as number, {
        id: s['id'] as number,
        reviews_count: typeof s['reviews_count'] === 'number' ? s['reviews_count'] : 0,
        reviewable: s['reviewable'] !== false,
        future: s['future'] === true,
      });
    }
  }
  if (scan.found.size === 0) t.skip(`discovery: no SKU in the first pages of ${scan.read} leaf categories`);
  return [...scan.found.values()];
}

const reviewed = (s: SkuCandidate): boolean => s.reviews_count > 0;
const writable = (s: SkuCandidate): boolean => s.reviewable && !s.future;

/**
 * Up to `max` SKUs with reviews, the most reviewed of the leaves read first (the listing is the
 * truth; reviews_count is a hint); the next leaf is read only when a test asks past them.
 */
async function* mostReviewed(t: ConformanceContext, max: number): AsyncGenerator<SkuCandidate> {
  const given = new Set<number>();
  while (given.size < max) {
    const found = await skuCandidates(t, (f) => f.filter(reviewed).length > given.size);
    const next = found.filter((s) => reviewed(s) && !given.has(s.id)).sort((a, b) => b.reviews_count - a.reviews_count || a.id - b.id)[0];
    if (!next) return;
    given.add(next.id);
    yield next;
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

interface Listing {
  reviews: Json[];
  meta: Json;
  pagination: Pagination;
  response: HttpResponse;
}

/** GET /skus/:id/reviews; stops the test unless it is 200 {reviews, meta.pagination}. */
async function listReviews(t: ConformanceContext, skuId: number, query: Query, auth: Auth, ...requirements: string[]): Promise<Listing> {
  const response = await t.api.get(`/skus/${skuId}/reviews`, { query, auth });
  t.require(hasStatus(response, 200), 'REV-16', ...requirements);
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasCollectionEnvelope(body, 'reviews'), 'GEN-7', 'REV-16');
  t.require(typed(body['meta'], isPlainObject(body['meta']), `meta is ${show(body['meta'])}, expected an object`), 'REV-16');
  t.require(paginationMetaIsWellFormed(body), 'PAG-1', 'REV-16');
  t.response('GET /skus/:id/reviews', response, 'REV-16', 'REV-2', ...requirements);
  const reviews = (body['reviews'] as unknown[]).filter(isPlainObject);
  return { reviews, meta: body['meta'] as Json, pagination: readPagination(body)!, response };
}

/** A page of up to 100 reviews (the largest per is not stated: a refusal falls back to the default page). */
async function firstReviews(t: ConformanceContext, skuId: number, auth: Auth, ...requirements: string[]): Promise<Listing> {
  const probe = await t.api.get(`/skus/${skuId}/reviews`, { query: { per: 100 }, auth });
  if (probe.status === 400 || probe.status === 422) return listReviews(t, skuId, {}, auth, ...requirements);
  return listReviews(t, skuId, { per: 100 }, auth, ...requirements);
}

/** The body's single resource under `key`; stops the test otherwise. */
function single(t: ConformanceContext, response: HttpResponse, key: string, ...requirements: string[]): Json {
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasSingleEnvelope(body, key), 'GEN-7', ...requirements);
  return body[key] as Json;
}

/** GET /skus/:id/reviews/new for the user; stops unless 200 {review_form}. */
async function newForm(t: ConformanceContext, skuId: number): Promise<{ form: Json; response: HttpResponse }> {
  const response = await t.api.get(`/skus/${skuId}/reviews/new`, USER);
  t.require(hasStatus(response, 200), 'REV-21');
  const form = single(t, response, 'review_form', 'REV-21');
  t.response('GET /skus/:id/reviews/new', response, 'REV-21', 'REV-12', 'REV-13', 'REV-14');
  return { form, response };
}

/** The first answer of each question: one answer per question suits both question types. */
function answerIdsOf(form: Json): number[] {
  const questions = Array.isArray(form['questions']) ? form['questions'] : [];
  return questions.flatMap((q) => {
    const first = isPlainObject(q) && Array.isArray(q['answers']) ? q['answers'].find((a) => isPlainObject(a) && Number.isInteger(a['id'])) : undefined;
    return first ? [first['id'] as number] : [];
  });
}

/**
 * Reviewable SKUs the user has not reviewed (own_review null in the listing, or no review at
 * all), found one at a time as the file's tests need them and never handed out twice, so a later
 * test never meets a review an earlier one failed to delete. Probed lazily (issue 17): a test
 * takes the next free SKU, and only a refused creation asks for one more.
 */
const probedSkus = new Map<string, Set<number>>();

/** The next SKU free of the user's review, or null when FREE_SKUS_TRIED candidates have been probed. */
async function nextFreeSku(t: ConformanceContext): Promise<number | null> {
  const probed = probedSkus.get(t.api.url('/')) ?? new Set<number>();
  probedSkus.set(t.api.url('/'), probed);
  while (probed.size < FREE_SKUS_TRIED) {
    // Few reviews, but some: a vote or a flag that lands on another review of the SKU (a state
    // change applied to the wrong record) then shows, while no review but the kit's own is touched.
    const none = (s: SkuCandidate) => (s.reviews_count === 0 ? 1 : 0);
    const unprobed = (f: readonly SkuCandidate[]) => f.filter((s) => writable(s) && !probed.has(s.id));
    const next = unprobed(await skuCandidates(t, (f) => unprobed(f).length > 0)).sort((a, b) => none(a) - none(b) || a.reviews_count - b.reviews_count || a.id - b.id)[0];
    if (!next) return null;
    const skuId = next.id;
    probed.add(skuId);
    const response = await t.api.get(`/skus/${skuId}/reviews`, { ...USER, query: { per: 1 } });
    if (response.status !== 200) continue;
    const body = response.json<{ reviews?: unknown; meta?: unknown }>() ?? {};
    if (!Array.isArray(body.reviews)) continue;
    const first: unknown = body.reviews[0];
    // own_review on each review, or once in meta (REV-5 reads both ways): null says the user has none.
    const own = isPlainObject(first) && 'own_review' in first ? first['own_review'] : isPlainObject(body.meta) && 'own_review' in body.meta ? body.meta['own_review'] : undefined;
    if (first === undefined || own === null) return skuId;
  }
  return null;
}

interface Created {
  skuId: number;
  review: Json;
  id: number;
  answerIds: number[];
  response: HttpResponse;
}

/**
 * Creates a review of a SKU the user has not reviewed and hands it to `fn`, deleting it afterwards
 * whatever happens (the review's votes and flags go with it). A 422 on one SKU moves on to the next:
 * validation rules beyond the form are not shown.
 */
async function withOwnReview(t: ConformanceContext, fn: (created: Created) => Promise<void>): Promise<void> {
  const refusals: string[] = [];
  for (let attempt = 0; attempt < CREATE_TRIES; attempt++) {
    const skuId = await nextFreeSku(t);
    if (skuId === null) {
      const probed = probedSkus.get(t.api.url('/'))?.size ?? 0;
      if (attempt === 0) t.skip(`discovery: each of ${probed} reviewable SKUs is reviewed by the user already, or does not say (own_review)`);
      break;
    }
    const { form } = await newForm(t, skuId);
    const answerIds = answerIdsOf(form);
    const text = reviewText(t, 'review');
    const response = await t.api.request('POST', `/skus/${skuId}/reviews`, { ...USER, json: { review: { rating: 4, answer_ids: answerIds, review: text } } });
    if (response.status === 422) {
      refusals.push(`SKU ${skuId}: ${response.text.slice(0, 160)}`);
      continue;
    }
    // Whatever came back, a review that was created is deleted.
    const sent = response.status >= 200 && response.status < 300 ? createdId(response) : undefined;
    try {
      t.require(hasStatus(response, 201), 'REV-22');
      const review = single(t, response, 'sku_review', 'REV-22');
      t.response('POST /skus/:id/reviews', response, 'REV-22', 'REV-2');
      t.require(typed(review['id'], Number.isInteger(review['id']), `the created review has id ${show(review['id'])}`), 'REV-2');
      t.must(reviewHas(review, { rating: 4, review: text }, `POST /skus/${skuId}/reviews`), 'REV-22', 'REV-2');
      t.must(typed(review['sku_id'], review['sku_id'] === skuId, `the review created on SKU ${skuId} has sku_id ${show(review['sku_id'])}`), 'REV-22');
      await fn({ skuId, review, id: review['id'] as number, answerIds, response });
    } finally {
      if (Number.isInteger(sent)) await removeReview(t, skuId, sent as number);
    }
    return;
  }
  t.warn(fail(`every review creation was refused with 422 (valid rating, one answer per question, a ${reviewText(t, '').length}-character text); validation rules beyond the form are not shown: ${refusals.join('; ')}`), 'REV-22', 'GEN-11');
  t.skip('no review could be created');
}

/** The id of the review a 2xx answer created, if its body says. */
function createdId(response: HttpResponse): unknown {
  try {
    return (response.json<{ sku_review?: { id?: unknown } }>() ?? {}).sku_review?.id;
  } catch {
    return undefined;
  }
}

/** How long a read-back that did not show a write waits before its one more look. */
const READ_BACK_RETRY_MS = 1_500;

/**
 * The user's own review `id` as the first page of the SKU's listing shows it to the user (newest
 * first, so a review just written is there), or as meta.own_review; null when neither shows it.
 */
async function ownReviewListed(t: ConformanceContext, skuId: number, id: number): Promise<Json | null> {
  const response = await t.api.get(`/skus/${skuId}/reviews`, USER);
  if (response.status !== 200) return null;
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return null;
  }
  if (!isPlainObject(body)) return null;
  const listed = Array.isArray(body['reviews']) ? body['reviews'].find((r) => isPlainObject(r) && r['id'] === id) : undefined;
  if (isPlainObject(listed)) return listed;
  const own = isPlainObject(body['meta']) ? body['meta']['own_review'] : undefined;
  return isPlainObject(own) && own['id'] === id ? own : null;
}

/** Teardown: deletes the review unless the test did; leftovers become a warning. */
const deleted = new Set<string>();
async function removeReview(t: ConformanceContext, skuId: number, id: number): Promise<void> {
  const path = `/skus/${skuId}/reviews/${id}`;
  if (deleted.has(path)) return;
  try {
    const response = await t.api.request('DELETE', path, USER);
    if (response.status >= 300 && response.status !== 404) t.warn(fail(`teardown could not delete ${path} (${response.status})`), 'REV-25');
  } catch (error) {
    t.warn(fail(`teardown could not delete ${path} (${error instanceof Error ? error.message : String(error)})`), 'REV-25');
  }
}

/** A 404 for a missing record: RecordNotFound in the {errors} format (3.1.0 on). */
function mustBeNotFound(t: ConformanceContext, response: HttpResponse, ...requirements: string[]): void {
  t.must(hasStatus(response, 404), 'ERR-9', ...requirements);
  if (response.status !== 404 || !t.has('normalized-errors')) return;
  const body = t.json(response, 'GEN-4');
  t.must(errorBodyIsWellFormed(body), 'ERR-2');
  t.must(hasErrorCode(body, 'RecordNotFound'), 'ERR-14');
}

// ---------------------------------------------------------------------------------------------

describe('GET /skus/:id/reviews', () => {
  conformanceTest(
    'answers {reviews, meta} of SKU reviews, paginated, non-demoted first and most recent first, claiming no user for an application token; an unknown SKU is 404',
    { id: 'sku-reviews-listing', requirements: ['REV-16', 'REV-2', 'REV-4', 'REV-18', 'CHG-29', 'REV-3', 'REV-5', 'PAG-1', 'PAG-3', 'PAG-4', 'ERR-9', 'ERR-14'], requests: 8 + ORDER_SKUS_SCANNED * 2 },
    async (t) => {
      const ordered = t.has('reviews-recent-non-demoted-first');
      let widest: Listing | null = null;
      for await (const sku of mostReviewed(t, ORDER_SKUS_SCANNED)) {
        const listing = await firstReviews(t, sku.id, 'app', 'REV-4');
        // Absent, false or null are all readings of "authorized user only"; true is nobody's.
        t.must(noUserClaimsForAppToken(listing.reviews), 'REV-3', 'REV-5');
        if (ordered) {
          t.must(demotedAfterNonDemoted(listing.reviews), 'REV-18', 'CHG-29');
          t.must(nonDemotedNewestFirst(listing.reviews), 'REV-18', 'CHG-29');
        }
        if (!widest || listing.pagination.total_results > widest.pagination.total_results) widest = listing;
        // A listing with both kinds shows the demoted-last order: enough looked at.
        if (listing.reviews.some((r) => r['demoted'] === true) && listing.reviews.some((r) => r['demoted'] === false)) break;
      }
      if (!widest || widest.reviews.length === 0) return t.skip(`discovery: none of the SKUs looked at has a review`);
      // page and per: the second page at the size that splits the reviews in two or three pages
      // (the pagination suite's choice: the run asks that page once for both).
      const skuId = widest.reviews[0]!['sku_id'];
      const total = widest.pagination.total_results;
      const per = smallPageSize(total);
      if (per !== null && Number.isInteger(skuId)) {
        const asked = `per=${per}&page=2`;
        const second = await listReviews(t, skuId as number, { per, page: 2 }, 'app', 'PAG-3', 'PAG-4');
        const expected = Math.min(per, total - per);
        t.must(second.reviews.length === expected ? pass() : fail(`${asked} of ${total} reviews answered ${second.reviews.length} reviews, not ${expected}`), 'PAG-4', 'REV-16');
        t.must(second.pagination.page === 2 && second.pagination.per === per ? pass() : fail(`${asked} answered meta.pagination ${show(second.pagination)}`), 'PAG-3', 'PAG-4', 'REV-16');
        t.must(second.pagination.total_results === total ? pass() : fail(`total_results ${second.pagination.total_results} with ${asked}, ${total} without`), 'PAG-1', 'REV-16');
      }
      const missing = unknownId();
      const response = await t.api.get(`/skus/${missing}/reviews`);
      if (response.status === 200) return t.skip(`the deployment answers GET /skus/${missing}/reviews with 200: no unknown id to ask for`);
      mustBeNotFound(t, response);
    },
  );

  conformanceTest('include_meta=sku_reviews_aggregation adds meta.sku_reviews_aggregation: [{label, score (integer), style}]', { id: 'reviews-aggregation', requirements: ['REV-17', 'REV-6', 'CHG-3'], requests: 8 + 3 }, async (t) => {
    t.requireFeature('review-aggregation', 'meta.sku_reviews_aggregation');
    let seen = false;
    for await (const sku of mostReviewed(t, 3)) {
      const listing = await listReviews(t, sku.id, { include_meta: 'sku_reviews_aggregation' }, 'app', 'REV-17', 'REV-6');
      t.require(typed(listing.meta['sku_reviews_aggregation'], Array.isArray(listing.meta['sku_reviews_aggregation']), `include_meta=sku_reviews_aggregation answered meta.sku_reviews_aggregation ${show(listing.meta['sku_reviews_aggregation'])}, expected an array`), 'REV-17', 'REV-6');
      t.must(aggregationWellFormed(listing.meta), 'REV-6');
      if ((listing.meta['sku_reviews_aggregation'] as unknown[]).length) {
        seen = true;
        break;
      }
    }
    if (!seen) t.skip('every aggregation looked at was empty: no entry to judge');
  });

  conformanceTest(
    'the most_helpful sort is accepted and ranks the most helpful reviews first (its parameter name is not shown: each usual name is tried, sort, order_by and order)',
    { id: 'most-helpful-sort', requirements: ['REV-19', 'REV-20', 'CHG-3'], requests: 8 + 3 * SORT_NAMES.length },
    async (t) => {
      t.requireFeature('most-helpful-sort', 'sorting by most_helpful');
      const { value: sku } = await mostReviewed(t, 1).next();
      if (!sku) return t.skip('discovery: no SKU of the leaves looked at has a review');
      // A name that takes most_recent but refuses most_helpful is the sorting parameter refusing it.
      // A name the deployment does not know is ignored (both answered) or refused alike.
      const unknown: string[] = [];
      for (const name of SORT_NAMES) {
        const recent = await t.api.get(`/skus/${sku.id}/reviews`, { query: { [name]: 'most_recent' } });
        const helpful = await t.api.get(`/skus/${sku.id}/reviews`, { query: { [name]: 'most_helpful' } });
        const verdict = mostHelpfulVerdict(recent.status, helpful.status);
        if (verdict === 'accepted') {
          t.must(hasStatus(helpful, 200), 'REV-19');
          const body = t.json<Json>(helpful, 'GEN-4');
          t.must(hasCollectionEnvelope(body, 'reviews'), 'GEN-7', 'REV-19');
          // The effect, not only the status: the most helpful reviews first. A name the deployment
          // does not know is ignored (the default order comes back), so an order that is not
          // most helpful first counts only for a name that is the sorting parameter: one that
          // refuses an unknown value.
          const listed = Array.isArray(body?.['reviews']) ? body['reviews'].filter(isPlainObject) : [];
          const ranked = mostHelpfulFirst(listed);
          // Most helpful first, in another order than most_recent gave: this name is the sorting
          // parameter, and it works; the other names are not asked (issue 17).
          if (ranked.ok && idOrder(listed) !== idOrder(reviewsOf(recent))) break;
          if (!ranked.ok) {
            const probe = await t.api.get(`/skus/${sku.id}/reviews`, { query: { [name]: 'cc_not_a_sort' } });
            if (probe.status >= 400 && probe.status < 500) {
              const why = `${name} is the sorting parameter (${name}=cc_not_a_sort answered ${probe.status})`;
              // The most recent order back for most_helpful: the value is not applied. Another order
              // may rank by a measure of helpfulness the kit does not know: noted.
              if (nonDemotedNewestFirst(listed).ok) t.must(fail(`${why}, yet ${name}=most_helpful lists the reviews most recent first: ${(ranked as { message: string }).message}`), 'REV-19');
              else t.warn(inContext(why, ranked), 'REV-19');
            }
          }
        } else if (verdict === 'refused') {
          t.must(fail(`${name}=most_recent answered ${recent.status} but ${name}=most_helpful ${helpful.status}: the sorting parameter refuses most_helpful`), 'REV-19');
        } else unknown.push(`${name}=most_helpful answered ${helpful.status} (${name}=most_recent ${recent.status})`);
      }
      if (unknown.length === SORT_NAMES.length) t.warn(fail(`${unknown.join('; ')}: the sorting parameter may have another name, which the spec does not show`), 'REV-20', 'REV-19');
    },
  );

  conformanceTest('a user token gets voted, flagged and helpful on every review, and own_review (3.1.3), on each review or in meta', { id: 'user-token-review-fields', requirements: ['REV-3', 'REV-5', 'REV-2', 'CHG-3', 'CHG-8', 'CHG-9', 'CHG-13'], requests: 8 + 3 }, async (t) => {
    // The listing's answer is judged with its user token: the present rules of schemas/endpoints.json
    // require each field where the version served has it (voted 3.0.17, flagged 3.0.21, helpful
    // 3.0.22, own_review 3.1.3 on each review or once in meta), the schema their types.
    for await (const sku of mostReviewed(t, 3)) {
      const listing = await firstReviews(t, sku.id, 'user', 'REV-3', 'REV-5');
      if (listing.reviews.length) return;
    }
    t.skip('discovery: none of the SKUs looked at has a review');
  });
});

/** The reviews of a listing's answer (none when it is not one). */
function reviewsOf(response: HttpResponse): Json[] {
  if (response.status !== 200) return [];
  try {
    const body = response.json<Json>();
    return Array.isArray(body?.['reviews']) ? body['reviews'].filter(isPlainObject) : [];
  } catch {
    return [];
  }
}

const idOrder = (reviews: readonly Json[]): string => reviews.map((r) => String(r['id'])).join(',');

describe('GET /flags', () => {
  conformanceTest('answers {flags} with exactly bad_language, wrong_section and spam, each with a description', { id: 'flags-listing', requirements: ['REV-30', 'REV-9', 'REV-10'], requests: 1 }, async (t) => {
    const response = await t.api.get('/flags');
    t.require(hasStatus(response, 200), 'REV-30');
    const body = t.json<Json>(response, 'GEN-4');
    t.require(hasCollectionEnvelope(body, 'flags'), 'GEN-7', 'REV-30');
    t.response('GET /flags', response, 'REV-30', 'REV-9', 'REV-10');
    t.must(flagCatalogueIsExact(body['flags'] as unknown[]), 'REV-10', 'REV-9');
  });
});

describe('GET /skus/:id/reviews/new', () => {
  conformanceTest('answers {review_form} with questions, and without rating, review or selected (edit form only)', { id: 'review-form', requirements: ['REV-21', 'REV-12', 'REV-13', 'REV-14', 'CHG-2'], requests: 8 + 1 }, async (t) => {
    t.requireFeature('review-writes', 'the review forms (with review create, update and delete)');
    const found = await skuCandidates(t, (f) => f.some(writable));
    const sku = found.find(writable) ?? found[0]!;
    const { form } = await newForm(t, sku.id);
    // "Edit form only": whether the new form may still carry them (false, null) is not said.
    t.warn(newFormHasNoEditFields(form), 'REV-13');
  });
});

describe('POST, GET edit, PUT, DELETE /skus/:id/reviews', () => {
  conformanceTest(
    'creates a review (201 {sku_review} with the rating sent), the edit form selects its answers, PUT is 200 {sku_review} and the edit form then shows the change, DELETE is 204 empty, then 404',
    { id: 'review-lifecycle', requirements: ['REV-22', 'REV-23', 'REV-24', 'REV-25', 'REV-2', 'REV-13', 'CHG-2', 'ERR-9'], profile: 'write', requests: 8 + FREE_SKUS_TRIED + 2 * CREATE_TRIES + 6 },
    async (t) => {
      t.requireFeature('review-writes', 'review create, update and delete');
      await withOwnReview(t, async ({ skuId, id, answerIds }) => {
        const path = `/skus/${skuId}/reviews/${id}`;
        const edit = await t.api.get(`${path}/edit`, USER);
        t.require(hasStatus(edit, 200), 'REV-23');
        const form = single(t, edit, 'review_form', 'REV-23');
        t.response('GET /skus/:id/reviews/:id/edit', edit, 'REV-23', 'REV-12', 'REV-13');
        t.must(editFormSelects(form, answerIds), 'REV-23');

        const text = reviewText(t, 'updated review');
        const put = await t.api.request('PUT', path, { ...USER, json: { review: { rating: 2, review: text } } });
        t.must(hasStatus(put, 200), 'REV-24');
        if (put.status === 200) {
          const updated = single(t, put, 'sku_review', 'REV-24');
          t.response('PUT /skus/:id/reviews/:id', put, 'REV-24', 'REV-2');
          t.must(reviewHas(updated, { rating: 2, review: text }, `PUT ${path}`), 'REV-24');
          // The change is stored: the edit form shows the new rating and text, and the answers not sent still selected.
          const after = await t.api.get(`${path}/edit`, USER);
          t.must(hasStatus(after, 200), 'REV-23');
          if (after.status === 200) {
            const stored = single(t, after, 'review_form', 'REV-23');
            t.must(reviewHas(stored, { rating: 2, review: text }, `GET ${path}/edit after the PUT`), 'REV-24');
            t.must(inContext(`GET ${path}/edit after a PUT without answer_ids`, editFormSelects(stored, answerIds)), 'REV-24');
          }
        }

        const removed = await t.api.request('DELETE', path, USER);
        t.must(hasStatus(removed, 204), 'REV-25');
        t.response('DELETE /skus/:id/reviews/:id', removed, 'REV-25');
        if (removed.status >= 200 && removed.status < 300) deleted.add(path);
        // Deleted, it is gone: deleting it again finds nothing.
        const twice = await t.api.request('DELETE', path, USER);
        mustBeNotFound(t, twice, 'REV-25');
      });
    },
  );
});

describe('POST /skus/:sku_id/reviews/:review_id/votes and /flags', () => {
  conformanceTest(
    'votes and flags need publish_sku_review_actions: an application token is refused, one user token may do both or neither; a vote is 201 {sku_review_vote} (sku_review with embed only), a flag 201, an unknown reason refused; the listing then shows the review voted (its counts one more, or unchanged for an own vote: noted) and flagged',
    {
      id: 'votes-and-flags',
      requirements: ['REV-1', 'REV-26', 'REV-27', 'REV-28', 'REV-29', 'REV-7', 'REV-8', 'REV-10', 'REV-11', 'SCOPE-2', 'SCOPE-5', 'CHG-13'],
      profile: 'write',
      requests: 8 + FREE_SKUS_TRIED + 2 * CREATE_TRIES + 11,
    },
    async (t) => {
      t.requireFeature('review-writes', 'review create and delete (the kit votes and flags only on a review it wrote and deletes)');
      await withOwnReview(t, async ({ skuId, id, review }) => {
        const votes = `/skus/${skuId}/reviews/${id}/votes`;
        const flags = `/skus/${skuId}/reviews/${id}/flags`;
        // The application token carries only the public scope.
        const appVote = await t.api.request('POST', votes, { auth: 'app', ...NO_RENEW, json: { vote: { helpful: true } } });
        t.must(isRefused(appVote.status, `POST ${votes} with an application token`), 'REV-27', 'SCOPE-2');
        const appFlag = await t.api.request('POST', flags, { auth: 'app', ...NO_RENEW, json: { flag: { reason: 'spam' } } });
        t.must(isRefused(appFlag.status, `POST ${flags} with an application token`), 'REV-28', 'SCOPE-2');

        const vote = await t.api.request('POST', votes, { ...USER, ...NO_RENEW, json: { vote: { helpful: true } } });
        // An unknown reason goes first: a deployment that refuses a second flag (not shown either
        // way) must not hide that it takes any reason as a first one.
        const bad = await t.api.request('POST', flags, { ...USER, ...NO_RENEW, json: { flag: { reason: 'cc_not_a_reason' } } });
        const flag = await t.api.request('POST', flags, { ...USER, ...NO_RENEW, json: { flag: { reason: FLAG_REASONS[2] } } });
        const consistent = votePermissionMatchesFlag(vote.status, flag.status);
        if (!consistent.ok) {
          // A 401 may be an expired token: the user token must still be valid for the verdict.
          const still = await t.api.get(`/skus/${skuId}/reviews`, { ...USER, ...NO_RENEW, query: { per: 1 } });
          if (still.status !== 200) return t.skip(`the user token stopped working during the test (${still.status})`);
          t.must(consistent, 'REV-27', 'REV-28', 'SCOPE-5');
        }
        const refusedBoth = isRefused(vote.status, '').ok && isRefused(flag.status, '').ok;

        // What the vote and the flag stored, read back before a second vote may replace the first.
        const voted = vote.status >= 200 && vote.status < 300;
        const flagged = flag.status >= 200 && flag.status < 300;
        if (voted || flagged) {
          const judged = (shown: Json) => [
            ...(voted ? [{ result: voteStored(shown, review), ids: ['REV-26'], must: true }, { result: voteCounted(shown, review), ids: ['REV-26'], must: false }] : []),
            ...(flagged ? [{ result: flagStored(shown), ids: ['REV-28'], must: true }] : []),
          ];
          let shown = await ownReviewListed(t, skuId, id);
          // Counts kept by a job or a cache may lag a moment: one more look before a verdict.
          if (shown && judged(shown).some((j) => !j.result.ok)) {
            await new Promise((resolve) => setTimeout(resolve, READ_BACK_RETRY_MS));
            shown = (await ownReviewListed(t, skuId, id)) ?? shown;
          }
          if (!shown) {
            t.warn(fail(`GET /skus/${skuId}/reviews (user token) does not show review ${id} on its first page: what the vote and the flag stored was not read back`), 'REV-26', 'REV-28');
          } else {
            for (const { result, ids, must } of judged(shown)) {
              if (must) t.must(result, ...ids);
              else t.warn(result, ...ids);
            }
          }
        }

        // The vote.
        if (vote.status >= 200 && vote.status < 300) {
          t.must(hasStatus(vote, 201), 'REV-26');
          const created = single(t, vote, 'sku_review_vote', 'REV-26');
          t.response('POST /skus/:sku_id/reviews/:review_id/votes', vote, 'REV-26', 'REV-7');
          t.must(voteMatches(created, id, true), 'REV-26', 'REV-7');
          // "Only with embed=sku_review": without it the object may still come (not required, not forbidden).
          t.warn(voteEmbedsReview(created, id, false), 'REV-8');
          // The query form, with embed=sku_review. Whether a second vote replaces the first is not shown.
          const again = await t.api.request('POST', votes, { ...USER, ...NO_RENEW, query: { 'vote[helpful]': 'false', embed: 'sku_review' } });
          if (again.status >= 200 && again.status < 300) {
            t.must(hasStatus(again, 201), 'REV-26');
            const second = single(t, again, 'sku_review_vote', 'REV-26');
            t.response('POST /skus/:sku_id/reviews/:review_id/votes', again, 'REV-26', 'REV-7', 'REV-8');
            t.must(voteMatches(second, id, false), 'REV-26');
            t.must(voteEmbedsReview(second, id, true), 'REV-27', 'REV-8');
          } else {
            t.warn(fail(`a second vote (vote[helpful]=false in the query, embed=sku_review) answered ${again.status}: whether a user may vote twice is not shown, so the query form and embed=sku_review went unchecked`), 'REV-26', 'REV-27');
          }
        } else if (!isRefused(vote.status, '').ok) {
          t.must(vote.status >= 400 && vote.status < 500 ? pass() : fail(`POST ${votes} answered ${vote.status}`), 'REV-26');
          t.warn(fail(`voting on the user's own review answered ${vote.status}: whether users may vote on their own reviews is not shown`), 'REV-26');
        }

        // An unknown reason is refused (unless the token may not flag at all).
        if (!isRefused(bad.status, '').ok) {
          t.must(isClientError(bad.status, `POST ${flags} with the reason "cc_not_a_reason"`), 'REV-28', 'REV-10');
          if (bad.status >= 400 && bad.status < 500) {
            // 400 (incorrect parameter) or 422 (failed validation): which one is not shown.
            t.warn(bad.status === 400 || bad.status === 422 ? pass() : fail(`an unknown flag reason answered ${bad.status}, expected 400 or 422`), 'ERR-4', 'ERR-11');
            if (t.has('normalized-errors')) t.must(errorBodyIsWellFormed(t.json(bad, 'GEN-4')), 'ERR-2');
          }
        }
        // The flag: 201, empty or the flag record (REV-29).
        if (flag.status >= 200 && flag.status < 300) {
          t.must(hasStatus(flag, 201), 'REV-28');
          t.response('POST /skus/:sku_id/reviews/:review_id/flags', flag, 'REV-28', 'REV-29', 'REV-11');
        } else if (!isRefused(flag.status, '').ok) {
          t.must(flag.status >= 400 && flag.status < 500 ? pass() : fail(`POST ${flags} answered ${flag.status}`), 'REV-28');
          t.warn(fail(`flagging the user's own review answered ${flag.status}: whether users may flag their own reviews is not shown`), 'REV-28');
        }

        if (refusedBoth) {
          t.skip(
            `the user token is refused for votes (${vote.status}) and flags (${flag.status}): it lacks publish_sku_review_actions (the deployment refused that scope in the authorization step, or the configured CATALOGUE_USER_TOKEN lacks it)`,
          );
        }
      });
    },
  );
});
