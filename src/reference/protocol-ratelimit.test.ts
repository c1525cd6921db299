// The reference's rate limits: X-RateLimit-* headers on every kind of response, the per-minute and
// daily limits, and a scaled clock (limits.windowMs), on the test-only routes of protocol.testroutes.ts.

import { describe, expect, it } from 'vitest';
import { TEST_ROUTES } from '../testing/reference/protocol.testroutes.ts';
import { startReference, type ReferenceOptions, type RunningReference } from './server.ts';
import { RateLimiter } from './ratelimit.ts';
import { appToken, call, get, makeClock, post, rateHeaders, startWithToken, userTokens, type Reply } from '../testing/reference/testkit.ts';

/** A server with the test-only routes of src/testing/reference/protocol.testroutes.ts. */
function startTest(opts: ReferenceOptions = {}): Promise<{ ref: RunningReference; token: string }> {
  return startWithToken({ ...opts, testHooks: { extraRoutes: [TEST_ROUTES], ...(opts.testHooks ?? {}) } });
}

// ---------------------------------------------------------------------------------------------

describe('rate-limit headers and limits', () => {
  it('are on every response of the API: 2xx, 304, 400, 401, 404 (also outside the base path), 405, 406, 500 (403: below)', async () => {
    const clock = makeClock();
    const errors: unknown[] = [];
    const ref = await startReference({
      basePath: '/api',
      now: clock.now,
      limits: { perMinute: 1000, perDay: 100_000 },
      testHooks: { extraRoutes: [TEST_ROUTES], onError: (e) => errors.push(e) },
    });
    const origin = new URL(ref.baseUrl).origin;
    try {
      const token = await appToken(ref);
      const ok = await get(ref, '/test/things', { token });
      const seen: Reply[] = [
        ok,
        await get(ref, '/test/things', { token, headers: { 'If-None-Match': ok.headers.get('etag')! } }),
        await get(ref, '/test/things?page=x', { token }),
        await get(ref, '/test/things', { token: 'nope' }),
        await get(ref, '/test/things/99', { token }),
        await get(ref, '/nowhere', { token }),
        await call(ref, 'DELETE', '/test/things', { token }),
        await get(ref, '/test/things', { token, version: '4' }),
        await get(ref, '/test/boom', { token }),
        await get(ref, '/test/unserializable', { token }),
      ];
      const outside = await fetch(`${origin}/elsewhere`, { headers: { Authorization: `Bearer ${token}` } });
      const outsideReply: Reply = { status: outside.status, headers: outside.headers, text: await outside.text(), body: undefined };
      expect([...seen, outsideReply].map((r) => r.status)).toEqual([200, 304, 400, 401, 404, 404, 405, 406, 500, 500, 404]);
      for (const r of [...seen, outsideReply]) {
        const [limit, remaining, reset] = rateHeaders(r.headers);
        expect(limit, String(r.status)).toBe('1000');
        expect(Number(remaining), String(r.status)).toBeGreaterThanOrEqual(0);
        expect(reset, String(r.status)).toBe(String(clock.now() / 1000 + 60));
      }
      // The token's window counted 1 + 304 + 400 + 404 + 404 + 405 + 406 + 500 + 500 (the bad
      // token and the path outside the base path count for the client IP).
      expect(seen.at(-1)!.headers.get('x-ratelimit-remaining')).toBe(String(1000 - 9));
      expect(seen[8]!.body).toEqual({ errors: [{ code: 'InternalServerError', messages: ['Internal server error'] }] });
      expect(seen[9]!.body).toEqual({ errors: [{ code: 'InternalServerError', messages: ['Internal server error'] }] });
    } finally {
      await ref.close();
    }
    expect(errors).toHaveLength(2);
  });

  it('X-RateLimit-Remaining counts down per token, 304s included; Reset is the end of the window in epoch seconds', async () => {
    const clock = makeClock(Date.UTC(2024, 5, 1, 8, 30, 15, 250));
    const { ref, token } = await startTest({ now: clock.now, limits: { perMinute: 5, perDay: 1000 } });
    try {
      const a = await get(ref, '/test/plain', { token });
      expect(rateHeaders(a.headers)).toEqual(['5', '4', String(Math.ceil((clock.now() + 60_000) / 1000))]);
      clock.advance(30_000);
      const b = await get(ref, '/test/plain', { token, headers: { 'If-None-Match': a.headers.get('etag')! } });
      expect(b.status).toBe(304);
      // Same window: same reset, one fewer left.
      expect(rateHeaders(b.headers)).toEqual(['5', '3', a.headers.get('x-ratelimit-reset')]);
      const user = (await userTokens(ref, 'public')).access;
      expect((await get(ref, '/test/plain', { token: user })).headers.get('x-ratelimit-remaining')).toBe('4');
    } finally {
      await ref.close();
    }
  });

  it('over the per-minute limit: 403 with exactly {message}, Remaining 0; the next window serves again', async () => {
    const clock = makeClock();
    const { ref, token } = await startTest({ now: clock.now, limits: { perMinute: 2, perDay: 1000 } });
    try {
      expect((await get(ref, '/test/plain', { token })).status).toBe(200);
      expect((await get(ref, '/test/things/999', { token })).status).toBe(404);
      for (const path of ['/test/plain', '/test/things/999', '/nowhere']) {
        const over = await get(ref, path, { token });
        expect(over.status, path).toBe(403);
        expect(over.body, path).toEqual({ message: expect.any(String) });
        expect(Object.keys(over.body)).toEqual(['message']);
        expect(rateHeaders(over.headers).slice(0, 2)).toEqual(['2', '0']);
        expect(over.headers.get('etag')).toBeNull();
      }
      clock.advance(60_000);
      const again = await get(ref, '/test/plain', { token });
      expect(rateHeaders(again.headers)).toEqual(['2', '1', String(clock.now() / 1000 + 60)]);
    } finally {
      await ref.close();
    }
  });

  it('requests without a valid token are limited per client IP, apart from the tokens', async () => {
    const { ref, token } = await startTest({ limits: { perMinute: 2, perDay: 1000 } });
    try {
      expect((await get(ref, '/test/plain')).status).toBe(401);
      expect((await get(ref, '/test/plain', { token: 'bogus' })).status).toBe(401);
      const over = await get(ref, '/test/plain');
      expect([over.status, over.body]).toEqual([403, { message: expect.any(String) }]);
      expect((await get(ref, '/test/plain', { token })).status).toBe(200);
    } finally {
      await ref.close();
    }
  });

  it('the daily limit expires every token of the client (application and user) and blocks the token endpoint until the next UTC day', async () => {
    const clock = makeClock(Date.UTC(2024, 2, 10, 22, 0, 0));
    const { ref, token } = await startTest({ now: clock.now, limits: { perMinute: 1000, perDay: 8 } });
    try {
      // Calls so far: the app token (1). A second app token and a user token (code exchange) follow.
      const other = await appToken(ref); // 2
      const user = await userTokens(ref, 'public favorites'); // 3
      expect((await get(ref, '/test/plain', { token })).status).toBe(200); // 4
      expect((await get(ref, '/test/plain', { token: other })).status).toBe(200); // 5
      expect((await get(ref, '/test/plain', { token: user.access })).status).toBe(200); // 6
      expect((await get(ref, '/test/plain', { token })).status).toBe(200); // 7
      expect((await get(ref, '/test/plain', { token })).status).toBe(200); // 8
      const first = await get(ref, '/test/plain', { token: other });
      expect(first.status).toBe(401);
      expect(first.body.errors[0].code).toBe('Unauthorized');
      expect(first.headers.get('x-ratelimit-limit')).toBe('1000');
      for (const t of [token, other, user.access]) expect((await get(ref, '/test/plain', { token: t })).status).toBe(401);
      const creds = { client_id: ref.client.id, client_secret: ref.client.secret };
      const url = `${ref.authUrl}/oauth2/token`;
      const denied = await post(url, { ...creds, grant_type: 'client_credentials', scope: 'public' });
      expect([denied.status, denied.body.error]).toEqual([403, 'access_denied']);
      const refresh = await post(url, { ...creds, grant_type: 'refresh_token', refresh_token: user.refresh });
      expect(refresh.status).toBe(403);
      clock.set(Date.UTC(2024, 2, 11, 0, 0, 0));
      const fresh = await appToken(ref);
      expect((await get(ref, '/test/plain', { token: fresh })).status).toBe(200);
      for (const t of [token, other, user.access]) expect((await get(ref, '/test/plain', { token: t })).status).toBe(401);
      // The refresh token survived the lock-out.
      const renewed = await post(url, { ...creds, grant_type: 'refresh_token', refresh_token: user.refresh });
      expect(renewed.status).toBe(200);
      expect((await get(ref, '/test/plain', { token: renewed.body.access_token })).status).toBe(200);
    } finally {
      await ref.close();
    }
  });

  it('defaults to 100 a minute and 1,000 a day', async () => {
    const ref = await startReference({ testHooks: { extraRoutes: [TEST_ROUTES] } });
    try {
      const token = await appToken(ref);
      const r = await get(ref, '/test/plain', { token });
      expect(rateHeaders(r.headers).slice(0, 2)).toEqual(['100', '99']);
    } finally {
      await ref.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('a scaled clock (limits.windowMs, the embedded run)', () => {
  it('the rate-limit minute lasts windowMs: Reset within it, and a new window after it', async () => {
    const clock = { t: Date.UTC(2026, 0, 5, 10, 0, 0) };
    const ref = await startReference({ limits: { perMinute: 3, perDay: 1000, windowMs: 1_000 }, now: () => clock.t });
    try {
      expect(ref.rateWindowMs).toBe(1_000);
      expect(ref.servedVersions).toEqual(['3.0', '3.1', '3.2']);
      const limiter = new RateLimiter(3, () => clock.t, 'first-request', 1_000);
      const first = limiter.consume('k');
      expect(first).toMatchObject({ remaining: 2, reset: (clock.t + 1_000) / 1000, exceeded: false });
      limiter.consume('k');
      limiter.consume('k');
      expect(limiter.consume('k').exceeded).toBe(true);
      clock.t += 1_000;
      expect(limiter.consume('k')).toMatchObject({ remaining: 2, exceeded: false });
    } finally {
      await ref.close();
    }
  });
});
