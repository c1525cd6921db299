// Legal variants written for the readings of reviews, favorites, the user and notifications
// (variants/account-readings.ts): for each, the answer with the variant switched on, next to the
// reference's own answer (no variant) to the same request. Both servers run on the same clock, so
// they hold the same dataset; fixtures are picked from that dataset (createDataset with the same
// clock). Tests that change state use records no other test uses.

import { describe, expect, it } from 'vitest';
import { allLists, freshSkus } from '../testing/reference/probes/favorites.probes.ts';
import type { VariantName } from './variants.ts';
import { expectError, type TestServer, variantTestBed } from '../testing/reference/testkit.ts';

type Json = any;

const { clock, data, servers } = variantTestBed();

function server(variant: VariantName | null): Promise<TestServer> {
  return servers.get(variant);
}

/** Calls with the user token (or, `app`, the application token) of the variant's server; the same call without and with it. */
const { call: as, callBoth: both } = servers;

/** Reviews (of SKUs with at least two reviews, none the user's) that the user has neither voted on nor flagged, each handed out once. */
let reviewsTaken = 0;
function freshReview(): { skuId: number; reviewId: number } {
  const acted = new Set([...data.votes.values()].filter((v) => v.user_id === data.demoUserId).map((v) => v.sku_review_id));
  for (const f of data.flags.values()) if (f.user_id === data.demoUserId) acted.add(f.flaggable_id);
  const free = [...data.skuReviews.values()].filter((r) => r.user_id !== data.demoUserId && !acted.has(r.id)).sort((a, b) => a.id - b.id);
  const r = free[free.length - 1 - reviewsTaken++]!;
  return { skuId: r.sku_id, reviewId: r.id };
}

/** The SKU with the most reviews, and one without any. */
function skuWithReviews(): number {
  const counts = new Map<number, number>();
  for (const r of data.skuReviews.values()) counts.set(r.sku_id, (counts.get(r.sku_id) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
}
function skuWithoutReviews(): number {
  const reviewed = new Set([...data.skuReviews.values()].map((r) => r.sku_id));
  return [...data.skus.keys()].find((id) => !reviewed.has(id))!;
}

describe('review votes and flags', () => {
  it('review-action-validation-422: a missing helpful or an unknown reason is 422 RecordInvalid', async () => {
    const { skuId, reviewId } = freshReview();
    const [missing, missingVariant] = await both('review-action-validation-422', 'POST', `/skus/${skuId}/reviews/${reviewId}/votes`, { body: { vote: {} } });
    expectError(missing, 400, 'ParameterMissing');
    expectError(missingVariant, 422, 'RecordInvalid');
    const [unknown, unknownVariant] = await both('review-action-validation-422', 'POST', `/skus/${skuId}/reviews/${reviewId}/flags`, { body: { flag: { reason: 'boring' } } });
    expectError(unknown, 400, 'InvalidParameter');
    expectError(unknownVariant, 422, 'RecordInvalid');
  });

  it('vote-sku-review-null: a vote carries sku_review null without the embed, the review with it', async () => {
    const { skuId, reviewId } = freshReview();
    const path = `/skus/${skuId}/reviews/${reviewId}/votes`;
    const [plain, variant] = await both('vote-sku-review-null', 'POST', path, { body: { vote: { helpful: true } } });
    expect(plain.body.sku_review_vote).not.toHaveProperty('sku_review');
    expect(variant.body.sku_review_vote.sku_review).toBeNull();
    const embedded = await as('vote-sku-review-null', 'POST', `${path}?embed=sku_review`, { body: { vote: { helpful: false } } });
    expect(embedded.body.sku_review_vote.sku_review).toMatchObject({ id: reviewId });
  });

  it('flag-reason-without-description and flags-paginated: GET /flags', async () => {
    const [ref, undescribed] = await both('flag-reason-without-description', 'GET', '/flags');
    expect(undescribed.body.flags).toEqual(ref.body.flags.map((f: Json) => (f.reason === 'spam' ? { ...f, description: null } : f)));
    const [, paginated] = await both('flags-paginated', 'GET', '/flags');
    expect(ref.body).not.toHaveProperty('meta');
    expect(paginated.body).toEqual({ flags: ref.body.flags, meta: { pagination: expect.objectContaining({ total_results: 3 }) } });
  });

  it('flaggable-type-namespaced: a flag record names the review class Sku::Review', async () => {
    const { skuId, reviewId } = freshReview();
    const [ref, variant] = await both('flaggable-type-namespaced', 'POST', `/skus/${skuId}/reviews/${reviewId}/flags`, { body: { flag: { reason: 'spam' } } });
    expect(ref.body.flag.flaggable_type).toBe('SkuReview');
    expect(variant.body.flag).toMatchObject({ flaggable_type: 'Sku::Review', flaggable_id: reviewId });
    const listed = (await as('flaggable-type-namespaced', 'GET', `/skus/${skuId}/reviews?per=100`)).body.reviews as Json[];
    expect(listed.find((r) => r.id === reviewId).flagged).toBe(true);
  });
});

describe('reviews and review forms', () => {
  it('review-new-form-members-null: the new form carries rating, review and selected null', async () => {
    const skuId = skuWithoutReviews();
    const [ref, variant] = await both('review-new-form-members-null', 'GET', `/skus/${skuId}/reviews/new`);
    const form = ref.body.review_form;
    expect(form).not.toHaveProperty('rating');
    expect(variant.body.review_form).toEqual({
      requires_body: form.requires_body,
      rating: null,
      review: null,
      questions: form.questions.map((q: Json) => ({ ...q, answers: q.answers.map((a: Json) => ({ ...a, selected: null })) })),
    });
  });

  it('review-form-unchosen-selected-null: on the edit form an answer not chosen is selected null', async () => {
    const own = [...data.skuReviews.values()].find((r) => r.user_id === data.demoUserId && r.answerIds.length > 0)!;
    const [ref, variant] = await both('review-form-unchosen-selected-null', 'GET', `/skus/${own.sku_id}/reviews/${own.id}/edit`);
    const answers = (body: Json): Json[] => body.review_form.questions.flatMap((q: Json) => q.answers);
    expect(answers(ref.body).some((a) => a.selected === false)).toBe(true);
    expect(answers(variant.body)).toEqual(answers(ref.body).map((a) => ({ ...a, selected: a.selected ? true : null })));
  });

  it('review-user-fields-null-until-acted: voted, flagged and helpful null for what the user has not done', async () => {
    // The SKU of a review the user voted on (the base server may have voted more since: the dataset tells).
    const vote = [...data.votes.values()].find((v) => v.user_id === data.demoUserId)!;
    const skuId = data.skuReviews.get(vote.sku_review_id)!.sku_id;
    const listed = (await as('review-user-fields-null-until-acted', 'GET', `/skus/${skuId}/reviews?per=100`)).body.reviews as Json[];
    const flagged = new Set([...data.flags.values()].filter((f) => f.user_id === data.demoUserId).map((f) => f.flaggable_id));
    for (const r of listed) {
      const own = [...data.votes.values()].find((v) => v.user_id === data.demoUserId && v.sku_review_id === r.id);
      expect({ voted: r.voted, flagged: r.flagged, helpful: r.helpful }).toEqual({
        voted: own ? true : null,
        flagged: flagged.has(r.id) ? true : null,
        helpful: own ? own.helpful : null,
      });
    }
    expect(listed.some((r) => r.voted === true) && listed.some((r) => r.voted === null)).toBe(true);
  });

  it('created-review-pending-fields-null: the create answer has voted, flagged, helpful and sentiments null', async () => {
    const reviewed = new Set([...data.skuReviews.values()].filter((r) => r.user_id === data.demoUserId).map((r) => r.sku_id));
    const sku = [...data.skus.values()].filter((s) => s.reviewable && !reviewed.has(s.id)).sort((a, b) => b.id - a.id)[0]!;
    const created = await as('created-review-pending-fields-null', 'POST', `/skus/${sku.id}/reviews`, { body: { review: { rating: 4, review: 'Fine' } } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.sku_review).toMatchObject({ rating: 4, voted: null, flagged: null, helpful: null, sentiments: null });
    const listed = (await as('created-review-pending-fields-null', 'GET', `/skus/${sku.id}/reviews`)).body.reviews as Json[];
    expect(listed[0]).toMatchObject({ id: created.body.sku_review.id, voted: false, sentiments: {} });
  });

  it('include-meta-bracket-ignored, reviews-aggregation-always: which requests bring the aggregation', async () => {
    const path = `/skus/${skuWithReviews()}/reviews`;
    const [bracket, bracketVariant] = await both('include-meta-bracket-ignored', 'GET', `${path}?include_meta[]=sku_reviews_aggregation`);
    expect(bracket.body.meta.sku_reviews_aggregation.length).toBeGreaterThan(0);
    expect(bracketVariant.body.meta).not.toHaveProperty('sku_reviews_aggregation');
    expect((await as('include-meta-bracket-ignored', 'GET', `${path}?include_meta=sku_reviews_aggregation`)).body.meta).toEqual(bracket.body.meta);
    const [plain, always] = await both('reviews-aggregation-always', 'GET', path);
    expect(plain.body.meta).not.toHaveProperty('sku_reviews_aggregation');
    expect(always.body.meta.sku_reviews_aggregation).toEqual(bracket.body.meta.sku_reviews_aggregation);
    expect((await as('reviews-aggregation-always', 'GET', path, { version: '3.0' })).body.meta).not.toHaveProperty('sku_reviews_aggregation');
  });

  it('reviews-aggregation-ignored-before-3.1.3: the name is ignored, not refused, before 3.1.3', async () => {
    const path = `/skus/${skuWithReviews()}/reviews?include_meta=sku_reviews_aggregation`;
    const [refused, ignored] = await both('reviews-aggregation-ignored-before-3.1.3', 'GET', path, { version: '3.0' });
    expectError(refused, 400, 'InvalidParameter');
    expect(ignored.status).toBe(200);
    expect(ignored.body.meta).not.toHaveProperty('sku_reviews_aggregation');
  });

  it('reviews-aggregation-null-when-empty and missing-sku-reviews-empty', async () => {
    const path = `/skus/${skuWithoutReviews()}/reviews?include_meta=sku_reviews_aggregation`;
    const [empty, nulled] = await both('reviews-aggregation-null-when-empty', 'GET', path);
    expect(empty.body.meta.sku_reviews_aggregation).toEqual([]);
    expect(nulled.body.meta.sku_reviews_aggregation).toBeNull();
    const missing = Math.max(...data.skus.keys()) + 1000;
    const [notFound, emptyList] = await both('missing-sku-reviews-empty', 'GET', `/skus/${missing}/reviews`);
    expectError(notFound, 404, 'RecordNotFound');
    expect(emptyList.status).toBe(200);
    expect(emptyList.body.reviews).toEqual([]);
  });

  it('most-helpful-by-ratio: most_helpful ranks by the share of helpful votes', async () => {
    const path = `/skus/${skuWithReviews()}/reviews?per=100&sort=most_helpful`;
    const [, variant] = await both('most-helpful-by-ratio', 'GET', path);
    const ratios = (variant.body.reviews as Json[]).filter((r) => !r.demoted).map((r) => (r.votes_count === 0 ? 0 : r.helpful_votes_count / r.votes_count));
    expect(ratios).toEqual([...ratios].sort((a, b) => b - a));
  });
});

describe('favorites', () => {
  let names = 0;
  const uniqueName = (label: string): string => `${label} ${++names}`;

  it("custom-list-category-of-first-sku: a custom list shows its first SKU's category", async () => {
    const variant = 'custom-list-category-of-first-sku';
    const s = await server(variant);
    const [a, b] = await freshSkus(s.ref, s.user, 2, { distinctCategories: true });
    const name = uniqueName('Mixed');
    const list = (await as(variant, 'POST', '/favorite_lists', { body: { favorite_list: { name } } })).body.favorite_list;
    expect(list.category_id).toBeNull();
    for (const sku of [a!, b!]) await as(variant, 'POST', '/favorites', { body: { favorite: { sku_id: sku.id, favorite_list_id: list.id } } });
    expect((await allLists(s.ref, s.user)).find((l) => l.id === list.id)).toMatchObject({ name, category_id: a!.category_id });
  });

  it('owned-list-listed: GET /favorite_lists shows the owned list first, without an id, from 3.2.0', async () => {
    const [ref, variant] = await both('owned-list-listed', 'GET', '/favorite_lists?per=100');
    expect(variant.body.favorite_lists[0]).toEqual({ id: null, name: 'Owned', category_id: null, type: 'owned' });
    expect(variant.body.favorite_lists.slice(1)).toEqual(ref.body.favorite_lists);
    const old = await as('owned-list-listed', 'GET', '/favorite_lists?per=100', { version: '3.1' });
    expect(old.body.favorite_lists.some((l: Json) => l.id === null)).toBe(false);
  });

  it('list-names-case-insensitive and duplicate-list-409: the same name in other case is taken; 409', async () => {
    const name = uniqueName('Case');
    for (const variant of ['list-names-case-insensitive', 'duplicate-list-409'] as const) {
      const first = await as(variant, 'POST', '/favorite_lists', { body: { favorite_list: { name } } });
      expect(first.status).toBe(201);
    }
    const upper = { body: { favorite_list: { name: name.toUpperCase() } } };
    const [accepted, refused] = await both('list-names-case-insensitive', 'POST', '/favorite_lists', upper);
    expect(accepted.status).toBe(201);
    expectError(refused, 422, 'RecordInvalid');
    expectError(await as('duplicate-list-409', 'POST', '/favorite_lists', { body: { favorite_list: { name } } }), 409, 'Conflict');
  });

  it('blank-new-list-name-ignored: a blank new_list_name is as if not sent', async () => {
    const s = await server('blank-new-list-name-ignored');
    const [sku] = await freshSkus(s.ref, s.user, 1);
    const body = { body: { favorite: { sku_id: sku!.id, new_list_name: '  ' } } };
    expectError(await as(null, 'POST', '/favorites', body), 400, 'InvalidParameter');
    const created = await as('blank-new-list-name-ignored', 'POST', '/favorites', body);
    expect(created.status).toBe(201);
    expect(created.body.favorite.favorite_list_id).toBeLessThan(0);
  });

  it('list-delete-keeps-favorites: the favorites of a deleted custom list go to their auto lists', async () => {
    const variant = 'list-delete-keeps-favorites';
    const s = await server(variant);
    const [sku] = await freshSkus(s.ref, s.user, 1);
    const created = await as(variant, 'POST', '/favorites', { body: { favorite: { sku_id: sku!.id, new_list_name: uniqueName('Dropped') } } });
    expect((await as(variant, 'DELETE', `/favorite_lists/${created.body.favorite.favorite_list_id}`)).status).toBe(204);
    const kept = await as(variant, 'GET', `/favorites/${created.body.favorite.id}`);
    expect(kept.status).toBe(200);
    const auto = (await allLists(s.ref, s.user)).find((l) => l.type === 'auto' && l.category_id === sku!.category_id)!;
    expect(kept.body.favorite.favorite_list_id).toBe(auto.id);
  });

  it('auto-lists-virtual: no auto list is empty; one goes with its last favorite', async () => {
    const variant = 'auto-lists-virtual';
    const s = await server(variant);
    const lists = await allLists(s.ref, s.user);
    for (const l of lists.filter((x) => x.type === 'auto')) expect((await as(variant, 'GET', `/favorite_lists/${l.id}/favorites`)).body.favorites.length).toBeGreaterThan(0);
    const [sku] = await freshSkus(s.ref, s.user, 1, { withoutAutoList: true });
    const created = await as(variant, 'POST', '/favorites', { body: { favorite: { sku_id: sku!.id } } });
    const listId = created.body.favorite.favorite_list_id;
    expect((await allLists(s.ref, s.user)).some((l) => l.id === listId)).toBe(true);
    expect((await as(variant, 'DELETE', `/favorites/${created.body.favorite.id}`)).status).toBe(204);
    expect((await allLists(s.ref, s.user)).some((l) => l.id === listId)).toBe(false);
  });

  it('owned-favorite-ignores-list-id: favorite_list_id alone leaves an owned favorite in place', async () => {
    const variant = 'owned-favorite-ignores-list-id';
    const s = await server(variant);
    const [sku] = await freshSkus(s.ref, s.user, 1);
    const created = await as(variant, 'POST', '/favorites', { body: { favorite: { sku_id: sku!.id } } });
    const listId = created.body.favorite.favorite_list_id;
    const path = `/favorites/${created.body.favorite.id}`;
    expect((await as(variant, 'PUT', path, { body: { favorite: { have_it: true } } })).body.favorite).toMatchObject({ have_it: true, favorite_list_id: null });
    const stays = await as(variant, 'PUT', path, { body: { favorite: { favorite_list_id: listId } } });
    expect(stays.body.favorite).toMatchObject({ have_it: true, favorite_list_id: null });
  });
});

// Last: these move the shared clock, so a server started after them would hold another dataset.
describe('later', () => {
  it('vote-counts-later: a vote shows in the counts at the next recount', async () => {
    const { skuId, reviewId } = freshReview();
    const counts = async (): Promise<Json> => {
      const r = ((await as('vote-counts-later', 'GET', `/skus/${skuId}/reviews?per=100`)).body.reviews as Json[]).find((x) => x.id === reviewId);
      return { votes: r.votes_count, helpful: r.helpful_votes_count, voted: r.voted };
    };
    const before = await counts();
    const voted = await as('vote-counts-later', 'POST', `/skus/${skuId}/reviews/${reviewId}/votes`, { body: { vote: { helpful: true } } });
    expect(voted.status).toBe(201);
    expect(await counts()).toEqual({ ...before, voted: true });
    clock.advance(15 * 60_000);
    expect(await counts()).toEqual({ votes: before.votes + 1, helpful: before.helpful + 1, voted: true });
  });

  it('vote-updated-in-place: a second vote keeps the id and created_at of the first', async () => {
    const { skuId, reviewId } = freshReview();
    const path = `/skus/${skuId}/reviews/${reviewId}/votes`;
    const [first, firstVariant] = await both('vote-updated-in-place', 'POST', path, { body: { vote: { helpful: true } } });
    clock.advance(2000);
    const [second, secondVariant] = await both('vote-updated-in-place', 'POST', path, { body: { vote: { helpful: false } } });
    expect(second.body.sku_review_vote.id).not.toBe(first.body.sku_review_vote.id);
    expect(secondVariant.status).toBe(201);
    expect(secondVariant.body.sku_review_vote).toEqual({ ...firstVariant.body.sku_review_vote, helpful: false });
  });
});
