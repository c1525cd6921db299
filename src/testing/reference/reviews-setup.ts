// Shared setup of the reference's SKU review tests (src/reference/reviews.test.ts and
// reviews-votes.test.ts): the two configurations, a server per configuration, and the helpers.

import { expect } from 'vitest';
import type { ReferenceOptions, RunningReference } from '../../reference/server.ts';
import { discoverSkus, type SkuSummary } from './probes/reviews.probes.ts';
import { ALL_SCOPES, call, startServer, userTokens, type Reply } from './testkit.ts';

export const BASE_FIELDS = ['id', 'sku_id', 'user_id', 'review', 'rating', 'created_at', 'demoted', 'votes_count', 'helpful_votes_count', 'sentiments'];
export const USER_FIELDS = [...BASE_FIELDS, 'voted', 'flagged', 'helpful'];

export type Review = Record<string, any> & { id: number; user_id: number; demoted: boolean; created_at: string; helpful_votes_count: number };
export type Question = { text: string; type: string; answers: { id: number; text: string; selected?: boolean }[] };

export const CONFIGS: { name: string; options: ReferenceOptions }[] = [
  { name: 'default dataset under /api', options: { dataset: 'default', basePath: '/api' } },
  { name: 'alt dataset', options: { dataset: 'alt' } },
];

export interface ReviewsServer {
  ref: RunningReference;
  app: string;
  /** Every scope, publish_sku_review_actions included. */
  user: string;
  /** A user token without publish_sku_review_actions. */
  plain: string;
  skus: SkuSummary[];
  /** A SKU with more than 25 reviews. */
  heavy: SkuSummary;
  /** The questions of the review form. */
  questions: Question[];
  demoUserId: number;
}

export const reviewsPath = (skuId: number): string => `/skus/${skuId}/reviews`;

/** A server with the SKUs discovered through the API; closed again if the discovery fails. */
export async function startReviewsServer(options: ReferenceOptions): Promise<ReviewsServer> {
  const { ref, app, user } = await startServer(options, ALL_SCOPES);
  try {
    const plain = (await userTokens(ref, 'public')).access;
    const skus = await discoverSkus(ref, app);
    const heavy = skus.find((s) => s.reviews_count > 25)!;
    expect(heavy, 'a SKU with more than 25 reviews').toBeDefined();
    const form = await call(ref, 'GET', `${reviewsPath(heavy.id)}/new`, { token: user });
    const questions: Question[] = form.body.review_form.questions;
    const me = await call(ref, 'GET', '/user', { token: user });
    const demoUserId: number = me.body.user.id;
    return { ref, app, user, plain, skus, heavy, questions, demoUserId };
  } catch (err) {
    await ref.close();
    throw err;
  }
}

/** The helpers of the review tests, on the server `server()` returns (started in beforeAll). */
export function reviewHelpers(server: () => ReviewsServer) {
  async function allReviews(skuId: number, token: string, query = ''): Promise<Review[]> {
    const out: Review[] = [];
    for (let page = 1; ; page++) {
      const r = await call(server().ref, 'GET', `${reviewsPath(skuId)}?per=100&page=${page}${query}`, { token });
      expect(r.status, r.text).toBe(200);
      out.push(...r.body.reviews);
      if (page >= r.body.meta.pagination.total_pages) return out;
    }
  }

  async function total(skuId: number): Promise<number> {
    const { ref, app } = server();
    return (await call(ref, 'GET', `${reviewsPath(skuId)}?per=1`, { token: app })).body.meta.pagination.total_results;
  }

  /** A reviewable SKU the user has not reviewed (never the heavy SKU, which the listing tests count). */
  async function freshSku(): Promise<SkuSummary> {
    const { ref, user, skus, heavy } = server();
    for (const s of skus) {
      if (!s.reviewable || s.id === heavy.id) continue;
      const r = await call(ref, 'GET', `${reviewsPath(s.id)}?per=1`, { token: user });
      if (r.body.reviews.length > 0 && r.body.reviews[0].own_review === null) return s;
      if (r.body.reviews.length === 0) return s;
    }
    throw new Error('no reviewable SKU without a review by the demo user');
  }

  /** The SKU as the category SKU listing shows it. */
  async function listedSku(s: SkuSummary): Promise<Record<string, any>> {
    const { ref, app } = server();
    for (let page = 1; page < 50; page++) {
      const r = await call(ref, 'GET', `/categories/${s.category_id}/skus?per=100&page=${page}`, { token: app });
      expect(r.status).toBe(200);
      const found = (r.body.skus as Record<string, any>[]).find((x) => x['id'] === s.id);
      if (found) return found;
      if (page >= r.body.meta.pagination.total_pages) break;
    }
    throw new Error(`SKU ${s.id} not in its category listing`);
  }

  async function create(skuId: number, review: Record<string, unknown>): Promise<Reply> {
    const { ref, user } = server();
    return call(ref, 'POST', reviewsPath(skuId), { token: user, body: { review } });
  }

  /** One answer of each question; for eval_sentiment questions the first (positive) answer. */
  function oneAnswerEach(): number[] {
    return server()
      .questions.filter((q) => q.answers.length > 0)
      .map((q) => q.answers[0]!.id);
  }

  return { allReviews, total, freshSku, listedSku, create, oneAnswerEach };
}
