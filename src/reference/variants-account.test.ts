// Legal variants of reviews, favorites, the user and notifications (variants/account.ts), and
// validation-as-400 where the route modules raise it: for each, the answer with the variant
// switched on, next to the reference's own answer (no variant) to the same request. Both servers
// run on the same clock, so they hold the same dataset; fixtures are picked from that dataset
// (createDataset with the same clock). Tests that change state use records no other test uses.

import { describe, expect, it } from 'vitest';
import { allLists, freshSkus } from '../testing/reference/probes/favorites.probes.ts';
import { reviewViewer, serializeSkuReview } from './serializers/review.ts';
import type { VariantName } from './variants.ts';
import { LATEST_VERSION } from './versioning.ts';
import { expectError, type Reply, type TestServer, variantTestBed } from '../testing/reference/testkit.ts';

type Json = any;

const { data, base, servers } = variantTestBed();

/** A server with just this variant on (null: none), started once, on the shared clock. */
function server(variant: VariantName | null): Promise<TestServer> {
  return servers.get(variant);
}

/** Calls with the user token (or, `app`, the application token) of the variant's server; the same call without and with it. */
const { call: as, callBoth: both } = servers;

/** Reviews of SKUs, most reviewed first (demoted and own ones included). */
function reviewedSkus(): { skuId: number; reviewIds: number[] }[] {
  const bySku = new Map<number, number[]>();
  for (const r of data.skuReviews.values()) bySku.set(r.sku_id, [...(bySku.get(r.sku_id) ?? []), r.id]);
  return [...bySku.entries()].map(([skuId, reviewIds]) => ({ skuId, reviewIds })).sort((a, b) => b.reviewIds.length - a.reviewIds.length || a.skuId - b.skuId);
}

/** A review (of a SKU that is not the user's) that no other test votes on or flags. */
let reviewsTaken = 0;
function freshReview(): { skuId: number; reviewId: number } {
  const pool = reviewedSkus().flatMap(({ skuId, reviewIds }) => reviewIds.map((reviewId) => ({ skuId, reviewId })));
  const free = pool.filter(({ reviewId }) => {
    const r = data.skuReviews.get(reviewId)!;
    const mine = (uid: number): boolean => uid === data.demoUserId;
    return (
      !mine(r.user_id) && ![...data.votes.values(), ...data.flags.values()].some((x) => mine(x.user_id) && ('sku_review_id' in x ? x.sku_review_id : x.flaggable_id) === reviewId)
    );
  });
  return free[reviewsTaken++]!;
}

describe('reviews', () => {
  it('review-sort-order-by: the sorting parameter is order_by; sort is ignored', async () => {
    const { skuId } = reviewedSkus()[0]!;
    const path = `/skus/${skuId}/reviews?per=100`;
    const recent = (await as(null, 'GET', path)).body;
    const helpful = (await as(null, 'GET', `${path}&sort=most_helpful`)).body;
    expect(helpful.reviews).not.toEqual(recent.reviews);
    expect((await as('review-sort-order-by', 'GET', `${path}&sort=most_helpful`)).body).toEqual(recent);
    expect((await as('review-sort-order-by', 'GET', `${path}&order_by=most_helpful&sort=most_recent`)).body).toEqual(helpful);
    const [refused, ignored] = await both('review-sort-order-by', 'GET', `${path}&sort=bogus`);
    expectError(refused, 400, 'InvalidParameter');
    expect(ignored.body).toEqual(recent);
  });

  it('review-user-fields-false-for-app: for an application token voted, flagged, helpful false and own_review null', async () => {
    const { skuId } = reviewedSkus()[0]!;
    const [ref, variant] = await both('review-user-fields-false-for-app', 'GET', `/skus/${skuId}/reviews?per=100`, { app: true });
    for (const [i, r] of (ref.body.reviews as Json[]).entries()) {
      for (const key of ['voted', 'flagged', 'helpful', 'own_review']) expect(r).not.toHaveProperty(key);
      const { voted, flagged, helpful, own_review, ...rest } = variant.body.reviews[i];
      expect({ voted, flagged, helpful, own_review }).toEqual({ voted: false, flagged: false, helpful: false, own_review: null });
      expect(rest).toEqual(r);
    }
    // own_review arrived in 3.1.3.
    const old = (await as('review-user-fields-false-for-app', 'GET', `/skus/${skuId}/reviews`, { app: true, version: '3.0' })).body.reviews as Json[];
    expect(old.every((r) => r.voted === false && !('own_review' in r))).toBe(true);
  });

  it("own-review-in-meta: a user's listing carries own_review once, in meta", async () => {
    const own = [...data.skuReviews.values()].find((r) => r.user_id === data.demoUserId)!;
    const path = `/skus/${own.sku_id}/reviews?per=100`;
    const [ref, variant] = await both('own-review-in-meta', 'GET', path);
    const ownJson = ref.body.reviews[0].own_review;
    expect(ownJson.id).toBe(own.id);
    expect(variant.body.meta.own_review).toEqual(ownJson);
    expect(variant.body.reviews).toEqual(ref.body.reviews.map(({ own_review: _o, ...rest }: Json) => rest));
    // A SKU the user has not reviewed: null. Before 3.1.3 and for application tokens: nowhere.
    const other = reviewedSkus().find(({ reviewIds }) => reviewIds.every((id) => data.skuReviews.get(id)!.user_id !== data.demoUserId))!;
    expect((await as('own-review-in-meta', 'GET', `/skus/${other.skuId}/reviews`)).body.meta.own_review).toBeNull();
    expect((await as('own-review-in-meta', 'GET', path, { version: '3.0' })).body.meta).not.toHaveProperty('own_review');
    expect((await as('own-review-in-meta', 'GET', path, { app: true })).body.meta).not.toHaveProperty('own_review');
  });

  it('sentiments-always-three: positive, mediocre and negative are always sent, [] when empty (default: empty ones left out)', async () => {
    const opts = { version: LATEST_VERSION, fault: null, viewer: reviewViewer(data, null) };
    const allThree = { ...opts, variants: new Set(['sentiments-always-three'] as const) };
    // An empty array stored or none stored: the same answer.
    for (const sentiments of [{ positive: ['Battery'], mediocre: [], negative: [] }, { positive: ['Battery'] }]) {
      const record = { ...[...data.skuReviews.values()][0]!, sentiments };
      expect(serializeSkuReview(record, opts)['sentiments']).toEqual({ positive: ['Battery'] });
      expect(serializeSkuReview(record, allThree)['sentiments']).toEqual({ positive: ['Battery'], mediocre: [], negative: [] });
    }
    const { skuId } = reviewedSkus()[0]!;
    const [ref, variant] = await both('sentiments-always-three', 'GET', `/skus/${skuId}/reviews?per=100`);
    // A review (and the own_review inside it) with its sentiments filled up to all three.
    const filled = (r: Json): Json => ({
      ...r,
      sentiments: { positive: [], mediocre: [], negative: [], ...r.sentiments },
      ...(r.own_review ? { own_review: filled(r.own_review) } : {}),
    });
    expect(ref.body.reviews.some((r: Json) => Object.keys(r.sentiments).length < 3)).toBe(true);
    for (const r of ref.body.reviews) for (const list of Object.values(r.sentiments) as unknown[][]) expect(list.length).toBeGreaterThan(0);
    expect(variant.body).toEqual({ ...ref.body, reviews: ref.body.reviews.map(filled) });
  });

  it('second-vote-refused: a second vote by the same user is 422 RecordInvalid', async () => {
    const { skuId, reviewId } = freshReview();
    const path = `/skus/${skuId}/reviews/${reviewId}/votes`;
    const vote = { body: { vote: { helpful: true } } };
    const [first, firstVariant] = await both('second-vote-refused', 'POST', path, vote);
    expect([first.status, firstVariant.status]).toEqual([201, 201]);
    const [second, secondVariant] = await both('second-vote-refused', 'POST', path, { body: { vote: { helpful: false } } });
    expect(second.status).toBe(201);
    expectError(secondVariant, 422, 'RecordInvalid');
  });

  it("own-votes-not-counted: a vote on one's own review shows as voted, but the counts stay", async () => {
    const own = [...data.skuReviews.values()].find(
      (r) => r.user_id === data.demoUserId && ![...data.votes.values()].some((v) => v.sku_review_id === r.id && v.user_id === data.demoUserId),
    )!;
    const path = `/skus/${own.sku_id}/reviews/${own.id}/votes`;
    const [ref, variant] = await both('own-votes-not-counted', 'POST', path, { body: { vote: { helpful: true } } });
    expect([ref.status, variant.status]).toEqual([201, 201]);
    const [refList, variantList] = await both('own-votes-not-counted', 'GET', `/skus/${own.sku_id}/reviews?per=100`);
    const find = (list: Reply): Json => list.body.reviews.find((r: Json) => r.id === own.id) ?? list.body.reviews.find((r: Json) => r.own_review?.id === own.id)?.own_review;
    expect(find(refList)).toMatchObject({ voted: true, votes_count: own.votes_count + 1, helpful_votes_count: own.helpful_votes_count + 1 });
    expect(find(variantList)).toMatchObject({ voted: true, votes_count: own.votes_count, helpful_votes_count: own.helpful_votes_count });
  });

  it('flag-empty-body: a created flag is answered 201 with an empty body', async () => {
    const { skuId, reviewId } = freshReview();
    const [ref, variant] = await both('flag-empty-body', 'POST', `/skus/${skuId}/reviews/${reviewId}/flags`, { body: { flag: { reason: 'spam' } } });
    expect(ref.status).toBe(201);
    expect(ref.body.flag).toMatchObject({ flaggable_id: reviewId, reason: 'spam' });
    expect(variant.status).toBe(201);
    expect(variant.text).toBe('');
    expect(variant.headers.get('content-length')).toBe('0');
  });

  it('flag-bare-record: a created flag is answered 201 with the bare record', async () => {
    const { skuId, reviewId } = freshReview();
    const [ref, variant] = await both('flag-bare-record', 'POST', `/skus/${skuId}/reviews/${reviewId}/flags`, { body: { flag: { reason: 'spam' } } });
    expect(ref.status).toBe(201);
    expect(variant.status).toBe(201);
    expect(variant.body).toEqual({ ...ref.body.flag, id: variant.body.id });
    expect(variant.body.id).toEqual(expect.any(Number));
  });

  it('second-flag-refused: a second flag by the same user is 422 RecordInvalid', async () => {
    const { skuId, reviewId } = freshReview();
    const path = `/skus/${skuId}/reviews/${reviewId}/flags`;
    await both('second-flag-refused', 'POST', path, { body: { flag: { reason: 'spam' } } });
    const [second, secondVariant] = await both('second-flag-refused', 'POST', path, { body: { flag: { reason: 'bad_language' } } });
    expect(second.status).toBe(201);
    expect(second.body.flag.reason).toBe('bad_language');
    expectError(secondVariant, 422, 'RecordInvalid');
  });
});

describe('favorites', () => {
  let names = 0;
  const uniqueName = (label: string): string => `${label} ${++names}`;

  it('auto-lists-unlisted: GET /favorite_lists lists custom lists only', async () => {
    const [ref, variant] = await both('auto-lists-unlisted', 'GET', '/favorite_lists?per=100');
    expect(ref.body.favorite_lists.some((l: Json) => l.type === 'auto')).toBe(true);
    expect(variant.body.favorite_lists).toEqual(ref.body.favorite_lists.filter((l: Json) => l.type === 'custom'));
    expect(variant.body.meta.pagination.total_results).toBe(variant.body.favorite_lists.length);
  });

  it('duplicate-list-400: a custom list with an existing custom name is 400 InvalidParameter', async () => {
    const body = { favorite_list: { name: uniqueName('Twice') } };
    const [first, firstVariant] = await both('duplicate-list-400', 'POST', '/favorite_lists', { body });
    expect([first.status, firstVariant.status]).toEqual([201, 201]);
    const [again, againVariant] = await both('duplicate-list-400', 'POST', '/favorite_lists', { body });
    expectError(again, 422, 'RecordInvalid');
    expectError(againVariant, 400, 'InvalidParameter');
  });

  it('auto-list-dropped-when-empty: an auto list goes with its last favorite', async () => {
    for (const variant of [null, 'auto-list-dropped-when-empty'] as const) {
      const s = await server(variant);
      const [a, b] = await freshSkus(s.ref, s.user, 2, { withoutAutoList: true, distinctCategories: true });
      // Deleted: the favorite alone in a new auto list.
      const created = await as(variant, 'POST', '/favorites', { body: { favorite: { sku_id: a!.id } } });
      expect(created.status, created.text).toBe(201);
      const listId = created.body.favorite.favorite_list_id as number;
      expect(listId).toBeLessThan(0);
      expect((await as(variant, 'DELETE', `/favorites/${created.body.favorite.id}`)).status).toBe(204);
      const after = await as(variant, 'GET', `/favorite_lists/${listId}/favorites`);
      expect(after.status, String(variant)).toBe(variant === null ? 200 : 404);
      expect(
        (await allLists(s.ref, s.user)).some((l) => l.id === listId),
        String(variant),
      ).toBe(variant === null);
      // Moved away: owned (have_it true) leaves no list.
      const moved = await as(variant, 'POST', '/favorites', { body: { favorite: { sku_id: b!.id } } });
      const movedList = moved.body.favorite.favorite_list_id as number;
      expect((await as(variant, 'PUT', `/favorites/${moved.body.favorite.id}`, { body: { favorite: { have_it: true } } })).status).toBe(200);
      expect(
        (await allLists(s.ref, s.user)).some((l) => l.id === movedList),
        String(variant),
      ).toBe(variant === null);
    }
  });

  it('favorite-list-type-on-create-only: type only in the answer of POST /favorite_lists', async () => {
    const body = { favorite_list: { name: uniqueName('Typed') } };
    const [created, createdVariant] = await both('favorite-list-type-on-create-only', 'POST', '/favorite_lists', { body });
    expect(createdVariant.body).toEqual({ favorite_list: { ...created.body.favorite_list, id: createdVariant.body.favorite_list.id } });
    expect(createdVariant.body.favorite_list.type).toBe('custom');
    const [ref, variant] = await both('favorite-list-type-on-create-only', 'GET', '/favorite_lists?per=100');
    expect(ref.body.favorite_lists.every((l: Json) => typeof l.type === 'string')).toBe(true);
    expect(variant.body.favorite_lists.length).toBeGreaterThan(1);
    for (const l of variant.body.favorite_lists) expect(Object.keys(l)).toEqual(['id', 'name', 'category_id']);
  });

  it('favorite-list-id-on-update-only: favorite_list_id only in the answer of PUT /favorites/:id', async () => {
    const variant = 'favorite-list-id-on-update-only';
    const s = await server(variant);
    const [sku] = await freshSkus(s.ref, s.user, 1);
    const [created, createdVariant] = await both(variant, 'POST', '/favorites', { body: { favorite: { sku_id: sku!.id } } });
    expect(created.body.favorite).toHaveProperty('favorite_list_id');
    const { favorite_list_id: _l, id: _i, ...rest } = created.body.favorite;
    const { id, ...restVariant } = createdVariant.body.favorite;
    expect(restVariant).toEqual(rest);
    // The SKU went into the auto list of its category.
    const listId = (await allLists(s.ref, s.user)).find((l) => l.type === 'auto' && l.category_id === sku!.category_id)!.id;
    expect((await as(variant, 'GET', `/favorites/${id}`)).body.favorite).not.toHaveProperty('favorite_list_id');
    const listed = (await as(variant, 'GET', '/favorites?per=100')).body.favorites as Json[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.some((f) => 'favorite_list_id' in f)).toBe(false);
    const updated = await as(variant, 'PUT', `/favorites/${id}`, { body: { favorite: { have_it: false } } });
    expect(updated.status).toBe(200);
    expect(updated.body.favorite.favorite_list_id).toBe(listId);
  });

  it("auto-list-favorites-null-list-id: a favorite of an auto list shows favorite_list_id null; a custom list's its id", async () => {
    const variant = 'auto-list-favorites-null-list-id';
    const s = await server(variant);
    const [sku] = await freshSkus(s.ref, s.user, 1);
    const created = await as(variant, 'POST', '/favorites', { body: { favorite: { sku_id: sku!.id } } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.favorite.favorite_list_id).toBeNull();
    // The auto list of the SKU's category is listed, and lists it.
    const listId = (await allLists(s.ref, s.user)).find((l) => l.type === 'auto' && l.category_id === sku!.category_id)!.id;
    const inList = (await as(variant, 'GET', `/favorite_lists/${listId}/favorites?per=100`)).body.favorites as Json[];
    expect(inList.find((f) => f.id === created.body.favorite.id)).toMatchObject({ favorite_list_id: null, have_it: null });
    const custom = await as(variant, 'POST', '/favorite_lists', { body: { favorite_list: { name: uniqueName('Shown') } } });
    const moved = await as(variant, 'PUT', `/favorites/${created.body.favorite.id}`, { body: { favorite: { favorite_list_id: custom.body.favorite_list.id } } });
    expect(moved.body.favorite.favorite_list_id).toBe(custom.body.favorite_list.id);
    const back = await as(variant, 'PUT', `/favorites/${created.body.favorite.id}`, { body: { favorite: { favorite_list_id: listId } } });
    expect(back.body.favorite.favorite_list_id).toBeNull();
  });

  it('auto-list-delete-refused: deleting an auto list is 422 RecordInvalid; a custom list is deleted', async () => {
    const variant = 'auto-list-delete-refused';
    const autoId = (await allLists(base().ref, base().user)).find((l) => l.type === 'auto')!.id;
    const [plain, refused] = await both(variant, 'DELETE', `/favorite_lists/${autoId}`);
    expect(plain.status).toBe(204);
    expectError(refused, 422, 'RecordInvalid');
    expect((await allLists((await server(variant)).ref, (await server(variant)).user)).some((l) => l.id === autoId)).toBe(true);
    const custom = await as(variant, 'POST', '/favorite_lists', { body: { favorite_list: { name: uniqueName('Gone') } } });
    expect((await as(variant, 'DELETE', `/favorite_lists/${custom.body.favorite_list.id}`)).status).toBe(204);
  });

  it('category-favorites-list-owned: GET /categories/:id/favorites lists owned favorites (default: from 3.2.0 left out)', async () => {
    for (const variant of [null, 'category-favorites-list-owned'] as const) {
      const s = await server(variant);
      const [sku] = await freshSkus(s.ref, s.user, 1);
      const created = await as(variant, 'POST', '/favorites', { body: { favorite: { sku_id: sku!.id } } });
      expect((await as(variant, 'PUT', `/favorites/${created.body.favorite.id}`, { body: { favorite: { have_it: true } } })).status).toBe(200);
      const listed = (await as(variant, 'GET', `/categories/${sku!.category_id}/favorites?per=100`)).body.favorites as Json[];
      expect(
        listed.some((f) => f.id === created.body.favorite.id),
        String(variant),
      ).toBe(variant !== null);
      const owned = (await as(variant, 'GET', '/favorites?owned=true&per=100')).body.favorites as Json[];
      expect(owned.some((f) => f.id === created.body.favorite.id)).toBe(true);
    }
  });

  it('owned-param-since-3-2: below 3.2.0 owned=true is ignored (default: honoured in every version)', async () => {
    const variant = 'owned-param-since-3-2';
    const [plain, varied] = await both(variant, 'GET', '/favorites?owned=true&per=100', { version: '3.1' });
    expect(plain.body.favorites.every((f: Json) => f.have_it === true && f.favorite_list_id === null)).toBe(true);
    expect(varied.body.favorites.some((f: Json) => f.have_it !== true)).toBe(true);
    expect(varied.body.favorites).toEqual((await as(variant, 'GET', '/favorites?per=100', { version: '3.1' })).body.favorites);
    const latest = (await as(variant, 'GET', '/favorites?owned=true&per=100')).body.favorites as Json[];
    expect(latest.length).toBeGreaterThan(0);
    expect(latest.every((f) => f.have_it === true && f.favorite_list_id === null)).toBe(true);
  });
});

describe('user and personalization', () => {
  const address = async (variant: VariantName | null): Promise<Record<string, unknown>> => ({
    label: 'Variant office',
    first_name: 'Ada',
    last_name: 'Lovelace',
    street_name: 'Analytical Street',
    street_number: '12B',
    city: 'Engine Town',
    zip: '10558',
    region_id: Object.values((await as(variant, 'GET', '/user/addresses/new')).body.address_form.regions)[0],
  });

  it('address-coordinates-null: user addresses carry lat and lng null', async () => {
    const [ref, variant] = await both('address-coordinates-null', 'GET', '/user/addresses');
    expect(ref.body.addresses.length).toBeGreaterThan(0);
    expect(ref.body.addresses.some((a: Json) => typeof a.lat === 'string' && typeof a.lng === 'string')).toBe(true);
    expect(variant.body.addresses).toEqual(ref.body.addresses.map((a: Json) => ({ ...a, lat: null, lng: null })));
    const created = await as('address-coordinates-null', 'POST', '/user/addresses', { body: await address('address-coordinates-null') });
    expect(created.status, created.text).toBe(201);
    expect(created.body.address).toMatchObject({ lat: null, lng: null });
  });

  it('saved-orders-oldest-first: saved orders are listed oldest first', async () => {
    const [ref, variant] = await both('saved-orders-oldest-first', 'GET', '/user/saved_orders?per=100');
    const dates = (r: Reply): number[] => r.body.saved_orders.map((o: Json) => Date.parse(o.date));
    expect(dates(ref).length).toBeGreaterThan(1);
    expect(dates(ref)).toEqual([...dates(ref)].sort((a, b) => b - a));
    expect(dates(variant)).toEqual([...dates(ref)].sort((a, b) => a - b));
    expect(new Set(variant.body.saved_orders.map((o: Json) => o.order_code))).toEqual(new Set(ref.body.saved_orders.map((o: Json) => o.order_code)));
  });

  it('personalization-reset-on-address-delete: deleting its address resets the personalization', async () => {
    const outcome = async (variant: VariantName | null): Promise<Json> => {
      const created = await as(variant, 'POST', '/user/addresses', { body: await address(variant) });
      expect(created.status, created.text).toBe(201);
      const id = created.body.address.id as number;
      const put = await as(variant, 'PUT', '/personalization', { body: { personalization: { location: { address_id: id } } } });
      expect(put.status, put.text).toBe(200);
      expect((await as(variant, 'DELETE', `/user/addresses/${id}`)).status).toBe(204);
      return { address: created.body.address, personalization: (await as(variant, 'GET', '/personalization')).body.personalization };
    };
    const ref = await outcome(null);
    expect(ref.personalization.location).toMatchObject({ address_id: null, type: 'quick_address', label: ref.address.label });
    const variant = await outcome('personalization-reset-on-address-delete');
    // The default personalization, as an application token's product meta shows it.
    const product = [...data.products.values()][0]!;
    const defaults = (await as('personalization-reset-on-address-delete', 'GET', `/products/${product.id}`, { app: true })).body.meta.personalization;
    expect(variant.personalization).toEqual(defaults);
    expect(variant.personalization.location).toMatchObject({ address_id: null, type: 'quick_address' });
  });
});

describe('notifications', () => {
  const SKU_ETYPES = ['price_up', 'price_drop', 'sku_review', 'availability_true', 'availability_false'];

  it('notification-keys-absent: sku, category_name and user only where the etype embeds them', async () => {
    const [ref, variant] = await both('notification-keys-absent', 'GET', '/notifications?per=100');
    const refs = ref.body.notifications as Json[];
    expect(new Set(refs.map((n) => n.etype)).size).toBeGreaterThan(3);
    for (const [i, n] of refs.entries()) {
      for (const key of ['sku', 'category_name', 'user']) expect(n).toHaveProperty(key);
      const embeds = { sku: SKU_ETYPES.includes(n.etype), category_name: ['price_up', 'price_drop'].includes(n.etype), user: n.etype === 'sku_review' };
      const expected = { ...n };
      for (const [key, shown] of Object.entries(embeds)) if (!shown) delete expected[key];
      expect(variant.body.notifications[i], n.etype).toEqual(expected);
    }
  });

  it('notification-sku-minimal: the embedded Sku has no category_id and first_product_shop_info', async () => {
    const [ref, variant] = await both('notification-sku-minimal', 'GET', '/notifications?per=100');
    const refs = ref.body.notifications as Json[];
    expect(refs.some((n) => n.sku !== null)).toBe(true);
    for (const [i, n] of refs.entries()) {
      const sku = n.sku === null ? null : (({ category_id: _c, first_product_shop_info: _f, ...rest }: Json) => rest)(n.sku);
      expect(variant.body.notifications[i]).toEqual({ ...n, sku });
    }
  });
});

describe('validation-as-400', () => {
  const variant = 'validation-as-400';

  it('a review without rating is 400 ParameterMissing instead of 422', async () => {
    const sku = [...data.skus.values()].find((s) => s.reviewable && ![...data.skuReviews.values()].some((r) => r.sku_id === s.id && r.user_id === data.demoUserId))!;
    const [ref, missing] = await both(variant, 'POST', `/skus/${sku.id}/reviews`, { body: { review: { review: 'Works well.' } } });
    expectError(ref, 422, 'RecordInvalid');
    expectError(missing, 400, 'ParameterMissing');
    expect(missing.body.errors[0].messages.join(' ')).toMatch(/rating/);
    // A present but bad rating is still a failed validation.
    expectError(await as(variant, 'POST', `/skus/${sku.id}/reviews`, { body: { review: { rating: 9, review: 'Works well.' } } }), 422, 'RecordInvalid');
  });

  it('an address without a required field is 400 ParameterMissing naming each', async () => {
    const [ref, missing] = await both(variant, 'POST', '/user/addresses', { body: { label: 'Half', city: 'Nowhere' } });
    expectError(ref, 422, 'RecordInvalid');
    expectError(missing, 400, 'ParameterMissing');
    expect(missing.body.errors[0].messages.length).toBe(6);
  });

  it('a favorite list without name is 400 ParameterMissing', async () => {
    const [ref, missing] = await both(variant, 'POST', '/favorite_lists', { body: { favorite_list: { other: 1 } } });
    expectError(ref, 422, 'RecordInvalid');
    expectError(missing, 400, 'ParameterMissing');
  });
});
