import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { HttpResponse } from '../http/client.ts';
import { startReference, type RunningReference } from '../reference/server.ts';
import { SELFTEST_LIMITS } from '../testing/cli.ts';
import { createRunServices } from './run-services.ts';
import { isCategoryCollection, judgePreflight, likelyBaseUrl, preflight } from './preflight.ts';

const URL_ = 'https://h.example/categories';

function answer(status: number, body: string, type = 'application/json', url = URL_): HttpResponse {
  return { status, headers: { 'content-type': type }, text: body, url, exchanges: [] } as unknown as HttpResponse;
}

const categories = answer(200, '{"categories":[],"meta":{}}');
const notFound = answer(404, '{"errors":[{"code":"NotFound","messages":["no route"]}]}');
const serverError = answer(500, '{"errors":[{"code":"InternalServerError","messages":["boom"]}]}');

/** `another` that answers from a table and records what was asked. */
function asking(answers: Record<string, HttpResponse | null>) {
  const asked: string[] = [];
  return {
    asked,
    another: {
      collection: async (base: string) => (asked.push(`base ${base}`), answers[`base ${base}`] ?? null),
      path: async (path: string) => (asked.push(`path ${path}`), answers[`path ${path}`] ?? null),
    },
  };
}

describe('preflight', () => {
  test('likelyBaseUrl: /api added to a bare origin, a doubled segment removed, else none', () => {
    expect(likelyBaseUrl('https://h.example')).toBe('https://h.example/api');
    expect(likelyBaseUrl('https://h.example/api/api')).toBe('https://h.example/api');
    expect(likelyBaseUrl('https://h.example/v3/api')).toBeNull();
  });

  test('the categories collection passes, and nothing more is asked', async () => {
    const { asked, another } = asking({});
    expect(await judgePreflight(categories, URL_, 'https://h.example', another)).toEqual({ ok: true });
    expect(asked).toEqual([]);
    expect(isCategoryCollection(answer(200, '<html></html>', 'text/html'))).toBe(false);
  });

  test('a 404 names the base URL that answers, when the likely one does', async () => {
    const { asked, another } = asking({ 'base https://h.example/api': categories });
    const outcome = await judgePreflight(notFound, URL_, 'https://h.example', another);
    expect(outcome).toEqual({
      ok: false,
      problem: expect.stringMatching(
        /^GET https:\/\/h\.example\/categories answered 404 NotFound \(application\/json\): the base URL looks wrong; .*set CATALOGUE_BASE_URL \(--base-url\) to https:\/\/h\.example\/api$/,
      ),
    });
    expect(asked).toEqual(['base https://h.example/api']);
    const none = await judgePreflight(notFound, URL_, 'https://h.example', asking({}).another);
    expect(none).toEqual({
      ok: false,
      problem: expect.stringMatching(/not the Catalogue API at this base URL; the base URL may lack its path prefix, e\.g\. https:\/\/h\.example\/api$/),
    });
  });

  test('a page that is not the JSON collection, or the token refused, stops the run', async () => {
    expect(await judgePreflight(answer(200, '<html>Maintenance</html>', 'text/html'), URL_, 'https://h.example/api', asking({}).another)).toEqual({
      ok: false,
      problem: 'GET https://h.example/categories answered 200 (text/html) without a JSON {categories} body: not the Catalogue API at this base URL',
    });
    const refused = await judgePreflight(answer(401, '{"errors":[{"code":"Unauthorized","messages":["x"]}]}'), URL_, 'https://h.example/api', asking({}).another);
    expect(refused).toMatchObject({ ok: false, problem: expect.stringContaining('refuses the application token') });
  });

  test('a JSON answer with a wrong envelope or wrong types is the API with a bug: the run goes on, to FAIL it; JSON with none of its envelopes stops', async () => {
    const goesOn = ['{"category":[],"meta":{}}', '{"categories":{"1":{}}}', '{"category":{"id":1}}', '{"categories":null}'];
    for (const body of goesOn) expect(await judgePreflight(answer(200, body), URL_, 'https://h.example/api', asking({}).another), body).toEqual({ ok: true });
    for (const body of ['{"status":"ok"}', '{"data":[],"meta":{}}', '{"errors":[]}', '[{"id":1}]', '"categories"', '{"categories":[]', '']) {
      expect(await judgePreflight(answer(200, body), URL_, 'https://h.example/api', asking({}).another), body).toEqual({
        ok: false,
        problem: 'GET https://h.example/categories answered 200 (application/json) without a JSON {categories} body: not the Catalogue API at this base URL',
      });
    }
  });

  test('a 406 names the Accept header sent and the keys that set it', async () => {
    const refused = {
      ...answer(406, '{"errors":[{"code":"NotAcceptable","messages":["x"]}]}'),
      exchanges: [{ requestHeaders: { accept: 'application/vnd.service+json; version=3.2' } }],
    } as unknown as HttpResponse;
    expect(await judgePreflight(refused, URL_, 'https://h.example/api', asking({}).another)).toEqual({
      ok: false,
      problem:
        'GET https://h.example/categories answered 406 NotAcceptable (application/json): the deployment does not serve Accept: application/vnd.service+json; version=3.2; set CATALOGUE_MEDIA_TYPE (--media-type) to its vendor media type, or CATALOGUE_API_VERSION to a version it serves',
    });
  });

  test('a server error stops the run only when a second endpoint errs too: one broken endpoint is for the suites to judge', async () => {
    const everywhere = asking({ 'path /manufacturers': serverError });
    expect(await judgePreflight(serverError, URL_, 'https://h.example/api', everywhere.another)).toMatchObject({
      ok: false,
      problem: expect.stringContaining('and GET /manufacturers answered 500'),
    });
    const one = asking({ 'path /manufacturers': answer(200, '{"manufacturers":[]}') });
    expect(await judgePreflight(serverError, URL_, 'https://h.example/api', one.another)).toEqual({ ok: true });
    expect(one.asked).toEqual(['path /manufacturers']);
  });

  test('an answer after a redirect says where it came from', async () => {
    const moved = answer(404, '{"errors":[{"code":"NotFound","messages":["x"]}]}', 'application/json', 'https://elsewhere.example/categories');
    expect(await judgePreflight(moved, URL_, 'https://h.example/api', asking({}).another)).toMatchObject({
      problem: expect.stringContaining('after a redirect to https://elsewhere.example/categories'),
    });
  });
});

// The preflight against servers that misbehave (tokens from the reference, the API from them):
// one line naming what happened, within the exchange's deadline, whatever the body. The CLI's
// own tests (src/selftest/cli.test.ts) show such a line becomes exit 2.
describe('preflight against a misbehaving server', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ limits: SELFTEST_LIMITS });
  });
  afterAll(() => ref.close());

  async function preflightAgainst(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ problem: string; ms: number }> {
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    try {
      const main = createRunServices({
        baseUrl,
        tokens: { authUrl: ref.authUrl, clientId: ref.client.id, clientSecret: ref.client.secret, redirectUri: null, userToken: null, userRefreshToken: null },
        apiVersion: '3.2',
        timeoutMs: 1500,
        maxRequests: 100,
      });
      const started = Date.now();
      const outcome = await preflight(main.api('preflight'));
      return { problem: outcome.ok ? '(passed)' : outcome.problem, ms: Date.now() - started };
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  test.concurrent('headers never sent: the exchange ends at its deadline', async () => {
    const { problem, ms } = await preflightAgainst(() => undefined);
    expect(problem).toMatch(/^GET http:\/\/\S+\/api\/categories: GET \S+\/categories: no complete response within 1500 ms$/);
    expect(ms).toBeLessThan(10_000);
  });

  test.concurrent('a 300 MB body: read no further than the body limit', async () => {
    const { problem } = await preflightAgainst((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * 1024 * 1024) });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 300 && res.write(chunk)) sent++;
        if (sent < 300) res.once('drain', pump);
        else res.end();
      };
      res.write('{"categories": [');
      pump();
      res.on('close', () => res.removeAllListeners('drain'));
    });
    expect(problem).toMatch(/categories: .*(response body exceeds \d+ bytes|no complete response within 1500 ms)/);
  });

  test.concurrent('connections reset before any answer', async () => {
    const { problem } = await preflightAgainst((req) => req.socket.destroy());
    expect(problem).toMatch(/^GET \S+\/categories: .*connection closed by the server before a response/);
  });

  test.concurrent('a redirect loop', async () => {
    const { problem } = await preflightAgainst((req, res) => res.writeHead(302, { location: req.url?.endsWith('/b') ? '/api/a' : '/api/b' }).end());
    expect(problem).toMatch(/^GET \S+\/categories: .*redirect loop/);
  });

  test.concurrent('an endless body', async () => {
    const { problem } = await preflightAgainst((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (res.write(chunk));
        res.once('drain', pump);
      };
      res.write('{"categories": [');
      pump();
      res.on('close', () => res.removeAllListeners('drain'));
    });
    expect(problem).toMatch(/^GET \S+\/categories: .*(response body exceeds \d+ bytes|no complete response within 1500 ms)/);
  });

  test.concurrent('broken JSON', async () => {
    const { problem } = await preflightAgainst((_req, res) => res.writeHead(200, { 'content-type': 'application/vnd.service+json' }).end('{"categories": [{"id": 1, "name": '));
    expect(problem).toMatch(/^GET http:\/\/\S+\/api\/categories answered 200 \(application\/vnd\.service\+json\) without a JSON \{categories\} body: not the Catalogue API/);
  });

  test.concurrent('500 on every call: one line, not a failure per test', async () => {
    const { problem } = await preflightAgainst((_req, res) =>
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"errors":[{"code":"InternalServerError","messages":["boom"]}]}'),
    );
    expect(problem).toMatch(/answered 500 InternalServerError \(application\/json\), and GET \/manufacturers answered 500: the API answers server errors/);
  });
});
