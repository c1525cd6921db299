// Legal variants written for the readings of the user, notifications, moderated and rating-only
// reviews and the token's placement (variants/account-readings.ts; the reviews' and favorites'
// others are in variants-account-readings.test.ts): for each, the answer with the variant switched
// on, next to the reference's own answer (no variant) to the same request, on the same clock.

import { describe, expect, it } from 'vitest';
import type { VariantName } from './variants.ts';
import { call, expectError, type TestServer, variantTestBed } from '../testing/reference/testkit.ts';

type Json = any;

const { clock, data, base, servers } = variantTestBed();

function server(variant: VariantName | null): Promise<TestServer> {
  return servers.get(variant);
}

/** Calls with the user token (or, `app`, the application token) of the variant's server; the same call without and with it. */
const { call: as, callBoth: both } = servers;

/** A 1x1 PNG, base64. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('the user', () => {
  it('avatar-uris-protocol-relative: avatar URIs drop their scheme', async () => {
    const [ref, variant] = await both('avatar-uris-protocol-relative', 'GET', '/user/avatars');
    const relative = (uri: string): string => uri.replace(/^https?:/, '');
    expect(variant.body.avatars).toEqual(ref.body.avatars.map(relative));
    expect(variant.body.avatars[0]).toMatch(/^\/\/[^/]+\//);
    const [user, userVariant] = await both('avatar-uris-protocol-relative', 'GET', '/user');
    expect(userVariant.body.user.avatar).toBe(relative(user.body.user.avatar));
  });

  it('user-without-avatar, user-outside-loyalty, comment-count-unknown: null where the user has no value', async () => {
    const [ref, noAvatar] = await both('user-without-avatar', 'GET', '/user');
    expect(typeof ref.body.user.avatar).toBe('string');
    expect(noAvatar.body.user).toEqual({ ...ref.body.user, avatar: null });
    const outside = (await as('user-outside-loyalty', 'GET', '/user')).body.user;
    expect(outside).toEqual({ ...ref.body.user, loyalty_tier_level: null, total_acquired_points: null });
    const unknown = (await as('comment-count-unknown', 'GET', '/user')).body.user;
    expect(unknown.stats).toEqual({ ...ref.body.user.stats, sku_comment_count: null });
  });

  it('email-settings-applicable-only and email-settings-some-undescribed', async () => {
    const demo = data.users.get(data.demoUserId)!;
    const ref = (await as(null, 'GET', '/user')).body.user.email_notifications as Json[];
    expect(ref.map((n) => n.field)).toEqual(demo.email_notifications.map((n) => n.field));
    const applicable = (await as('email-settings-applicable-only', 'GET', '/user')).body.user.email_notifications as Json[];
    const applies = (f: string): boolean => (f === 'sku_review_email' ? demo.stats.sku_review_count > 0 : f === 'shop_review_email' ? demo.stats.shop_review_count > 0 : true);
    expect(applicable).toEqual(ref.filter((n) => applies(n.field)));
    const undescribed = (await as('email-settings-some-undescribed', 'GET', '/user')).body.user.email_notifications as Json[];
    expect(undescribed).toEqual(ref.map((n) => (['notifications', 'mail_events'].includes(n.field) ? { ...n, description: null } : n)));
  });

  it('user-app-token-404: GET /user with an application token is 404', async () => {
    const [refused, notFound] = await both('user-app-token-404', 'GET', '/user', { app: true });
    expectError(refused, 401);
    expectError(notFound, 404, 'RecordNotFound');
    expect((await as('user-app-token-404', 'GET', '/user')).status).toBe(200);
  });

  it('avatar-preset-full-uri and avatar-data-uri-stripped: PATCH /user takes the other spellings', async () => {
    const uri = (await as(null, 'GET', '/user/avatars')).body.avatars[1] as string;
    const [refused, taken] = await both('avatar-preset-full-uri', 'PATCH', '/user', { body: { avatar_preset: uri } });
    expectError(refused, 422, 'RecordInvalid');
    expect(taken.body.user.avatar).toBe(uri);
    const upload = { body: { avatar: `data:image/png;base64,${PNG}` } };
    const [preamble, stripped] = await both('avatar-data-uri-stripped', 'PATCH', '/user', upload);
    expectError(preamble, 422, 'RecordInvalid');
    expect(stripped.status).toBe(200);
    expect((await as('avatar-data-uri-stripped', 'PATCH', '/user', { body: { avatar: PNG } })).body.user.avatar).toBe(stripped.body.user.avatar);
  });

  it('addresses-paginated and address-made-elsewhere: GET /user/addresses', async () => {
    const [ref, paginated] = await both('addresses-paginated', 'GET', '/user/addresses');
    expect(ref.body).not.toHaveProperty('meta');
    expect(paginated.body).toEqual({ addresses: ref.body.addresses, meta: { pagination: expect.objectContaining({ total_results: ref.body.addresses.length }) } });
    const elsewhere = (await as('address-made-elsewhere', 'GET', '/user/addresses')).body.addresses as Json[];
    const home = data.personalization.get(data.demoUserId)!.location.address_id;
    const unlabelled = elsewhere.filter((a) => a.label === null);
    expect(unlabelled.length).toBe(1);
    expect(unlabelled[0].id).not.toBe(home);
    expect(elsewhere.map((a) => (a.label === null ? a.id : a))).toEqual(ref.body.addresses.map((a: Json) => (a.id === unlabelled[0].id ? a.id : a)));
  });

  it('address-body-wrapped: an address wrapped in {address} is created and updated', async () => {
    const form = (await as(null, 'GET', '/user/addresses/new')).body.address_form;
    const fields = {
      label: 'Work',
      first_name: 'A',
      last_name: 'B',
      street_name: 'Main',
      street_number: '1',
      city: 'Town',
      zip: '1000',
      region_id: Object.values(form.regions)[0],
    };
    const [refused, created] = await both('address-body-wrapped', 'POST', '/user/addresses', { body: { address: fields } });
    expect(refused.status).toBe(422);
    expect(created.status, created.text).toBe(201);
    expect(created.body.address).toMatchObject({ label: 'Work', zip: '1000' });
    const updated = await as('address-body-wrapped', 'PUT', `/user/addresses/${created.body.address.id}`, { body: { address: { label: 'Office' } } });
    expect(updated.body.address.label).toBe('Office');
  });

  it('saved-orders-on-delete: DELETE /user/saved_orders answers the listing', async () => {
    const [refused, listed] = await both('saved-orders-on-delete', 'DELETE', '/user/saved_orders');
    expect(refused.status).toBe(405);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual((await as('saved-orders-on-delete', 'GET', '/user/saved_orders')).body);
  });
});

describe('personalization', () => {
  it('personalization-unset-location-null: a user who never personalised has no location, until a PUT', async () => {
    const variant = 'personalization-unset-location-null';
    const [ref, unset] = await both(variant, 'GET', '/personalization');
    expect(ref.body.personalization.location.label).toEqual(expect.any(String));
    expect(unset.body.personalization).toEqual({
      location: { address_id: null, label: null, lat: null, lng: null, type: 'quick_address', country_code: ref.body.personalization.location.country_code },
      payment_method: ref.body.personalization.payment_method,
    });
    const address = (await as(variant, 'GET', '/user/addresses')).body.addresses[0];
    const put = await as(variant, 'PUT', '/personalization', { body: { personalization: { location: { address_id: address.id } } } });
    expect(put.body.personalization.location).toMatchObject({ address_id: address.id, label: address.label, type: 'address' });
  });
});

describe('notifications', () => {
  const list = async (variant: VariantName | null): Promise<Json[]> => (await as(variant, 'GET', '/notifications?per=100')).body.notifications;

  it('snapshot-price-only and change-rate-percent: the snapshot', async () => {
    const ref = await list(null);
    const priced = (n: Json): boolean => ['price_up', 'price_drop'].includes(n.etype);
    expect((await list('snapshot-price-only')).map((n) => n.snapshot)).toEqual(ref.map((n) => (priced(n) ? n.snapshot : {})));
    const percent = await list('change-rate-percent');
    expect(percent.map((n) => n.snapshot.change_rate)).toEqual(ref.map((n) => Math.round(Math.abs(n.snapshot.change_rate) * 1000) / 10));
    expect(percent.some((n) => n.snapshot.change_rate > 1)).toBe(true);
  });

  it('aggregated-review-rating-average, -null and aggregated-review-user-null: aggregated sku_review notifications', async () => {
    const ref = await list(null);
    const aggregated = (n: Json): boolean => n.etype === 'sku_review' && n.aggregated;
    expect(ref.some(aggregated) && ref.some((n) => n.etype === 'sku_review' && !n.aggregated)).toBe(true);
    const mean = (skuId: number): number => {
      const ratings = [...data.skuReviews.values()].filter((r) => r.sku_id === skuId).map((r) => r.rating);
      return Math.round((10 * ratings.reduce((a, b) => a + b, 0)) / ratings.length) / 10;
    };
    const withRating = (rating: (n: Json) => unknown) => ref.map((n) => (aggregated(n) ? { ...n, review_rating: rating(n) } : n));
    expect(await list('aggregated-review-rating-average')).toEqual(withRating((n) => mean(n.sku.id)));
    expect(await list('aggregated-review-rating-null')).toEqual(withRating(() => null));
    expect(await list('aggregated-review-user-null')).toEqual(ref.map((n) => (aggregated(n) ? { ...n, user: null } : n)));
  });

  it('notification-category-gone: a price notification whose category is gone has category_name null', async () => {
    const ref = await list(null);
    const gone = await list('notification-category-gone');
    const changed = gone.filter((n, i) => n.category_name !== ref[i].category_name);
    expect(changed.length).toBe(1);
    expect(changed[0]).toMatchObject({ category_name: null, etype: expect.stringMatching(/^price_/) });
  });

  it('view-empty-ids-204: an empty ids array is 204', async () => {
    const [refused, accepted] = await both('view-empty-ids-204', 'POST', '/notifications/view', { body: { ids: [] } });
    expectError(refused, 400);
    expect(accepted.status).toBe(204);
  });
});

describe('rating-only and moderated reviews', () => {
  it('rating-only-reviews: requires_body false, a review may be a rating alone', async () => {
    const skuId = [...data.skus.values()].find((s) => s.reviewable && ![...data.skuReviews.values()].some((r) => r.sku_id === s.id && r.user_id === data.demoUserId))!.id;
    const form = (await as('rating-only-reviews', 'GET', `/skus/${skuId}/reviews/new`)).body.review_form;
    expect(form.requires_body).toBe(false);
    const [refused, created] = await both('rating-only-reviews', 'POST', `/skus/${skuId}/reviews`, { body: { review: { rating: 3 } } });
    expect([400, 422]).toContain(refused.status);
    expect(created.status, created.text).toBe(201);
    expect(created.body.sku_review).toMatchObject({ rating: 3, review: null });
    const told = (await as('rating-only-reviews', 'GET', '/notifications?per=100')).body.notifications as Json[];
    expect(told.some((n) => n.etype === 'sku_review' && !n.aggregated && n.review_text === null)).toBe(true);
  });

  it('reviews-moderated: a new review is demoted and out of the counts; an update demotes it again', async () => {
    const variant = 'reviews-moderated';
    const sku = [...data.skus.values()].filter((s) => s.reviewable && ![...data.skuReviews.values()].some((r) => r.sku_id === s.id && r.user_id === data.demoUserId))[1]!;
    const reviewsCount = async (): Promise<number> => {
      for (let page = 1; ; page++) {
        const body = (await as(variant, 'GET', `/categories/${sku.category_id}/skus?per=100&page=${page}`)).body;
        const found = (body.skus as Json[]).find((x) => x.id === sku.id);
        if (found || body.skus.length === 0) return found?.reviews_count;
      }
    };
    const before = await reviewsCount();
    expect(before).toBe(sku.reviews_count);
    const created = await as(variant, 'POST', `/skus/${sku.id}/reviews`, { body: { review: { rating: 5, review: 'Pending' } } });
    expect(created.body.sku_review.demoted).toBe(true);
    expect(await reviewsCount()).toBe(before);
    const own = [...data.skuReviews.values()].find((r) => r.user_id === data.demoUserId && !r.demoted)!;
    const updated = await as(variant, 'PUT', `/skus/${own.sku_id}/reviews/${own.id}`, { body: { review: { rating: own.rating === 5 ? 4 : 5 } } });
    expect(updated.body.sku_review.demoted).toBe(true);
  });
});

describe('the token', () => {
  it('bearer-scheme-exact: only Bearer as written', async () => {
    const s = await server('bearer-scheme-exact');
    const lower = { token: null, headers: { Authorization: `bearer ${s.user}` } };
    expect((await call(s.ref, 'GET', '/user', lower)).status).toBe(401);
    expect((await as('bearer-scheme-exact', 'GET', '/user')).status).toBe(200);
    expect((await call(base().ref, 'GET', '/user', { token: null, headers: { Authorization: `bearer ${base().user}` } })).status).toBe(200);
  });

  it('link-urls-keep-oauth-token: the Link URLs repeat oauth_token', async () => {
    const [ref, variant] = await both('link-urls-keep-oauth-token', 'GET', '/notifications?per=1', { inQuery: true });
    expect(ref.headers.get('link')).not.toContain('oauth_token');
    const s = await server('link-urls-keep-oauth-token');
    expect(variant.headers.get('link')).toContain(`oauth_token=${encodeURIComponent(s.user)}`);
  });
});

// Last: it moves the shared clock, so a server started after it would hold another dataset.
describe('later', () => {
  it('avatar-processed-later: an upload shows a minute later, the old avatar meanwhile', async () => {
    const before = (await as('avatar-processed-later', 'GET', '/user')).body.user.avatar;
    const patched = await as('avatar-processed-later', 'PATCH', '/user', { body: { avatar: PNG } });
    expect(patched.body.user.avatar).toBe(before);
    clock.advance(60_000);
    const after = (await as('avatar-processed-later', 'GET', '/user')).body.user.avatar;
    expect(after).not.toBe(before);
    expect(after).toBe((await as(null, 'PATCH', '/user', { body: { avatar: PNG } })).body.user.avatar);
  });
});
