// The protocol layer of the reference server: versioning (every row of the spec's table), ETag /
// 304 and scopes. Rate limits: protocol-ratelimit.test.ts; response shaping: protocol-shaping.test.ts.
// Test-only routes (registered through testHooks.extraRoutes) give the scopes something to act on
// without depending on any particular endpoint or dataset.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ROUTES } from '../testing/reference/protocol.testroutes.ts';
import type { ReferenceOptions, RunningReference } from './server.ts';
import { call, get, startWithToken, userTokens, VND } from '../testing/reference/testkit.ts';
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
    // name was removed in 3.0.23, the oldest version served.
    expect(Object.keys(applyVersion('user', user(), v30))).toEqual(['id', 'type']);
    expect(Object.keys(applyVersion('user', user(), v31))).toEqual(['id', 'type']);
    expect(Object.keys(applyVersion('user', user(), v32))).toEqual(['id', 'type', 'created_at', 'is_staff']);
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
