// SKU reviews and review forms (spec "Endpoints > SKU reviews"): the listing, the forms, and
// creating, updating and deleting reviews, on both datasets and under a base path. Votes, flags and
// GET /flags: reviews-votes.test.ts. SKUs are discovered through the API; the reviews the tests
// create are their own.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SkuSummary } from '../testing/reference/probes/reviews.probes.ts';
import { BASE_FIELDS, CONFIGS, reviewHelpers, reviewsPath, startReviewsServer, USER_FIELDS, type Question, type ReviewsServer } from '../testing/reference/reviews-setup.ts';
import type { RunningReference } from './server.ts';
import { call, expectError, parseLink, sorted, TIMESTAMP } from '../testing/reference/testkit.ts';

describe.each(CONFIGS)('SKU reviews ($name)', ({ options }) => {
  let server: ReviewsServer;
  let ref: RunningReference;
  let app: string;
  /** Every scope, publish_sku_review_actions included. */
  let user: string;
  let skus: SkuSummary[];
  let heavy: SkuSummary;
  let questions: Question[];
  let demoUserId: number;
  const { allReviews, total, freshSku, listedSku, create, oneAnswerEach } = reviewHelpers(() => server);

  beforeAll(async () => {
    server = await startReviewsServer(options);
    ({ ref, app, user, skus, heavy, questions, demoUserId } = server);
  });
  afterAll(async () => {
    await ref?.close();
  });

  describe('GET /skus/:id/reviews', () => {
    it('pages {reviews, meta.pagination}, 25 per page, with a Link header', async () => {
      const all = await allReviews(heavy.id, app);
      expect(all.length).toBe(heavy.reviews_count);
      const r = await call(ref, 'GET', reviewsPath(heavy.id), { token: app });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['meta', 'reviews']);
      expect(r.body.meta).toEqual({ pagination: { total_results: all.length, total_pages: Math.ceil(all.length / 25), page: 1, per: 25 } });
      expect(r.body.reviews).toEqual(all.slice(0, 25));
      expect(parseLink(r.headers.get('link')).next).toContain(`${reviewsPath(heavy.id)}?page=2`);
      const p2 = await call(ref, 'GET', `${reviewsPath(heavy.id)}?page=2`, { token: app });
      expect(p2.body.reviews).toEqual(all.slice(25, 50));
    });

    it('gives an application token the stored fields with their types, and no voted/flagged/helpful/own_review', async () => {
      for (const s of skus.filter((x) => x.reviews_count > 0).slice(0, 8)) {
        for (const rv of await allReviews(s.id, app)) {
          expect(sorted(Object.keys(rv))).toEqual(sorted(BASE_FIELDS));
          expect(rv.sku_id).toBe(s.id);
          expect(Number.isInteger(rv.id) && Number.isInteger(rv.user_id)).toBe(true);
          expect(typeof rv.review).toBe('string');
          expect(Number.isInteger(rv.rating) && rv.rating >= 1 && rv.rating <= 5).toBe(true);
          expect(rv.created_at).toMatch(TIMESTAMP);
          expect(typeof rv.demoted).toBe('boolean');
          expect(Number.isInteger(rv.votes_count) && Number.isInteger(rv.helpful_votes_count)).toBe(true);
          expect(rv.helpful_votes_count).toBeLessThanOrEqual(rv.votes_count);
          for (const [k, v] of Object.entries(rv.sentiments as Record<string, unknown>)) {
            expect(['positive', 'mediocre', 'negative']).toContain(k);
            expect(Array.isArray(v) && v.every((x) => typeof x === 'string')).toBe(true);
          }
        }
      }
    });

    it('sorts most recent first with the non-demoted reviews first (default, sort=most_recent, order_by=most_recent)', async () => {
      const all = await allReviews(heavy.id, app);
      expect(all.some((r) => r.demoted) && all.some((r) => !r.demoted)).toBe(true);
      const firstDemoted = all.findIndex((r) => r.demoted);
      expect(all.slice(firstDemoted).every((r) => r.demoted)).toBe(true);
      for (const group of [all.slice(0, firstDemoted), all.slice(firstDemoted)]) {
        for (let i = 1; i < group.length; i++) expect(group[i - 1]!.created_at >= group[i]!.created_at).toBe(true);
      }
      expect(await allReviews(heavy.id, app, '&sort=most_recent')).toEqual(all);
      expect(await allReviews(heavy.id, app, '&order_by=most_recent')).toEqual(all);
    });

    it('sorts by most_helpful (sort or order_by), non-demoted first; refuses other values and most_helpful before 3.1.3', async () => {
      const all = await allReviews(heavy.id, app, '&sort=most_helpful');
      expect(all.length).toBe(heavy.reviews_count);
      const firstDemoted = all.findIndex((r) => r.demoted);
      expect(all.slice(firstDemoted).every((r) => r.demoted)).toBe(true);
      for (const group of [all.slice(0, firstDemoted), all.slice(firstDemoted)]) {
        for (let i = 1; i < group.length; i++) expect(group[i - 1]!.helpful_votes_count).toBeGreaterThanOrEqual(group[i]!.helpful_votes_count);
      }
      expect(all).not.toEqual(await allReviews(heavy.id, app));
      expect(await allReviews(heavy.id, app, '&order_by=most_helpful')).toEqual(all);
      for (const q of ['sort=newest', 'order_by=rating', 'sort=', 'sort=MOST_RECENT']) {
        expectError(await call(ref, 'GET', `${reviewsPath(heavy.id)}?${q}`, { token: app }), 400, 'InvalidParameter');
      }
      expectError(await call(ref, 'GET', `${reviewsPath(heavy.id)}?sort=most_helpful`, { token: app, version: '3.0' }), 400, 'InvalidParameter');
      expect((await call(ref, 'GET', `${reviewsPath(heavy.id)}?sort=most_recent`, { token: app, version: '3.0' })).status).toBe(200);
      expect((await call(ref, 'GET', `${reviewsPath(heavy.id)}?sort=most_helpful`, { token: app, version: '3.1' })).status).toBe(200);
    });

    it('adds meta.sku_reviews_aggregation [{label, score, style}] from the sentiments (3.1.3+)', async () => {
      const all = await allReviews(heavy.id, app);
      const labels = new Set(all.flatMap((r) => Object.values(r.sentiments as Record<string, string[]>).flat()));
      const r = await call(ref, 'GET', `${reviewsPath(heavy.id)}?include_meta=sku_reviews_aggregation`, { token: app });
      expect(Object.keys(r.body.meta)).toEqual(['sku_reviews_aggregation', 'pagination']);
      const agg = r.body.meta.sku_reviews_aggregation as Record<string, unknown>[];
      expect(agg.length).toBe(labels.size);
      expect(agg.length).toBeGreaterThan(0);
      for (const a of agg) {
        expect(sorted(Object.keys(a))).toEqual(['label', 'score', 'style']);
        expect(labels.has(a['label'] as string)).toBe(true);
        expect(Number.isInteger(a['score']) && (a['score'] as number) >= 0 && (a['score'] as number) <= 100).toBe(true);
        expect(['positive', 'mediocre', 'negative']).toContain(a['style']);
      }
      const bracket = await call(ref, 'GET', `${reviewsPath(heavy.id)}?include_meta[]=sku_reviews_aggregation`, { token: app });
      expect(bracket.body.meta.sku_reviews_aggregation).toEqual(agg);
      expectError(await call(ref, 'GET', `${reviewsPath(heavy.id)}?include_meta=sku_reviews_aggregation`, { token: app, version: '3.0' }), 400, 'InvalidParameter');
    });

    it('adds meta.sku_rating_breakdown {"1".."5": count} (every version); both metas together; unknown include_meta is 400', async () => {
      const all = await allReviews(heavy.id, app);
      const expected: Record<string, number> = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
      for (const rv of all) expected[String(rv.rating)]! += 1;
      for (const version of ['3.0', '3.1', '3.2']) {
        const r = await call(ref, 'GET', `${reviewsPath(heavy.id)}?include_meta=sku_rating_breakdown`, { token: app, version });
        expect(r.body.meta.sku_rating_breakdown).toEqual(expected);
      }
      const both = await call(ref, 'GET', `${reviewsPath(heavy.id)}?include_meta=sku_reviews_aggregation,sku_rating_breakdown`, { token: app });
      expect(Object.keys(both.body.meta)).toEqual(['sku_reviews_aggregation', 'sku_rating_breakdown', 'pagination']);
      expectError(await call(ref, 'GET', `${reviewsPath(heavy.id)}?include_meta=shop_rating_breakdown`, { token: app }), 400, 'InvalidParameter');
    });

    it('lists nothing for a SKU without reviews; 404 RecordNotFound for an unknown or non-integer SKU id', async () => {
      const none = skus.find((s) => s.reviews_count === 0)!;
      const r = await call(ref, 'GET', `${reviewsPath(none.id)}?include_meta=sku_reviews_aggregation,sku_rating_breakdown`, { token: app });
      expect(r.body).toEqual({
        reviews: [],
        meta: {
          sku_reviews_aggregation: [],
          sku_rating_breakdown: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 },
          pagination: { total_results: 0, total_pages: 0, page: 1, per: 25 },
        },
      });
      const missing = Math.max(...skus.map((s) => s.id)) * 10 + 7;
      expectError(await call(ref, 'GET', reviewsPath(missing), { token: app }), 404, 'RecordNotFound');
      expect((await call(ref, 'GET', reviewsPath(missing), { token: app })).body.errors[0].messages[0]).toContain(String(missing));
      expectError(await call(ref, 'GET', '/skus/abc/reviews', { token: app }), 404, 'RecordNotFound');
    });

    it('gives a user token voted, flagged, helpful and own_review; 3.0 has no sentiments or own_review', async () => {
      const all = await allReviews(heavy.id, user);
      for (const rv of all) {
        expect(sorted(Object.keys(rv))).toEqual(sorted([...USER_FIELDS, 'own_review']));
        expect([typeof rv['voted'], typeof rv['flagged'], typeof rv['helpful']]).toEqual(['boolean', 'boolean', 'boolean']);
        if (!rv['voted']) expect(rv['helpful']).toBe(false);
      }
      const own = all.find((r) => r.user_id === demoUserId) ?? null;
      for (const rv of all) expect(rv['own_review']).toEqual(own);
      const old = await call(ref, 'GET', reviewsPath(heavy.id), { token: user, version: '3.0' });
      expect(sorted(Object.keys(old.body.reviews[0]))).toEqual(sorted(USER_FIELDS.filter((k) => k !== 'sentiments')));
      const mid = await call(ref, 'GET', reviewsPath(heavy.id), { token: app, version: '3.1' });
      expect(sorted(Object.keys(mid.body.reviews[0]))).toEqual(sorted(BASE_FIELDS));
    });
  });

  describe('review forms', () => {
    it('GET /skus/:id/reviews/new: requires_body and questions, without rating, review or selected', async () => {
      const r = await call(ref, 'GET', `${reviewsPath(heavy.id)}/new`, { token: user });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['review_form']);
      const form = r.body.review_form;
      expect(Object.keys(form)).toEqual(['requires_body', 'questions']);
      expect(typeof form.requires_body).toBe('boolean');
      expect(form.questions.length).toBeGreaterThan(0);
      expect(new Set(form.questions.map((q: Question) => q.type))).toEqual(new Set(['profiling_multiple', 'eval_sentiment']));
      for (const q of form.questions as Question[]) {
        expect(Object.keys(q)).toEqual(['text', 'type', 'answers']);
        expect(typeof q.text).toBe('string');
        for (const a of q.answers) {
          expect(Object.keys(a)).toEqual(['id', 'text']);
          expect(Number.isInteger(a.id) && typeof a.text === 'string').toBe(true);
        }
      }
    });

    it('needs a user token, version 3.2 and a known SKU', async () => {
      expectError(await call(ref, 'GET', `${reviewsPath(heavy.id)}/new`, { token: app }), 401, 'Unauthorized');
      expectError(await call(ref, 'GET', `${reviewsPath(heavy.id)}/new`, { token: user, version: '3.1' }), 404, 'NotFound');
      expectError(await call(ref, 'GET', '/skus/0/reviews/new', { token: user }), 404, 'RecordNotFound');
    });

    it("edit form: the author's rating, review and selected answers; other users' reviews are 404", async () => {
      const sku = await freshSku();
      const chosen = oneAnswerEach();
      const created = await create(sku.id, { rating: 2, answer_ids: chosen, review: 'Edit form test' });
      expect(created.status, created.text).toBe(201);
      const id = created.body.sku_review.id;
      try {
        const r = await call(ref, 'GET', `${reviewsPath(sku.id)}/${id}/edit`, { token: user });
        expect(r.status).toBe(200);
        const form = r.body.review_form;
        expect(Object.keys(form)).toEqual(['requires_body', 'rating', 'review', 'questions']);
        expect(form.rating).toBe(2);
        expect(form.review).toBe('Edit form test');
        for (const q of form.questions as Question[]) {
          for (const a of q.answers) expect(a.selected).toBe(chosen.includes(a.id));
        }
        expectError(await call(ref, 'GET', `${reviewsPath(sku.id)}/${id}/edit`, { token: app }), 401, 'Unauthorized');
        expectError(await call(ref, 'GET', `${reviewsPath(heavy.id)}/${id}/edit`, { token: user }), 404, 'RecordNotFound');
        const other = (await allReviews(heavy.id, app)).find((x) => x.user_id !== demoUserId)!;
        expectError(await call(ref, 'GET', `${reviewsPath(heavy.id)}/${other.id}/edit`, { token: user }), 404, 'RecordNotFound');
        expectError(await call(ref, 'GET', `${reviewsPath(sku.id)}/${id}/edit`, { token: user, version: '3.1' }), 404, 'NotFound');
      } finally {
        await call(ref, 'DELETE', `${reviewsPath(sku.id)}/${id}`, { token: user });
      }
    });
  });

  describe('POST, PUT, DELETE /skus/:id/reviews', () => {
    it('creates a review (201 {sku_review}); the listing, reviews_count, reviewscore and user stats follow; DELETE undoes it (204, empty)', async () => {
      const sku = await freshSku();
      const before = await allReviews(sku.id, app);
      const listed = await listedSku(sku);
      const stats = (await call(ref, 'GET', '/user', { token: user })).body.user.stats;
      const chosen = oneAnswerEach();
      const r = await create(sku.id, { rating: 5, answer_ids: chosen, review: 'Great value, easy to use.' });
      expect(r.status, r.text).toBe(201);
      expect(Object.keys(r.body)).toEqual(['sku_review']);
      const rv = r.body.sku_review;
      expect(sorted(Object.keys(rv))).toEqual(sorted(USER_FIELDS));
      expect(rv).toMatchObject({ sku_id: sku.id, user_id: demoUserId, review: 'Great value, easy to use.', rating: 5, demoted: false });
      expect(rv).toMatchObject({ votes_count: 0, helpful_votes_count: 0, voted: false, flagged: false, helpful: false });
      expect(rv.created_at).toMatch(TIMESTAMP);
      // The first answer of an eval_sentiment question is its positive one.
      expect(rv.sentiments).toEqual({ positive: questions.filter((q) => q.type === 'eval_sentiment').map((q) => q.text) });

      const after = await allReviews(sku.id, user);
      expect(after.length).toBe(before.length + 1);
      expect(after[0]!.id).toBe(rv.id);
      expect(after[0]!['own_review']).toEqual(rv);
      const ratings = after.map((x) => x.rating as number);
      const nowListed = await listedSku(sku);
      expect(nowListed['reviews_count']).toBe(listed['reviews_count'] + 1);
      expect(nowListed['reviewscore']).toBe(Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 10) / 10);
      expect((await call(ref, 'GET', '/user', { token: user })).body.user.stats.sku_review_count).toBe(stats.sku_review_count + 1);

      const del = await call(ref, 'DELETE', `${reviewsPath(sku.id)}/${rv.id}`, { token: user });
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      expect(await allReviews(sku.id, app)).toEqual(before);
      expect((await listedSku(sku))['reviews_count']).toBe(listed['reviews_count']);
      expect((await listedSku(sku))['reviewscore']).toBe(listed['reviewscore']);
      expect((await call(ref, 'GET', '/user', { token: user })).body.user.stats.sku_review_count).toBe(stats.sku_review_count);
      expectError(await call(ref, 'DELETE', `${reviewsPath(sku.id)}/${rv.id}`, { token: user }), 404, 'RecordNotFound');
    });

    it('accepts a form-encoded body with digit strings', async () => {
      const sku = await freshSku();
      const r = await call(ref, 'POST', reviewsPath(sku.id), {
        token: user,
        form: { 'review[rating]': '3', 'review[review]': 'Form body', 'review[answer_ids][]': oneAnswerEach().map(String) },
      });
      expect(r.status, r.text).toBe(201);
      expect(r.body.sku_review.rating).toBe(3);
      const edit = await call(ref, 'GET', `${reviewsPath(sku.id)}/${r.body.sku_review.id}/edit`, { token: user });
      const selected = (edit.body.review_form.questions as Question[]).flatMap((q) => q.answers.filter((a) => a.selected).map((a) => a.id));
      expect(selected.sort()).toEqual(oneAnswerEach().sort());
      expect((await call(ref, 'DELETE', `${reviewsPath(sku.id)}/${r.body.sku_review.id}`, { token: user })).status).toBe(204);
    });

    it('refuses invalid reviews with 422 RecordInvalid and creates nothing; a missing review object is 400', async () => {
      const sku = await freshSku();
      const count = await total(sku.id);
      const evalQ = questions.find((q) => q.type === 'eval_sentiment' && q.answers.length >= 2)!;
      const unknownAnswer = Math.max(...questions.flatMap((q) => q.answers.map((a) => a.id))) + 1000;
      const bad: Record<string, unknown>[] = [
        { review: 'no rating' },
        { rating: 0, review: 'x' },
        { rating: 6, review: 'x' },
        { rating: 4.5, review: 'x' },
        { rating: 'abc', review: 'x' },
        { rating: null, review: 'x' },
        { rating: 4, review: '' },
        { rating: 4, review: '   ' },
        { rating: 4 },
        { rating: 4, review: 42 },
        { rating: 4, review: 'x', answer_ids: [unknownAnswer] },
        { rating: 4, review: 'x', answer_ids: 'all' },
        { rating: 4, review: 'x', answer_ids: [evalQ.answers[0]!.id, evalQ.answers[1]!.id] },
      ];
      for (const review of bad) expectError(await create(sku.id, review), 422, 'RecordInvalid');
      for (const json of [{}, { review: 'text' }, { rating: 4, review: 'flat' }]) {
        expectError(await call(ref, 'POST', reviewsPath(sku.id), { token: user, body: json }), 400, 'ParameterMissing');
      }
      expectError(await call(ref, 'POST', reviewsPath(sku.id), { token: user }), 400, 'ParameterMissing');
      expect(await total(sku.id)).toBe(count);
    });

    it('refuses a second review of the same SKU by the same user (422) and reviews of non-reviewable SKUs (422)', async () => {
      const sku = await freshSku();
      const count = await total(sku.id);
      const first = await create(sku.id, { rating: 4, review: 'first' });
      expect(first.status).toBe(201);
      expectError(await create(sku.id, { rating: 3, review: 'second' }), 422, 'RecordInvalid');
      expect(await total(sku.id)).toBe(count + 1);
      await call(ref, 'DELETE', `${reviewsPath(sku.id)}/${first.body.sku_review.id}`, { token: user });
      const closed = skus.find((s) => !s.reviewable);
      if (closed) expectError(await create(closed.id, { rating: 4, review: 'closed' }), 422, 'RecordInvalid');
    });

    it('create, update and delete need a user token and version 3.2; unknown SKUs and reviews are 404', async () => {
      const sku = await freshSku();
      expectError(await call(ref, 'POST', reviewsPath(sku.id), { token: app, body: { review: { rating: 4, review: 'x' } } }), 401, 'Unauthorized');
      expectError(await call(ref, 'POST', reviewsPath(sku.id), { token: user, version: '3.1', body: { review: { rating: 4, review: 'x' } } }), 404, 'NotFound');
      expectError(await call(ref, 'POST', '/skus/0/reviews', { token: user, body: { review: { rating: 4, review: 'x' } } }), 404, 'RecordNotFound');
      const other = (await allReviews(heavy.id, app)).find((x) => x.user_id !== demoUserId)!;
      for (const method of ['PUT', 'DELETE']) {
        const path = `${reviewsPath(heavy.id)}/${other.id}`;
        const json = { review: { rating: 1 } };
        expectError(await call(ref, method, path, { token: app, body: json }), 401, 'Unauthorized');
        expectError(await call(ref, method, path, { token: user, version: '3.0', body: json }), 404, 'NotFound');
        // Another user's review is as missing as an unknown one.
        expectError(await call(ref, method, path, { token: user, body: json }), 404, 'RecordNotFound');
        expectError(await call(ref, method, `${reviewsPath(heavy.id)}/0`, { token: user, body: json }), 404, 'RecordNotFound');
      }
      expect((await allReviews(heavy.id, app)).find((x) => x.id === other.id)).toEqual(other);
    });

    it('updates any subset of rating, answer_ids and review (200 {sku_review}); invalid updates are 422', async () => {
      const sku = await freshSku();
      const created = (await create(sku.id, { rating: 4, review: 'before', answer_ids: oneAnswerEach() })).body.sku_review;
      const path = `${reviewsPath(sku.id)}/${created.id}`;
      try {
        const r1 = await call(ref, 'PUT', path, { token: user, body: { review: { rating: 2 } } });
        expect(r1.status).toBe(200);
        expect(Object.keys(r1.body)).toEqual(['sku_review']);
        expect(r1.body.sku_review).toEqual({ ...created, rating: 2 });
        const r2 = await call(ref, 'PUT', path, { token: user, body: { review: { review: 'after' } } });
        expect(r2.body.sku_review).toEqual({ ...created, rating: 2, review: 'after' });
        const evalQ = questions.find((q) => q.type === 'eval_sentiment' && q.answers.length >= 2)!;
        const last = evalQ.answers[evalQ.answers.length - 1]!;
        const r3 = await call(ref, 'PUT', path, { token: user, body: { review: { answer_ids: [last.id] } } });
        expect(r3.body.sku_review.sentiments).toEqual({ negative: [evalQ.text] });
        const edit = await call(ref, 'GET', `${path}/edit`, { token: user });
        const selected = (edit.body.review_form.questions as Question[]).flatMap((q) => q.answers.filter((a) => a.selected).map((a) => a.id));
        expect(selected).toEqual([last.id]);
        expect(edit.body.review_form).toMatchObject({ rating: 2, review: 'after' });
        const same = await call(ref, 'PUT', path, { token: user, body: { review: {} } });
        expect(same.status).toBe(200);
        expect(same.body.sku_review).toEqual(r3.body.sku_review);
        for (const review of [{ rating: 9 }, { review: '' }, { answer_ids: [-1] }]) {
          expectError(await call(ref, 'PUT', path, { token: user, body: { review } }), 422, 'RecordInvalid');
        }
        expectError(await call(ref, 'PUT', path, { token: user, body: { rating: 3 } }), 400, 'ParameterMissing');
        const listed = (await allReviews(sku.id, user)).find((x) => x.id === created.id)!;
        expect(listed['own_review']).toEqual(r3.body.sku_review);
      } finally {
        await call(ref, 'DELETE', path, { token: user });
      }
    });
  });
});
