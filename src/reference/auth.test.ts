// The reference's OAuth endpoints: client credentials, the authorization code flow and refresh,
// sending the token, token lifetimes, the daily call limit and the auth origins.
import { afterEach, describe, expect, it } from 'vitest';
import { appToken, authorize, get, makeClock, post, userTokens } from '../testing/reference/testkit.ts';
import { closeStarted, creds, start } from '../testing/reference/auth-servers.ts';

const DAY = 24 * 60 * 60 * 1000;
afterEach(closeStarted);

describe('token endpoint: client credentials', () => {
  it('issues an application token (form body)', async () => {
    const ref = await start();
    const r = await post(`${ref.authUrl}/oauth2/token`, { ...creds(ref), grant_type: 'client_credentials', scope: 'public' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 14 * 24 * 3600, scope: 'public' });
    expect(r.body.refresh_token).toBeUndefined();
    expect(r.body.access_token.length).toBeGreaterThanOrEqual(32);
    const again = await appToken(ref);
    expect(again).not.toBe(r.body.access_token);
  });

  it('accepts a JSON body', async () => {
    const ref = await start();
    const res = await fetch(`${ref.authUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...creds(ref), grant_type: 'client_credentials', scope: 'public' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { token_type: string }).token_type).toBe('bearer');
  });

  it('rejects other scopes, missing parameters, bad clients and unknown grants', async () => {
    const ref = await start();
    const url = `${ref.authUrl}/oauth2/token`;
    const scope = await post(url, { ...creds(ref), grant_type: 'client_credentials', scope: 'public favorites' });
    expect([scope.status, scope.body.error]).toEqual([400, 'invalid_scope']);
    const missing = await post(url, { ...creds(ref), grant_type: 'client_credentials' });
    expect([missing.status, missing.body.error]).toEqual([400, 'invalid_request']);
    const noSecret = await post(url, { client_id: ref.client.id, grant_type: 'client_credentials', scope: 'public' });
    expect([noSecret.status, noSecret.body.error]).toEqual([400, 'invalid_request']);
    const wrong = await post(url, { client_id: ref.client.id, client_secret: 'nope', grant_type: 'client_credentials', scope: 'public' });
    expect([wrong.status, wrong.body.error]).toEqual([401, 'invalid_client']);
    const unknown = await post(url, { client_id: 'who', client_secret: 'nope', grant_type: 'client_credentials', scope: 'public' });
    expect([unknown.status, unknown.body.error]).toEqual([401, 'invalid_client']);
    const grant = await post(url, { ...creds(ref), grant_type: 'password' });
    expect([grant.status, grant.body.error]).toEqual([400, 'unsupported_grant_type']);
    const badJson = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' });
    expect(badJson.status).toBe(400);
    const getToken = await fetch(url);
    expect(getToken.status).toBe(405);
  });
});

describe('authorization code flow', () => {
  it('redirects with a URL-encoded code that works once, decoded', async () => {
    const ref = await start();
    const { code, location } = await authorize(ref, 'public favorites');
    expect(location.startsWith(`${ref.client.redirectUri}?code=`)).toBe(true);
    const raw = location.slice(location.indexOf('code=') + 5);
    expect(raw).not.toBe(code);
    expect(raw).toMatch(/%2B/);
    expect(raw).toMatch(/%2F/);
    expect(decodeURIComponent(raw)).toBe(code);

    const url = `${ref.authUrl}/oauth2/token`;
    const base = { ...creds(ref), grant_type: 'authorization_code', redirect_uri: ref.client.redirectUri };
    // A client that forgets to decode sends the still-encoded code: rejected.
    const undecoded = await post(url, { ...base, code: raw });
    expect([undecoded.status, undecoded.body.error]).toEqual([400, 'invalid_grant']);

    const r = await post(url, { ...base, code });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 24 * 3600,
      scope: 'public favorites',
    });
    expect((await get(ref, '/categories/root', { token: r.body.access_token })).status).toBe(200);

    const again = await post(url, { ...base, code });
    expect([again.status, again.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('checks redirect_uri and code expiry (10 minutes)', async () => {
    const clock = makeClock();
    const ref = await start({ now: clock.now });
    const url = `${ref.authUrl}/oauth2/token`;
    const base = { ...creds(ref), grant_type: 'authorization_code' };
    const a = await authorize(ref);
    const wrongUri = await post(url, { ...base, code: a.code, redirect_uri: 'http://127.0.0.1:9/other' });
    expect([wrongUri.status, wrongUri.body.error]).toEqual([400, 'invalid_grant']);
    const noUri = await post(url, { ...base, code: a.code });
    expect([noUri.status, noUri.body.error]).toEqual([400, 'invalid_request']);
    const b = await authorize(ref);
    clock.advance(10 * 60 * 1000);
    const expired = await post(url, { ...base, code: b.code, redirect_uri: ref.client.redirectUri });
    expect([expired.status, expired.body.error]).toEqual([400, 'invalid_grant']);
    const bogus = await post(url, { ...base, code: 'bogus', redirect_uri: ref.client.redirectUri });
    expect([bogus.status, bogus.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('never redirects on invalid authorization parameters', async () => {
    const ref = await start();
    const ok = { client_id: ref.client.id, redirect_uri: ref.client.redirectUri, response_type: 'code', scope: 'public' };
    const cases: Record<string, string>[] = [
      { ...ok, redirect_uri: 'http://evil.example/cb' },
      { ...ok, client_id: 'unknown' },
      { ...ok, response_type: 'token' },
      { ...ok, scope: 'public admin' },
      { ...ok, scope: 'admin' },
      { client_id: ok.client_id, redirect_uri: ok.redirect_uri, response_type: 'code' },
    ];
    for (const q of cases) {
      const res = await fetch(`${ref.authUrl}/oauth2/authorizations/new?${new URLSearchParams(q)}`, { redirect: 'manual' });
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(((await res.json()) as { error: string }).error).toEqual(expect.any(String));
    }
  });

  it('consent "deny" redirects with error=access_denied and keeps state', async () => {
    const ref = await start({ consent: 'deny' });
    const q = new URLSearchParams({
      client_id: ref.client.id,
      redirect_uri: ref.client.redirectUri,
      response_type: 'code',
      scope: 'public',
      state: 's 1',
    });
    const res = await fetch(`${ref.authUrl}/oauth2/authorizations/new?${q}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get('location')!);
    expect(`${loc.origin}${loc.pathname}`).toBe(ref.client.redirectUri);
    expect(loc.searchParams.get('error')).toBe('access_denied');
    expect(loc.searchParams.get('code')).toBeNull();
    expect(loc.searchParams.get('state')).toBe('s 1');
  });

  it('refreshes a user token and rotates the refresh token', async () => {
    const clock = makeClock();
    const ref = await start({ now: clock.now });
    const t = await userTokens(ref);
    clock.advance(DAY);
    expect((await get(ref, '/categories/root', { token: t.access })).status).toBe(401);
    const url = `${ref.authUrl}/oauth2/token`;
    const r = await post(url, { ...creds(ref), grant_type: 'refresh_token', refresh_token: t.refresh });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 24 * 3600,
      scope: 'public favorites',
    });
    expect((await get(ref, '/categories/root', { token: r.body.access_token })).status).toBe(200);
    const reused = await post(url, { ...creds(ref), grant_type: 'refresh_token', refresh_token: t.refresh });
    expect([reused.status, reused.body.error]).toEqual([400, 'invalid_grant']);
    const missing = await post(url, { ...creds(ref), grant_type: 'refresh_token' });
    expect([missing.status, missing.body.error]).toEqual([400, 'invalid_request']);
  });

  it('a user token without the public scope cannot read categories', async () => {
    const ref = await start();
    const t = await userTokens(ref, 'favorites');
    const r = await get(ref, '/categories/root', { token: t.access });
    expect(r.status).toBe(401);
    expect(r.body.errors[0].code).toBe('Unauthorized');
  });
});

describe('sending the token', () => {
  it('accepts the header or the query parameter, not both', async () => {
    const ref = await start();
    const token = await appToken(ref);
    expect((await get(ref, '/categories/root', { token })).status).toBe(200);
    expect((await get(ref, '/categories/root', { token, inQuery: true })).status).toBe(200);
    const both = await get(ref, `/categories/root?oauth_token=${token}`, { token });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ errors: [{ code: expect.any(String), messages: [expect.any(String)] }] });
  });

  it('answers 401 with the errors body for missing and invalid tokens', async () => {
    const ref = await start();
    for (const token of [null, 'not-a-token']) {
      const r = await get(ref, '/categories', { token });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ errors: [{ code: 'Unauthorized', messages: [expect.any(String)] }] });
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    const basic = await get(ref, '/categories', { headers: { Authorization: 'Basic eDp5' } });
    expect(basic.status).toBe(401);
  });

  it('expires application tokens after 2 weeks and user tokens after 1 day', async () => {
    const clock = makeClock();
    const ref = await start({ now: clock.now });
    const app = await appToken(ref);
    const user = await userTokens(ref);
    clock.advance(DAY - 1000);
    expect((await get(ref, '/categories/root', { token: user.access })).status).toBe(200);
    clock.advance(1000);
    const expired = await get(ref, '/categories/root', { token: user.access });
    expect(expired.status).toBe(401);
    expect(expired.body.errors[0].messages[0]).toMatch(/expired/);
    expect((await get(ref, '/categories/root', { token: app })).status).toBe(200);
    clock.advance(13 * DAY - 1000);
    expect((await get(ref, '/categories/root', { token: app })).status).toBe(200);
    clock.advance(1000);
    expect((await get(ref, '/categories/root', { token: app })).status).toBe(401);
  });
});

describe('daily call limit', () => {
  it('expires every token of the client and blocks new ones until the next UTC day', async () => {
    const clock = makeClock(Date.UTC(2024, 2, 10, 23, 0, 0));
    const ref = await start({ now: clock.now, limits: { perDay: 5 } });
    const token = await appToken(ref); // call 1
    for (let i = 0; i < 4; i++) expect((await get(ref, '/categories/root', { token })).status).toBe(200); // calls 2-5
    const locked = await get(ref, '/categories/root', { token });
    expect(locked.status).toBe(401);
    expect(locked.body.errors[0].code).toBe('Unauthorized');
    const url = `${ref.authUrl}/oauth2/token`;
    const blocked = await post(url, { ...creds(ref), grant_type: 'client_credentials', scope: 'public' });
    expect([400, 403]).toContain(blocked.status);
    expect(blocked.body.error).toEqual(expect.any(String));
    clock.advance(59 * 60 * 1000); // still 2024-03-10
    expect((await post(url, { ...creds(ref), grant_type: 'client_credentials', scope: 'public' })).status).toBe(blocked.status);
    clock.advance(60 * 1000); // 2024-03-11T00:00:00Z
    const fresh = await appToken(ref);
    expect((await get(ref, '/categories/root', { token: fresh })).status).toBe(200);
    // Tokens expired by the lock-out stay expired.
    expect((await get(ref, '/categories/root', { token })).status).toBe(401);
  });
});

describe('auth origins', () => {
  it('serves /oauth2/* on a separate origin when asked', async () => {
    const ref = await start({ authOrigin: 'separate', basePath: '/api', authBasePath: '/auth' });
    expect(new URL(ref.authUrl).port).not.toBe(new URL(ref.baseUrl).port);
    expect(ref.authUrl.endsWith('/auth')).toBe(true);
    const token = await appToken(ref);
    expect((await get(ref, '/categories/root', { token })).status).toBe(200);
    const apiOrigin = new URL(ref.baseUrl).origin;
    const onApi = await post(`${apiOrigin}/auth/oauth2/token`, { ...creds(ref), grant_type: 'client_credentials', scope: 'public' });
    expect(onApi.status).toBe(404);
    const other = await fetch(`${new URL(ref.authUrl).origin}/api/categories`);
    expect(other.status).toBe(404);
    const { code } = await authorize(ref);
    expect(code.length).toBeGreaterThan(20);
  });

  it('serves /oauth2/* under authBasePath on the same origin', async () => {
    const ref = await start({ basePath: '/api', authBasePath: '/id' });
    expect(ref.authUrl).toBe(`${new URL(ref.baseUrl).origin}/id`);
    expect((await get(ref, '/categories/root', { token: await appToken(ref) })).status).toBe(200);
  });
});

describe('token lifetimes against the clock', () => {
  it('a refreshed user token lives 1 day from the refresh; a code-issued one 1 day from the exchange', async () => {
    const clock = makeClock();
    const ref = await start({ now: clock.now });
    const first = await userTokens(ref);
    clock.advance(DAY / 2);
    const r = await post(`${ref.authUrl}/oauth2/token`, { ...creds(ref), grant_type: 'refresh_token', refresh_token: first.refresh });
    const second = r.body.access_token as string;
    clock.advance(DAY / 2 - 1000);
    expect((await get(ref, '/categories/root', { token: first.access })).status).toBe(200);
    clock.advance(1000);
    expect((await get(ref, '/categories/root', { token: first.access })).status).toBe(401);
    expect((await get(ref, '/categories/root', { token: second })).status).toBe(200);
    clock.advance(DAY / 2 - 1000);
    expect((await get(ref, '/categories/root', { token: second })).status).toBe(200);
    clock.advance(1000);
    const expired = await get(ref, '/categories/root', { token: second, inQuery: true });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('an authorization code still works just before its 10 minutes end', async () => {
    const clock = makeClock();
    const ref = await start({ now: clock.now });
    const { code } = await authorize(ref);
    clock.advance(10 * 60 * 1000 - 1);
    const base = { ...creds(ref), grant_type: 'authorization_code', redirect_uri: ref.client.redirectUri };
    expect((await post(`${ref.authUrl}/oauth2/token`, { ...base, code })).status).toBe(200);
  });
});
