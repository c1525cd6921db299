// Votes and flags on SKU reviews, and GET /flags (spec "Endpoints > SKU reviews"), on both datasets
// and under a base path. SKUs are discovered through the API; the reviews the tests create are their own.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SkuSummary } from '../testing/reference/probes/reviews.probes.ts';
import { CONFIGS, reviewHelpers, reviewsPath, startReviewsServer, USER_FIELDS, type Review, type ReviewsServer } from '../testing/reference/reviews-setup.ts';
import type { RunningReference } from './server.ts';
import { call, expectError, sorted, TIMESTAMP } from '../testing/reference/testkit.ts';

const VOTE_FIELDS = ['id', 'sku_review_id', 'user_id', 'helpful', 'created_at'];
const FLAG_FIELDS = ['id', 'flaggable_id', 'flaggable_type', 'user_id', 'reason', 'created_at', 'updated_at'];

describe.each(CONFIGS)('SKU reviews ($name)', ({ options }) => {
  let server: ReviewsServer;
  let ref: RunningReference;
  let app: string;
  /** Every scope, publish_sku_review_actions included. */
  let user: string;
  /** A user token without publish_sku_review_actions. */
  let plain: string;
  let skus: SkuSummary[];
  let heavy: SkuSummary;
  let demoUserId: number;
  const { allReviews, freshSku, create } = reviewHelpers(() => server);

  beforeAll(async () => {
    server = await startReviewsServer(options);
    ({ ref, app, user, plain, skus, heavy, demoUserId } = server);
  });
  afterAll(async () => {
    await ref?.close();
  });

  describe('POST /skus/:sku_id/reviews/:review_id/votes', () => {
    let target: Review;
    const votesPath = (): string => `${reviewsPath(heavy.id)}/${target.id}/votes`;
    const current = async (): Promise<Review> => (await allReviews(heavy.id, user)).find((x) => x.id === target.id)!;

    beforeAll(async () => {
      target = (await allReviews(heavy.id, user)).find((x) => x.user_id !== demoUserId && !x['voted'])!;
    });

    it('needs publish_sku_review_actions and a user token (401), and vote[helpful] (400)', async () => {
      expectError(await call(ref, 'POST', `${votesPath()}?vote[helpful]=true`, { token: app }), 401, 'Unauthorized');
      expectError(await call(ref, 'POST', `${votesPath()}?vote[helpful]=true`, { token: plain }), 401, 'Unauthorized');
      expectError(await call(ref, 'POST', votesPath(), { token: user }), 400, 'ParameterMissing');
      expectError(await call(ref, 'POST', votesPath(), { token: user, body: { vote: {} } }), 400, 'ParameterMissing');
      expectError(await call(ref, 'POST', `${votesPath()}?vote[helpful]=maybe`, { token: user }), 400, 'InvalidParameter');
      expectError(await call(ref, 'POST', votesPath(), { token: user, body: { vote: { helpful: 'yes' } } }), 400, 'InvalidParameter');
      expect(await current()).toEqual(target);
    });

    it('creates a vote from the query (201 {sku_review_vote}); the review counts it; a second vote replaces it', async () => {
      const r = await call(ref, 'POST', `${votesPath()}?vote[helpful]=true`, { token: user });
      expect(r.status, r.text).toBe(201);
      expect(Object.keys(r.body)).toEqual(['sku_review_vote']);
      const vote = r.body.sku_review_vote;
      expect(Object.keys(vote)).toEqual(VOTE_FIELDS);
      expect(vote).toMatchObject({ sku_review_id: target.id, user_id: demoUserId, helpful: true });
      expect(Number.isInteger(vote.id)).toBe(true);
      expect(vote.created_at).toMatch(TIMESTAMP);
      expect(await current()).toMatchObject({
        voted: true,
        helpful: true,
        votes_count: target.votes_count + 1,
        helpful_votes_count: target.helpful_votes_count + 1,
      });

      const again = await call(ref, 'POST', votesPath(), { token: user, body: { vote: { helpful: false } } });
      expect(again.status).toBe(201);
      expect(again.body.sku_review_vote).toMatchObject({ helpful: false, sku_review_id: target.id });
      expect(again.body.sku_review_vote.id).not.toBe(vote.id);
      expect(await current()).toMatchObject({
        voted: true,
        helpful: false,
        votes_count: target.votes_count + 1,
        helpful_votes_count: target.helpful_votes_count,
      });
      const form = await call(ref, 'POST', votesPath(), { token: user, form: { 'vote[helpful]': 'true' } });
      expect(form.body.sku_review_vote.helpful).toBe(true);
      // An application token sees the counts but not the user's vote.
      const seen = (await allReviews(heavy.id, app)).find((x) => x.id === target.id)!;
      expect(seen.votes_count).toBe(target.votes_count + 1);
      expect('voted' in seen).toBe(false);
    });

    it('embeds the review with embed=sku_review (and include, embed_ids); an unknown name is 400 and changes nothing', async () => {
      const plainVote = await call(ref, 'POST', `${votesPath()}?vote[helpful]=true`, { token: user });
      expect('sku_review' in plainVote.body.sku_review_vote).toBe(false);
      const r = await call(ref, 'POST', `${votesPath()}?vote[helpful]=false&embed=sku_review`, { token: user });
      expect(r.status).toBe(201);
      const embedded = r.body.sku_review_vote.sku_review;
      expect(sorted(Object.keys(embedded))).toEqual(sorted(USER_FIELDS));
      expect(embedded).toMatchObject({ id: target.id, voted: true, helpful: false });
      const inc = await call(ref, 'POST', `${votesPath()}?vote[helpful]=false&include=sku_review`, { token: user });
      expect(inc.body.sku_reviews).toHaveLength(1);
      expect(inc.body.sku_reviews[0].id).toBe(target.id);
      const ids = await call(ref, 'POST', `${votesPath()}?vote[helpful]=false&embed_ids=sku_review`, { token: user });
      expect(ids.body.sku_review_vote.sku_review_ids).toEqual([target.id]);
      const before = await current();
      expectError(await call(ref, 'POST', `${votesPath()}?vote[helpful]=true&embed=shop`, { token: user }), 400, 'InvalidParameter');
      expect(await current()).toEqual(before);
    });

    it('404 for a review of another SKU, an unknown review or SKU', async () => {
      const otherSku = skus.find((s) => s.id !== heavy.id && s.reviews_count > 0)!;
      const foreign = (await allReviews(otherSku.id, app))[0]!;
      const q = '?vote[helpful]=true';
      expectError(await call(ref, 'POST', `${reviewsPath(heavy.id)}/${foreign.id}/votes${q}`, { token: user }), 404, 'RecordNotFound');
      expectError(await call(ref, 'POST', `${reviewsPath(heavy.id)}/0/votes${q}`, { token: user }), 404, 'RecordNotFound');
      expectError(await call(ref, 'POST', `/skus/0/reviews/${target.id}/votes${q}`, { token: user }), 404, 'RecordNotFound');
    });
  });

  describe('flags', () => {
    it('GET /flags: the three reasons with descriptions, not paginated', async () => {
      const r = await call(ref, 'GET', '/flags', { token: app });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['flags']);
      expect(r.body.flags.map((f: { reason: string }) => f.reason)).toEqual(['bad_language', 'wrong_section', 'spam']);
      for (const f of r.body.flags) {
        expect(Object.keys(f)).toEqual(['reason', 'description']);
        expect(typeof f.description).toBe('string');
      }
    });

    it('flags a review (201 {flag}); flagged becomes true; a second flag updates the record; bad input is 400 or 401', async () => {
      const target = (await allReviews(heavy.id, user)).find((x) => x.user_id !== demoUserId && !x['flagged'])!;
      const path = `${reviewsPath(heavy.id)}/${target.id}/flags`;
      expectError(await call(ref, 'POST', `${path}?flag[reason]=spam`, { token: app }), 401, 'Unauthorized');
      expectError(await call(ref, 'POST', `${path}?flag[reason]=spam`, { token: plain }), 401, 'Unauthorized');
      expectError(await call(ref, 'POST', path, { token: user }), 400, 'ParameterMissing');
      expectError(await call(ref, 'POST', `${path}?flag[reason]=boring`, { token: user }), 400, 'InvalidParameter');
      expectError(await call(ref, 'POST', path, { token: user, body: { flag: { reason: 'Spam' } } }), 400, 'InvalidParameter');
      expect((await allReviews(heavy.id, user)).find((x) => x.id === target.id)!['flagged']).toBe(false);

      const r = await call(ref, 'POST', `${path}?flag[reason]=spam`, { token: user });
      expect(r.status, r.text).toBe(201);
      expect(Object.keys(r.body)).toEqual(['flag']);
      const flag = r.body.flag;
      expect(Object.keys(flag)).toEqual(FLAG_FIELDS);
      expect(flag).toMatchObject({ flaggable_id: target.id, flaggable_type: 'SkuReview', user_id: demoUserId, reason: 'spam' });
      expect(flag.created_at).toMatch(TIMESTAMP);
      expect(flag.updated_at).toBe(flag.created_at);
      expect((await allReviews(heavy.id, user)).find((x) => x.id === target.id)!['flagged']).toBe(true);

      const again = await call(ref, 'POST', path, { token: user, body: { flag: { reason: 'wrong_section' } } });
      expect(again.status).toBe(201);
      expect(again.body.flag).toMatchObject({ id: flag.id, reason: 'wrong_section', created_at: flag.created_at });
      const form = await call(ref, 'POST', path, { token: user, form: { 'flag[reason]': 'bad_language' } });
      expect(form.body.flag).toMatchObject({ id: flag.id, reason: 'bad_language' });
      const otherSku = skus.find((s) => s.id !== heavy.id && s.reviews_count > 0)!;
      expectError(await call(ref, 'POST', `${reviewsPath(otherSku.id)}/${target.id}/flags?flag[reason]=spam`, { token: user }), 404, 'RecordNotFound');
    });

    it("deleting a review removes its votes and flags (the author's received_votes follows)", async () => {
      const sku = await freshSku();
      const created = (await create(sku.id, { rating: 4, review: 'voted and flagged' })).body.sku_review;
      const stats = (await call(ref, 'GET', '/user', { token: user })).body.user.stats;
      const path = `${reviewsPath(sku.id)}/${created.id}`;
      expect((await call(ref, 'POST', `${path}/votes?vote[helpful]=true`, { token: user })).status).toBe(201);
      expect((await call(ref, 'POST', `${path}/flags?flag[reason]=spam`, { token: user })).status).toBe(201);
      const listed = (await allReviews(sku.id, user)).find((x) => x.id === created.id)!;
      expect(listed).toMatchObject({ voted: true, flagged: true, votes_count: 1, helpful_votes_count: 1 });
      expect((await call(ref, 'GET', '/user', { token: user })).body.user.stats.received_votes).toBe(stats.received_votes + 1);
      expect((await call(ref, 'DELETE', path, { token: user })).status).toBe(204);
      expect((await call(ref, 'GET', '/user', { token: user })).body.user.stats.received_votes).toBe(stats.received_votes);
      expectError(await call(ref, 'POST', `${path}/votes?vote[helpful]=true`, { token: user }), 404, 'RecordNotFound');
    });
  });
});
