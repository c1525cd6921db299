import { describe, expect, test } from 'vitest';
import type { HttpResponse } from '../http/client.ts';
import { isCategoryCollection, judgePreflight, likelyBaseUrl } from './preflight.ts';

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
    expect(outcome).toEqual({ ok: false, problem: expect.stringMatching(/^GET https:\/\/h\.example\/categories answered 404 NotFound \(application\/json\): the base URL looks wrong; .*set CATALOGUE_BASE_URL \(--base-url\) to https:\/\/h\.example\/api$/) });
    expect(asked).toEqual(['base https://h.example/api']);
    const none = await judgePreflight(notFound, URL_, 'https://h.example', asking({}).another);
    expect(none).toEqual({ ok: false, problem: expect.stringMatching(/not the Catalogue API at this base URL; the base URL may lack its path prefix, e\.g\. https:\/\/h\.example\/api$/) });
  });

  test('a page that is not the JSON collection, or the token refused, stops the run', async () => {
    expect(await judgePreflight(answer(200, '<html>Maintenance</html>', 'text/html'), URL_, 'https://h.example/api', asking({}).another)).toEqual({
      ok: false,
      problem: 'GET https://h.example/categories answered 200 (text/html) without a JSON {categories} body: not the Catalogue API at this base URL',
    });
    const refused = await judgePreflight(answer(401, '{"errors":[{"code":"Unauthorized","messages":["x"]}]}'), URL_, 'https://h.example/api', asking({}).another);
    expect(refused).toMatchObject({ ok: false, problem: expect.stringContaining('refuses the application token') });
  });

  test('a server error stops the run only when a second endpoint errs too: one broken endpoint is for the suites to judge', async () => {
    const everywhere = asking({ 'path /manufacturers': serverError });
    expect(await judgePreflight(serverError, URL_, 'https://h.example/api', everywhere.another)).toMatchObject({ ok: false, problem: expect.stringContaining('and GET /manufacturers answered 500') });
    const one = asking({ 'path /manufacturers': answer(200, '{"manufacturers":[]}') });
    expect(await judgePreflight(serverError, URL_, 'https://h.example/api', one.another)).toEqual({ ok: true });
    expect(one.asked).toEqual(['path /manufacturers']);
  });

  test('an answer after a redirect says where it came from', async () => {
    const moved = answer(404, '{"errors":[{"code":"NotFound","messages":["x"]}]}', 'application/json', 'https://elsewhere.example/categories');
    expect(await judgePreflight(moved, URL_, 'https://h.example/api', asking({}).another)).toMatchObject({ problem: expect.stringContaining('after a redirect to https://elsewhere.example/categories') });
  });
});
