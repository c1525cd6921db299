// The OAuth endpoints under the API's general rules: rate-limit headers on every response
// (RATE-4) and the errors body on every 4xx/5xx (ERR-2), beside OAuth 2.0's error fields.
import { afterEach, describe, expect, it } from 'vitest';
import { appToken, get, makeClock, post, rateHeaders, toReply, type Reply } from '../testing/reference/testkit.ts';
import { closeStarted, creds, start, submit } from '../testing/reference/auth-servers.ts';

afterEach(closeStarted);

/** OAuth 2.0's error fields and the API's errors envelope, carrying the same code and text. */
function expectOAuthError(r: Reply, status: number, error: string, what: string): void {
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
      const r = await toReply(res);
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
    const elsewhere = await toReply(await fetch(`${new URL(ref.authUrl).origin}/categories`));
    expect([elsewhere.status, ...rateHeaders(elsewhere.headers).slice(0, 2)]).toEqual([404, '50', '48']);
    expect(elsewhere.body.errors[0].code).toBe('NotFound');
  });
});

describe('OAuth endpoints: error bodies (ERR-2 and OAuth 2.0)', () => {
  it('every 4xx JSON body carries error, error_description and errors [{code: error, messages: [description]}]', async () => {
    const clock = makeClock(Date.UTC(2024, 2, 10, 23, 0, 0));
    const ref = await start({ now: clock.now, limits: { perMinute: 1000, perDay: 3 } });
    const url = `${ref.authUrl}/oauth2/token`;
    const form = (fields: Record<string, string>): Promise<Reply> => post(url, fields);
    const ok = { client_id: ref.client.id, redirect_uri: ref.client.redirectUri, response_type: 'code', scope: 'public' };
    const authz = async (q: Record<string, string>) => toReply(await fetch(`${ref.authUrl}/oauth2/authorizations/new?${new URLSearchParams(q)}`, { redirect: 'manual' }));
    const wrong = await form({ client_id: ref.client.id, client_secret: 'nope', grant_type: 'client_credentials', scope: 'public' });
    expectOAuthError(wrong, 401, 'invalid_client', 'wrong secret');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    const cases: [string, () => Promise<Reply>, number, string][] = [
      ['no grant_type', () => form(creds(ref)), 400, 'invalid_request'],
      ['no secret', () => form({ client_id: ref.client.id, grant_type: 'client_credentials', scope: 'public' }), 400, 'invalid_request'],
      // The next three authenticate the client and so count against the daily limit (3).
      ['bad scope', () => form({ ...creds(ref), grant_type: 'client_credentials', scope: 'public favorites' }), 400, 'invalid_scope'],
      ['bad grant', () => form({ ...creds(ref), grant_type: 'password' }), 400, 'unsupported_grant_type'],
      ['bad code', () => form({ ...creds(ref), grant_type: 'authorization_code', code: 'x', redirect_uri: ref.client.redirectUri }), 400, 'invalid_grant'],
      ['bad JSON', () => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' }).then(toReply), 400, 'invalid_request'],
      ['GET token', () => fetch(url).then(toReply), 405, 'invalid_request'],
      ['authorize without scope', () => authz({ ...ok, scope: '' }), 400, 'invalid_request'],
      ['authorize unknown client', () => authz({ ...ok, client_id: 'who' }), 400, 'invalid_client'],
      ['authorize response_type', () => authz({ ...ok, response_type: 'token' }), 400, 'unsupported_response_type'],
      ['authorize scope', () => authz({ ...ok, scope: 'admin' }), 400, 'invalid_scope'],
      ['POST authorize', () => fetch(`${ref.authUrl}/oauth2/authorizations/new`, { method: 'POST', body: 'x=1' }).then(toReply), 405, 'invalid_request'],
      ['decide bad nonce', () => submit(ref, '/oauth2/authorizations', { nonce: 'x', decision: 'approve' }).then(toReply), 400, 'invalid_request'],
      ['GET decide', () => fetch(`${ref.authUrl}/oauth2/authorizations`).then(toReply), 405, 'invalid_request'],
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
