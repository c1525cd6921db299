// The rules one exchange shows: which exchanges are the API's, what each rule finds, and the
// run-wide tally of the live observer (the passive judge's use of the same table is src/har/).
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { ExchangeObserver, mergeObservations, VIOLATIONS_KEPT } from '../rules/observations.ts';
import { apiPathUnder } from './api-paths.ts';
import { errorBodyOf } from './body-rules.ts';
import { EXCHANGE_RULES, exchangeRule, isOAuthUrl, judgeView, viewOf, type ExchangeView } from './exchange-rules.ts';

const BASE = 'https://api.example.com/api';

function exchange(status: number | null, body: string, url = `${BASE}/skus/12/reviews?page=2`, method = 'GET', headers: Record<string, string> = {}): Exchange {
  return { method, url, requestHeaders: { accept: 'application/vnd.service+json; version=3.2' }, status, responseHeaders: headers, responseBody: body, durationMs: 1 };
}

const view = (e: Exchange, authUrl?: string): ExchangeView => viewOf({ exchange: e, baseUrl: BASE, ...(authUrl ? { authUrl } : {}), atMs: Date.now() });
const apiRules = (v: ExchangeView) => judgeView(v).filter(({ rule }) => !rule.anyExchange);
const errorOf = (e: Exchange) => errorBodyOf(e, JSON.parse(e.responseBody || 'null') ?? undefined, e.responseBody ?? '');

describe('which exchanges are the API', () => {
  test('under the base path on its origin, answered; its endpoint matched', () => {
    expect(view(exchange(200, '{}'))).toMatchObject({ isApi: true, endpoint: 'GET /skus/:id/reviews', apiPath: '/skus/12/reviews' });
    expect(view(exchange(200, '{}', 'https://api.example.com/apix/skus')).isApi).toBe(false);
    expect(view(exchange(200, '{}', 'https://auth.example.com/api/oauth2/token')).isApi).toBe(false);
    expect(view(exchange(null, '')).isApi).toBe(false);
    expect(view(exchange(200, '{}', `${BASE}/favorite_lists/-3`, 'DELETE')).endpoint).toBe('DELETE /favorite_lists/:id');
    expect(apiPathUnder(`${BASE}`, BASE)).toBe('/');
  });

  test('the OAuth endpoints are never the API, even on its origin under its base path', () => {
    for (const url of [`${BASE}/oauth2/token`, `${BASE}/oauth2/authorizations/new?client_id=x`]) {
      const v = view(exchange(400, '{"error":"invalid_grant"}', url, 'POST'), BASE);
      expect(v.isApi).toBe(false);
      // Only the rules of every exchange (HTTPS, a redirect's Location) judge them.
      expect(apiRules(v)).toEqual([]);
    }
    // An auth URL with a path of its own: its /oauth2/ endpoints are not the API's either.
    expect(apiRules(view(exchange(400, '{}', `${BASE}/auth/oauth2/whatever`, 'POST'), `${BASE}/auth`))).toEqual([]);
    expect(isOAuthUrl(`${BASE}/categories`, BASE)).toBe(false);
  });

  test('a body the exchange record cut short is not judged', () => {
    const v = view(exchange(400, '{"errors":[{"code":"x","messages":["aaa... [5000 more characters]'));
    expect(v.text).toBeUndefined();
    expect(exchangeRule('error-body').check(v)).toMatchObject({ kind: 'skipped' });
  });
});

describe('errorBodyOf (ERR-2)', () => {
  test('the errors format passes; other shapes fail naming the exchange', () => {
    expect(errorOf(exchange(404, '{"errors":[{"code":"RecordNotFound","messages":["no"]}]}'))).toEqual({ ok: true });
    expect(errorOf(exchange(401, '{"errors":[{"code":"x","messages":"no"}]}'))).toEqual({
      ok: false,
      message: expect.stringMatching(/^GET https:\/\/api\.example\.com\/api\/skus\/12\/reviews\?page=2 answered 401: errors\[0\]\.messages is "no"/),
    });
    expect(errorBodyOf(exchange(500, '<html>oops</html>'), undefined, '<html>oops</html>')).toMatchObject({ ok: false, message: expect.stringContaining('not JSON') });
  });

  test('what the spec allows besides: 403 {message} (rate limit); a 404 [] (its example of a missing category) only warns, on any record, and once', () => {
    expect(errorOf(exchange(403, '{"message":"Rate limit exceeded"}'))).toEqual({ ok: true });
    for (const url of [`${BASE}/categories/9`, `${BASE}/skus/9`]) {
      const v = view(exchange(404, '[]', url));
      expect(exchangeRule('error-body').check(v)).toEqual({
        kind: 'findings',
        findings: [{ severity: 'WARN', requirements: ['ERR-16'], message: expect.stringContaining('empty array') }],
      });
      // Not failed again as a body that is not {errors}: the every-exchange rules read it one way.
      expect(exchangeRule('documented-body').check(v)).toMatchObject({ kind: 'skipped' });
    }
  });

  test("a redirect's body is not judged as the resource's: the client follows Location", () => {
    for (const status of [301, 302, 307])
      expect(exchangeRule('documented-body').check(view(exchange(status, '<html>moved</html>', `${BASE}/categories/9`)))).toMatchObject({ kind: 'skipped' });
  });

  test('applies to 4xx and 5xx of the API from 3.1.0 on', () => {
    const rule = exchangeRule('error-body');
    const asking = (e: Exchange, version: string) => view({ ...e, requestHeaders: { accept: `application/vnd.service+json; version=${version}` } });
    expect(rule.applies(asking(exchange(404, ''), '3.2'))).toBe(true);
    expect(rule.applies(asking(exchange(404, ''), '3.0'))).toBe(false);
    expect(rule.applies(asking(exchange(200, ''), '3.2'))).toBe(false);
  });
});

describe('redirect-location (RED-3)', () => {
  test("every redirect names its target in Location, the API's, a moved base URL's and the OAuth consent step's alike", () => {
    const rule = exchangeRule('redirect-location');
    const moved = exchange(301, '', 'https://api.example.com/v3/categories?page=2', 'GET', { location: `${BASE}/categories?page=2` });
    expect(rule.applies(view(moved))).toBe(true);
    expect(rule.check(view(moved))).toMatchObject({ kind: 'passed' });
    const bare = exchange(307, '', `${BASE}/favorites`, 'POST');
    expect(rule.check(view(bare))).toMatchObject({
      kind: 'findings',
      findings: [
        { severity: 'MUST', requirements: ['RED-3'], message: expect.stringMatching(/POST https:\/\/api\.example\.com\/api\/favorites answered 307 without a Location header/) },
      ],
    });
    const consent = exchange(302, '', 'https://auth.example.com/oauth2/authorizations/new?client_id=x', 'GET', { location: '' });
    expect(rule.check(view(consent, 'https://auth.example.com'))).toMatchObject({ kind: 'findings' });
    for (const status of [200, 304, 404]) expect(rule.applies(view(exchange(status, '')))).toBe(false);
    expect(rule.applies(view(exchange(null, '')))).toBe(false);
  });
});

describe('https (GEN-3)', () => {
  const rule = exchangeRule('https');
  test("an answer over HTTPS pointing to http fails: a redirect's Location, a Link URL", () => {
    const redirect = exchange(301, '', `${BASE}/categories`, 'GET', { location: 'http://api.example.com/api/categories' });
    expect(rule.check(view(redirect))).toMatchObject({
      kind: 'findings',
      findings: [{ severity: 'MUST', requirements: ['GEN-3'], message: expect.stringContaining('points to http://api.example.com/api/categories, over http') }],
    });
    // The consent step sends the user back to the client's redirect URI: an http loopback one (RFC 8252) is the client's, not the service's.
    const consent = `https://auth.example.com/oauth2/authorizations/new?client_id=x&redirect_uri=${encodeURIComponent('http://127.0.0.1:8765/callback')}&scope=public`;
    expect(rule.check(view(exchange(302, '', consent, 'GET', { location: 'http://127.0.0.1:8765/callback?code=abc' }), 'https://auth.example.com'))).toEqual({ kind: 'passed' });
    const login = exchange(302, '', consent, 'GET', { location: 'http://auth.example.com/login' });
    expect(rule.check(view(login, 'https://auth.example.com'))).toMatchObject({ kind: 'findings', findings: [{ severity: 'MUST' }] });
    const linked = exchange(200, '{}', `${BASE}/categories?per=2`, 'GET', { link: '<http://api.example.com/api/categories?per=2&page=2>; rel="next"' });
    expect(rule.check(view(linked))).toMatchObject({ kind: 'findings', findings: [{ severity: 'MUST' }] });
    expect(rule.check(view(exchange(200, '{}', `${BASE}/categories?per=2`, 'GET', { link: '</api/categories?per=2&page=2>; rel="next"' })))).toEqual({ kind: 'passed' });
  });

  test('a deployment reached over http is noted; one on the machine itself is not judged', () => {
    const at = (url: string, base: string) => viewOf({ exchange: exchange(200, '{}', url), baseUrl: base, atMs: Date.now() });
    const plain = at('http://staging.example.com/api/categories', 'http://staging.example.com/api');
    expect(rule.applies(plain)).toBe(true);
    expect(rule.check(plain)).toMatchObject({ kind: 'findings', findings: [{ severity: 'WARN', requirements: ['GEN-3'] }] });
    for (const base of ['http://127.0.0.1:8080', 'http://localhost/api', 'http://[::1]:3000'])
      expect(rule.check(at(`${base}/categories`, base))).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/on this machine/) });
    // Not the service's: a page or a script of another host in a recording.
    expect(rule.applies(view(exchange(200, 'x', 'https://cdn.example.net/app.js')))).toBe(false);
  });
});

describe('the table', () => {
  test('ids are unique; each rule cites requirements; WARN rules are the open points', () => {
    const ids = EXCHANGE_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of EXCHANGE_RULES) expect(r.requirements.length, r.id).toBeGreaterThan(0);
    expect(
      EXCHANGE_RULES.filter((r) => r.severity === 'WARN')
        .map((r) => r.id)
        .sort(),
    ).toEqual(['link-keeps-query', 'match-count-only-in-search', 'no-later-fields']);
    expect(() => exchangeRule('no-such-rule')).toThrow(/no exchange rule "no-such-rule"/);
  });

  test('under sparse fieldsets, a null in a field kept only warns: the choice of fieldset alternatives it alone fails is no failure', () => {
    const url = `${BASE}/categories/4?fields%5Broot%5D=id%2Cchildren_count`;
    const answer = (category: Record<string, unknown>) =>
      exchangeRule('documented-body').check(view(exchange(200, JSON.stringify({ category }), url, 'GET', { 'content-type': 'application/json' })));
    const nulled = answer({ id: 4, children_count: null });
    expect(nulled).toMatchObject({ kind: 'findings' });
    expect(nulled.kind === 'findings' && nulled.findings.map((f) => f.severity)).toEqual(['WARN']);
    expect(answer({ id: 4, children_count: 'none' })).toMatchObject({ kind: 'findings', findings: expect.arrayContaining([expect.objectContaining({ severity: 'MUST' })]) });
  });

  test('a null where the spec states a value fails; where it types one, warns (GEN-8); an absent field fails', () => {
    const root = (category: Record<string, unknown>) => view(exchange(200, JSON.stringify({ category }), `${BASE}/categories/root`, 'GET', { 'content-type': 'application/json' }));
    // parent_id 0 for the root is a value the spec states: null is a wrong value (issue 38, point 3).
    const stated = exchangeRule('root-parent-id').check(root({ id: 1, parent_id: null }));
    expect(stated).toMatchObject({ kind: 'findings', findings: [{ severity: 'MUST', requirements: ['CAT-18', 'CAT-6'] }] });
    const blank = exchangeRule('documented-body').check(root({ id: 1, parent_id: 0, name: null }));
    expect(blank).toMatchObject({
      kind: 'findings',
      findings: expect.arrayContaining([expect.objectContaining({ severity: 'WARN', requirements: expect.arrayContaining(['GEN-8']) })]),
    });
    expect(exchangeRule('root-parent-id').check(root({ id: 1, parent_id: 1 }))).toMatchObject({ kind: 'findings', findings: [{ severity: 'MUST' }] });
    const body = exchangeRule('documented-body').check(root({ id: 1 }));
    // One finding per statement broken: the fields of the Category table (CAT-4) apart from the single-category ones (CAT-12).
    expect(body).toMatchObject({
      kind: 'findings',
      findings: expect.arrayContaining([expect.objectContaining({ severity: 'MUST', requirements: ['CAT-4', 'GEN-8'], message: expect.stringContaining('/category/name') })]),
    });
  });
});

describe('the run-wide tally', () => {
  test('counts every exchange a rule judges, keeps the first findings and merges across tests', () => {
    const observer = new ExchangeObserver({ baseUrl: BASE, implements: '3.2.1' });
    observer.see(exchange(200, '{}'), 'a');
    observer.see(exchange(404, '{"errors":[{"code":"RecordNotFound","messages":["no"]}]}'), 'a');
    for (let i = 0; i < VIOLATIONS_KEPT + 2; i++) observer.see(exchange(401, '{}', `${BASE}/user`), `test ${i}`);
    const first = observer.take();
    expect(first['error-body']).toMatchObject({ checked: VIOLATIONS_KEPT + 3, violationCount: VIOLATIONS_KEPT + 2, endpoints: ['GET /skus/:id/reviews', 'GET /user'] });
    expect(first['error-body']!.violations).toHaveLength(VIOLATIONS_KEPT);
    expect(observer.take()).toEqual({});
    const run = mergeObservations({}, first);
    mergeObservations(run, { 'error-body': { checked: 1, endpoints: ['GET /x'], violationCount: 1, warningCount: 0, violations: [first['error-body']!.violations[0]!] } });
    expect(run['error-body']).toMatchObject({ checked: VIOLATIONS_KEPT + 4, violationCount: VIOLATIONS_KEPT + 3 });
    expect(run['error-body']!.violations).toHaveLength(VIOLATIONS_KEPT);
    expect(run['error-body']!.endpoints).toContain('GET /x');
  });
});
