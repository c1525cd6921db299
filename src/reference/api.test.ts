import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiListener } from './app.ts';
import { createState } from './state.ts';
import { createDataset } from './data.ts';
import { ApiError } from './http.ts';
import { DEMO_CLIENT, FAULTS, startReference, type ReferenceOptions, type RunningReference } from './server.ts';
import { appToken, call, get, makeClock, post, rateHeaders, VND } from '../testing/reference/testkit.ts';

const running: RunningReference[] = [];
async function start(opts: ReferenceOptions = {}): Promise<{ ref: RunningReference; token: string }> {
  const ref = await startReference(opts);
  running.push(ref);
  return { ref, token: await appToken(ref) };
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

describe('startReference options', () => {
  it('returns base and auth URLs, the demo client and the fault list', async () => {
    const { ref } = await start({ basePath: '/api/' });
    expect(ref.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(ref.authUrl).toBe(new URL(ref.baseUrl).origin);
    expect(ref.client).toEqual({ id: DEMO_CLIENT.id, secret: DEMO_CLIENT.secret, redirectUri: 'http://127.0.0.1:9/callback' });
    expect([...ref.faults].sort()).toEqual(Object.keys(FAULTS).sort());
  });

  it('rejects an unknown fault naming the known ones, and bad option values', async () => {
    await expect(startReference({ fault: 'no-such-fault' })).rejects.toThrow(/no-such-fault.*leaf-children-count-nonzero/);
    await expect(startReference({ basePath: 'api' })).rejects.toThrow(/basePath/);
    await expect(startReference({ port: -1 })).rejects.toThrow(/port/);
    await expect(startReference({ limits: { perMinute: 0 } })).rejects.toThrow(/perMinute/);
    await expect(startReference({ dataset: 'x' as 'alt' })).rejects.toThrow(/dataset/);
  });

  it('counts API and token requests', async () => {
    const { ref, token } = await start();
    expect(ref.requestCount()).toBe(1);
    await get(ref, '/categories', { token });
    await get(ref, '/nowhere', { token });
    expect(ref.requestCount()).toBe(3);
  });

  it('close() ends keep-alive connections and can be called twice', async () => {
    const { ref, token } = await start();
    await get(ref, '/categories', { token });
    await Promise.all([ref.close(), ref.close()]);
    await expect(fetch(`${ref.baseUrl}/categories`)).rejects.toThrow();
  });
});

describe('routing and errors', () => {
  it('answers 404 with the errors body outside the base path and for unknown routes', async () => {
    const { ref, token } = await start({ basePath: '/api' });
    const origin = new URL(ref.baseUrl).origin;
    const outside = await fetch(`${origin}/categories`, { headers: { Authorization: `Bearer ${token}` } });
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({ errors: [{ code: 'NotFound', messages: [expect.any(String)] }] });
    expect(outside.headers.get('x-ratelimit-limit')).toBe('100');
    const unknown = await get(ref, '/no/such/route', { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe('NotFound');
    const prefixLookalike = await fetch(`${origin}/apicategories`);
    expect(prefixLookalike.status).toBe(404);
  });

  it('answers 405 with the errors body for a wrong method on a known path', async () => {
    const { ref, token } = await start();
    const r = await call(ref, 'DELETE', '/categories/1', { token });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toContain('GET');
    expect(r.body.errors[0].code).toBe('MethodNotAllowed');
  });

  it('survives malformed input', async () => {
    const { ref, token } = await start();
    for (const path of ['/categories/%E0%A4%A', '/categories/%00', '/categories/1%2F2', '/categories/99999999999999999999', '/categories/-1', '/categories/1.5']) {
      const r = await get(ref, path, { token });
      expect(r.status, path).toBe(404);
      expect(r.body.errors[0].code, path).toEqual(expect.any(String));
    }
    expect((await get(ref, '/categories/root', { token })).status).toBe(200);
  });

  it('turns an exception in a handler into 500 with the errors body and keeps running', async () => {
    const errors: unknown[] = [];
    const state = createState({
      basePath: '',
      authBasePath: '',
      fault: null,
      data: createDataset('default'),
      clients: [DEMO_CLIENT],
      perMinute: 100,
      perDay: 1000,
      consent: 'auto',
      now: Date.now,
      modules: [
        (r) => {
          r.get('/boom', () => {
            throw new Error('kaboom');
          });
          r.get('/teapot', () => {
            throw new ApiError(418, 'Teapot', ['short and stout']);
          });
          r.get('/ok', () => ({ status: 200, body: { ok: true } }));
        },
      ],
      onError: (e) => errors.push(e),
    });
    const server = createServer(createApiListener(state, true));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const fake: RunningReference = {
        baseUrl: origin,
        authUrl: origin,
        movedBaseUrl: null,
        client: { ...DEMO_CLIENT },
        faults: [],
        variants: [],
        servedVersions: ['3.0', '3.1', '3.2'],
        rateWindowMs: 60_000,
        requestCount: () => state.requests,
        stateDigest: () => '',
        stateDigests: () => ({}),
        expiredToken: () => state.auth.expiredToken(DEMO_CLIENT.id),
        close: async () => undefined,
      };
      const token = await appToken(fake);
      const boom = await get(fake, '/boom', { token });
      expect(boom.status).toBe(500);
      expect(boom.body).toEqual({ errors: [{ code: 'InternalServerError', messages: [expect.any(String)] }] });
      expect(errors).toHaveLength(1);
      const teapot = await get(fake, '/teapot', { token });
      expect([teapot.status, teapot.body.errors[0].code]).toEqual([418, 'Teapot']);
      expect((await get(fake, '/ok', { token })).status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('rate limits', () => {
  it('sends X-RateLimit-* on 2xx, 304, 4xx, counting down, reset in epoch seconds', async () => {
    const clock = makeClock();
    const { ref, token } = await start({ now: clock.now });
    const a = await get(ref, '/categories/root', { token });
    expect(rateHeaders(a.headers)).toEqual(['100', '99', String(clock.now() / 1000 + 60)]);
    const b = await get(ref, '/categories/root', { token, headers: { 'If-None-Match': a.headers.get('etag')! } });
    expect(b.status).toBe(304);
    expect(rateHeaders(b.headers)).toEqual(['100', '98', String(clock.now() / 1000 + 60)]);
    const c = await get(ref, '/categories/424242', { token });
    expect(c.status).toBe(404);
    expect(c.headers.get('x-ratelimit-remaining')).toBe('97');
    const noToken = await get(ref, '/categories/root');
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get('x-ratelimit-remaining')).toBe('99'); // per-IP window
    const bad = await get(ref, '/categories/root', { token, version: '9' });
    expect(bad.status).toBe(406);
    expect(bad.headers.get('x-ratelimit-remaining')).toBe('96');
  });

  it('answers 403 {"message"} over the per-minute limit; 304s count; the window resets', async () => {
    const clock = makeClock();
    const { ref, token } = await start({ now: clock.now, limits: { perMinute: 3 } });
    const first = await get(ref, '/categories/root', { token });
    const etag = first.headers.get('etag')!;
    expect((await get(ref, '/categories/root', { token, headers: { 'If-None-Match': etag } })).status).toBe(304);
    clock.advance(59_000);
    expect((await get(ref, '/categories/root', { token, headers: { 'If-None-Match': etag } })).status).toBe(304);
    const over = await get(ref, '/categories/root', { token });
    expect(over.status).toBe(403);
    expect(over.body).toEqual({ message: 'Rate limit exceeded' });
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(over.headers.get('x-ratelimit-limit')).toBe('3');
    // Another token has its own window.
    const other = await appToken(ref);
    expect((await get(ref, '/categories/root', { token: other })).status).toBe(200);
    clock.advance(1_000);
    const again = await get(ref, '/categories/root', { token });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('2');
  });
});

describe('conditional requests', () => {
  it('sends a strong quoted ETag on 200 GETs and 304 without a body on If-None-Match', async () => {
    const { ref, token } = await start();
    const a = await get(ref, '/categories', { token });
    const etag = a.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const b = await get(ref, '/categories', { token, headers: { 'If-None-Match': etag! } });
    expect(b.status).toBe(304);
    expect(b.text).toBe('');
    expect(b.headers.get('etag')).toBe(etag);
    const weak = await get(ref, '/categories', { token, headers: { 'If-None-Match': `"x", W/${etag!}` } });
    expect(weak.status).toBe(304);
    const other = await get(ref, '/categories', { token, headers: { 'If-None-Match': '"nope"' } });
    expect(other.status).toBe(200);
    const page2 = await get(ref, '/categories?page=2', { token });
    expect(page2.headers.get('etag')).not.toBe(etag);
    const v30 = await get(ref, '/categories/root', { token, version: '3.0' });
    const v32 = await get(ref, '/categories/root', { token, version: '3.2' });
    expect(v30.headers.get('etag')).not.toBe(v32.headers.get('etag'));
  });
});

describe('versioning', () => {
  const V31 = ['family_id'];
  const V32 = ['reviewable', 'adult', 'onclick_behaviour', 'show_spec_summary', 'unit_price_label'];

  async function fieldsFor(ref: RunningReference, token: string, accept: string | null): Promise<string[]> {
    const headers: Record<string, string> = accept === null ? {} : { Accept: accept };
    const r = await get(ref, '/categories/root', { token, headers });
    expect(r.status, String(accept)).toBe(200);
    return Object.keys(r.body.category);
  }
  function served(keys: string[]): string {
    if (V32.every((k) => keys.includes(k))) return '3.2';
    expect(V32.some((k) => keys.includes(k))).toBe(false);
    return V31.every((k) => keys.includes(k)) ? '3.1' : '3.0';
  }

  it('applies the spec rules 2-5', async () => {
    const { ref, token } = await start();
    const cases: [string | null, string][] = [
      [null, '3.2'],
      ['application/json', '3.2'],
      [VND, '3.2'],
      [`${VND}; version=3`, '3.0'],
      [`${VND}; version=3.0`, '3.0'],
      [`${VND}; version=3.1`, '3.1'],
      [`${VND}; version=3.1.9`, '3.1'],
      [`${VND}; version=3.2`, '3.2'],
      [`${VND}; version=3.2.0`, '3.2'],
      [`${VND}; version=3.3`, '3.2'],
      [`${VND}; version=3.4`, '3.2'],
      [`${VND};version="3.1"`, '3.1'],
      [`application/json, ${VND}; version=3.0`, '3.0'],
    ];
    for (const [accept, expected] of cases) {
      expect(served(await fieldsFor(ref, token, accept)), String(accept)).toBe(expected);
    }
  });

  it('answers 406 with the errors body for another major or an unparsable version', async () => {
    const { ref, token } = await start();
    for (const v of ['2', '4.0', 'abc', '3.x', '3.', '']) {
      const r = await get(ref, '/categories/root', { token, version: v });
      expect(r.status, v).toBe(406);
      expect(r.body).toEqual({ errors: [{ code: 'NotAcceptable', messages: [expect.any(String)] }] });
    }
  });
});

describe('token endpoint bookkeeping', () => {
  it('token requests count against the daily limit too', async () => {
    const { ref } = await start({ limits: { perDay: 2 } });
    await appToken(ref); // 2nd call (start() made the 1st)
    const r = await post(`${ref.authUrl}/oauth2/token`, {
      client_id: ref.client.id,
      client_secret: ref.client.secret,
      grant_type: 'client_credentials',
      scope: 'public',
    });
    expect([400, 403]).toContain(r.status);
  });
});
