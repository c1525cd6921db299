// What the reviews suite reads of the answers that find its SKUs and its own reviews
// (src/checks/reviews-skus.ts).
import { describe, expect, test } from 'vitest';
import {
  answerIdsOf,
  createdId,
  idOrder,
  mostReviewedOf,
  nextToProbe,
  ownReviewIn,
  reviewed,
  reviewsOf,
  showsNoOwnReview,
  skuCandidateOf,
  unprobed,
  writable,
  type SkuCandidate,
} from './reviews-skus.ts';

const sku = (id: number, reviews_count: number, more: Partial<SkuCandidate> = {}): SkuCandidate => ({ id, reviews_count, reviewable: true, future: false, ...more });
const answer = (status: number, body: unknown) => ({
  status,
  json<T>(): T {
    if (body instanceof Error) throw body;
    return body as T;
  },
});

describe('SKU candidates', () => {
  test('skuCandidateOf: reviews_count 0 unless a number, reviewable unless false, future only when true; null without an integer id', () => {
    expect(skuCandidateOf({ id: 3, reviews_count: 5, reviewable: false, future: true })).toEqual({ id: 3, reviews_count: 5, reviewable: false, future: true });
    expect(skuCandidateOf({ id: 3, reviews_count: '5', reviewable: null, future: 'yes' })).toEqual({ id: 3, reviews_count: 0, reviewable: true, future: false });
    expect(skuCandidateOf({ id: '3' })).toBeNull();
    expect(skuCandidateOf(null)).toBeNull();
    expect(skuCandidateOf([3])).toBeNull();
  });

  test('reviewed: some reviews; writable: reviewable and not future', () => {
    expect([reviewed(sku(1, 0)), reviewed(sku(1, 1))]).toEqual([false, true]);
    expect([writable(sku(1, 0)), writable(sku(1, 0, { reviewable: false })), writable(sku(1, 0, { future: true }))]).toEqual([true, false, false]);
  });

  test('mostReviewedOf: the most reviewed not given yet (ties: the lowest id); none without reviews', () => {
    const found = [sku(5, 2), sku(3, 9), sku(2, 9), sku(4, 0)];
    expect(mostReviewedOf(found, new Set())?.id).toBe(2);
    expect(mostReviewedOf(found, new Set([2]))?.id).toBe(3);
    expect(mostReviewedOf(found, new Set([2, 3]))?.id).toBe(5);
    expect(mostReviewedOf(found, new Set([2, 3, 5]))).toBeUndefined();
  });

  test('nextToProbe: writable and unprobed, the fewest reviews but some first, then those with none (ties: the lowest id)', () => {
    const found = [sku(1, 0), sku(2, 7), sku(3, 2), sku(4, 2), sku(5, 1, { reviewable: false }), sku(6, 1, { future: true })];
    expect(unprobed(found, new Set([3])).map((s) => s.id)).toEqual([1, 2, 4]);
    expect(nextToProbe(found, new Set())?.id).toBe(3);
    expect(nextToProbe(found, new Set([3]))?.id).toBe(4);
    expect(nextToProbe(found, new Set([3, 4]))?.id).toBe(2);
    expect(nextToProbe(found, new Set([2, 3, 4]))?.id).toBe(1);
    expect(nextToProbe(found, new Set([1, 2, 3, 4]))).toBeUndefined();
  });

  test('nextToProbe without othersFirst: a SKU without reviews first, leaving the reviewed ones to the votes and flags', () => {
    const found = [sku(1, 0), sku(2, 7), sku(3, 2), sku(8, 0)];
    expect(nextToProbe(found, new Set(), false)?.id).toBe(1);
    expect(nextToProbe(found, new Set([1]), false)?.id).toBe(8);
    expect(nextToProbe(found, new Set([1, 8]), false)?.id).toBe(3);
  });
});

describe("the user's own review", () => {
  test('showsNoOwnReview: no review at all, or own_review null on the first review, in meta or at the top level', () => {
    expect(showsNoOwnReview({ reviews: [] })).toBe(true);
    expect(showsNoOwnReview({ reviews: [{ id: 1, own_review: null }] })).toBe(true);
    expect(showsNoOwnReview({ reviews: [{ id: 1 }], meta: { own_review: null } })).toBe(true);
    expect(showsNoOwnReview({ reviews: [{ id: 1 }], meta: {}, own_review: null })).toBe(true);
    expect(showsNoOwnReview({ reviews: [{ id: 1 }], meta: {}, own_review: { id: 9 } })).toBe(false);
    // On the review, it wins over meta.
    expect(showsNoOwnReview({ reviews: [{ id: 1, own_review: { id: 9 } }], meta: { own_review: null } })).toBe(false);
    expect(showsNoOwnReview({ reviews: [{ id: 1 }], meta: { own_review: { id: 9 } } })).toBe(false);
    // Not said, or not a listing.
    expect(showsNoOwnReview({ reviews: [{ id: 1 }] })).toBe(false);
    expect(showsNoOwnReview({})).toBe(false);
    expect(showsNoOwnReview({ reviews: 'none' })).toBe(false);
  });

  test('ownReviewIn: the review among the listed ones, else own_review with its id (in meta or at the top level), else null', () => {
    expect(ownReviewIn({ reviews: [{ id: 1 }, { id: 2, rating: 4 }] }, 2)).toEqual({ id: 2, rating: 4 });
    expect(ownReviewIn({ reviews: [{ id: 1 }], meta: { own_review: { id: 2, rating: 3 } } }, 2)).toEqual({ id: 2, rating: 3 });
    expect(ownReviewIn({ reviews: [{ id: 1 }], meta: { own_review: { id: 3 } } }, 2)).toBeNull();
    expect(ownReviewIn({ reviews: [{ id: 1 }], meta: {}, own_review: { id: 2, rating: 5 } }, 2)).toEqual({ id: 2, rating: 5 });
    expect(ownReviewIn({ reviews: [{ id: 1 }], meta: {}, own_review: { id: 3 } }, 2)).toBeNull();
    expect(ownReviewIn({ reviews: [{ id: '2' }] }, 2)).toBeNull();
    expect(ownReviewIn([{ id: 2 }], 2)).toBeNull();
    expect(ownReviewIn(null, 2)).toBeNull();
  });

  test('createdId: the sku_review id of the body; undefined when it does not say or is not JSON', () => {
    expect(createdId(answer(201, { sku_review: { id: 12 } }))).toBe(12);
    expect(createdId(answer(201, { review: { id: 12 } }))).toBeUndefined();
    expect(createdId(answer(201, null))).toBeUndefined();
    expect(createdId(answer(201, new Error('not JSON')))).toBeUndefined();
  });
});

test('answerIdsOf: the first answer with an integer id of each question', () => {
  const form = { questions: [{ answers: [{ id: 'x' }, { id: 3 }, { id: 4 }] }, { answers: [] }, { answers: [{ id: 7 }] }, 'q', { answers: 'none' }] };
  expect(answerIdsOf(form)).toEqual([3, 7]);
  expect(answerIdsOf({})).toEqual([]);
});

test("reviewsOf and idOrder: a 200 listing's reviews (objects only) and their ids in order; none otherwise", () => {
  const reviews = reviewsOf(answer(200, { reviews: [{ id: 2 }, 'x', { id: 1 }] }));
  expect(reviews).toEqual([{ id: 2 }, { id: 1 }]);
  expect(idOrder(reviews)).toBe('2,1');
  expect(reviewsOf(answer(400, { reviews: [{ id: 2 }] }))).toEqual([]);
  expect(reviewsOf(answer(200, new Error('not JSON')))).toEqual([]);
  expect(reviewsOf(answer(200, null))).toEqual([]);
});
