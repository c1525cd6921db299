import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpClient } from '../http/client.ts';
import { secrets } from '../http/redact.ts';
import { startReference, type RunningReference } from '../reference/server.ts';
import { AuthError, loopbackConsent, TokenManager, type TokenSettings } from './tokens.ts';

let ref: RunningReference;
const http = () => new HttpClient({ apiVersion: '3.2', timeoutMs: 5_000 });

function settings(r: RunningReference, extra: Partial<TokenSettings> = {}): TokenSettings {
  return {
    authUrl: r.authUrl,
    clientId: r.client.id,
    clientSecret: r.client.secret,
    redirectUri: r.client.redirectUri,
    userToken: null,
    userRefreshToken: null,
    ...extra,
  };
}

async function rootStatus(r: RunningReference, token: string): Promise<number> {
  const response = await http().request(`${r.baseUrl}/categories/root`, { token });
  return response.status;
}

beforeAll(async () => {
  ref = await startReference({ authOrigin: 'separate' });
});
afterAll(() => ref.close());

describe('application token (client credentials)', () => {
  test('is obtained once and cached, also for concurrent callers', async () => {
    const tokens = new TokenManager({ settings: settings(ref), http: http() });
    const before = ref.requestCount();
    const [a, b] = await Promise.all([tokens.appToken(), tokens.appToken()]);
    const c = await tokens.appToken();
    expect(a).toBe(b);
    expect(c).toBe(a);
    expect(ref.requestCount() - before).toBe(1);
    expect(await rootStatus(ref, a)).toBe(200);
  });

  test('is renewed after a 401 reported it rejected, and registered as a secret', async () => {
    const tokens = new TokenManager({ settings: settings(ref), http: http() });
    const first = await tokens.appToken();
    expect(secrets.scrub(`x ${first} y`)).toBe('x [REDACTED] y');
    tokens.rejected('app', 'some-other-token');
    expect(await tokens.appToken()).toBe(first);
    tokens.rejected('app', first);
    const second = await tokens.appToken();
    expect(second).not.toBe(first);
  });

  test('is renewed when its lifetime (expires_in) is nearly over', async () => {
    let now = Date.now();
    const tokens = new TokenManager({ settings: settings(ref), http: http(), now: () => now });
    const first = await tokens.appToken();
    now += 13 * 24 * 3600 * 1000; // 13 of the 14 days
    expect(await tokens.appToken()).toBe(first);
    now += 1 * 24 * 3600 * 1000;
    expect(await tokens.appToken()).not.toBe(first);
  });

  test('a wrong client secret is a one-line authentication failure naming the keys to check', async () => {
    const tokens = new TokenManager({ settings: settings(ref, { clientSecret: 'wrong-secret-value' }), http: http() });
    const error = await tokens.appToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toMatch(/authentication failed: POST .*\/oauth2\/token \(client credentials\) answered 401 invalid_client/);
    expect((error as Error).message).toContain('CATALOGUE_CLIENT_SECRET');
    expect((error as Error).message).not.toContain('\n');
  });

  test('an unreachable auth server is a one-line failure saying so', async () => {
    const gone = await startReference({});
    const authUrl = gone.authUrl;
    await gone.close();
    const tokens = new TokenManager({ settings: settings(ref, { authUrl }), http: http() });
    await expect(tokens.appToken()).rejects.toThrow(/cannot obtain a token \(client credentials\): POST .* connection refused/);
  });
});

describe('user token', () => {
  test('by the authorization-code flow when the deployment consents at once (URL-encoded code decoded)', async () => {
    const tokens = new TokenManager({ settings: settings(ref), http: http() });
    const result = await tokens.userToken();
    expect(result).toHaveProperty('token');
    const token = (result as { token: string }).token;
    expect(await rootStatus(ref, token)).toBe(200);
    // Cached: the second call makes no request.
    const before = ref.requestCount();
    expect(await tokens.userToken()).toEqual({ token, scopes: ['public', 'favorites', 'notifications', 'publish_sku_review_actions'] });
    expect(ref.requestCount()).toBe(before);
  });

  test('a denied consent makes user tests skip with the reason, not fail', async () => {
    const denying = await startReference({ consent: 'deny' });
    try {
      const tokens = new TokenManager({ settings: settings(denying), http: http() });
      expect(await tokens.userToken()).toEqual({ unavailable: 'no user token: the deployment redirected with error=access_denied' });
    } finally {
      await denying.close();
    }
  });

  test('without a redirect URI, token or refresh token there is no user token, and the reason says what to set', async () => {
    const tokens = new TokenManager({ settings: settings(ref, { redirectUri: null }), http: http() });
    const result = await tokens.userToken();
    expect(result).toHaveProperty('unavailable');
    expect((result as { unavailable: string }).unavailable).toMatch(/CATALOGUE_USER_TOKEN.*CATALOGUE_USER_REFRESH_TOKEN.*CATALOGUE_REDIRECT_URI/);
  });

  test('a configured user token is used as is; once rejected without a refresh token it is gone', async () => {
    const tokens = new TokenManager({ settings: settings(ref, { userToken: 'configured-user-token' }), http: http() });
    const before = ref.requestCount();
    expect(await tokens.userToken()).toEqual({ token: 'configured-user-token' });
    expect(ref.requestCount()).toBe(before);
    tokens.rejected('user', 'configured-user-token');
    expect(await tokens.userToken()).toEqual({ unavailable: 'the user token was rejected (401) and no refresh token is configured' });
  });

  test('a refresh token is exchanged for a user token, and a rotated refresh token is kept', async () => {
    // Get a refresh token the way a user would: the code flow, by hand.
    const consent = await request(
      `${ref.authUrl}/oauth2/authorizations/new?${new URLSearchParams({ client_id: ref.client.id, redirect_uri: ref.client.redirectUri, response_type: 'code', scope: 'public favorites' })}`,
    );
    await consent.body.dump();
    const code = new URL(String(consent.headers['location'])).searchParams.get('code')!;
    const exchange = await request(`${ref.authUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: ref.client.id,
        client_secret: ref.client.secret,
        redirect_uri: ref.client.redirectUri,
        code,
      }).toString(),
    });
    const { refresh_token } = (await exchange.body.json()) as { refresh_token: string };
    expect(refresh_token).toBeTruthy();

    const tokens = new TokenManager({ settings: settings(ref, { userRefreshToken: refresh_token, redirectUri: null }), http: http() });
    const first = (await tokens.userToken()) as { token: string; scopes?: string[] };
    expect(await rootStatus(ref, first.token)).toBe(200);
    // The refresh answer names the scope of the grant.
    expect(first.scopes).toEqual(['public', 'favorites']);
    // The reference rotates refresh tokens: renewing again works only with the new one.
    tokens.rejected('user', first.token);
    const second = (await tokens.userToken()) as { token: string };
    expect(second.token).toBeTruthy();
    expect(second.token).not.toBe(first.token);
  });
});

describe('scopes of the user token', () => {
  /** The scope parameter of every consent request the manager makes. */
  function recordingHttp(): { http: HttpClient; scopes: string[] } {
    const scopes: string[] = [];
    const client = new HttpClient({
      apiVersion: '3.2',
      timeoutMs: 5_000,
      hooks: {
        onExchange: (exchange) => {
          const url = new URL(exchange.url);
          if (url.pathname.endsWith('/oauth2/authorizations/new')) scopes.push(url.searchParams.get('scope') ?? '');
        },
      },
    });
    return { http: client, scopes };
  }

  test('asks for publish_sku_review_actions (votes and flags need it) when the deployment grants it', async () => {
    const { http: client, scopes } = recordingHttp();
    const tokens = new TokenManager({ settings: settings(ref), http: client });
    // What was granted comes with the token: conditions such as "with publish_sku_review_actions" read it.
    expect(await tokens.userToken()).toEqual({ token: expect.any(String), scopes: ['public', 'favorites', 'notifications', 'publish_sku_review_actions'] });
    expect(scopes).toEqual(['public favorites notifications publish_sku_review_actions']);
  });

  test("asks again without it when the authorization step refuses it (the spec's step-1 table lists three scopes), and remembers", async () => {
    const strict = await startReference({ reviewActionsScope: 'refused' });
    try {
      const { http: client, scopes } = recordingHttp();
      const tokens = new TokenManager({ settings: settings(strict), http: client });
      const result = (await tokens.userToken()) as { token: string; scopes?: string[] };
      expect(await rootStatus(strict, result.token)).toBe(200);
      expect(result.scopes).toEqual(['public', 'favorites', 'notifications']);
      expect(await tokens.ownUserToken()).toHaveProperty('token');
      expect(scopes).toEqual(['public favorites notifications publish_sku_review_actions', 'public favorites notifications', 'public favorites notifications']);
    } finally {
      await strict.close();
    }
  });
});

describe('a user token of its own (for logout)', () => {
  test('is a new token on every call, apart from the shared one, and works', async () => {
    const tokens = new TokenManager({ settings: settings(ref), http: http() });
    const shared = (await tokens.userToken()) as { token: string };
    const own = (await tokens.ownUserToken()) as { token: string };
    const another = (await tokens.ownUserToken()) as { token: string };
    expect(new Set([shared.token, own.token, another.token]).size).toBe(3);
    expect(await rootStatus(ref, own.token)).toBe(200);
    expect(secrets.scrub(own.token)).toBe('[REDACTED]');
    // The shared token is still the cached one.
    expect(await tokens.userToken()).toEqual(shared);
  });

  test('is unavailable, with the reason, when consent needs a person at a browser', async () => {
    const paged = await startReference({ consent: 'page' });
    try {
      const tokens = new TokenManager({ settings: settings(paged), http: http(), interactive: async () => 'never called' });
      const result = await tokens.ownUserToken();
      expect(result).toHaveProperty('unavailable');
      expect((result as { unavailable: string }).unavailable).toMatch(/^no user token of its own: the deployment shows a consent page/);
    } finally {
      await paged.close();
    }
  });
});

describe('interactive consent on a loopback listener', () => {
  test('prints the URL and resolves with the redirect the browser brings back', async () => {
    const lines: string[] = [];
    const consent = loopbackConsent((line) => lines.push(line), 5_000);
    // A port the system just handed out and took back: free, unlike a random one (which another
    // test's server, or an outgoing connection, may hold).
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const pending = consent('http://auth.example/consent?x=1', redirectUri);
    pending.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lines.join('\n')).toContain('http://auth.example/consent?x=1');
    // The "browser" follows the deployment's redirect.
    const browser = await request(`${redirectUri}?code=abc%2Bdef`);
    expect(browser.statusCode).toBe(200);
    await browser.body.dump();
    expect(new URL(await pending).searchParams.get('code')).toBe('abc+def');
  });

  test('refuses a redirect URI it cannot listen on', async () => {
    const consent = loopbackConsent(() => undefined, 1_000);
    await expect(consent('http://auth.example/', 'https://app.example/callback')).rejects.toThrow(/needs CATALOGUE_REDIRECT_URI on http:\/\/127\.0\.0\.1/);
  });
});
