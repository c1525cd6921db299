// The legal variants of the protocol (variants/protocol.ts) for tokens, rate limits and patch levels
// (implements-*): for each, what the server answers with the variant on, next to what it answers without it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from './server.ts';
import { appToken, authorize, call, get, makeClock, post, userTokens } from '../testing/reference/testkit.ts';
import { compare, ok, start, type Server } from '../testing/reference/variants-protocol-setup.ts';

// ---------------------------------------------------------------------------------------------

describe('token and limit variants', () => {
  it('oauth-plain-errors: OAuth error bodies carry only error and error_description, no X-RateLimit-* (default: both)', () =>
    compare(['oauth-plain-errors'], async (plain, varied) => {
      const bad = { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x', scope: 'public' };
      const a = await post(`${plain.ref.authUrl}/oauth2/token`, bad);
      expect(Object.keys(a.body).sort()).toEqual(['error', 'error_description', 'errors']);
      expect(a.headers.get('x-ratelimit-limit')).not.toBeNull();
      const b = await post(`${varied.ref.authUrl}/oauth2/token`, bad);
      expect([b.status, b.body]).toEqual([401, { error: 'invalid_client', error_description: expect.any(String) }]);
      expect(b.headers.get('www-authenticate')).toMatch(/^Basic/);
      const noGrant = await post(`${varied.ref.authUrl}/oauth2/token`, {});
      expect(noGrant.body).toEqual({ error: 'invalid_request', error_description: 'grant_type is required' });
      const authorize = await fetch(`${varied.ref.authUrl}/oauth2/authorizations/new`, { redirect: 'manual' });
      expect(Object.keys(await authorize.json())).toEqual(['error', 'error_description']);
      const granted = await post(`${varied.ref.authUrl}/oauth2/token`, {
        grant_type: 'client_credentials',
        client_id: varied.ref.client.id,
        client_secret: varied.ref.client.secret,
        scope: 'public',
      });
      expect(granted.status).toBe(200);
      for (const r of [b, noGrant, granted]) expect([...r.headers.keys()].filter((k) => k.startsWith('x-ratelimit-'))).toEqual([]);
      // The API keeps its rate-limit headers.
      expect((await ok(get(varied.ref, '/test/things', varied))).headers.get('x-ratelimit-limit')).not.toBeNull();
    }));

  it('refused-scope-403: a token without the scope or the user a route needs gets 403 Forbidden (default: 401)', () =>
    compare(['refused-scope-403'], async (plain, varied) => {
      const [a, b] = await Promise.all([userTokens(plain.ref, 'public'), userTokens(varied.ref, 'public')]);
      const cases: [string, string, (s: Server, user: string) => string][] = [
        ['GET', '/test/favorites', (_s, user) => user],
        ['GET', '/test/user-only', (s) => s.token],
        // The route takes any user token; the handler refuses the scope.
        ['POST', '/skus/1/reviews/1/votes', (_s, user) => user],
      ];
      for (const [method, path, tokenOf] of cases) {
        const before = await call(plain.ref, method, path, { token: tokenOf(plain, a.access), body: { vote: { helpful: true } } });
        expect([before.status, before.body.errors[0].code], path).toEqual([401, 'Unauthorized']);
        const after = await call(varied.ref, method, path, { token: tokenOf(varied, b.access), body: { vote: { helpful: true } } });
        expect([after.status, after.body.errors[0].code], path).toEqual([403, 'Forbidden']);
        expect(after.body.errors[0].messages).toEqual(before.body.errors[0].messages);
      }
      // A bad token is still 401.
      expect((await get(varied.ref, '/test/things', { token: 'nope' })).status).toBe(401);
    }));

  it('both-placements-accepted: the same token in the header and in oauth_token is served (default: 400)', () =>
    compare(['both-placements-accepted'], async (plain, varied) => {
      const both = (s: Server, query: string) => get(s.ref, `/test/things?oauth_token=${encodeURIComponent(query)}`, { token: s.token });
      expect((await both(plain, plain.token)).status).toBe(400);
      expect((await ok(both(varied, varied.token))).body.things).toHaveLength(4);
      // Two different tokens are still refused.
      const other = await appToken(varied.ref);
      expect((await both(varied, other)).status).toBe(400);
      // The Link URLs never carry the token.
      const paged = await ok(get(varied.ref, `/test/things?per=1&oauth_token=${varied.token}`, { token: varied.token }));
      expect(paged.headers.get('link')).not.toContain('oauth_token');
    }));

  it('client-credentials-same-token: a repeated request returns the valid token with its remaining lifetime (default: a new one)', async () => {
    const clock = makeClock();
    await compare(
      ['client-credentials-same-token'],
      async (plain, varied) => {
        const request = (ref: RunningReference) =>
          post(`${ref.authUrl}/oauth2/token`, { grant_type: 'client_credentials', client_id: ref.client.id, client_secret: ref.client.secret, scope: 'public' });
        clock.advance(10_000);
        const [a1, a2] = [await request(plain.ref), await request(plain.ref)];
        expect(a1.body.access_token).not.toBe(a2.body.access_token);
        expect(a2.body.expires_in).toBe(14 * 24 * 3600);
        const again = await request(varied.ref);
        expect(again.body).toEqual({ access_token: varied.token, token_type: 'bearer', expires_in: 14 * 24 * 3600 - 10, scope: 'public' });
        expect((await ok(get(varied.ref, '/test/things', varied))).status).toBe(200);
      },
      { now: clock.now },
    );
  });

  it('app-token-replaces-earlier: a new application token revokes the earlier ones (default: they stay valid)', () =>
    compare(['app-token-replaces-earlier'], async (plain, varied) => {
      const newer = await appToken(plain.ref);
      expect((await get(plain.ref, '/test/things', plain)).status).toBe(200);
      expect((await get(plain.ref, '/test/things', { token: newer })).status).toBe(200);
      const replacing = await appToken(varied.ref);
      const earlier = await get(varied.ref, '/test/things', varied);
      expect([earlier.status, earlier.body.errors[0].messages]).toEqual([401, ['The access token was replaced by a newer application token of its client']]);
      expect((await ok(get(varied.ref, '/test/things', { token: replacing }))).status).toBe(200);
    }));

  it('code-reuse-revokes-tokens: a second exchange of a code is refused and ends the tokens issued from it (default: they stay valid)', () =>
    compare(['code-reuse-revokes-tokens'], async (plain, varied) => {
      const exchangeTwice = async (ref: RunningReference) => {
        const { code } = await authorize(ref);
        const exchange = () =>
          post(`${ref.authUrl}/oauth2/token`, {
            grant_type: 'authorization_code',
            client_id: ref.client.id,
            client_secret: ref.client.secret,
            redirect_uri: ref.client.redirectUri,
            code,
          });
        const first = await exchange();
        const refresh = (token: string) =>
          post(`${ref.authUrl}/oauth2/token`, { grant_type: 'refresh_token', client_id: ref.client.id, client_secret: ref.client.secret, refresh_token: token });
        const refreshed = await refresh(first.body.refresh_token);
        const second = await exchange();
        expect([second.status, second.body.error]).toEqual([400, 'invalid_grant']);
        const works = async (token: string) => (await get(ref, '/test/user-only', { token })).status;
        return { first: await works(first.body.access_token), refreshed: await works(refreshed.body.access_token), refresh: (await refresh(refreshed.body.refresh_token)).status };
      };
      expect(await exchangeTwice(plain.ref)).toEqual({ first: 200, refreshed: 200, refresh: 200 });
      expect(await exchangeTwice(varied.ref)).toEqual({ first: 401, refreshed: 401, refresh: 400 });
      // Tokens of another code stay valid.
      expect((await get(varied.ref, '/test/user-only', { token: (await userTokens(varied.ref)).access })).status).toBe(200);
    }));

  it('refresh-keeps-refresh-token: a refresh gives a new access token and no refresh token; the refresh token stays valid (default: rotated)', () =>
    compare(['refresh-keeps-refresh-token'], async (plain, varied) => {
      const refresh = (ref: RunningReference, token: string) =>
        post(`${ref.authUrl}/oauth2/token`, { grant_type: 'refresh_token', client_id: ref.client.id, client_secret: ref.client.secret, refresh_token: token });
      const a = await userTokens(plain.ref);
      const rotated = await refresh(plain.ref, a.refresh);
      expect(typeof rotated.body.refresh_token).toBe('string');
      expect((await refresh(plain.ref, a.refresh)).body.error).toBe('invalid_grant');
      const b = await userTokens(varied.ref);
      for (let i = 0; i < 2; i++) {
        const kept = await refresh(varied.ref, b.refresh);
        expect(kept.status).toBe(200);
        expect(Object.keys(kept.body)).toEqual(['access_token', 'token_type', 'expires_in', 'scope']);
        expect((await get(varied.ref, '/test/user-only', { token: kept.body.access_token })).status).toBe(200);
      }
    }));

  it('ratelimit-calendar-minute: X-RateLimit-Reset is the start of the next minute (default: 60 s after the first request)', async () => {
    const clock = makeClock(Date.UTC(2024, 2, 10, 12, 0, 30));
    await compare(
      ['ratelimit-calendar-minute'],
      async (plain, varied) => {
        clock.advance(5_000);
        const reset = async (s: Server) => Number((await ok(get(s.ref, '/test/things', s))).headers.get('x-ratelimit-reset'));
        // The windows of the token requests (oauth:<ip>) began at 12:00:30; the API tokens' begin now, at 12:00:35.
        expect(await reset(plain)).toBe(Date.UTC(2024, 2, 10, 12, 1, 35) / 1000);
        expect(await reset(varied)).toBe(Date.UTC(2024, 2, 10, 12, 1, 0) / 1000);
        clock.advance(30_000);
        const next = await ok(get(varied.ref, '/test/things', varied));
        expect([next.headers.get('x-ratelimit-reset'), next.headers.get('x-ratelimit-remaining')]).toEqual([String(Date.UTC(2024, 2, 10, 12, 2, 0) / 1000), '99']);
      },
      { now: clock.now, limits: { perMinute: 100, perDay: 100_000 } },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('patch-level variants (implements-*)', () => {
  let plain: Server;
  let v320: Server;
  let v311: Server;
  let v3022: Server;
  let v300: Server;
  let retired: Server;
  let skipped: Server;
  beforeAll(async () => {
    [plain, v320, v311, v3022, v300, retired, skipped] = await Promise.all([
      start([]),
      start(['implements-3.2.0']),
      start(['implements-3.1.1']),
      start(['implements-3.0.22']),
      start(['implements-3.0.0']),
      start(['series-3-0-retired']),
      start(['series-3-1-skipped']),
    ]);
  });
  afterAll(() => Promise.all([plain, v320, v311, v3022, v300, retired, skipped].map((s) => s.ref.close())));

  const served = async (s: Server, version: string | null) => (await ok(get(s.ref, '/test/version', { ...s, version }))).body.version as string;

  it('implements-3.2.0: serves 3.0.23, 3.1.3, 3.2.0, without the changes of 3.2.1 (default: 3.2.1)', async () => {
    const rows: [string | null, string, string][] = [
      [null, '3.2.1', '3.2.0'],
      ['3', '3.0.23', '3.0.23'],
      ['3.1', '3.1.3', '3.1.3'],
      ['3.2', '3.2.1', '3.2.0'],
      ['3.3', '3.2.1', '3.2.0'],
    ];
    for (const [v, before, after] of rows) expect([await served(plain, v), await served(v320, v)], String(v)).toEqual([before, after]);
    const user = async (s: Server) => (await ok(get(s.ref, '/user', { token: (await userTokens(s.ref, 'public')).access }))).body.user;
    const [u1, u2] = [await user(plain), await user(v320)];
    expect(u1).toHaveProperty('is_staff');
    expect(u2).not.toHaveProperty('is_staff');
    expect(Object.keys(u1).filter((k) => !(k in u2))).toEqual(['is_staff']);
    // 3.2.0 itself is there: the 3.2.0 endpoints and fields.
    expect(u2).toHaveProperty('created_at');
    expect((await get(v320.ref, '/test/since-3-2', v320)).status).toBe(200);
  });

  it('implements-3.1.1: serves 3.0.23 and 3.1.1; 3.2 gets 3.1.1, without anything of 3.1.2 and later (default: 3.1.3, 3.2.1)', async () => {
    const rows: [string | null, string, string][] = [
      [null, '3.2.1', '3.1.1'],
      ['3', '3.0.23', '3.0.23'],
      ['3.0', '3.0.23', '3.0.23'],
      ['3.1', '3.1.3', '3.1.1'],
      ['3.2', '3.2.1', '3.1.1'],
      ['3.9', '3.2.1', '3.1.1'],
    ];
    for (const [v, before, after] of rows) expect([await served(plain, v), await served(v311, v)], String(v)).toEqual([before, after]);
    const root = async (s: Server, version: string | null) => (await ok(get(s.ref, '/categories/root', { ...s, version }))).body.category;
    expect(await root(plain, '3.1')).toHaveProperty('family_id');
    const old = await root(v311, null);
    for (const f of ['family_id', 'reviewable', 'adult', 'onclick_behaviour']) expect(old, f).not.toHaveProperty(f);
    // 3.1.1's own changes are there: sparse fieldsets and the category specifications endpoint.
    expect(await ok(get(v311.ref, '/categories/root?fields[root]=id', v311)).then((r) => r.body.category)).toEqual({ id: expect.any(Number) });
    expect((await get(v311.ref, '/test/since-3-2', v311)).status).toBe(404);
    const leaf = (await ok(get(v311.ref, '/categories?per=100', v311))).body.categories.find((c: { children_count: number }) => c.children_count === 0);
    expect((await get(v311.ref, `/categories/${leaf.id}/specifications`, v311)).status).toBe(200);
  });

  it('implements-3.0.22: serves 3.0.22 whatever is asked, without the changes of 3.0.23 (default: 3.0.23, 3.1.3, 3.2.1)', async () => {
    for (const v of [null, '3', '3.0', '3.1', '3.2', '3.9']) expect(await served(v3022, v), String(v)).toBe('3.0.22');
    const user = async (s: Server) => (await ok(get(s.ref, '/user', { ...s, version: '3.0', token: (await userTokens(s.ref, 'public')).access }))).body.user;
    const [now, then] = [await user(plain), await user(v3022)];
    expect([now.type !== undefined, 'name' in now]).toEqual([true, false]);
    expect([then.type, typeof then.name]).toEqual([undefined, 'string']);
    // 3.1.1's sparse fieldsets are not there: the fieldset is ignored.
    expect(Object.keys((await ok(get(v3022.ref, '/categories/root?fields[root]=id', v3022))).body.category).length).toBeGreaterThan(1);
  });

  it('implements-3.0.0: serves 3.0.0, without the endpoints, fields and behaviours of the Change history; with the fields it removed', async () => {
    expect(await served(v300, '3.2')).toBe('3.0.0');
    const root = (await ok(get(v300.ref, '/categories/root', v300))).body.category;
    expect([root.path, root.layout_mode, typeof root.show_in_tiles]).toEqual([undefined, undefined, 'boolean']);
    const leaf = (await ok(get(v300.ref, '/categories?per=100', v300))).body.categories.find((c: { children_count: number }) => c.children_count === 0);
    // Price history (3.0.15) is not there yet.
    const sku = (await ok(get(v300.ref, `/categories/${leaf.id}/skus`, v300))).body.skus[0];
    expect([(await get(plain.ref, `/skus/${sku.id}/price_history`, plain)).status, (await get(v300.ref, `/skus/${sku.id}/price_history`, v300)).status]).toEqual([200, 404]);
    const groups = await ok(get(v300.ref, `/categories/${leaf.id}/filter_groups`, v300));
    // No Cache-Control (3.0.3) and no filter_type (3.0.6) on filter groups.
    expect(groups.headers.get('cache-control')).toBeNull();
    for (const g of groups.body.filter_groups) expect(g).not.toHaveProperty('filter_type');
  });

  it('series-3-1-skipped: serves 3.0.23 and 3.2.1; version=3.1 gets 3.0.23, the previous one served (default: 3.1.3)', async () => {
    const rows: [string | null, string, string][] = [
      [null, '3.2.1', '3.2.1'],
      ['3', '3.0.23', '3.0.23'],
      ['3.0', '3.0.23', '3.0.23'],
      ['3.1', '3.1.3', '3.0.23'],
      ['3.2', '3.2.1', '3.2.1'],
    ];
    for (const [v, before, after] of rows) expect([await served(plain, v), await served(skipped, v)], String(v)).toEqual([before, after]);
  });

  it('series-3-0-retired: serves 3.1.3 and 3.2.1; version=3 and version=3.0 get 3.1.3 (default: 3.0.23)', async () => {
    const rows: [string | null, string, string][] = [
      [null, '3.2.1', '3.2.1'],
      ['3', '3.0.23', '3.1.3'],
      ['3.0', '3.0.23', '3.1.3'],
      ['3.1', '3.1.3', '3.1.3'],
      ['3.2', '3.2.1', '3.2.1'],
    ];
    for (const [v, before, after] of rows) expect([await served(plain, v), await served(retired, v)], String(v)).toEqual([before, after]);
  });
});
