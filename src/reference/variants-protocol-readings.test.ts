// The legal variants of variants/protocol-readings.ts: for each, what the server answers with the
// variant on, next to what it answers without it.

import { describe, expect, it } from 'vitest';
import type { RunningReference } from './server.ts';
import { allCategories, authorize, call, get, makeClock, post, rateHeaders, userTokens, type Reply } from '../testing/reference/testkit.ts';
import { compare, type Server } from '../testing/reference/variants-protocol-setup.ts';

const TWO_WEEKS_S = 14 * 24 * 60 * 60;

function clientCredentials(ref: RunningReference, extra: Record<string, string> = { scope: 'public' }) {
  return post(`${ref.authUrl}/oauth2/token`, { grant_type: 'client_credentials', client_id: ref.client.id, client_secret: ref.client.secret, ...extra });
}

function authorizeStep(ref: RunningReference, params: Record<string, string>) {
  const q = new URLSearchParams({ client_id: ref.client.id, redirect_uri: ref.client.redirectUri, state: 's1', ...params });
  return fetch(`${ref.authUrl}/oauth2/authorizations/new?${q}`, { redirect: 'manual' });
}

describe('token variants', () => {
  it('token-type-capitalised and app-refresh-token-null: Bearer, refresh_token null (default: bearer, no refresh_token)', () =>
    compare(['token-type-capitalised', 'app-refresh-token-null'], async (plain, varied) => {
      const [a, b] = await Promise.all([clientCredentials(plain.ref), clientCredentials(varied.ref)]);
      expect([a.body.token_type, 'refresh_token' in a.body]).toEqual(['bearer', false]);
      expect([b.body.token_type, b.body.refresh_token]).toEqual(['Bearer', null]);
      expect((await get(varied.ref, '/test/things', { token: b.body.access_token })).status).toBe(200);
    }));

  it('expires-in-as-sample: expires_in is 2 weeks and a day (default: 2 weeks)', () =>
    compare(['expires-in-as-sample'], async (plain, varied) => {
      expect((await clientCredentials(plain.ref)).body.expires_in).toBe(TWO_WEEKS_S);
      expect((await clientCredentials(varied.ref)).body.expires_in).toBe(TWO_WEEKS_S + 86_400);
    }));

  it('app-token-lifetime-3-weeks: expires_in is 3 weeks', () =>
    compare(['app-token-lifetime-3-weeks'], async (_plain, varied) => {
      expect((await clientCredentials(varied.ref)).body.expires_in).toBe(21 * 86_400);
    }));

  it('same-app-token-full-expires-in: the repeated request returns the same token, expires_in the full 2 weeks', () =>
    compare(['same-app-token-full-expires-in'], async (plain, varied) => {
      const [a1, a2] = [await clientCredentials(plain.ref), await clientCredentials(plain.ref)];
      expect(a1.body.access_token).not.toBe(a2.body.access_token);
      const [b1, b2] = [await clientCredentials(varied.ref), await clientCredentials(varied.ref)];
      expect(b2.body.access_token).toBe(b1.body.access_token);
      expect(b2.body.expires_in).toBe(TWO_WEEKS_S);
    }));

  it('missing-scope-public and unknown-scopes-dropped: no scope gets public, other scopes are dropped (default: 400)', () =>
    compare(['missing-scope-public', 'unknown-scopes-dropped'], async (plain, varied) => {
      for (const extra of [{}, { scope: 'public favorites' }] as Record<string, string>[]) {
        expect((await clientCredentials(plain.ref, extra)).status).toBe(400);
        const b = await clientCredentials(varied.ref, extra);
        expect([b.status, b.body.scope]).toEqual([200, 'public']);
      }
      expect((await authorizeStep(plain.ref, { response_type: 'code', scope: 'public bogus' })).status).toBe(400);
      const step = await authorizeStep(varied.ref, { response_type: 'code', scope: 'public bogus' });
      expect(step.status).toBe(302);
      expect(new URL(step.headers.get('location')!).searchParams.get('code')).not.toBeNull();
    }));

  it('authorize-errors-redirect and authorize-failures-access-denied: a bad response_type redirects back (default: 400)', async () => {
    for (const [variant, error] of [
      ['authorize-errors-redirect', 'unsupported_response_type'],
      ['authorize-failures-access-denied', 'access_denied'],
    ] as const) {
      await compare([variant], async (plain, varied) => {
        expect((await authorizeStep(plain.ref, { response_type: 'token', scope: 'public' })).status).toBe(400);
        const r = await authorizeStep(varied.ref, { response_type: 'token', scope: 'public' });
        const back = new URL(r.headers.get('location')!);
        expect([r.status, back.searchParams.get('error'), back.searchParams.get('state')]).toEqual([302, error, 's1']);
        // A wrong redirect_uri is never followed.
        expect((await authorizeStep(varied.ref, { response_type: 'token', scope: 'public', redirect_uri: 'https://evil.example/' })).status).toBe(400);
      });
    }
  });

  it('url-safe-codes: codes hold no +, / or = (default: they do)', () =>
    compare(['url-safe-codes'], async (plain, varied) => {
      expect((await authorize(plain.ref)).code).toMatch(/[+/=]/);
      const { code } = await authorize(varied.ref);
      expect(code).toMatch(/^[A-Za-z0-9_-]+$/);
      expect((await userTokens(varied.ref)).access).toBeTruthy();
    }));

  it('logout-keeps-token: the token works after DELETE /user/logout (default: 401)', () =>
    compare(['logout-keeps-token'], async (plain, varied) => {
      for (const [s, status] of [
        [plain, 401],
        [varied, 200],
      ] as const) {
        const { access } = await userTokens(s.ref);
        expect((await call(s.ref, 'DELETE', '/user/logout', { token: access })).status).toBeLessThan(300);
        expect((await get(s.ref, '/test/things', { token: access })).status).toBe(status);
      }
    }));

  it('refresh-ends-previous-token: the access token refreshed from gets 401 (default: 200)', () =>
    compare(['refresh-ends-previous-token'], async (plain, varied) => {
      for (const [s, status] of [
        [plain, 200],
        [varied, 401],
      ] as const) {
        const { access, refresh } = await userTokens(s.ref);
        const r = await post(`${s.ref.authUrl}/oauth2/token`, {
          grant_type: 'refresh_token',
          client_id: s.ref.client.id,
          client_secret: s.ref.client.secret,
          refresh_token: refresh,
        });
        expect(r.status).toBe(200);
        expect((await get(s.ref, '/test/things', { token: access })).status).toBe(status);
        expect((await get(s.ref, '/test/things', { token: r.body.access_token })).status).toBe(200);
      }
    }));
});

describe('pagination, ETag, order and placeholder variants', () => {
  it('per-uncapped, page-past-end-last, link-off-last-page and link-rel-unquoted (default: per 100 at most, empty page, rel="last")', () =>
    compare(['per-uncapped', 'page-past-end-last', 'link-off-last-page', 'link-rel-unquoted'], async (plain, varied) => {
      const wide = await get(varied.ref, '/test/many?per=150', varied);
      expect([wide.body.things.length, wide.body.meta.pagination.per]).toEqual([60, 150]);
      expect((await get(plain.ref, '/test/many?per=150', plain)).body.meta.pagination.per).toBe(100);
      const past = await get(varied.ref, '/test/many?per=25&page=9', varied);
      expect([past.body.things.length, past.body.meta.pagination.page]).toEqual([10, 3]);
      expect(past.headers.get('link')).toBeNull();
      expect((await get(plain.ref, '/test/many?per=25&page=3', plain)).headers.get('link')).toMatch(/rel="last"/);
      const first = await get(varied.ref, '/test/many?per=25', varied);
      expect(first.headers.get('link')).toMatch(/; rel=next, <[^>]+>; rel=last$/);
    }));

  it('etag-off-collections and etag-strong-comparison: no ETag on collections, W/ of the tag gives 200 (default: ETag, 304)', () =>
    compare(['etag-off-collections', 'etag-strong-comparison'], async (plain, varied) => {
      expect((await get(plain.ref, '/test/many', plain)).headers.get('etag')).not.toBeNull();
      expect((await get(varied.ref, '/test/many', varied)).headers.get('etag')).toBeNull();
      for (const [s, weakStatus] of [
        [plain, 304],
        [varied, 200],
      ] as const) {
        const etag = (await get(s.ref, '/categories/root', s)).headers.get('etag')!;
        expect((await get(s.ref, '/categories/root', { ...s, headers: { 'If-None-Match': etag } })).status).toBe(304);
        expect((await get(s.ref, '/categories/root', { ...s, headers: { 'If-None-Match': `W/${etag}` } })).status).toBe(weakStatus);
      }
    }));

  it('unknown-order-ignored and unknown-order-422: an unknown order_by is ignored or 422 (default: 400)', async () => {
    for (const [variant, status] of [
      ['unknown-order-ignored', 200],
      ['unknown-order-422', 422],
    ] as const) {
      await compare([variant], async (plain, varied) => {
        const path = `/manufacturers/${(await get(plain.ref, '/manufacturers', plain)).body.manufacturers[0].id}/categories`;
        expect((await get(plain.ref, `${path}?order_by=bogus`, plain)).status).toBe(400);
        const r = await get(varied.ref, `${path}?order_by=bogus`, varied);
        expect(r.status).toBe(status);
        if (status === 200) expect(r.body).toEqual((await get(varied.ref, path, varied)).body);
      });
    }
  });

  it('placeholder-not-integer-400 and -422: /categories/abc is 400 or 422 InvalidParameter (default: 404)', async () => {
    for (const [variant, status] of [
      ['placeholder-not-integer-400', 400],
      ['placeholder-not-integer-422', 422],
    ] as const) {
      await compare([variant], async (plain, varied) => {
        expect((await get(plain.ref, '/categories/abc', plain)).status).toBe(404);
        const r = await get(varied.ref, '/categories/abc', varied);
        expect([r.status, r.body.errors[0].code]).toEqual([status, 'InvalidParameter']);
        expect((await get(varied.ref, '/categories/999999', varied)).status).toBe(404);
        // A negative integer is an integer (the automatic favorite lists have such ids).
        expect((await get(varied.ref, '/categories/-5', varied)).status).toBe(404);
      });
    }
  });
});

describe('rate-limit variants', () => {
  const LOW = { limits: { perMinute: 3, perDay: 1000 } };
  const overLimit = async (s: Server): Promise<Reply> => {
    let r = await get(s.ref, '/test/things', s);
    while (r.status === 200) r = await get(s.ref, '/test/things', s);
    return r;
  };

  it('ratelimit-errors-body and ratelimit-message-and-errors: the 403 body (default: {message})', async () => {
    for (const [variant, keys] of [
      ['ratelimit-errors-body', ['errors']],
      ['ratelimit-message-and-errors', ['errors', 'message']],
    ] as const) {
      await compare(
        [variant],
        async (plain, varied) => {
          expect(Object.keys((await overLimit(plain)).body)).toEqual(['message']);
          const r = await overLimit(varied);
          expect([r.status, Object.keys(r.body).sort()]).toEqual([403, keys]);
          expect(r.body.errors[0].code).toBe('RateLimitExceeded');
        },
        LOW,
      );
    }
  });

  it('remaining-before-count, user-token-limit-doubled and refusals-not-counted', () =>
    compare(
      ['remaining-before-count', 'user-token-limit-doubled', 'refusals-not-counted'],
      async (plain, varied) => {
        expect(rateHeaders((await get(plain.ref, '/test/things', plain)).headers).slice(0, 2)).toEqual(['3', '2']);
        expect(rateHeaders((await get(varied.ref, '/test/things', varied)).headers).slice(0, 2)).toEqual(['3', '3']);
        expect(rateHeaders((await get(varied.ref, '/test/things', varied)).headers).slice(0, 2)).toEqual(['3', '2']);
        const { access } = await userTokens(varied.ref);
        expect(rateHeaders((await get(varied.ref, '/test/things', { token: access })).headers).slice(0, 2)).toEqual(['6', '6']);
        // 401s take nothing from the window: each says the whole limit is left.
        for (let i = 0; i < 4; i++) {
          const refused = await get(varied.ref, '/test/things', { token: 'bogus' });
          expect([refused.status, rateHeaders(refused.headers)[1]]).toEqual([401, '3']);
        }
      },
      LOW,
    ));

  it('ratelimit-sliding-window: Remaining rises as requests leave the last minute; Reset is when the oldest does', async () => {
    const clock = makeClock();
    await compare(
      ['ratelimit-sliding-window'],
      async (_plain, varied) => {
        const start = clock.now() / 1000;
        clock.advance(1000);
        await get(varied.ref, '/test/things', varied);
        clock.advance(30_000);
        const second = await get(varied.ref, '/test/things', varied);
        expect(rateHeaders(second.headers)).toEqual(['3', '1', String(start + 1 + 60)]);
        clock.advance(31_000);
        // The first request has left the window, the second not (a fixed window would have started anew: Remaining 2).
        expect(rateHeaders((await get(varied.ref, '/test/things', varied)).headers)).toEqual(['3', '1', String(start + 31 + 60)]);
      },
      { ...LOW, now: clock.now },
    );
  });

  it('daily-limit-service-day and lockout-token-refusal-429: the lock-out ends at midnight UTC+02:00, the token endpoint answers 429', async () => {
    const clock = makeClock(Date.UTC(2024, 2, 10, 21, 0, 0));
    await compare(
      ['daily-limit-service-day', 'lockout-token-refusal-429'],
      async (_plain, varied) => {
        let r = await get(varied.ref, '/test/things', varied);
        while (r.status === 200) r = await get(varied.ref, '/test/things', varied);
        expect(r.status).toBe(401);
        expect((await clientCredentials(varied.ref)).status).toBe(429);
        clock.set(Date.UTC(2024, 2, 10, 22, 0, 0)); // midnight at UTC+02:00
        expect((await clientCredentials(varied.ref)).status).toBe(200);
      },
      { limits: { perMinute: 1000, perDay: 5 }, now: clock.now },
    );
  });
});

describe('Change history variants', () => {
  it('review-user-fields-null-for-app and sentiments-empty-null: null for an application token and for an empty sentiment (default: absent)', () =>
    compare(['review-user-fields-null-for-app', 'sentiments-empty-null'], async (plain, varied) => {
      const a = (await get(plain.ref, '/skus/10001/reviews', plain)).body.reviews[0];
      expect(['voted' in a, 'flagged' in a, 'helpful' in a]).toEqual([false, false, false]);
      const reviews = (await get(varied.ref, '/skus/10001/reviews', varied)).body.reviews;
      expect([reviews[0].voted, reviews[0].flagged, reviews[0].helpful]).toEqual([null, null, null]);
      for (const r of reviews) {
        expect(Object.keys(r.sentiments).sort()).toEqual(['mediocre', 'negative', 'positive']);
        for (const list of Object.values(r.sentiments)) expect(list === null || (Array.isArray(list) && list.length > 0)).toBe(true);
      }
    }));

  it('wide-tiles-hide-oem: a wide_tiles category lists fewer manufacturers from 3.2.0 (default: all)', () =>
    compare(['wide-tiles-hide-oem'], async (plain, varied) => {
      const wide: number[] = [];
      for (const c of await allCategories(plain.ref, plain.token)) {
        if ((await get(plain.ref, `/categories/${c.id}`, plain)).body.category.layout_mode === 'wide_tiles') wide.push(c.id);
      }
      let fewer = 0;
      for (const id of wide) {
        const [a, b] = await Promise.all([get(plain.ref, `/categories/${id}/manufacturers?per=100`, plain), get(varied.ref, `/categories/${id}/manufacturers?per=100`, varied)]);
        expect(b.body.manufacturers.length).toBeLessThanOrEqual(a.body.manufacturers.length);
        if (b.body.manufacturers.length < a.body.manufacturers.length) fewer += 1;
      }
      expect(fewer).toBeGreaterThan(0);
    }));
});

describe('redirect variants', () => {
  it('trailing-slash-redirect and -308: /categories/root/ is sent to /categories/root (default: served as it is)', async () => {
    for (const [variant, status, absolute] of [
      ['trailing-slash-redirect', 301, true],
      ['trailing-slash-redirect-308', 308, false],
    ] as const) {
      await compare([variant], async (plain, varied) => {
        expect((await fetch(`${plain.ref.baseUrl}/categories/root/`, { redirect: 'manual', headers: { Authorization: `Bearer ${plain.token}` } })).status).toBe(200);
        const r = await fetch(`${varied.ref.baseUrl}/categories/root/?per=5`, { redirect: 'manual', headers: { Authorization: `Bearer ${varied.token}` } });
        const location = r.headers.get('location')!;
        expect([r.status, location.startsWith('http'), location.endsWith('/categories/root?per=5')]).toEqual([status, absolute, true]);
        expect((await get(varied.ref, '/categories/root/', varied)).status).toBe(200);
      });
    }
  });
});

describe('scope variants', () => {
  it('review-writes-need-actions-scope and public-user-token-refused: refused with 401 (default: served)', () =>
    compare(['review-writes-need-actions-scope', 'public-user-token-refused'], async (plain, varied) => {
      const [a, b] = await Promise.all([userTokens(plain.ref, 'public'), userTokens(varied.ref, 'public')]);
      expect((await get(plain.ref, '/user', { token: a.access })).status).toBe(200);
      expect((await get(varied.ref, '/user', { token: b.access })).status).toBe(401);
      const favorites = await userTokens(varied.ref, 'public favorites');
      expect((await get(varied.ref, '/user', { token: favorites.access })).status).toBe(200);
      const review = { sku_review: { rating: 5, review: 'Works well enough for the price.' } };
      expect((await call(plain.ref, 'POST', '/skus/10001/reviews', { token: a.access, body: review })).status).not.toBe(401);
      const refused = await call(varied.ref, 'POST', '/skus/10001/reviews', { token: favorites.access, body: review });
      expect([refused.status, refused.body.errors[0].code]).toEqual([401, 'Unauthorized']);
      const granted = await userTokens(varied.ref, 'public publish_sku_review_actions');
      expect((await call(varied.ref, 'POST', '/skus/10001/reviews', { token: granted.access, body: review })).status).not.toBe(401);
    }));
});

describe('scope order variant', () => {
  it('missing-record-before-scope: a missing favorite or notification is 404 for a token lacking the scope (default: 401)', () =>
    compare(['missing-record-before-scope'], async (plain, varied) => {
      for (const path of ['/favorites/999999', '/favorite_lists/999999/favorites', '/notifications/999999']) {
        expect((await get(plain.ref, path, plain)).status, path).toBe(401);
        const r = await get(varied.ref, path, varied);
        expect([r.status, r.body.errors[0].code], path).toEqual([404, 'RecordNotFound']);
      }
      // An existing record is still refused for the scope.
      const user = await userTokens(varied.ref, 'public favorites notifications');
      const id = (await get(varied.ref, '/favorites', { token: user.access })).body.favorites[0].id;
      expect((await get(varied.ref, `/favorites/${id}`, varied)).status).toBe(401);
    }));
});

describe('versioning variant', () => {
  it('vendor-type-required: no Accept or application/json gets 406; the vendor type without version the latest (default: latest)', () =>
    compare(['vendor-type-required'], async (plain, varied) => {
      const headers = { Accept: 'application/json' };
      expect((await get(plain.ref, '/categories/root', { ...plain, headers })).status).toBe(200);
      expect((await get(varied.ref, '/categories/root', { ...varied, headers })).status).toBe(406);
      const bare = await fetch(`${varied.ref.baseUrl}/categories/root`, { headers: { Authorization: `Bearer ${varied.token}` } });
      expect(bare.status).toBe(406);
      expect((await get(varied.ref, '/categories/root', { ...varied, headers: { Accept: 'application/vnd.service+json' } })).status).toBe(200);
    }));
});
