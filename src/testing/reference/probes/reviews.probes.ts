// Probes of the faults in src/reference/faults/reviews.ts: each resolves true when the server shows the bug (test-only code).
//
// SKUs are discovered through the API (testkit's allSkus), once per server. Reviews the probes
// create are deleted again, which also removes their votes and flags.

import type { RunningReference } from '../../../reference/server.ts';
import { allSkus, call, userTokens, type Reply } from '../testkit.ts';
import type { ProbeTable } from './probe.ts';

export interface SkuSummary {
  id: number;
  /** As the SKU listing reports it (a hint: the review listing is the truth). */
  reviews_count: number;
  reviewable: boolean;
  category_id: number;
}

/** SKUs of the server (testkit's allSkus), most reviewed first. */
export async function discoverSkus(ref: RunningReference, token: string): Promise<SkuSummary[]> {
  return (await allSkus(ref, token))
    .map((s) => ({ id: s.id, reviews_count: s.reviews_count ?? 0, reviewable: s.reviewable !== false, category_id: s.category_id }))
    .sort((a, b) => b.reviews_count - a.reviews_count || a.id - b.id);
}

type Review = Record<string, unknown> & { id: number; demoted: boolean; user_id: number };

/** The first SKU (most reviewed first) whose first review page (per=100) satisfies `accept`. */
export async function findSku(
  ref: RunningReference,
  token: string,
  accept: (reviews: Review[], sku: SkuSummary) => boolean,
  query = '',
): Promise<{ sku: SkuSummary; reviews: Review[] } | null> {
  for (const sku of await discoverSkus(ref, token)) {
    const r = await call(ref, 'GET', `/skus/${sku.id}/reviews?per=100${query}`, { token });
    if (r.status !== 200 || !Array.isArray(r.body?.reviews)) continue;
    if (accept(r.body.reviews as Review[], sku)) return { sku, reviews: r.body.reviews as Review[] };
  }
  return null;
}

/** A review written by the token's user (on a SKU they have not reviewed yet), or null. */
async function createOwnReview(ref: RunningReference, token: string): Promise<{ skuId: number; reply: Reply } | null> {
  let tries = 0;
  for (const sku of await discoverSkus(ref, token)) {
    if (!sku.reviewable) continue;
    if (++tries > 8) break;
    const form = (await call(ref, 'GET', `/skus/${sku.id}/reviews/new`, { token })).body?.review_form;
    const answer = (form?.questions as { type: string; answers: { id: number }[] }[] | undefined)?.find((q) => q.answers.length > 0)?.answers[0];
    const reply = await call(ref, 'POST', `/skus/${sku.id}/reviews`, {
      token,
      body: { review: { rating: 4, answer_ids: answer ? [answer.id] : [], review: 'Probe review: works as described.' } },
    });
    if (reply.status === 201 || reply.status === 200) return { skuId: sku.id, reply };
  }
  return null;
}

/** Runs `fn` with a fresh review of the token's user, deleting it afterwards. */
async function withOwnReview(ref: RunningReference, token: string, fn: (skuId: number, reply: Reply) => Promise<boolean>): Promise<boolean> {
  const created = await createOwnReview(ref, token);
  const id = created?.reply.body?.sku_review?.id;
  if (!created || typeof id !== 'number') return false;
  try {
    return await fn(created.skuId, created.reply);
  } finally {
    await call(ref, 'DELETE', `/skus/${created.skuId}/reviews/${id}`, { token });
  }
}

export const REVIEW_PROBES: ProbeTable = {
  'reviews-demoted-listed-first': async (ref, { app }) => {
    const found = await findSku(ref, app, (rs) => rs.some((r) => r.demoted) && rs.some((r) => !r.demoted));
    if (!found) return false;
    const firstDemoted = found.reviews.findIndex((r) => r.demoted);
    return found.reviews.slice(firstDemoted).some((r) => !r.demoted);
  },
  'reviews-most-helpful-refused': async (ref, { app }) => {
    const sku = (await discoverSkus(ref, app))[0];
    if (!sku) return false;
    return (await call(ref, 'GET', `/skus/${sku.id}/reviews?sort=most_helpful`, { token: app })).status === 400;
  },
  'review-aggregation-score-string': async (ref, { app }) => {
    for (const sku of (await discoverSkus(ref, app)).slice(0, 10)) {
      const r = await call(ref, 'GET', `/skus/${sku.id}/reviews?include_meta=sku_reviews_aggregation`, { token: app });
      const agg = r.body?.meta?.sku_reviews_aggregation;
      if (Array.isArray(agg) && agg.length > 0) return agg.some((a: { score: unknown }) => typeof a.score === 'string');
    }
    return false;
  },
  'review-user-claims-for-app-token': async (ref, { app }) => {
    const found = await findSku(ref, app, (rs) => rs.length > 0);
    return found !== null && found.reviews.some((r) => r['voted'] === true || r['helpful'] === true);
  },
  'edit-form-without-selected': async (ref, { user }) =>
    withOwnReview(ref, user, async (skuId, reply) => {
      const r = await call(ref, 'GET', `/skus/${skuId}/reviews/${reply.body.sku_review.id}/edit`, { token: user });
      const questions = (r.body?.review_form?.questions ?? []) as { answers?: Record<string, unknown>[] }[];
      const answers = questions.flatMap((q) => q.answers ?? []);
      return r.status === 200 && answers.length > 0 && answers.some((a) => !('selected' in a));
    }),
  'created-review-rating-string': async (ref, { user }) => withOwnReview(ref, user, async (_sku, reply) => typeof reply.body?.sku_review?.rating === 'string'),
  'review-delete-returns-200-with-body': async (ref, { user }) => {
    const created = await createOwnReview(ref, user);
    const id = created?.reply.body?.sku_review?.id;
    if (!created || typeof id !== 'number') return false;
    const r = await call(ref, 'DELETE', `/skus/${created.skuId}/reviews/${id}`, { token: user });
    return r.status === 200 || (r.status === 204 && r.text !== '');
  },
  'most-helpful-sorted-as-recent': async (ref, { app }) => {
    // A SKU whose most recent order is not its most helpful one.
    const found = await findSku(ref, app, (rs) =>
      rs.some((r, i) => i > 0 && !r.demoted && !rs[i - 1]!.demoted && (r['helpful_votes_count'] as number) > (rs[i - 1]!['helpful_votes_count'] as number)),
    );
    if (!found) return false;
    const helpful = (await call(ref, 'GET', `/skus/${found.sku.id}/reviews?per=100&sort=most_helpful`, { token: app })).body?.reviews as Review[] | undefined;
    // Refused (another fault, reviews-most-helpful-refused): no order to judge.
    return helpful !== undefined && helpful.map((r) => r.id).join() === found.reviews.map((r) => r.id).join();
  },
  'review-update-not-stored': async (ref, { user }) =>
    withOwnReview(ref, user, async (skuId, reply) => {
      const id = reply.body.sku_review.id;
      const r = await call(ref, 'PUT', `/skus/${skuId}/reviews/${id}`, { token: user, body: { review: { rating: 2 } } });
      const form = (await call(ref, 'GET', `/skus/${skuId}/reviews/${id}/edit`, { token: user })).body?.review_form;
      return r.status === 200 && r.body?.sku_review?.rating === 2 && form?.rating !== 2;
    }),
  'review-delete-not-stored': async (ref, { user }) =>
    withOwnReview(ref, user, async (skuId, reply) => {
      const id = reply.body.sku_review.id;
      const deleted = await call(ref, 'DELETE', `/skus/${skuId}/reviews/${id}`, { token: user });
      return deleted.status === 204 && (await call(ref, 'GET', `/skus/${skuId}/reviews/${id}/edit`, { token: user })).status === 200;
    }),
  'vote-applied-to-other-review': async (ref, { user }) =>
    withOwnReview(ref, user, async (skuId, reply) => {
      const id = reply.body.sku_review.id;
      const r = await call(ref, 'POST', `/skus/${skuId}/reviews/${id}/votes`, { token: user, body: { vote: { helpful: true } } });
      return r.status === 201 && r.body?.sku_review_vote?.sku_review_id !== id;
    }),
  'flag-applied-to-other-review': async (ref, { user }) =>
    withOwnReview(ref, user, async (skuId, reply) => {
      const id = reply.body.sku_review.id;
      const r = await call(ref, 'POST', `/skus/${skuId}/reviews/${id}/flags`, { token: user, body: { flag: { reason: 'spam' } } });
      return r.status === 201 && r.body?.flag?.flaggable_id !== id;
    }),
  'vote-not-stored': async (ref, { user }) =>
    withOwnReview(ref, user, async (skuId, reply) => {
      const id = reply.body.sku_review.id;
      const r = await call(ref, 'POST', `/skus/${skuId}/reviews/${id}/votes`, { token: user, body: { vote: { helpful: true } } });
      const listed = ((await call(ref, 'GET', `/skus/${skuId}/reviews?per=100`, { token: user })).body?.reviews ?? []).find((x: Review) => x.id === id);
      // The answer names the review asked: a vote that went elsewhere is vote-applied-to-other-review.
      return r.status === 201 && r.body?.sku_review_vote?.sku_review_id === id && listed !== undefined && listed['voted'] === false && listed['votes_count'] === 0;
    }),
  'vote-counted-twice': async (ref, { user }) =>
    withOwnReview(ref, user, async (skuId, reply) => {
      const id = reply.body.sku_review.id;
      await call(ref, 'POST', `/skus/${skuId}/reviews/${id}/votes`, { token: user, body: { vote: { helpful: true } } });
      const listed = ((await call(ref, 'GET', `/skus/${skuId}/reviews?per=100`, { token: user })).body?.reviews ?? []).find((x: Review) => x.id === id);
      return listed !== undefined && listed['votes_count'] === 2;
    }),
  'flag-not-stored': async (ref, { user }) =>
    withOwnReview(ref, user, async (skuId, reply) => {
      const id = reply.body.sku_review.id;
      const r = await call(ref, 'POST', `/skus/${skuId}/reviews/${id}/flags`, { token: user, body: { flag: { reason: 'spam' } } });
      const listed = ((await call(ref, 'GET', `/skus/${skuId}/reviews?per=100`, { token: user })).body?.reviews ?? []).find((x: Review) => x.id === id);
      // The answer names the review asked: a flag that went elsewhere is flag-applied-to-other-review.
      return r.status === 201 && r.body?.flag?.flaggable_id === id && listed !== undefined && listed['flagged'] === false;
    }),
  'vote-without-permission-accepted': async (ref, { app }) => {
    const found = await findSku(ref, app, (rs) => rs.length > 0);
    if (!found) return false;
    const { access } = await userTokens(ref, 'public');
    // No vote[helpful]: nothing is created either way; a server that skips the permission
    // check gets as far as the missing parameter (400) instead of answering 401.
    const r = await call(ref, 'POST', `/skus/${found.sku.id}/reviews/${found.reviews[0]!.id}/votes`, { token: access });
    return r.status === 400;
  },
  'flag-unknown-reason-accepted': async (ref, { user }) =>
    withOwnReview(ref, user, async (skuId, reply) => {
      const r = await call(ref, 'POST', `/skus/${skuId}/reviews/${reply.body.sku_review.id}/flags`, {
        token: user,
        body: { flag: { reason: 'not_a_reason' } },
      });
      return r.status >= 200 && r.status < 300;
    }),
};
