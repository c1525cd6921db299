// HttpClient's redirects against real loopback servers: followed (counted, recorded), method and body
// by status, never carrying the token to another origin, and loops, chains and bad Locations.
import { afterEach, describe, expect, test } from 'vitest';
import { client, closeServers, httpError, json, redirect, startServer, TOKEN } from '../testing/http-servers.ts';

afterEach(closeServers);

describe('redirects', () => {
  test.each([301, 302, 303, 307, 308])('%i is followed to a relative Location; each hop counted and recorded', async (status) => {
    const s = await startServer((req, res) => {
      if (req.url === '/old') redirect(res, status, '/new?x=1');
      else json(res, 200, { at: req.url });
    });
    const c = client();
    const response = await c.request(`${s.origin}/old`);
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ at: '/new?x=1' });
    expect(response.url).toBe(`${s.origin}/new?x=1`);
    expect(c.requestCount).toBe(2);
    expect(response.exchanges.map((e) => [e.url, e.status])).toEqual([
      [`${s.origin}/old`, status],
      [`${s.origin}/new?x=1`, 200],
    ]);
    expect(s.requests.map((r) => r.url)).toEqual(['/old', '/new?x=1']);
  });

  test('an absolute Location is followed', async () => {
    const s = await startServer((req, res) => {
      if (req.url === '/old') redirect(res, 301, `http://127.0.0.1:${(req.socket.localPort ?? 0).toString()}/abs`);
      else json(res, 200, { at: req.url });
    });
    const response = await client().request(`${s.origin}/old`);
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ at: '/abs' });
  });

  test('307 and 308 keep the method and the body', async () => {
    for (const status of [307, 308]) {
      const s = await startServer((req, res) => {
        if (req.url === '/old') redirect(res, status, '/new');
        else json(res, 200, {});
      });
      await client().request(`${s.origin}/old`, { method: 'POST', json: { keep: status } });
      expect(s.requests.map((r) => [r.method, r.url, r.body, r.headers['content-type']])).toEqual([
        ['POST', '/old', `{"keep":${status}}`, 'application/json'],
        ['POST', '/new', `{"keep":${status}}`, 'application/json'],
      ]);
    }
  });

  test('302 after a POST and 303 turn into a GET without a body', async () => {
    for (const status of [302, 303]) {
      const s = await startServer((req, res) => {
        if (req.url === '/old') redirect(res, status, '/new');
        else json(res, 200, {});
      });
      await client().request(`${s.origin}/old`, { method: 'POST', json: { a: 1 } });
      expect(s.requests[1]!.method).toBe('GET');
      expect(s.requests[1]!.body).toBe('');
      expect(s.requests[1]!.headers['content-type']).toBeUndefined();
    }
  });

  test('followRedirects: false returns the 3xx itself', async () => {
    const s = await startServer((_req, res) => redirect(res, 302, '/elsewhere'));
    const c = client();
    const response = await c.request(`${s.origin}/old`, { followRedirects: false });
    expect(response.status).toBe(302);
    expect(response.headers['location']).toBe('/elsewhere');
    expect(response.exchanges).toHaveLength(1);
    expect(c.requestCount).toBe(1);
    expect(s.requests).toHaveLength(1);
  });

  test('the token follows a same-origin redirect (header and query)', async () => {
    const s = await startServer((req, res) => {
      if (req.url!.startsWith('/old')) redirect(res, 302, '/new');
      else json(res, 200, {});
    });
    await client().request(`${s.origin}/old`, { token: TOKEN });
    expect(s.requests[1]!.headers['authorization']).toBe(`Bearer ${TOKEN}`);
    await client().request(`${s.origin}/old`, { token: TOKEN, tokenVia: 'query' });
    expect(new URL(s.requests[3]!.url, s.origin).searchParams.getAll('oauth_token')).toEqual([TOKEN]);
  });

  test.each(['header', 'query', 'both'] as const)('a redirect to another origin carries no token (%s placement)', async (tokenVia) => {
    const other = await startServer((_req, res) => json(res, 200, { other: true }));
    const first = await startServer((_req, res) => redirect(res, 302, `${other.origin}/landing?keep=1`));
    const tokensSeen: (string | null)[] = [];
    const c = client({ hooks: { beforeSend: async (info) => void tokensSeen.push(info.token) } });
    const response = await c.request(`${first.origin}/start`, { token: TOKEN, tokenVia });
    expect(response.json()).toEqual({ other: true });
    expect(tokensSeen).toEqual([TOKEN, null]);
    // The first origin got it where asked ...
    const firstUrl = new URL(first.requests[0]!.url, first.origin);
    expect(first.requests[0]!.headers['authorization'] !== undefined || firstUrl.searchParams.has('oauth_token')).toBe(true);
    // ... the other origin never.
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]!.headers['authorization']).toBeUndefined();
    const otherUrl = new URL(other.requests[0]!.url, other.origin);
    expect(otherUrl.searchParams.has('oauth_token')).toBe(false);
    expect(otherUrl.searchParams.get('keep')).toBe('1');
    expect(JSON.stringify(other.requests[0]!.headers)).not.toContain(TOKEN);
    expect(other.requests[0]!.url).not.toContain(TOKEN);
  });

  test('a token echoed into the Location by the server is not carried to another origin', async () => {
    const other = await startServer((_req, res) => json(res, 200, {}));
    const first = await startServer((req, res) => {
      const token = new URL(req.url!, 'http://x').searchParams.get('oauth_token') ?? '';
      redirect(res, 302, `${other.origin}/landing?oauth_token=${token}`);
    });
    await client().request(`${first.origin}/start`, { token: TOKEN, tokenVia: 'query' });
    expect(other.requests[0]!.url).toBe('/landing');
  });

  test('a redirect loop A -> B -> A stops with redirect-loop, without sending A twice', async () => {
    const s = await startServer((req, res) => redirect(res, 302, req.url === '/a' ? '/b' : '/a'));
    const c = client();
    const error = await httpError(c.request(`${s.origin}/a`));
    expect(error.kind).toBe('redirect-loop');
    expect(error.message).toMatch(/redirect loop/);
    expect(error.message).not.toContain('\n');
    expect(s.requests.map((r) => r.url)).toEqual(['/a', '/b']);
    expect(error.exchanges).toHaveLength(2);
    expect(c.requestCount).toBe(2);
  });

  test('a redirect to itself is a loop', async () => {
    const s = await startServer((_req, res) => redirect(res, 307, '/self'));
    const error = await httpError(client().request(`${s.origin}/self`));
    expect(error.kind).toBe('redirect-loop');
    expect(s.requests).toHaveLength(1);
  });

  function chain(length: number) {
    // /r/0 -> /r/1 -> ... -> /r/<length>, which answers 200: `length` redirects.
    return startServer((req, res) => {
      const n = Number(req.url!.split('/')[2]);
      if (n < length) redirect(res, 302, `/r/${n + 1}`);
      else json(res, 200, { n });
    });
  }

  test('exactly 10 redirects are followed', async () => {
    const s = await chain(10);
    const c = client();
    const response = await c.request(`${s.origin}/r/0`);
    expect(response.json()).toEqual({ n: 10 });
    expect(response.exchanges).toHaveLength(11);
    expect(c.requestCount).toBe(11);
  });

  test('more than 10 distinct redirects -> too-many-redirects', async () => {
    const s = await chain(50);
    const c = client();
    const error = await httpError(c.request(`${s.origin}/r/0`));
    expect(error.kind).toBe('too-many-redirects');
    expect(error.message).toMatch(/more than 10 redirects/);
    expect(error.message).not.toContain('\n');
    expect(s.requests).toHaveLength(11);
    expect(error.exchanges).toHaveLength(11);
    expect(c.requestCount).toBe(11);
  });

  test('a 3xx without Location -> bad-redirect', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(302, { 'content-length': 0 });
      res.end();
    });
    const error = await httpError(client().request(`${s.origin}/x`));
    expect(error.kind).toBe('bad-redirect');
    expect(error.message).toMatch(/302 without a Location/);
    expect(error.exchanges).toHaveLength(1);
  });

  test('a redirect to a non-HTTP URL -> bad-redirect', async () => {
    const s = await startServer((_req, res) => redirect(res, 301, 'ftp://example.org/file'));
    const error = await httpError(client().request(`${s.origin}/x`));
    expect(error.kind).toBe('bad-redirect');
    expect(error.message).toContain('ftp:');
    expect(s.requests).toHaveLength(1);
  });
});
