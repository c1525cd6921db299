import { afterEach, describe, expect, it } from 'vitest';
import { startReference, type ReferenceOptions, type RunningReference } from './server.ts';
import { appToken, authorize, get, makeClock, post, rateHeaders, userTokens } from '../testing/reference/testkit.ts';

const DAY = 24 * 60 * 60 * 1000;
const running: RunningReference[] = [];
async function start(opts: ReferenceOptions = {}): Promise<RunningReference> {
  const ref = await startReference(opts);
  running.push(ref);
  return ref;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

function creds(ref: RunningReference): Record<string, string> {
  return { client_id: ref.client.id, client_secret: ref.client.secret };
}

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

// ---------------------------------------------------------------------------------------------
// The consent page (consent: 'page')

/** What a browser would submit: the form's action and its hidden fields. */
function consentForm(html: string): { method: string; action: string; fields: Record<string, string>; buttons: [string, string, string][] } {
  const form = /<form method="([^"]+)" action="([^"]*)">([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error('no form in the page');
  const unescape = (s: string): string => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  const fields: Record<string, string> = {};
  for (const m of form[3]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = unescape(m[2]!);
  const buttons = [...form[3]!.matchAll(/<button type="submit" name="([^"]+)" value="([^"]+)">([^<]+)<\/button>/g)].map((m) => [m[1]!, m[2]!, m[3]!] as [string, string, string]);
  return { method: form[1]!, action: unescape(form[2]!), fields, buttons };
}

async function openConsent(ref: RunningReference, extra: Record<string, string> = {}, scope = 'public favorites'): Promise<Response> {
  const q = new URLSearchParams({ client_id: ref.client.id, redirect_uri: ref.client.redirectUri, response_type: 'code', scope, ...extra });
  return fetch(`${ref.authUrl}/oauth2/authorizations/new?${q}`, { redirect: 'manual' });
}

async function submit(ref: RunningReference, action: string, fields: Record<string, string>): Promise<Response> {
  return fetch(new URL(action, ref.authUrl).href, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

describe('consent page', () => {
  it('shows an HTML form naming the client and the scopes, with Approve and Deny posting to /oauth2/authorizations', async () => {
    const ref = await start({ consent: 'page' });
    const res = await openConsent(ref, { state: 'xyz' }, 'public favorites notifications publish_sku_review_actions');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain(ref.client.id);
    for (const s of ['public', 'favorites', 'notifications', 'publish_sku_review_actions']) expect(html).toContain(`<code>${s}</code>`);
    const form = consentForm(html);
    expect(form.method).toBe('post');
    expect(form.action).toBe('/oauth2/authorizations');
    expect(form.buttons).toEqual([
      ['decision', 'approve', 'Approve'],
      ['decision', 'deny', 'Deny'],
    ]);
    expect(form.fields).toEqual({
      client_id: ref.client.id,
      redirect_uri: ref.client.redirectUri,
      response_type: 'code',
      scope: 'public favorites notifications publish_sku_review_actions',
      state: 'xyz',
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
    });
    // HEAD works too (and shows nothing).
    const head = await fetch(
      `${ref.authUrl}/oauth2/authorizations/new?${new URLSearchParams({ client_id: ref.client.id, redirect_uri: ref.client.redirectUri, response_type: 'code', scope: 'public' })}`,
      { method: 'HEAD' },
    );
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('Approve redirects with a URL-encoded code (and state) that yields a user token with the scopes', async () => {
    const ref = await start({ consent: 'page' });
    const form = consentForm(await (await openConsent(ref, { state: 'a b&c' })).text());
    const res = await submit(ref, form.action, { ...form.fields, decision: 'approve' });
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${ref.client.redirectUri}?code=`)).toBe(true);
    expect(location).toMatch(/code=[^&]*%2B/);
    const loc = new URL(location);
    expect(loc.searchParams.get('state')).toBe('a b&c');
    const tokens = await post(`${ref.authUrl}/oauth2/token`, {
      ...creds(ref),
      grant_type: 'authorization_code',
      redirect_uri: ref.client.redirectUri,
      code: loc.searchParams.get('code')!,
    });
    expect([tokens.status, tokens.body.scope]).toEqual([200, 'public favorites']);
    expect((await get(ref, '/categories/root', { token: tokens.body.access_token })).status).toBe(200);
  });

  it('Deny redirects with error=access_denied (and state), no code', async () => {
    const ref = await start({ consent: 'page' });
    const form = consentForm(await (await openConsent(ref, { state: 's' })).text());
    const res = await submit(ref, form.action, { ...form.fields, decision: 'deny' });
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get('location')!);
    expect(`${loc.origin}${loc.pathname}`).toBe(ref.client.redirectUri);
    expect([...loc.searchParams.keys()]).toEqual(['error', 'state']);
    expect(loc.searchParams.get('error')).toBe('access_denied');
  });

  it('the nonce works once, for 10 minutes, and only with the fields it was issued for', async () => {
    const clock = makeClock();
    const ref = await start({ consent: 'page', now: clock.now });
    const fresh = async () => consentForm(await (await openConsent(ref)).text());
    const expectRefused = async (fields: Record<string, string>, what: string) => {
      const r = await submit(ref, '/oauth2/authorizations', fields);
      expect(r.status, what).toBe(400);
      expect(r.headers.get('location'), what).toBeNull();
      expect(((await r.json()) as { error: string }).error, what).toBe('invalid_request');
    };
    const a = await fresh();
    expect((await submit(ref, a.action, { ...a.fields, decision: 'approve' })).status).toBe(302);
    await expectRefused({ ...a.fields, decision: 'approve' }, 'reused nonce');
    await expectRefused({ ...a.fields, decision: 'deny' }, 'reused nonce, deny');

    const b = await fresh();
    await expectRefused({ ...b.fields, scope: 'public favorites notifications', decision: 'approve' }, 'widened scope');
    // A failed attempt uses the nonce up too.
    await expectRefused({ ...b.fields, decision: 'approve' }, 'after a failed attempt');

    const c = await fresh();
    await expectRefused({ ...c.fields, redirect_uri: 'http://evil.example/cb', decision: 'approve' }, 'other redirect_uri');
    const d = await fresh();
    await expectRefused({ ...d.fields, state: 'added', decision: 'approve' }, 'added state');
    const e = await fresh();
    await expectRefused({ ...e.fields, decision: 'maybe' }, 'unknown decision');
    const f = await fresh();
    const { nonce: _n, ...withoutNonce } = f.fields;
    await expectRefused({ ...withoutNonce, decision: 'approve' }, 'no nonce');
    await expectRefused({ ...f.fields, nonce: 'forged', decision: 'approve' }, 'forged nonce');

    const g = await fresh();
    clock.advance(10 * 60 * 1000 - 1000);
    expect((await submit(ref, g.action, { ...g.fields, decision: 'approve' })).status).toBe(302);
    const h = await fresh();
    clock.advance(10 * 60 * 1000);
    await expectRefused({ ...h.fields, decision: 'approve' }, 'expired nonce');
  });

  it('validates the request before showing a page, and takes only GET/HEAD and POST on its two paths', async () => {
    const ref = await start({ consent: 'page' });
    const bad = await openConsent(ref, { redirect_uri: 'http://evil.example/cb' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const post1 = await fetch(`${ref.authUrl}/oauth2/authorizations/new`, { method: 'POST', body: 'x=1' });
    expect([post1.status, post1.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const get1 = await fetch(`${ref.authUrl}/oauth2/authorizations`);
    expect([get1.status, get1.headers.get('allow')]).toEqual([405, 'POST']);
    const junk = await fetch(`${ref.authUrl}/oauth2/authorizations`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' });
    expect(junk.status).toBe(400);
  });

  it('escapes what it echoes into the page', async () => {
    const ref = await start({ consent: 'page' });
    const html = await (await openConsent(ref, { state: '"><script>alert(1)</script>&amp;' })).text();
    expect(html).not.toContain('<script>');
    expect(consentForm(html).fields['state']).toBe('"><script>alert(1)</script>&amp;');
  });

  it('works on a separate auth origin under an auth base path', async () => {
    const ref = await start({ consent: 'page', authOrigin: 'separate', basePath: '/api', authBasePath: '/auth' });
    const form = consentForm(await (await openConsent(ref)).text());
    expect(form.action).toBe('/auth/oauth2/authorizations');
    const res = await submit(ref, form.action, { ...form.fields, decision: 'approve' });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).searchParams.get('code')).toEqual(expect.any(String));
  });

  it('in auto and deny modes POST /oauth2/authorizations has no nonce to accept', async () => {
    const ref = await start();
    const r = await submit(ref, '/oauth2/authorizations', { client_id: ref.client.id, nonce: 'x', decision: 'approve' });
    expect(r.status).toBe(400);
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

// ---------------------------------------------------------------------------------------------
// The OAuth endpoints under the API's general rules: rate-limit headers on every response
// (RATE-4) and the errors body on every 4xx/5xx (ERR-2), beside OAuth 2.0's error fields.

/** A reply of any kind (JSON or not) with its parsed JSON body, if any. */
async function reply(res: Response): Promise<{ status: number; headers: Headers; body: any }> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body };
}

/** OAuth 2.0's error fields and the API's errors envelope, carrying the same code and text. */
function expectOAuthError(r: { status: number; headers: Headers; body: any }, status: number, error: string, what: string): void {
  expect(r.status, what).toBe(status);
  expect(r.headers.get('content-type'), what).toBe('application/json; charset=utf-8');
  expect(r.body, what).toEqual(
    expect.objectContaining({
      error,
      error_description: expect.any(String),
      errors: [{ code: error, messages: [expect.any(String)] }],
    }),
  );
  expect(r.body.errors[0].messages[0], what).toBe(r.body.error_description);
}

describe('OAuth endpoints: rate-limit headers (RATE-4)', () => {
  it('are on every response of the three endpoints, from a per-minute window per client IP of their own', async () => {
    const clock = makeClock(Date.UTC(2024, 5, 1, 8, 30, 15, 250));
    const ref = await start({ now: clock.now, limits: { perMinute: 6, perDay: 1000 } });
    const url = `${ref.authUrl}/oauth2/token`;
    const reset = String(Math.ceil((clock.now() + 60_000) / 1000));
    const issued = await post(url, { ...creds(ref), grant_type: 'client_credentials', scope: 'public' });
    expect(issued.status).toBe(200);
    expect(rateHeaders(issued.headers)).toEqual(['6', '5', reset]);
    const q = new URLSearchParams({ client_id: ref.client.id, redirect_uri: ref.client.redirectUri, response_type: 'code', scope: 'public' });
    const redirect = await fetch(`${ref.authUrl}/oauth2/authorizations/new?${q}`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([302, expect.stringContaining('code=')]);
    expect(rateHeaders(redirect.headers)).toEqual(['6', '4', reset]);
    const wrong = await post(url, { client_id: ref.client.id, client_secret: 'nope', grant_type: 'client_credentials', scope: 'public' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(rateHeaders(wrong.headers)).toEqual(['6', '3', reset]);
    const decide = await submit(ref, '/oauth2/authorizations', { nonce: 'x', decision: 'approve' });
    expect([decide.status, ...rateHeaders(decide.headers)]).toEqual([400, '6', '2', reset]);
    const wrongMethod = await fetch(url);
    expect([wrongMethod.status, ...rateHeaders(wrongMethod.headers)]).toEqual([405, '6', '1', reset]);
    // The API's windows are apart: the token's own, and the IP's for requests without a token.
    const api = await get(ref, '/categories/root', { token: issued.body.access_token });
    expect([api.status, ...rateHeaders(api.headers).slice(0, 2)]).toEqual([200, '6', '5']);
    expect(rateHeaders((await get(ref, '/categories/root')).headers).slice(0, 2)).toEqual(['6', '5']);
    const last = await post(url, { ...creds(ref), grant_type: 'client_credentials', scope: 'public' });
    expect([last.status, ...rateHeaders(last.headers)]).toEqual([200, '6', '0', reset]);
  });

  it('over the limit: 403 with {message} and the OAuth error fields on every endpoint, uncounted by the daily limit; the next window serves again', async () => {
    const clock = makeClock();
    const ref = await start({ now: clock.now, limits: { perMinute: 2, perDay: 3 } });
    const url = `${ref.authUrl}/oauth2/token`;
    const token = await appToken(ref); // per minute 1, daily 1
    expect((await post(url, { grant_type: 'client_credentials' })).status).toBe(400); // per minute 2
    const q = new URLSearchParams({ client_id: ref.client.id, redirect_uri: ref.client.redirectUri, response_type: 'code', scope: 'public' });
    const overs = [
      ['token', await fetch(url, { method: 'POST', body: new URLSearchParams({ ...creds(ref), grant_type: 'client_credentials', scope: 'public' }) })],
      ['authorize', await fetch(`${ref.authUrl}/oauth2/authorizations/new?${q}`, { redirect: 'manual' })],
      ['decide', await submit(ref, '/oauth2/authorizations', { nonce: 'x', decision: 'approve' })],
      ['wrong method', await fetch(url)],
    ] as const;
    for (const [what, res] of overs) {
      const r = await reply(res);
      expectOAuthError(r, 403, 'access_denied', what);
      expect(r.body.message, what).toEqual(expect.any(String));
      expect(r.headers.get('location'), what).toBeNull();
      expect(rateHeaders(r.headers).slice(0, 2), what).toEqual(['2', '0']);
    }
    // The API token's window is untouched by all this.
    expect((await get(ref, '/categories/root', { token })).status).toBe(200);
    clock.advance(60_000);
    // Daily limit 3 (a token request and an API call so far): the refused token request did not
    // count, so one more token is issued.
    const fresh = await post(url, { ...creds(ref), grant_type: 'client_credentials', scope: 'public' });
    expect([fresh.status, ...rateHeaders(fresh.headers).slice(0, 2)]).toEqual([200, '2', '1']);
  });

  it('also on a separate auth origin, its 404s included', async () => {
    const ref = await start({ authOrigin: 'separate', authBasePath: '/auth', limits: { perMinute: 50, perDay: 1000 } });
    await appToken(ref);
    const elsewhere = await reply(await fetch(`${new URL(ref.authUrl).origin}/categories`));
    expect([elsewhere.status, ...rateHeaders(elsewhere.headers).slice(0, 2)]).toEqual([404, '50', '48']);
    expect(elsewhere.body.errors[0].code).toBe('NotFound');
  });
});

describe('OAuth endpoints: error bodies (ERR-2 and OAuth 2.0)', () => {
  it('every 4xx JSON body carries error, error_description and errors [{code: error, messages: [description]}]', async () => {
    const clock = makeClock(Date.UTC(2024, 2, 10, 23, 0, 0));
    const ref = await start({ now: clock.now, limits: { perMinute: 1000, perDay: 3 } });
    const url = `${ref.authUrl}/oauth2/token`;
    const form = (fields: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }> => post(url, fields);
    const ok = { client_id: ref.client.id, redirect_uri: ref.client.redirectUri, response_type: 'code', scope: 'public' };
    const authz = async (q: Record<string, string>) => reply(await fetch(`${ref.authUrl}/oauth2/authorizations/new?${new URLSearchParams(q)}`, { redirect: 'manual' }));
    const wrong = await form({ client_id: ref.client.id, client_secret: 'nope', grant_type: 'client_credentials', scope: 'public' });
    expectOAuthError(wrong, 401, 'invalid_client', 'wrong secret');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    type R = { status: number; headers: Headers; body: any };
    const cases: [string, () => Promise<R>, number, string][] = [
      ['no grant_type', () => form(creds(ref)), 400, 'invalid_request'],
      ['no secret', () => form({ client_id: ref.client.id, grant_type: 'client_credentials', scope: 'public' }), 400, 'invalid_request'],
      // The next three authenticate the client and so count against the daily limit (3).
      ['bad scope', () => form({ ...creds(ref), grant_type: 'client_credentials', scope: 'public favorites' }), 400, 'invalid_scope'],
      ['bad grant', () => form({ ...creds(ref), grant_type: 'password' }), 400, 'unsupported_grant_type'],
      ['bad code', () => form({ ...creds(ref), grant_type: 'authorization_code', code: 'x', redirect_uri: ref.client.redirectUri }), 400, 'invalid_grant'],
      ['bad JSON', () => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' }).then(reply), 400, 'invalid_request'],
      ['GET token', () => fetch(url).then(reply), 405, 'invalid_request'],
      ['authorize without scope', () => authz({ ...ok, scope: '' }), 400, 'invalid_request'],
      ['authorize unknown client', () => authz({ ...ok, client_id: 'who' }), 400, 'invalid_client'],
      ['authorize response_type', () => authz({ ...ok, response_type: 'token' }), 400, 'unsupported_response_type'],
      ['authorize scope', () => authz({ ...ok, scope: 'admin' }), 400, 'invalid_scope'],
      ['POST authorize', () => fetch(`${ref.authUrl}/oauth2/authorizations/new`, { method: 'POST', body: 'x=1' }).then(reply), 405, 'invalid_request'],
      ['decide bad nonce', () => submit(ref, '/oauth2/authorizations', { nonce: 'x', decision: 'approve' }).then(reply), 400, 'invalid_request'],
      ['GET decide', () => fetch(`${ref.authUrl}/oauth2/authorizations`).then(reply), 405, 'invalid_request'],
      // The daily limit's 403 on the token endpoint.
      ['daily limit', () => form({ ...creds(ref), grant_type: 'client_credentials', scope: 'public' }), 403, 'access_denied'],
    ];
    for (const [what, send, status, error] of cases) expectOAuthError(await send(), status, error, what);
    // The access_denied redirect stays a plain redirect.
    const denying = await start({ consent: 'deny' });
    const denied = await fetch(
      `${denying.authUrl}/oauth2/authorizations/new?${new URLSearchParams({ ...ok, client_id: denying.client.id, redirect_uri: denying.client.redirectUri })}`,
      { redirect: 'manual' },
    );
    expect([denied.status, await denied.text()]).toEqual([302, '']);
    expect(new URL(denied.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
  });
});
