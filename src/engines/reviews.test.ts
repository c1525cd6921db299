// The reviews suite's SKUs and own reviews (src/engines/reviews.ts), against a stand-in deployment:
// leaves are read one at a time as the tests need them, the most reviewed SKUs come first, and a
// review is written on a SKU the user has not reviewed (a 422 moves on to the next), handed to the
// test and deleted afterwards, unless the test deleted it.
import { describe, expect, test } from 'vitest';
import type { ConformanceContext } from '../harness/conformance.ts';
import { ReviewSkus } from './reviews.ts';

interface Answer {
  status: number;
  body?: unknown;
}

/** Leaf 7 (discovered) and leaf 8 (in GET /categories); `answers` by "METHOD path" override. */
function fakeContext(answers: Record<string, Answer> = {}) {
  const calls: string[] = [];
  const verdicts: string[] = [];
  const listings: Record<string, Answer> = {
    'GET /categories': {
      status: 200,
      body: {
        categories: [
          // The whole tree is listed: no children listing is read for categories left out.
          { id: 7, parent_id: 2, children_count: 0 },
          { id: 8, parent_id: 2, children_count: 0 },
          { id: 2, parent_id: 0, children_count: 2 },
        ],
      },
    },
    'GET /categories/7/skus': {
      status: 200,
      body: {
        skus: [
          { id: 70, reviews_count: 0 },
          { id: 71, reviews_count: 3, reviewable: false },
        ],
      },
    },
    'GET /categories/8/skus': {
      status: 200,
      body: {
        skus: [
          { id: 80, reviews_count: 9 },
          { id: 81, reviews_count: 1 },
        ],
      },
    },
    ...answers,
  };
  const respond = async (method: string, path: string) => {
    calls.push(`${method} ${path}`);
    const answer = listings[`${method} ${path}`] ?? { status: 404 };
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return { status: answer.status, text, json: () => (text ? JSON.parse(text) : undefined) };
  };
  const t = {
    api: { url: (path: string) => `http://a${path}`, get: (path: string) => respond('GET', path), request: respond },
    discover: async () => 7,
    kitName: (what: string) => `cc-${what}-x`,
    json: (response: { json(): unknown }) => response.json(),
    require: (result: { ok: boolean; message?: string }) => {
      if (!result.ok) throw new Error(`required: ${result.message}`);
    },
    must: (result: { ok: boolean; message?: string }, ...ids: string[]) => verdicts.push(`${result.ok ? 'pass' : 'FAIL'} ${ids.join(',')}`),
    warn: (result: { ok: boolean; message?: string }) => verdicts.push(`${result.ok ? 'pass' : 'warn'} ${result.message ?? ''}`),
    response: () => true,
    skip: (reason: string): never => {
      throw new Error(`skipped: ${reason}`);
    },
  } as unknown as ConformanceContext;
  return { t, calls, verdicts };
}

describe('ReviewSkus: the SKUs', () => {
  test("reads the discovered leaf first, and the other leaves only when a test asks past its SKUs; once for the file's tests", async () => {
    const skus = new ReviewSkus();
    const { t, calls } = fakeContext();
    expect((await skus.candidates(t)).map((s) => s.id)).toEqual([70, 71]);
    expect(calls).toEqual(['GET /categories/7/skus']);
    const given = [];
    for await (const sku of skus.mostReviewed(t, 3)) given.push(sku.id);
    // 71 is reviewed on leaf 7; asked past it, leaf 8 is read: 80 then 81.
    expect(given).toEqual([71, 80, 81]);
    expect(calls).toEqual(['GET /categories/7/skus', 'GET /categories', 'GET /categories/8/skus']);
    for await (const sku of skus.mostReviewed(t, 1)) given.push(sku.id);
    expect(given).toEqual([71, 80, 81, 80]);
    expect(calls).toHaveLength(3);
  });

  test('skips the test when no leaf read lists a SKU', async () => {
    const { t, calls } = fakeContext({ 'GET /categories/7/skus': { status: 200, body: { skus: [] } }, 'GET /categories/8/skus': { status: 500 } });
    await expect(new ReviewSkus().candidates(t)).rejects.toThrow('skipped: discovery: no SKU in the first pages of 1 leaf categories');
    await expect(new ReviewSkus().candidates(t, (found) => found.length > 0)).rejects.toThrow('skipped: discovery: no SKU in the first pages of 2 leaf categories');
    expect(calls).toEqual(['GET /categories/7/skus', 'GET /categories/7/skus', 'GET /categories', 'GET /categories/8/skus']);
  });
});

describe('ReviewSkus: the own review', () => {
  const form = { status: 200, body: { review_form: { questions: [{ answers: [{ id: 5 }] }] } } };
  const created = (id: number, skuId: number) => ({
    status: 201,
    body: {
      sku_review: {
        id,
        sku_id: skuId,
        rating: 4,
        review:
          'cc-review-x review: written by the catalogue-conformance kit and deleted again at once. The product works as described, arrived in good order and does what the listing promises; fair value for the price.',
      },
    },
  });

  test('writes it on a SKU the user has not reviewed (the fewest reviews but some first), hands it over, and deletes it afterwards', async () => {
    const { t, calls, verdicts } = fakeContext({
      'GET /skus/81/reviews': { status: 200, body: { reviews: [{ id: 1, own_review: { id: 1 } }] } },
      'GET /skus/80/reviews': { status: 200, body: { reviews: [{ id: 2 }], meta: { own_review: null } } },
      'GET /skus/80/reviews/new': form,
      'POST /skus/80/reviews': created(44, 80),
    });
    const seen: number[] = [];
    await new ReviewSkus().withOwnReview(t, async ({ skuId, id, answerIds }) => {
      seen.push(skuId, id, ...answerIds);
    });
    expect(seen).toEqual([80, 44, 5]);
    expect(calls.filter((c) => !c.startsWith('GET /categories'))).toEqual([
      'GET /skus/70/reviews',
      'GET /skus/81/reviews',
      'GET /skus/80/reviews',
      'GET /skus/80/reviews/new',
      'POST /skus/80/reviews',
      'DELETE /skus/80/reviews/44',
    ]);
    expect(verdicts.every((v) => v.startsWith('pass'))).toBe(true);
  });

  test('a 422 moves on to the next free SKU; a review the test deleted is not deleted again; SKUs are not handed out twice', async () => {
    const { t, calls } = fakeContext({
      'GET /skus/70/reviews': { status: 200, body: { reviews: [] } },
      'GET /skus/70/reviews/new': form,
      'POST /skus/70/reviews': { status: 422, body: { errors: [] } },
      'GET /skus/81/reviews': { status: 200, body: { reviews: [], meta: {} } },
      'GET /skus/81/reviews/new': form,
      'POST /skus/81/reviews': created(45, 81),
    });
    const skus = new ReviewSkus();
    await skus.withOwnReview(t, async ({ skuId, id }) => {
      expect(skuId).toBe(81);
      skus.markDeleted(`/skus/${skuId}/reviews/${id}`);
    });
    expect(calls.filter((c) => c.startsWith('POST') || c.startsWith('DELETE'))).toEqual(['POST /skus/70/reviews', 'POST /skus/81/reviews']);
    // Both free SKUs were handed out; 80 is asked next, and is not free.
    await expect(skus.withOwnReview(t, async () => {})).rejects.toThrow('skipped: discovery: each of 3 reviewable SKUs is reviewed by the user already');
  });
});
