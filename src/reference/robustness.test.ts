// Bad input never gives a 500 or a crash (issue 3, point 9): malformed bodies, ids, paths,
// percent-encoding, oversized bodies, long URLs and headers, HEAD, unsupported and unknown
// methods, HTTP-level garbage, slow clients, aborted uploads, and 1,000 concurrent requests.
// Every answer of the API server carries the errors body and the rate-limit headers.

import { connect } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceOptions, RunningReference } from './server.ts';
import { call, get, startWithToken, userTokens } from '../testing/reference/testkit.ts';
import { TEST_ROUTES } from '../testing/reference/protocol.testroutes.ts';

/** A server with the test-only routes, recording what reached its 500 handler. */
async function startTest(opts: ReferenceOptions = {}): Promise<{ ref: RunningReference; token: string; errors: unknown[] }> {
  const errors: unknown[] = [];
  const started = await startWithToken({
    ...opts,
    testHooks: { extraRoutes: [TEST_ROUTES], onError: (e) => errors.push(e), ...(opts.testHooks ?? {}) },
  });
  return { ...started, errors };
}

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds until the server closed the connection. */
  closedAfter: number;
}

/** Sends raw bytes on a new connection and reads until the server closes it (or `timeoutMs`). */
function raw(ref: RunningReference, chunks: (string | Buffer)[], timeoutMs = 5000): Promise<RawReply> {
  const { hostname, port } = new URL(ref.baseUrl);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname, () => {
      for (const c of chunks) socket.write(c);
    });
    const parts: Buffer[] = [];
    socket.on('data', (d: Buffer) => parts.push(d));
    socket.on('error', () => undefined);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${timeoutMs} ms; got ${Buffer.concat(parts).toString('latin1').slice(0, 200)}`));
    }, timeoutMs);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(parts).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), closedAfter: Date.now() - started });
    });
  });
}

function expectErrorsBody(body: unknown, code: string): void {
  expect(body).toEqual({ errors: [{ code, messages: [expect.any(String)] }] });
}

function expectRateHeaders(get: (name: string) => string | null | undefined, what: string): void {
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(get(h), `${what}: ${h}`).toMatch(/^\d+$/);
}

describe('bad input', () => {
  let ref: RunningReference;
  let token: string;
  let errors: unknown[];
  beforeAll(async () => ({ ref, token, errors } = await startTest({ basePath: '/api' })));
  afterAll(async () => {
    await ref.close();
    // Not one of the requests above reached a 500.
    expect(errors).toEqual([]);
  });

  it('malformed or non-object JSON bodies and unsupported body types are 400 BadRequest', async () => {
    const cases: [string, string][] = [
      ['{', 'application/json'],
      ['{"a":1,}', 'application/json'],
      ['[1,2]', 'application/json'],
      ['"text"', 'application/json'],
      ['null', 'application/json'],
      ['42', 'application/vnd.service+json'],
      ['\u0000\u0001', 'application/json'],
      ['<a/>', 'application/xml'],
      ['plain', 'text/plain'],
    ];
    for (const [body, type] of cases) {
      const r = await call(ref, 'POST', '/test/echo', { token, headers: { 'Content-Type': type }, raw: body });
      expect(r.status, `${type} ${body}`).toBe(400);
      expectErrorsBody(r.body, 'BadRequest');
      expectRateHeaders((h) => r.headers.get(h), body);
    }
    const invalidUtf8 = await call(ref, 'POST', '/test/echo', {
      token,
      headers: { 'Content-Type': 'application/json' },
      raw: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(invalidUtf8.status).toBe(400);
  });

  it('empty bodies are null; forms with bracket keys nest; __proto__ keys pollute nothing', async () => {
    const empty = await call(ref, 'POST', '/test/echo', { token, headers: { 'Content-Type': 'application/json' }, raw: '' });
    expect([empty.status, empty.body]).toEqual([201, { body: null }]);
    const form = await call(ref, 'POST', '/test/echo', {
      token,
      form: 'favorite[sku_id]=12&favorite[tags][]=a&favorite[tags][]=b&__proto__[polluted]=1&a[constructor][prototype][polluted]=1&x=%ZZ',
    });
    expect(form.status).toBe(201);
    expect(form.body).toEqual({ body: { favorite: { sku_id: '12', tags: ['a', 'b'] }, x: '%ZZ' } });
    const json = await call(ref, 'POST', '/test/echo', {
      token,
      headers: { 'Content-Type': 'application/json' },
      raw: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}',
    });
    expect(json.status).toBe(201);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('non-integer ids are 404 RecordNotFound', async () => {
    const ids = ['abc', '1e3', '0x10', '-1', '1.5', '%201', '%EF%BC%91', '99999999999999999999', '1%2F2', 'root%00', 'x'.repeat(5000)];
    for (const id of ids) {
      const r = await get(ref, `/categories/${id}`, { token });
      expect(r.status, id.slice(0, 20)).toBe(404);
      expectErrorsBody(r.body, 'RecordNotFound');
      expect(r.body.errors[0].messages[0].length).toBeLessThan(200);
    }
  });

  it('unknown routes and weird paths are 404 NotFound', async () => {
    const paths = ['/nope', '/categories/1/nope', '/%', '/%zz/x', '/%E0%A4%A', '/..%2F..%2Fetc%2Fpasswd', '/%00/categories', `/${'a/'.repeat(2000)}`];
    for (const p of paths) {
      const r = await get(ref, p, { token });
      expect(r.status, p.slice(0, 30)).toBe(404);
      expectErrorsBody(r.body, 'NotFound');
      expectRateHeaders((h) => r.headers.get(h), p.slice(0, 30));
      expect(r.body.errors[0].messages[0].length).toBeLessThan(300);
    }
  });

  it('bad query parameters are 400, never 500', async () => {
    for (const q of ['page=x', 'page=0', 'per=-1', 'per=1e3', 'page=%ZZ', 'per=99999999999999999999']) {
      const r = await get(ref, `/categories?${q}`, { token });
      expect(r.status, q).toBe(400);
      expectErrorsBody(r.body, 'InvalidParameter');
    }
    const twice = await get(ref, `/categories?oauth_token=${token}&oauth_token=${token}`);
    expect(twice.status).toBe(400);
    // Garbage that is not a parameter of the endpoint is ignored.
    expect((await get(ref, '/categories?%=%&&=&a[=1&fields[=2', { token })).status).toBe(200);
  });

  it('invalid order_by / order_dir and missing required body parameters are 400 on the real endpoints', async () => {
    const m = (await get(ref, '/manufacturers?per=1', { token })).body.manufacturers[0].id as number;
    for (const q of [`/manufacturers/${m}/skus?order_by=nope`, `/manufacturers/${m}/categories?order_dir=up`, `/manufacturers/${m}/skus?order_by=${'x'.repeat(3000)}`]) {
      const r = await get(ref, q, { token });
      expect(r.status, q.slice(0, 40)).toBe(400);
      expectErrorsBody(r.body, 'InvalidParameter');
      expect(r.body.errors[0].messages[0].length).toBeLessThan(300);
    }
    const user = (await userTokens(ref, 'public favorites')).access;
    for (const body of ['{}', '{"favorite":{}}', '{"favorite":"x"}', '{"favorite":{"sku_id":"abc"}}', '{"favorite":{"sku_id":1.5}}']) {
      const r = await call(ref, 'POST', '/favorites', { token: user, headers: { 'Content-Type': 'application/json' }, raw: body });
      expect(r.status, body).toBe(400);
      expect(r.body.errors[0].code, body).toEqual(expect.any(String));
    }
  });

  it('odd Authorization and Accept headers are 401 / 406 or served, never 500', async () => {
    for (const auth of ['Bearer', 'Bearer  ', `Bearer ${token} extra`, 'Basic', 'bearer', 'Bearer \u00e9']) {
      const r = await call(ref, 'GET', '/categories/root', { token: 'x', headers: { Authorization: auth } });
      expect([400, 401], auth).toContain(r.status);
    }
    const lower = await call(ref, 'GET', '/categories/root', { token, headers: { Authorization: `bearer ${token}` } });
    expect(lower.status).toBe(200);
    const longAccept = await get(ref, '/categories/root', { token, headers: { Accept: `${'text/html, '.repeat(1000)}*/*` } });
    expect(longAccept.status).toBe(200);
    const weird = await get(ref, '/categories/root', { token, headers: { Accept: 'application/vnd.service+json; version=; version' } });
    expect(weird.status).toBe(406);
  });

  it('HEAD answers like GET without a body, errors included', async () => {
    const ok = await call(ref, 'HEAD', '/categories/root', { token });
    expect([ok.status, ok.text]).toEqual([200, '']);
    expect(ok.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const missing = await call(ref, 'HEAD', '/categories/999999999', { token });
    expect([missing.status, missing.text]).toEqual([404, '']);
    expectRateHeaders((h) => missing.headers.get(h), 'HEAD 404');
  });

  it('methods a path does not have are 405 with Allow; unknown methods 501; CONNECT 405', async () => {
    for (const method of ['OPTIONS', 'PUT', 'PATCH', 'DELETE', 'PROPFIND']) {
      const r = await call(ref, method, '/categories/root', { token });
      expect(r.status, method).toBe(405);
      expect(r.headers.get('allow')).toBe('GET, HEAD');
      expectErrorsBody(r.body, 'MethodNotAllowed');
    }
    const host = new URL(ref.baseUrl).host;
    const trace = await raw(ref, [`TRACE /api/categories/root HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`]);
    expect(trace.status).toBe(405);
    expectErrorsBody(JSON.parse(trace.body), 'MethodNotAllowed');
    const unknown = await raw(ref, [`FROB /api/categories/root HTTP/1.1\r\nHost: ${host}\r\n\r\n`]);
    expect(unknown.status).toBe(501);
    expectErrorsBody(JSON.parse(unknown.body), 'NotImplemented');
    expectRateHeaders((h) => unknown.headers[h], 'FROB');
    const tunnel = await raw(ref, [`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`]);
    expect(tunnel.status).toBe(405);
    expectErrorsBody(JSON.parse(tunnel.body), 'MethodNotAllowed');
  });

  it('HTTP-level garbage gets 400 with the errors body, a missing Host too', async () => {
    const host = new URL(ref.baseUrl).host;
    const garbage = [
      'GET /api/categories HTTP/9.9\r\n\r\n',
      `GET /api/categories HTTP/1.1\r\nHost: ${host}\r\nContent-Length: abc\r\n\r\n`,
      `GET /api/categories HTTP/1.1\r\nHost: ${host}\r\nBad Header\r\n\r\n`,
      `POST /api/test/echo HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
      'GET /a b c HTTP/1.1\r\n\r\n',
    ];
    for (const req of garbage) {
      const r = await raw(ref, [req]);
      expect(r.status, JSON.stringify(req)).toBe(400);
      expectErrorsBody(JSON.parse(r.body), 'BadRequest');
    }
    const noHost = await raw(ref, [`GET /api/categories/root HTTP/1.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`]);
    expect(noHost.status).toBe(400);
    expectErrorsBody(JSON.parse(noHost.body), 'BadRequest');
    expectRateHeaders((h) => noHost.headers[h], 'no Host');
    const http10 = await raw(ref, [`GET /api/categories/root HTTP/1.0\r\nAuthorization: Bearer ${token}\r\n\r\n`]);
    expect(http10.status).toBe(200);
  });

  it('long URLs and headers: served up to 16 KiB, then 431 with the errors body', async () => {
    const longOk = await get(ref, `/categories/root?q=${'x'.repeat(12_000)}`, { token });
    expect(longOk.status).toBe(200);
    const longUrl = await get(ref, `/categories/root?q=${'x'.repeat(20_000)}`, { token });
    expect(longUrl.status).toBe(431);
    expectErrorsBody(longUrl.body, 'RequestHeaderFieldsTooLarge');
    expectRateHeaders((h) => longUrl.headers.get(h), '431');
    const longHeader = await get(ref, '/categories/root', { token, headers: { 'X-Filler': 'y'.repeat(20_000) } });
    expect(longHeader.status).toBe(431);
    const manyHeaders = await get(ref, '/categories/root', {
      token,
      headers: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`x-h${i}`, 'v'])),
    });
    expect(manyHeaders.status).toBe(431);
    expect((await get(ref, '/categories/root', { token })).status).toBe(200);
  });
});

describe('request bodies over the limit', () => {
  let ref: RunningReference;
  let token: string;
  beforeAll(async () => ({ ref, token } = await startTest()));
  afterAll(() => ref.close());
  const BIG = Buffer.alloc(2 * 1024 * 1024 + 1, 0x20);

  it('a body over 2 MiB (Content-Length) is 400, and the connection serves on', async () => {
    const r = await call(ref, 'POST', '/test/echo', { token, headers: { 'Content-Type': 'application/json' }, raw: BIG });
    expect(r.status).toBe(400);
    expectErrorsBody(r.body, 'BadRequest');
    expect(r.body.errors[0].messages[0]).toMatch(/2097152/);
    expectRateHeaders((h) => r.headers.get(h), 'too large');
    // Exactly 2 MiB of JSON is read.
    const ok = Buffer.concat([Buffer.from('{"a":"'), Buffer.alloc(2 * 1024 * 1024 - 8, 0x61), Buffer.from('"}')]);
    expect((await call(ref, 'POST', '/test/echo', { token, headers: { 'Content-Type': 'application/json' }, raw: ok })).status).toBe(201);
  });

  it('a streamed (chunked) body is answered as soon as it passes 2 MiB, before the upload ends', async () => {
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= 32) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
        // Past 3 MiB the client slows down, as a slow uplink would.
        if (sent > 12) await new Promise((r) => setTimeout(r, 20));
      },
    });
    const res = await fetch(`${ref.baseUrl}/test/echo`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const sentWhenAnswered = sent;
    expect(res.status).toBe(400);
    expect(sentWhenAnswered).toBeLessThan(32);
    expectErrorsBody(await res.json(), 'BadRequest');
  });

  it('a client that keeps sending after the answer is cut off (8 MiB more, or 2 s)', async () => {
    const host = new URL(ref.baseUrl).host;
    const head = `POST /test/echo HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n`;
    const r = await raw(ref, [head, Buffer.alloc(12 * 1024 * 1024, 0x20)]);
    expect(r.status).toBe(400);
    expect(r.closedAfter).toBeLessThan(2500);
  });

  it('an unread large body of a request refused earlier (404, 401, token endpoint) does not hold the connection', async () => {
    const notFound = await call(ref, 'POST', '/nowhere', { token, raw: BIG });
    expect(notFound.status).toBe(404);
    const unauth = await call(ref, 'POST', '/test/echo', { token: 'bogus', raw: BIG });
    expect(unauth.status).toBe(401);
    const tokenEndpoint = await fetch(`${ref.authUrl}/oauth2/token`, { method: 'POST', body: BIG });
    expect(tokenEndpoint.status).toBe(400);
    expect((await tokenEndpoint.json()) as unknown).toEqual({
      error: 'invalid_request',
      error_description: expect.any(String),
      errors: [{ code: 'invalid_request', messages: [expect.any(String)] }],
    });
    expect((await get(ref, '/categories/root', { token })).status).toBe(200);
  });

  it('a client that stops in the middle of a body does not disturb the server', async () => {
    const host = new URL(ref.baseUrl).host;
    const { hostname, port } = new URL(ref.baseUrl);
    await new Promise<void>((resolve) => {
      const s = connect(Number(port), hostname, () => {
        s.write(`POST /test/echo HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`);
        setTimeout(() => {
          s.destroy();
          resolve();
        }, 50);
      });
    });
    expect((await get(ref, '/categories/root', { token })).status).toBe(200);
  });
});

describe('slow clients', () => {
  it('partial headers get 408 and partial bodies get 408 once the timeouts pass; close() does not wait for them', async () => {
    const { ref, token } = await startTest({
      testHooks: { timeouts: { headersTimeout: 300, requestTimeout: 600, connectionsCheckingInterval: 50 } },
    });
    const host = new URL(ref.baseUrl).host;
    try {
      const [headers, body] = await Promise.all([
        raw(ref, [`GET /categories/root HTTP/1.1\r\nHost: ${host}\r\n`]),
        raw(ref, [`POST /test/echo HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Length: 100\r\n\r\n{`]),
      ]);
      for (const r of [headers, body]) {
        expect(r.status).toBe(408);
        expectErrorsBody(JSON.parse(r.body), 'RequestTimeout');
        expect(r.closedAfter).toBeLessThan(3000);
      }
      const hanging = raw(ref, [`GET /categories/root HTTP/1.1\r\nHost: ${host}\r\n`]).catch(() => null);
      await new Promise((r) => setTimeout(r, 50));
      const t = Date.now();
      await ref.close();
      expect(Date.now() - t).toBeLessThan(1000);
      await hanging;
    } finally {
      await ref.close();
    }
  });
});

describe('load', () => {
  it('answers 1,000 concurrent requests, each with a valid status', async () => {
    const { ref, token, errors } = await startTest();
    // 100 connections with up to 10 pipelined requests each: all 1,000 are in flight at once.
    const pool = new Pool(new URL(ref.baseUrl).origin, { connections: 100, pipelining: 10 });
    try {
      const ok = await get(ref, '/categories/root', { token });
      const etag = ok.headers.get('etag')!;
      const kinds: { path: string; headers: Record<string, string>; expected: number }[] = [
        { path: '/categories/root', headers: { authorization: `Bearer ${token}` }, expected: 200 },
        { path: '/categories/root', headers: { authorization: `Bearer ${token}`, 'if-none-match': etag }, expected: 304 },
        { path: '/categories?per=5&page=2', headers: { authorization: `Bearer ${token}` }, expected: 200 },
        { path: '/categories/999999999', headers: { authorization: `Bearer ${token}` }, expected: 404 },
        { path: '/categories/root', headers: {}, expected: 401 },
        { path: '/categories/root', headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.service+json; version=9' }, expected: 406 },
        { path: '/test/things?include=part&fields[root]=id', headers: { authorization: `Bearer ${token}` }, expected: 200 },
        { path: '/nowhere', headers: { authorization: `Bearer ${token}` }, expected: 404 },
      ];
      const started = Date.now();
      const replies = await Promise.all(
        Array.from({ length: 1000 }, async (_, i) => {
          const k = kinds[i % kinds.length]!;
          const res = await pool.request({ method: 'GET', path: k.path, headers: k.headers });
          const text = await res.body.text();
          return { status: res.statusCode, expected: k.expected, text, limit: res.headers['x-ratelimit-limit'] };
        }),
      );
      expect(replies.filter((r) => r.status !== r.expected)).toEqual([]);
      expect(replies.every((r) => r.limit === '1000000')).toBe(true);
      expect(replies.filter((r) => r.status !== 304).every((r) => JSON.parse(r.text) !== null)).toBe(true);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(errors).toEqual([]);
      expect((await get(ref, '/categories/root', { token })).status).toBe(200);
    } finally {
      await pool.close();
      await ref.close();
    }
  });
});

describe('a separate auth origin', () => {
  it('answers HTTP-level problems, CONNECT and unknown paths with the rate-limit headers of the OAuth window', async () => {
    const { ref } = await startTest({ authOrigin: 'separate', limits: { perMinute: 40, perDay: 1000 } });
    try {
      const auth = { ...ref, baseUrl: ref.authUrl };
      const host = new URL(ref.authUrl).host;
      const unknown = await raw(auth, [`FROB /oauth2/token HTTP/1.1\r\nHost: ${host}\r\n\r\n`]);
      expect(unknown.status).toBe(501);
      expectErrorsBody(JSON.parse(unknown.body), 'NotImplemented');
      // The token request of startTest was the first request of the window.
      expect([unknown.headers['x-ratelimit-limit'], unknown.headers['x-ratelimit-remaining']]).toEqual(['40', '38']);
      const tunnel = await raw(auth, [`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`]);
      expect([tunnel.status, tunnel.headers['x-ratelimit-remaining']]).toEqual([405, '37']);
      const garbage = await raw(auth, [`GET /oauth2/token HTTP/1.1\r\nHost: ${host}\r\nBad Header\r\n\r\n`]);
      expect([garbage.status, garbage.headers['x-ratelimit-remaining']]).toEqual([400, '36']);
      const elsewhere = await call(auth, 'GET', '/nowhere');
      expect([elsewhere.status, elsewhere.headers.get('x-ratelimit-remaining')]).toEqual([404, '35']);
      expectErrorsBody(elsewhere.body, 'NotFound');
    } finally {
      await ref.close();
    }
  });
});
