// The requests of the reviews suite (suites/reviews.suite.ts) and what it judges of their answers
// along the way: SKUs from the listings of leaf categories and reviews of a SKU the user has not
// reviewed (ReviewSkus, which writes the suite's own review and deletes it), the review listings and
// forms (stopping the test unless they are well formed), the read-back of the user's own review and
// the 404 of a missing record.
import { fail, isPlainObject, show, typed } from '../checks/check.ts';
import { addUnlistedCategories } from './category-tree.ts';
import { hasCollectionEnvelope, hasSingleEnvelope, hasStatus, okJsonOf } from '../checks/http.ts';
import { paginationMetaIsWellFormed, readPagination, type Pagination } from '../checks/pagination.ts';
import { reviewHas, type Json } from '../checks/reviews.ts';
import {
  answerIdsOf,
  createdId,
  mostReviewedOf,
  nextToProbe,
  ownReviewIn,
  reviewed,
  showsNoOwnReview,
  skuCandidateOf,
  unprobed,
  type SkuCandidate,
} from '../checks/reviews-skus.ts';
import type { Auth } from '../harness/api.ts';
import type { ConformanceContext } from '../harness/conformance.ts';
import type { HttpResponse } from '../http/client.ts';
import { pathOf } from '../rules/api-paths.ts';
import { judgeNotFoundBody } from './not-found.ts';

type Query = Record<string, string | number>;

const USER = { auth: 'user' as const };
/** Leaf categories whose SKU listing (first page) the suite reads at most. */
const LEAVES_SCANNED = 4;
/** SKUs asked at most whether the user has reviewed them. */
export const FREE_SKUS_TRIED = 6;
/** Review creations tried at most (a 422 moves on to the next free SKU). */
export const CREATE_TRIES = 3;

/** An id far above any a catalogue hands out. */
export const unknownId = () => 2_000_000_000 + Math.floor(Math.random() * 100_000_000);

/** A review text naming the kit and the run, long enough for a form that requires a body. */
export function reviewText(t: ConformanceContext, what: string): string {
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

async function leafIds(t: ConformanceContext): Promise<number[]> {
  const first = await t.discover('leafCategory');
  // The largest per is not stated: a deployment that refuses 100 is asked for its default page.
  let response = await t.api.get(pathOf('GET /categories'), { query: { per: 100 } });
  if (response.status === 400 || response.status === 422) response = await t.api.get(pathOf('GET /categories'));
  const listed = response.status === 200 ? (response.json<{ categories?: unknown }>() ?? {}).categories : [];
  if (Array.isArray(listed)) await addUnlistedCategories(t, listed);
  const others = Array.isArray(listed)
    ? listed.filter((c): c is Json => isPlainObject(c) && Number.isInteger(c['id']) && c['children_count'] === 0 && c['id'] !== first).map((c) => c['id'] as number)
    : [];
  return [first, ...others];
}

export interface Created {
  skuId: number;
  review: Json;
  id: number;
  answerIds: number[];
  response: HttpResponse;
}

/**
 * The SKUs the suite reviews, and the reviews it writes. What it learns is kept for the file's
 * later tests, by target: the SKUs of the leaves read, and the SKUs asked whether the user has
 * reviewed them (reviewable SKUs the user has not reviewed are found one at a time as the tests need
 * them and never handed out twice, so a later test never meets a review an earlier one failed to
 * delete; probed lazily, issue 17: a test takes the next free SKU, and only a refused creation asks
 * for one more). One is made with the suite file, so that what it keeps lasts as long as the suite's run.
 */
export class ReviewSkus {
  readonly #leafScans = new Map<string, LeafScan>();
  readonly #probedSkus = new Map<string, Set<number>>();
  /** A SKU found free of the user's review and lent to a test that writes nothing (the new-review form): the next writer takes it. */
  readonly #spareSkus = new Map<string, number>();
  /** Reviews the tests deleted themselves: teardown leaves them. */
  readonly #deleted = new Set<string>();

  /**
   * The SKUs of the leaf categories read so far (first page of each listing), reading the next
   * leaf (up to LEAVES_SCANNED) while `enough` says they do not serve; skips the test when no leaf
   * lists a SKU.
   */
  async candidates(t: ConformanceContext, enough: (found: readonly SkuCandidate[]) => boolean = () => true): Promise<SkuCandidate[]> {
    const key = t.api.url('/');
    let scan = this.#leafScans.get(key);
    if (!scan) {
      scan = { leaves: [await t.discover('leafCategory')], read: 0, found: new Map(), widened: false };
      this.#leafScans.set(key, scan);
    }
    while (scan.read === 0 || !enough([...scan.found.values()])) {
      if (scan.read >= scan.leaves.length && !scan.widened) {
        scan.widened = true;
        scan.leaves = [scan.leaves[0]!, ...(await leafIds(t)).filter((id) => id !== scan!.leaves[0])];
      }
      if (scan.read >= Math.min(scan.leaves.length, LEAVES_SCANNED)) break;
      const leaf = scan.leaves[scan.read++]!;
      const response = await t.api.get(pathOf('GET /categories/:category_id/skus', { category_id: leaf }));
      const skus = response.status === 200 ? (response.json<{ skus?: unknown }>() ?? {}).skus : [];
      for (const s of Array.isArray(skus) ? skus : []) {
        const candidate = skuCandidateOf(s);
        if (candidate) scan.found.set(candidate.id, candidate);
      }
    }
    if (scan.found.size === 0) t.skip(`discovery: no SKU in the first pages of ${scan.read} leaf categories`);
    return [...scan.found.values()];
  }

  /**
   * Up to `max` SKUs with reviews, the most reviewed of the leaves read first (the listing is the
   * truth; reviews_count is a hint); the next leaf is read only when a test asks past them.
   */
  async *mostReviewed(t: ConformanceContext, max: number): AsyncGenerator<SkuCandidate> {
    const given = new Set<number>();
    while (given.size < max) {
      const found = await this.candidates(t, (f) => f.filter(reviewed).length > given.size);
      const next = mostReviewedOf(found, given);
      if (!next) return;
      given.add(next.id);
      yield next;
    }
  }

  /**
   * A reviewable SKU the user has not reviewed, for a test that writes nothing (a deployment may
   * refuse the new-review form for a SKU the user has reviewed, REV-21); null when none of
   * FREE_SKUS_TRIED candidates is free. The SKU stays free: the next test that writes a review
   * (without othersFirst) takes it.
   */
  async unreviewedSku(t: ConformanceContext): Promise<number | null> {
    const key = t.api.url('/');
    const spare = this.#spareSkus.get(key) ?? (await this.#nextFreeSku(t, false));
    if (spare !== null) this.#spareSkus.set(key, spare);
    return spare;
  }

  /** How many SKUs were asked whether the user has reviewed them. */
  probedCount(t: ConformanceContext): number {
    return this.#probedSkus.get(t.api.url('/'))?.size ?? 0;
  }

  /** The next SKU free of the user's review, or null when FREE_SKUS_TRIED candidates have been probed. */
  async #nextFreeSku(t: ConformanceContext, othersFirst: boolean): Promise<number | null> {
    const spare = othersFirst ? undefined : this.#spareSkus.get(t.api.url('/'));
    if (spare !== undefined) {
      this.#spareSkus.delete(t.api.url('/'));
      return spare;
    }
    const probed = this.#probedSkus.get(t.api.url('/')) ?? new Set<number>();
    this.#probedSkus.set(t.api.url('/'), probed);
    while (probed.size < FREE_SKUS_TRIED) {
      const next = nextToProbe(await this.candidates(t, (f) => unprobed(f, probed).length > 0), probed, othersFirst);
      if (!next) return null;
      const skuId = next.id;
      probed.add(skuId);
      const response = await t.api.get(pathOf('GET /skus/:id/reviews', { id: skuId }), { ...USER, query: { per: 1 } });
      if (response.status !== 200) continue;
      if (showsNoOwnReview(response.json<{ reviews?: unknown; meta?: unknown }>() ?? {})) return skuId;
    }
    return null;
  }

  /**
   * Creates a review of a SKU the user has not reviewed and hands it to `fn`, deleting it afterwards
   * whatever happens (the review's votes and flags go with it). A 422 on one SKU moves on to the next:
   * validation rules beyond the form are not shown. `othersFirst` (nextToProbe): a SKU that others
   * have reviewed first, as the votes and flags need; false leaves those to them.
   */
  async withOwnReview(t: ConformanceContext, fn: (created: Created) => Promise<void>, { othersFirst = true }: { othersFirst?: boolean } = {}): Promise<void> {
    const refusals: string[] = [];
    for (let attempt = 0; attempt < CREATE_TRIES; attempt++) {
      const skuId = await this.#nextFreeSku(t, othersFirst);
      if (skuId === null) {
        if (attempt === 0) t.skip(`discovery: each of ${this.probedCount(t)} reviewable SKUs is reviewed by the user already, or does not say (own_review)`);
        break;
      }
      const { form } = await newForm(t, skuId);
      const answerIds = answerIdsOf(form);
      const text = reviewText(t, 'review');
      const response = await t.api.request('POST', pathOf('POST /skus/:id/reviews', { id: skuId }), {
        ...USER,
        json: { review: { rating: 4, answer_ids: answerIds, review: text } },
      });
      if (response.status === 422) {
        refusals.push(`SKU ${skuId}: ${response.text.slice(0, 160)}`);
        continue;
      }
      // Review writes may need publish_sku_review_actions (SCOPE-5.g): a refusal of a token without it is no finding.
      const scopes = response.tokenScopes;
      if ((response.status === 401 || response.status === 403) && scopes && !scopes.includes('publish_sku_review_actions')) {
        t.skip(
          `POST /skus/${skuId}/reviews refused (${response.status}) the user token, granted ${scopes.join(' ')} without publish_sku_review_actions: a deployment may require that permission for review writes`,
        );
      }
      // Whatever came back, a review that was created is deleted.
      const sent = response.status >= 200 && response.status < 300 ? createdId(response) : undefined;
      try {
        t.require(hasStatus(response, 201), 'REV-22');
        const review = single(t, response, 'sku_review', 'REV-22');
        t.response('POST /skus/:id/reviews', response, 'REV-22', 'REV-2');
        t.require(typed(review['id'], Number.isInteger(review['id']), `the created review has id ${show(review['id'])}`), 'REV-2');
        t.must(reviewHas(review, { rating: 4, review: text }, `POST /skus/${skuId}/reviews`), 'REV-22');
        t.must(typed(review['sku_id'], review['sku_id'] === skuId, `the review created on SKU ${skuId} has sku_id ${show(review['sku_id'])}`), 'REV-22');
        await fn({ skuId, review, id: review['id'] as number, answerIds, response });
      } finally {
        if (typeof sent === 'number' && Number.isInteger(sent)) await this.#removeReview(t, skuId, sent);
      }
      return;
    }
    t.warn(
      fail(
        `every review creation was refused with 422 (valid rating, one answer per question, a ${reviewText(t, '').length}-character text); validation rules beyond the form are not shown: ${refusals.join('; ')}`,
      ),
      'REV-22',
      'GEN-11',
    );
    t.skip('no review could be created');
  }

  /** A review the test deleted itself (`path`, /skus/:id/reviews/:id): teardown leaves it. */
  markDeleted(path: string): void {
    this.#deleted.add(path);
  }

  /** Teardown: deletes the review unless the test did; leftovers become a warning. */
  async #removeReview(t: ConformanceContext, skuId: number, id: number): Promise<void> {
    // Both of its :params are named id: given in order.
    const path = pathOf('DELETE /skus/:id/reviews/:id', [skuId, id]);
    if (this.#deleted.has(path)) return;
    try {
      const response = await t.api.request('DELETE', path, USER);
      if (response.status >= 300 && response.status !== 404) t.warn(fail(`teardown could not delete ${path} (${response.status})`), 'REV-25');
    } catch (error) {
      t.warn(fail(`teardown could not delete ${path} (${error instanceof Error ? error.message : String(error)})`), 'REV-25');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

export interface Listing {
  reviews: Json[];
  meta: Json;
  pagination: Pagination;
  response: HttpResponse;
}

/** GET /skus/:id/reviews; stops the test unless it is 200 {reviews, meta.pagination}. */
export async function listReviews(t: ConformanceContext, skuId: number, query: Query, auth: Auth, ...requirements: string[]): Promise<Listing> {
  const response = await t.api.get(pathOf('GET /skus/:id/reviews', { id: skuId }), { query, auth });
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
export async function firstReviews(t: ConformanceContext, skuId: number, auth: Auth, ...requirements: string[]): Promise<Listing> {
  const probe = await t.api.get(pathOf('GET /skus/:id/reviews', { id: skuId }), { query: { per: 100 }, auth });
  if (probe.status === 400 || probe.status === 422) return listReviews(t, skuId, {}, auth, ...requirements);
  return listReviews(t, skuId, { per: 100 }, auth, ...requirements);
}

/** The body's single resource under `key`; stops the test otherwise. */
export function single(t: ConformanceContext, response: HttpResponse, key: string, ...requirements: string[]): Json {
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasSingleEnvelope(body, key), 'GEN-7', ...requirements);
  return body[key] as Json;
}

/** GET /skus/:id/reviews/new for the user; stops unless 200 {review_form}. */
export async function newForm(t: ConformanceContext, skuId: number): Promise<{ form: Json; response: HttpResponse }> {
  const response = await t.api.get(pathOf('GET /skus/:id/reviews/new', { id: skuId }), USER);
  t.require(hasStatus(response, 200), 'REV-21');
  const form = single(t, response, 'review_form', 'REV-21');
  t.response('GET /skus/:id/reviews/new', response, 'REV-21', 'REV-12', 'REV-13', 'REV-14');
  return { form, response };
}

/**
 * The user's own review `id` as the first page of the SKU's listing shows it to the user (newest
 * first, so a review just written is there), or as its own_review (in meta or at the top level);
 * null when none shows it.
 */
export async function ownReviewListed(t: ConformanceContext, skuId: number, id: number): Promise<Json | null> {
  const body = okJsonOf(await t.api.get(pathOf('GET /skus/:id/reviews', { id: skuId }), USER));
  return ownReviewIn(body, id);
}

/** A 404 for a missing record: RecordNotFound in the {errors} format (3.1.0 on). */
export function mustBeNotFound(t: ConformanceContext, response: HttpResponse, ...requirements: string[]): void {
  t.must(hasStatus(response, 404), 'ERR-9', ...requirements);
  judgeNotFoundBody(t, response);
}
