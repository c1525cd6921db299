// The protocol layer of the reference server: versioning (every row of the spec's table),
// ETag / 304, rate-limit headers on every kind of response, scopes, and the response shaping
// of shape.ts (embed, embed_ids, include, fields[...], fields_except[...]). Test-only routes
// (registered through testHooks.extraRoutes) give the shaping and the scopes something to act
// on without depending on any particular endpoint or dataset.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARTS, TEST_ROUTES } from '../testing/reference/protocol.testroutes.ts';
import type { ApiContext } from './router.ts';
import { startReference, type ReferenceOptions, type RunningReference } from './server.ts';
import { RateLimiter } from './ratelimit.ts';
import { applyFieldset, fieldsetFor } from './shape.ts';
import { appToken, call, get, makeClock, post, rateHeaders, startWithToken, userTokens, VND, type Reply } from '../testing/reference/testkit.ts';
import { applyVersion, LATEST_VERSION, negotiateVersion, OLDEST_VERSION, SERVED_VERSIONS } from './versioning.ts';

/** A server with the test-only routes of src/testing/reference/protocol.testroutes.ts. */
function startTest(opts: ReferenceOptions = {}): Promise<{ ref: RunningReference; token: string }> {
  return startWithToken({ ...opts, testHooks: { extraRoutes: [TEST_ROUTES], ...(opts.testHooks ?? {}) } });
}

// ---------------------------------------------------------------------------------------------

describe('versioning', () => {
  let ref: RunningReference;
  let token: string;
  beforeAll(async () => ({ ref, token } = await startTest({ basePath: '/api', dataset: 'alt' })));
  afterAll(() => ref.close());

  // The spec's table of requested versus returned versions (rules 1-5), with patch numbers
  // (which are ignored) and the forms an Accept header can take.
  const ROWS: [string | null, string][] = [
    [null, LATEST_VERSION.label],
    ['application/json', '3.2.1'],
    ['*/*', '3.2.1'],
    [VND, '3.2.1'],
    [`${VND}; version=3`, '3.0.23'],
    [`${VND}; version=3.0`, '3.0.23'],
    [`${VND}; version=3.1`, '3.1.3'],
    [`${VND}; version=3.2`, '3.2.1'],
    [`${VND}; version=3.3`, '3.2.1'],
    [`${VND}; version=3.4`, '3.2.1'],
    [`${VND}; version=3.99`, '3.2.1'],
    [`${VND}; version=3.0.0`, '3.0.23'],
    [`${VND}; version=3.0.99`, '3.0.23'],
    [`${VND}; version=3.1.0`, '3.1.3'],
    [`${VND}; version=3.1.1`, '3.1.3'],
    [`${VND}; version=3.1.7`, '3.1.3'],
    [`${VND}; version=3.2.0`, '3.2.1'],
    [`${VND}; version=3.2.9`, '3.2.1'],
    [`${VND}; version=3.3.1`, '3.2.1'],
    [`${VND};version="3.1"`, '3.1.3'],
    [`APPLICATION/VND.SERVICE+JSON; Version=3.1`, '3.1.3'],
    [`application/json, ${VND}; version=3.0`, '3.0.23'],
    [`${VND}; q=0.9; version=3.1`, '3.1.3'],
  ];

  it.each(ROWS)('Accept %s is served %s', async (accept, served) => {
    const r = await get(ref, '/test/version', { token, headers: accept === null ? {} : { Accept: accept } });
    expect(r.status).toBe(200);
    expect(r.body.version).toBe(served);
  });

  it('serves the latest patch of each minor series, oldest 3.0.23, latest 3.2.1', () => {
    expect(SERVED_VERSIONS.map((v) => v.label)).toEqual(['3.0.23', '3.1.3', '3.2.1']);
    expect([OLDEST_VERSION.label, LATEST_VERSION.label]).toEqual(['3.0.23', '3.2.1']);
    expect(negotiateVersion(undefined)).toEqual({ ok: true, version: LATEST_VERSION });
    expect(negotiateVersion('   ')).toEqual({ ok: true, version: LATEST_VERSION });
  });

  it('answers 406 NotAcceptable for another major or an unparsable version, with the rate-limit headers', async () => {
    for (const v of ['2', '4', '4.0', '2.9', 'abc', '3.x', '3.', '.1', '3.1.2.4', '', 'v3', '-3', '3.1 beta', '9'.repeat(40)]) {
      const r = await get(ref, '/test/version', { token, version: v });
      expect(r.status, v).toBe(406);
      expect(r.body, v).toEqual({ errors: [{ code: 'NotAcceptable', messages: [expect.any(String)] }] });
      expect(r.body.errors[0].messages[0].length, v).toBeLessThan(200);
      expect(r.headers.get('x-ratelimit-limit'), v).not.toBeNull();
    }
  });

  it('hides an endpoint added later (since) from older versions with 404', async () => {
    expect((await get(ref, '/test/since-3-2', { token, version: '3.2' })).status).toBe(200);
    expect((await get(ref, '/test/since-3-2', { token })).status).toBe(200);
    for (const v of ['3', '3.0', '3.1', '3.1.9']) {
      const r = await get(ref, '/test/since-3-2', { token, version: v });
      expect(r.status, v).toBe(404);
      expect(r.body.errors[0].code).toBe('NotFound');
    }
  });

  it('removes the fields the Change history adds later (categories: family_id 3.1.2, the 3.2.0 fields)', async () => {
    const root = async (v: string | null): Promise<string[]> => Object.keys((await get(ref, '/categories/root', { token, version: v })).body.category);
    const v30 = await root('3');
    const v31 = await root('3.1');
    const v32 = await root(null);
    expect(v30).not.toContain('family_id');
    expect(v31).toContain('family_id');
    for (const f of ['reviewable', 'adult', 'onclick_behaviour', 'show_spec_summary', 'unit_price_label']) {
      expect(v31).not.toContain(f);
      expect(v32).toContain(f);
    }
    expect(v32.filter((k) => !v31.includes(k)).sort()).toEqual(['adult', 'onclick_behaviour', 'reviewable', 'show_spec_summary', 'unit_price_label']);
  });

  it('applyVersion drops fields by since and removedIn, in place, and leaves unknown resources alone', () => {
    const [v30, v31, v32] = SERVED_VERSIONS as [typeof OLDEST_VERSION, typeof OLDEST_VERSION, typeof OLDEST_VERSION];
    const user = () => ({ id: 1, name: 'x', type: 'own', created_at: 't', is_staff: false });
    expect(Object.keys(applyVersion('user', user(), v30))).toEqual(['id', 'name', 'type']);
    expect(Object.keys(applyVersion('user', user(), v31))).toEqual(['id', 'name', 'type']);
    expect(Object.keys(applyVersion('user', user(), v32))).toEqual(['id', 'name', 'type', 'created_at', 'is_staff']);
    const sku = { id: 1, comparable: true, favorited: false, description: 'd' };
    expect(applyVersion('sku', sku, v30)).toBe(sku);
    expect(sku).toEqual({ id: 1 });
    expect(applyVersion('nothing-here', { a: 1 }, v30)).toEqual({ a: 1 });
  });
});

// ---------------------------------------------------------------------------------------------

describe('conditional requests (ETag)', () => {
  let ref: RunningReference;
  let token: string;
  beforeAll(async () => ({ ref, token } = await startTest()));
  afterAll(() => ref.close());

  it('a 200 GET carries a quoted ETag; If-None-Match answers 304 with no body and the same headers', async () => {
    const a = await get(ref, '/test/things', { token });
    const etag = a.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const b = await get(ref, '/test/things', { token, headers: { 'If-None-Match': etag } });
    expect(b.status).toBe(304);
    expect(b.text).toBe('');
    expect(b.headers.get('etag')).toBe(etag);
    expect(b.headers.get('content-length')).toBeNull();
    expect(b.headers.get('content-type')).toBeNull();
    expect(b.headers.get('vary')).toBe('Accept, Authorization');
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(b.headers.get(h), h).not.toBeNull();
    // A list of tags, weak tags and * all match; another tag does not.
    for (const inm of [`"zzz", ${etag}`, `W/${etag}`, '*']) {
      expect((await get(ref, '/test/things', { token, headers: { 'If-None-Match': inm } })).status, inm).toBe(304);
    }
    const other = await get(ref, '/test/things', { token, headers: { 'If-None-Match': '"zzz"' } });
    expect([other.status, other.headers.get('etag')]).toEqual([200, etag]);
  });

  it('the ETag follows the body: same request same tag, another page, version or fieldset another tag', async () => {
    const tag = async (path: string, version: string | null = null) => (await get(ref, path, { token, version })).headers.get('etag');
    const t1 = await tag('/test/things');
    expect(await tag('/test/things')).toBe(t1);
    const others = [await tag('/test/things?per=1'), await tag('/test/things?fields[root]=id'), await tag('/categories/root', '3.0'), await tag('/categories/root')];
    expect(new Set([t1, ...others]).size).toBe(5);
  });

  it('HEAD gets the ETag and 304 like GET, without a body', async () => {
    const head = await call(ref, 'HEAD', '/test/things', { token });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const etag = head.headers.get('etag');
    expect(etag).toBe((await get(ref, '/test/things', { token })).headers.get('etag'));
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect((await call(ref, 'HEAD', '/test/things', { token, headers: { 'If-None-Match': etag! } })).status).toBe(304);
  });

  it('no ETag on errors or on other methods, and If-None-Match does not turn them into 304', async () => {
    const notFound = await get(ref, '/test/things/999', { token, headers: { 'If-None-Match': '*' } });
    expect([notFound.status, notFound.headers.get('etag')]).toEqual([404, null]);
    const created = await fetch(`${ref.baseUrl}/test/echo`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'If-None-Match': '*' },
      body: '{"a":1}',
    });
    expect([created.status, created.headers.get('etag')]).toEqual([201, null]);
    expect(await created.json()).toEqual({ body: { a: 1 } });
    const unauth = await get(ref, '/test/things', { headers: { 'If-None-Match': '*' } });
    expect([unauth.status, unauth.headers.get('etag')]).toEqual([401, null]);
  });
});

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

describe('scopes', () => {
  let ref: RunningReference;
  let app: string;
  beforeAll(async () => ({ ref, token: app } = await startTest()));
  afterAll(() => ref.close());

  const ROUTES: [string, string, string][] = [
    ['GET', '/test/favorites', 'favorites'],
    ['GET', '/test/notifications', 'notifications'],
    ['POST', '/test/votes', 'publish_sku_review_actions'],
  ];

  it('a route needing favorites, notifications or publish_sku_review_actions answers only tokens with that scope', async () => {
    const everything = (await userTokens(ref, 'public favorites notifications publish_sku_review_actions')).access;
    const publicOnly = (await userTokens(ref, 'public')).access;
    for (const [method, path, scope] of ROUTES) {
      const own = (await userTokens(ref, scope)).access;
      for (const [token, ok] of [
        [everything, true],
        [own, true],
        [publicOnly, false],
        [app, false],
      ] as const) {
        const r = await call(ref, method, path, { token });
        expect(r.status, `${method} ${path} ${ok}`).toBe(ok ? (method === 'POST' ? 201 : 200) : 401);
        if (!ok) expect(r.body.errors[0].messages[0]).toContain(scope);
      }
    }
  });

  it('the real favorites and notifications endpoints need their scopes (SCOPE-3, SCOPE-4)', async () => {
    for (const [path, scope] of [
      ['/favorites', 'favorites'],
      ['/favorite_lists', 'favorites'],
      ['/notifications', 'notifications'],
    ] as const) {
      const own = (await userTokens(ref, `public ${scope}`)).access;
      const other = (await userTokens(ref, scope === 'favorites' ? 'public notifications' : 'public favorites')).access;
      expect((await get(ref, path, { token: own })).status, path).toBe(200);
      for (const token of [other, app]) {
        const r = await get(ref, path, { token });
        expect(r.status, path).toBe(401);
        expect(r.body.errors[0].code).toBe('Unauthorized');
      }
    }
  });

  it('public resources need the public scope; scope null takes any token; user routes refuse application tokens', async () => {
    const favOnly = (await userTokens(ref, 'favorites')).access;
    expect((await get(ref, '/test/plain', { token: favOnly })).status).toBe(401);
    expect((await get(ref, '/test/plain', { token: app })).status).toBe(200);
    expect((await get(ref, '/test/any-token', { token: favOnly })).status).toBe(200);
    expect((await get(ref, '/test/any-token', { token: app })).status).toBe(200);
    const user = (await userTokens(ref, 'public')).access;
    const mine = await get(ref, '/test/user-only', { token: user });
    expect(mine.status).toBe(200);
    expect(typeof mine.body.user_id).toBe('number');
    const denied = await get(ref, '/test/user-only', { token: app });
    expect([denied.status, denied.body.errors[0].code]).toEqual([401, 'Unauthorized']);
  });
});

// ---------------------------------------------------------------------------------------------

describe('response shaping (shape.ts)', () => {
  let ref: RunningReference;
  let token: string;
  beforeAll(async () => ({ ref, token } = await startTest({ basePath: '/api' })));
  afterAll(() => ref.close());
  const things = async (query: string, version: string | null = null): Promise<Reply> => {
    const r = await get(ref, `/test/things${query}`, { token, version });
    expect(r.status, query).toBe(200);
    return r;
  };

  it('without parameters: the plain envelope with meta.pagination and no link keys', async () => {
    const r = await things('');
    expect(Object.keys(r.body)).toEqual(['things', 'meta']);
    expect(r.body.things[0]).toEqual({ id: 1, name: 'one', color: 'red', size: 10 });
    expect(r.body.meta.pagination).toEqual({ total_results: 4, total_pages: 1, page: 1, per: 25 });
  });

  it('embed=<name> puts the full linked object (null when none) in each parent (LINK-1)', async () => {
    const r = await things('?embed=part');
    expect(r.body.things.map((t: any) => t.part)).toEqual([PARTS.get(71), PARTS.get(72), PARTS.get(71), null]);
    expect(Object.keys(r.body)).toEqual(['things', 'meta']);
    const one = await get(ref, '/test/things/2?embed=part', { token });
    expect(one.body).toEqual({ thing: { id: 2, name: 'two', color: 'blue', size: 20, part: PARTS.get(72) } });
  });

  it('embed_ids=<name> puts an array of ids in each parent (LINK-2)', async () => {
    const r = await things('?embed_ids=part');
    expect(r.body.things.map((t: any) => t.part_ids)).toEqual([[71], [72], [71], []]);
    expect(r.body.things[0].part).toBeUndefined();
  });

  it('include=<name> puts ids in each parent and the linked objects, once each, in a top-level array (LINK-3)', async () => {
    const r = await things('?include=part');
    expect(r.body.things.map((t: any) => t.part_id)).toEqual([71, 72, 71, null]);
    expect(r.body.parts).toEqual([PARTS.get(71), PARTS.get(72)]);
    expect(Object.keys(r.body)).toEqual(['things', 'parts', 'meta']);
    // Only the linked objects of the page.
    const page2 = await things('?include=part&per=1&page=2');
    expect(page2.body.parts).toEqual([PARTS.get(72)]);
    const empty = await things('?include=part&per=1&page=4');
    expect(empty.body.parts).toEqual([]);
    const one = await get(ref, '/test/things/4?include=part', { token });
    expect(one.body).toEqual({ thing: { id: 4, name: 'four', color: 'black', size: 40, part_id: null }, parts: [] });
  });

  it('several names and modes: comma-separated or repeated, duplicates ignored', async () => {
    const a = await things('?embed=part,part&embed_ids=part&include=part');
    const b = await things('?embed=part&embed=part&embed_ids[]=part&include=part');
    expect(a.body).toEqual(b.body);
    expect(Object.keys(a.body.things[0])).toEqual(['id', 'name', 'color', 'size', 'part', 'part_ids', 'part_id']);
  });

  it('an unknown linked name is 400 InvalidParameter naming the known ones', async () => {
    for (const q of ['?embed=shop', '?embed_ids=x', '?include=parts', '?embed=part,nope']) {
      const r = await get(ref, `/test/things${q}`, { token });
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].code).toBe('InvalidParameter');
      expect(r.body.errors[0].messages[0]).toContain('part');
    }
    const none = await get(ref, '/test/plain?embed=part', { token });
    expect([none.status, none.body.errors[0].messages[0]]).toEqual([400, expect.stringContaining('no linked resources')]);
  });

  it('fields[root] keeps only the listed fields; fields_except[root] removes them (FIELDS-1, FIELDS-2)', async () => {
    expect((await things('?fields[root]=id,color')).body.things[1]).toEqual({ id: 2, color: 'blue' });
    expect((await things('?fields_except[root]=color,size')).body.things[1]).toEqual({ id: 2, name: 'two' });
    // Encoded brackets, repeated parameters and the [] spelling are the same thing.
    expect((await things('?fields%5Broot%5D=id&fields%5Broot%5D=name')).body.things[1]).toEqual({ id: 2, name: 'two' });
    expect((await things('?fields[root][]=id&fields[root][]=size')).body.things[1]).toEqual({ id: 2, size: 20 });
    // Unknown field names are ignored; an empty list keeps nothing.
    expect((await things('?fields[root]=id,nope')).body.things[1]).toEqual({ id: 2 });
    expect((await things('?fields[root]=')).body.things[1]).toEqual({});
    expect((await get(ref, '/test/things/3?fields[root]=name', { token })).body).toEqual({ thing: { name: 'three' } });
  });

  it('with both on one target the exclusion is applied after the inclusion (FIELDS-4)', async () => {
    expect((await things('?fields[root]=id,name,color&fields_except[root]=name')).body.things[0]).toEqual({ id: 1, color: 'red' });
    expect((await things('?fields_except[root]=name&fields[root]=name,size')).body.things[0]).toEqual({ size: 10 });
  });

  it('fields[<association>] shapes the embedded and included objects; an association not named stays complete (FIELDS-3, FIELDS-5)', async () => {
    const embedded = await things('?embed=part&fields[part]=name&fields[root]=id');
    expect(embedded.body.things[0]).toEqual({ id: 1, part: { name: 'bolt' } });
    const rootOnly = await things('?embed=part&fields[root]=id');
    expect(rootOnly.body.things[0]).toEqual({ id: 1, part: PARTS.get(71) });
    const rootExcept = await things('?embed=part&fields_except[root]=name,color,size');
    expect(rootExcept.body.things[0]).toEqual({ id: 1, part: PARTS.get(71) });
    const included = await things('?include=part&fields_except[part]=weight,material&fields[root]=id');
    expect(included.body.things[0]).toEqual({ id: 1, part_id: 71 });
    expect(included.body.parts).toEqual([
      { id: 71, name: 'bolt' },
      { id: 72, name: 'nut' },
    ]);
    // A target that is neither root nor a linked name of the request is ignored.
    expect((await things('?fields[part]=id&fields[other]=id')).body.things[0]).toEqual({ id: 1, name: 'one', color: 'red', size: 10 });
  });

  it('the keys that embed / embed_ids / include add are not removed by a root fieldset', async () => {
    const r = await things('?embed_ids=part&include=part&fields[root]=id&fields_except[root]=part_id,part_ids');
    expect(r.body.things[0]).toEqual({ id: 1, part_ids: [71], part_id: 71 });
  });

  it('3.0 (before 3.1.1) ignores sparse fieldsets but still links', async () => {
    for (const v of ['3', '3.0']) {
      const r = await things('?embed=part&fields[root]=id&fields[part]=id&fields_except[root]=name', v);
      expect(r.body.things[0], v).toEqual({ id: 1, name: 'one', color: 'red', size: 10, part: PARTS.get(71) });
    }
    expect((await things('?fields[root]=id', '3.1')).body.things[0]).toEqual({ id: 1 });
  });

  it('applyFieldset / fieldsetFor work on their own', () => {
    const ctx = { query: new URLSearchParams('fields[root]=a,b&fields_except[root]=b&fields[x][]=c&fields_except[y]=d,%20e') } as ApiContext;
    expect(fieldsetFor(ctx, 'root')).toEqual({ only: ['a', 'b'], except: ['b'] });
    expect(fieldsetFor(ctx, 'x')).toEqual({ only: ['c'], except: [] });
    expect(fieldsetFor(ctx, 'y')).toEqual({ only: null, except: ['d', 'e'] });
    expect(fieldsetFor(ctx, 'z')).toEqual({ only: null, except: [] });
    expect(applyFieldset({ a: 1, b: 2, c: 3 }, { only: ['a', 'b'], except: ['b'] })).toEqual({ a: 1 });
    expect(applyFieldset({ a: 1, b: 2, c: 3 }, { only: null, except: [] })).toEqual({ a: 1, b: 2, c: 3 });
    expect(applyFieldset({ a: 1, b: 2, c: 3 }, { only: ['a'], except: ['c'] }, new Set(['c']))).toEqual({ a: 1, c: 3 });
  });

  it('fault fields-except-applied-before-fields: the inclusion picks from the complete object, so a field in both stays', async () => {
    const fault = 'fields-except-applied-before-fields';
    const set = { only: ['a', 'b'], except: ['b'] };
    expect(applyFieldset({ a: 1, b: 2, c: 3 }, set, new Set(), fault)).toEqual({ a: 1, b: 2 });
    expect(applyFieldset({ a: 1, b: 2, c: 3 }, { only: null, except: ['b'] }, new Set(), fault)).toEqual({ a: 1, c: 3 });
    expect(applyFieldset({ a: 1, b: 2, c: 3 }, { only: ['a'], except: [] }, new Set(), fault)).toEqual({ a: 1 });
    const faulty = await startTest({ fault });
    try {
      const both = await get(faulty.ref, '/test/things?fields[root]=id,name,color&fields_except[root]=name', { token: faulty.token });
      expect(both.body.things[0]).toEqual({ id: 1, name: 'one', color: 'red' });
      const except = await get(faulty.ref, '/test/things?fields_except[root]=name', { token: faulty.token });
      expect(except.body.things[0]).toEqual({ id: 1, color: 'red', size: 10 });
    } finally {
      await faulty.ref.close();
    }
  });
});

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
