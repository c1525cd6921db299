// HttpClient against real loopback servers: headers, token placement, transport failures and body
// limits, hooks, redaction (redirects: client-redirects.test.ts).
import { afterEach, describe, expect, test } from 'vitest';
import { HttpError, joinUrl, MEDIA_TYPE, type SendInfo } from './client.ts';
import type { Exchange } from './exchange.ts';
import { client, closeServer, closeServers, httpError, json, redirect, servers, startServer, timers, TOKEN } from '../testing/http-servers.ts';

afterEach(closeServers);

describe('joinUrl', () => {
  test('appends path and query to a base with a path prefix', () => {
    expect(joinUrl('http://h:1/api', '/categories/5', { per: 2, 'ids[]': [1, 2] })).toBe('http://h:1/api/categories/5?per=2&ids%5B%5D=1&ids%5B%5D=2');
  });

  test('handles a trailing slash on the base and skips null/undefined query values', () => {
    expect(joinUrl('http://h:1/api/', '/x')).toBe('http://h:1/api/x');
    expect(joinUrl('http://h:1/api//', '/x', { a: null, b: undefined, c: true })).toBe('http://h:1/api/x?c=true');
    expect(joinUrl('http://h:1', '/x')).toBe('http://h:1/x');
  });

  test('rejects a path without a leading slash', () => {
    expect(() => joinUrl('http://h:1/api', 'categories')).toThrow(/must start with '\/'/);
  });
});

describe('headers and token placement', () => {
  test('Accept carries the media type and version; accept: null sends none', async () => {
    const s = await startServer((_req, res) => json(res, 200, { ok: true }));
    const c = client();
    expect(c.acceptHeader).toBe('application/vnd.service+json; version=3.2');
    await c.request(`${s.origin}/a`);
    await c.request(`${s.origin}/b`, { accept: null });
    await c.request(`${s.origin}/c`, { accept: 'text/plain' });
    expect(s.requests[0]!.headers['accept']).toBe(`${MEDIA_TYPE}; version=3.2`);
    expect(s.requests[0]!.headers['accept']).toBe('application/vnd.service+json; version=3.2');
    expect(s.requests[1]!.headers['accept']).toBeUndefined();
    expect(s.requests[2]!.headers['accept']).toBe('text/plain');
    expect(c.requestCount).toBe(3);
  });

  test('header placement: Authorization only', async () => {
    const s = await startServer((_req, res) => json(res, 200, {}));
    await client().request(`${s.origin}/x?a=1`, { token: TOKEN });
    expect(s.requests[0]!.headers['authorization']).toBe(`Bearer ${TOKEN}`);
    expect(s.requests[0]!.url).toBe('/x?a=1');
  });

  test('query placement: oauth_token only', async () => {
    const s = await startServer((_req, res) => json(res, 200, {}));
    await client().request(`${s.origin}/x?a=1`, { token: TOKEN, tokenVia: 'query' });
    expect(s.requests[0]!.headers['authorization']).toBeUndefined();
    const url = new URL(s.requests[0]!.url, s.origin);
    expect(url.searchParams.get('oauth_token')).toBe(TOKEN);
    expect(url.searchParams.get('a')).toBe('1');
  });

  test('both placements at once', async () => {
    const s = await startServer((_req, res) => json(res, 200, {}));
    await client().request(`${s.origin}/x`, { token: TOKEN, tokenVia: 'both' });
    expect(s.requests[0]!.headers['authorization']).toBe(`Bearer ${TOKEN}`);
    expect(new URL(s.requests[0]!.url, s.origin).searchParams.get('oauth_token')).toBe(TOKEN);
  });

  test('no token: neither header nor query parameter', async () => {
    const s = await startServer((_req, res) => json(res, 200, {}));
    await client().request(`${s.origin}/x`, { token: null, tokenVia: 'both' });
    expect(s.requests[0]!.headers['authorization']).toBeUndefined();
    expect(s.requests[0]!.url).toBe('/x');
  });

  test('json and form bodies are sent with their content types', async () => {
    const s = await startServer((_req, res) => json(res, 201, { created: true }));
    const c = client();
    const r1 = await c.request(`${s.origin}/j`, { method: 'post', json: { name: 'x', n: 1 } });
    await c.request(`${s.origin}/f`, { method: 'POST', form: { grant_type: 'client_credentials', scope: 'a b' } });
    expect(r1.status).toBe(201);
    expect(r1.json()).toEqual({ created: true });
    expect(s.requests[0]!.method).toBe('POST');
    expect(s.requests[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(s.requests[0]!.body)).toEqual({ name: 'x', n: 1 });
    expect(s.requests[1]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(s.requests[1]!.body).toBe('grant_type=client_credentials&scope=a+b');
  });
});

describe('transport failures', () => {
  test('connection refused -> connect', async () => {
    const s = await startServer(() => undefined);
    const port = s.port;
    await closeServer(s.server);
    servers.splice(servers.indexOf(s.server), 1);
    const error = await httpError(client().request(`http://127.0.0.1:${port}/x`));
    expect(error.kind).toBe('connect');
    expect(error.message).toContain('connection refused');
    expect(error.message).toContain(`127.0.0.1:${port}/x`);
    expect(error.exchanges).toHaveLength(1);
    expect(error.exchanges[0]!.status).toBeNull();
    expect(error.exchanges[0]!.error).toContain('connection refused');
  });

  test('a server that never answers -> timeout within about timeoutMs', async () => {
    const s = await startServer(() => undefined);
    const started = performance.now();
    const error = await httpError(client({ timeoutMs: 300 }).request(`${s.origin}/slow`));
    const elapsed = performance.now() - started;
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('300 ms');
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3_000);
  });

  test('a body that stalls after the headers -> timeout', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    const started = performance.now();
    const error = await httpError(client({ timeoutMs: 300 }).request(`${s.origin}/stall`));
    expect(error.kind).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  test('a reset connection -> reset', async () => {
    const s = await startServer((req) => req.socket.destroy());
    const error = await httpError(client().request(`${s.origin}/reset`));
    expect(error.kind).toBe('reset');
    expect(error.message).toContain('before a response');
  });

  test('a body larger than maxBodyBytes -> too-large', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 5000 });
      res.end('x'.repeat(5000));
    });
    const error = await httpError(client({ maxBodyBytes: 1000 }).request(`${s.origin}/big`));
    expect(error.kind).toBe('too-large');
    expect(error.message).toContain('exceeds 1000 bytes');
    expect(error.exchanges[0]!.status).toBe(200);
  });

  test('a body of exactly maxBodyBytes is accepted', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('y'.repeat(1000));
    });
    const response = await client({ maxBodyBytes: 1000 }).request(`${s.origin}/ok`);
    expect(response.text).toHaveLength(1000);
  });

  test('an endless chunked body -> too-large quickly, and the server side ends', async () => {
    let closed = false;
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('z'.repeat(200)), 2);
      timers.push(timer);
      res.on('close', () => {
        closed = true;
        clearInterval(timer);
      });
    });
    const started = performance.now();
    const error = await httpError(client({ maxBodyBytes: 1000, timeoutMs: 10_000 }).request(`${s.origin}/endless`));
    expect(error.kind).toBe('too-large');
    expect(performance.now() - started).toBeLessThan(2_000);
    for (let i = 0; i < 100 && !closed; i++) await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(true);
  });
});

describe('json()', () => {
  test('an HTML body -> not-json naming the status and the start of the body', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    });
    const response = await client().request(`${s.origin}/page`);
    expect(response.status).toBe(502);
    let error: unknown;
    try {
      response.json();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).kind).toBe('not-json');
    expect((error as HttpError).message).toContain('502');
    expect((error as HttpError).message).toContain('<html><body>Bad gateway');
    expect((error as HttpError).message).toContain('text/html');
  });

  test('an empty body -> not-json', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': 0 });
      res.end();
    });
    const response = await client().request(`${s.origin}/empty`);
    expect(() => response.json()).toThrow(HttpError);
    try {
      response.json();
    } catch (error) {
      expect((error as HttpError).kind).toBe('not-json');
      expect((error as HttpError).message).toMatch(/200 with an empty body/);
    }
  });
});

describe('hooks', () => {
  test('beforeSend once per hop with its token, afterReceive with lower-cased headers, onExchange every hop', async () => {
    const other = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-RateLimit-Remaining': '42' });
      res.end('{}');
    });
    const first = await startServer((req, res) => {
      if (req.url === '/a') redirect(res, 302, '/b');
      else redirect(res, 302, `${other.origin}/c`);
    });
    const sent: SendInfo[] = [];
    const received: [string, number | null, Record<string, string> | null][] = [];
    const recorded: Exchange[] = [];
    const c = client({
      hooks: {
        beforeSend: async (info) => void sent.push({ ...info }),
        afterReceive: async (info, status, headers) => void received.push([info.url, status, headers]),
        onExchange: (exchange) => recorded.push(exchange),
      },
    });
    const response = await c.request(`${first.origin}/a`, { token: TOKEN });
    expect(sent.map((i) => [i.method, i.url, i.token])).toEqual([
      ['GET', `${first.origin}/a`, TOKEN],
      ['GET', `${first.origin}/b`, TOKEN],
      ['GET', `${other.origin}/c`, null],
    ]);
    expect(received.map(([url, status]) => [url, status])).toEqual([
      [`${first.origin}/a`, 302],
      [`${first.origin}/b`, 302],
      [`${other.origin}/c`, 200],
    ]);
    expect(received[2]![2]!['x-ratelimit-remaining']).toBe('42');
    expect(received[2]![2]!['content-type']).toBe('application/json');
    expect(Object.keys(received[2]![2]!).every((k) => k === k.toLowerCase())).toBe(true);
    expect(recorded).toEqual(response.exchanges);
    expect(recorded).toHaveLength(3);
  });

  test('afterReceive also ends a hop that got no response (status and headers null)', async () => {
    const s = await startServer((req) => req.socket.destroy());
    const received: [number | null, Record<string, string> | null][] = [];
    await httpError(client({ hooks: { afterReceive: async (_info, status, headers) => void received.push([status, headers]) } }).request(`${s.origin}/x`));
    expect(received).toEqual([[null, null]]);
  });

  test('a hand-written Authorization header does not follow a redirect to another origin', async () => {
    const seen: (string | undefined)[] = [];
    const other = await startServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    const first = await startServer((req, res) => {
      if (req.url === '/a') redirect(res, 302, '/b');
      else {
        seen.push(req.headers.authorization);
        redirect(res, 307, `${other.origin}/c`);
      }
    });
    await client().request(`${first.origin}/a`, { headers: { Authorization: 'Bearer hand-written-token' } });
    expect(seen).toEqual(['Bearer hand-written-token', undefined]);
  });

  test('onExchange also sees a failed hop', async () => {
    const s = await startServer((req) => req.socket.destroy());
    const recorded: Exchange[] = [];
    await httpError(client({ hooks: { onExchange: (e) => recorded.push(e) } }).request(`${s.origin}/x`));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.status).toBeNull();
    expect(recorded[0]!.error).toMatch(/closed by the server/);
  });

  test('a beforeSend that throws stops the request before anything is sent', async () => {
    const s = await startServer((_req, res) => json(res, 200, {}));
    const c = client({
      hooks: {
        beforeSend: async () => {
          throw new Error('budget spent');
        },
      },
    });
    await expect(c.request(`${s.origin}/x`)).rejects.toThrow('budget spent');
    await new Promise((r) => setTimeout(r, 50));
    expect(s.requests).toHaveLength(0);
    expect(c.requestCount).toBe(0);
  });

  test('a beforeSend that throws on the second hop stops the redirect there', async () => {
    const s = await startServer((req, res) => {
      if (req.url === '/a') redirect(res, 302, '/b');
      else json(res, 200, {});
    });
    let calls = 0;
    const c = client({
      hooks: {
        beforeSend: async () => {
          if (++calls === 2) throw new Error('no more');
        },
      },
    });
    await expect(c.request(`${s.origin}/a`)).rejects.toThrow('no more');
    expect(s.requests.map((r) => r.url)).toEqual(['/a']);
    expect(c.requestCount).toBe(1);
  });
});

describe('recorded exchanges are redacted', () => {
  test('Authorization keeps its scheme, oauth_token in the URL is blanked', async () => {
    const s = await startServer((_req, res) => json(res, 200, { ok: 1 }));
    const response = await client().request(`${s.origin}/x?a=1`, { token: TOKEN, tokenVia: 'both' });
    const exchange = response.exchanges[0]!;
    expect(exchange.requestHeaders['authorization']).toBe('Bearer [REDACTED]');
    expect(exchange.url).toBe(`${s.origin}/x?a=1&oauth_token=[REDACTED]`);
    expect(exchange.method).toBe('GET');
    expect(exchange.status).toBe(200);
    expect(exchange.responseBody).toBe('{"ok":1}');
    expect(JSON.stringify(response.exchanges)).not.toContain(TOKEN);
    // The server still got the real token.
    expect(s.requests[0]!.headers['authorization']).toBe(`Bearer ${TOKEN}`);
  });

  test('a token request body and a token response body are redacted', async () => {
    const s = await startServer((_req, res) => json(res, 200, { access_token: 'issued-token-xyz', token_type: 'bearer' }));
    const response = await client().request(`${s.origin}/oauth2/token`, {
      method: 'POST',
      form: { grant_type: 'client_credentials', client_secret: 'very-secret-value' },
    });
    expect(response.json()).toEqual({ access_token: 'issued-token-xyz', token_type: 'bearer' });
    const exchange = response.exchanges[0]!;
    expect(exchange.requestBody).toBe('grant_type=client_credentials&client_secret=[REDACTED]');
    expect(exchange.responseBody).toBe('{"access_token":"[REDACTED]","token_type":"bearer"}');
  });
});
