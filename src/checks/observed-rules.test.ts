import { describe, expect, test } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { VersionScope } from '../rules/version-scope.ts';
import { ExchangeObserver, mergeObservations, VIOLATIONS_KEPT } from '../harness/observations.ts';
import { endpointOf, errorBodyOf, isApiExchange, isOAuthUrl, OBSERVED_RULES } from './observed-rules.ts';

const BASE = 'https://api.example.com/api';

function exchange(status: number | null, body: string, url = `${BASE}/skus/12/reviews?page=2`, method = 'GET'): Exchange {
  return { method, url, requestHeaders: {}, status, responseHeaders: {}, responseBody: body, durationMs: 1 };
}

describe('which exchanges are the API', () => {
  test('under the base path on its origin, answered', () => {
    expect(isApiExchange(exchange(200, '{}'), BASE)).toBe(true);
    expect(isApiExchange(exchange(200, '{}', 'https://api.example.com/apix/skus'), BASE)).toBe(false);
    expect(isApiExchange(exchange(200, '{}', 'https://auth.example.com/api/oauth2/token'), BASE)).toBe(false);
    expect(isApiExchange(exchange(null, ''), BASE)).toBe(false);
  });

  test('endpoints name numeric segments :id', () => {
    expect(endpointOf(exchange(200, '{}'), BASE)).toBe('GET /skus/:id/reviews');
    expect(endpointOf(exchange(200, '{}', `${BASE}/favorite_lists/-3`, 'DELETE'), BASE)).toBe('DELETE /favorite_lists/:id');
  });
});

describe('errorBodyOf (ERR-2)', () => {
  test('the errors format passes; other shapes fail naming the exchange', () => {
    expect(errorBodyOf(exchange(404, '{"errors":[{"code":"RecordNotFound","messages":["no"]}]}'))).toEqual({ ok: true });
    const bad = errorBodyOf(exchange(401, '{"errors":[{"code":"x","messages":"no"}]}'));
    expect(bad).toEqual({ ok: false, message: expect.stringMatching(/^GET https:\/\/api\.example\.com\/api\/skus\/12\/reviews\?page=2 answered 401: errors\[0\]\.messages is "no"/) });
    expect(errorBodyOf(exchange(500, '<html>oops</html>'))).toMatchObject({ ok: false, message: expect.stringContaining('not JSON') });
    expect(errorBodyOf(exchange(400, ''))).toMatchObject({ ok: false });
  });

  test('what the spec allows besides: 403 {message} (rate limit), 404 [] on a category (documented example)', () => {
    expect(errorBodyOf(exchange(403, '{"message":"Rate limit exceeded"}'))).toEqual({ ok: true });
    expect(errorBodyOf(exchange(404, '[]', `${BASE}/categories/9`))).toEqual({ ok: true });
    expect(errorBodyOf(exchange(404, '[]', `${BASE}/skus/9`))).toMatchObject({ ok: false });
  });

  test('a body the exchange record cut short is not judged', () => {
    expect(errorBodyOf(exchange(400, '{"errors":[{"code":"x","messages":["aaa... [5000 more characters]'))).toEqual({ ok: true });
  });

  test('applies to 4xx and 5xx of the API from 3.1.0 on', () => {
    const rule = OBSERVED_RULES.find((r) => r.id === 'error-body')!;
    expect(rule.applies(exchange(404, ''), { baseUrl: BASE, version: new VersionScope({ asked: '3.2' }) })).toBe(true);
    expect(rule.applies(exchange(404, ''), { baseUrl: BASE, version: new VersionScope({ asked: '3.0' }) })).toBe(false);
    expect(rule.applies(exchange(200, ''), { baseUrl: BASE, version: new VersionScope({ asked: '3.2' }) })).toBe(false);
    expect(rule.applies(exchange(400, '', 'https://auth.example.com/oauth2/token', 'POST'), { baseUrl: BASE, version: new VersionScope({ asked: '3.2' }) })).toBe(false);
  });

  test('never applies to the OAuth endpoints, even on the API origin under its base path', () => {
    const same = { baseUrl: BASE, authUrl: BASE, version: new VersionScope({ asked: '3.2' }) };
    for (const rule of OBSERVED_RULES) {
      expect(rule.applies(exchange(400, '{"error":"invalid_grant"}', `${BASE}/oauth2/token`, 'POST'), same), rule.id).toBe(false);
      expect(rule.applies(exchange(400, '{"error":"invalid_request"}', `${BASE}/oauth2/authorizations/new?client_id=x`), same), rule.id).toBe(false);
      // An auth URL with a path of its own: its /oauth2/ endpoints are not the API's either.
      const prefixed = { ...same, authUrl: `${BASE}/auth` };
      expect(rule.applies(exchange(400, '{}', `${BASE}/auth/oauth2/whatever`, 'POST'), prefixed), rule.id).toBe(false);
    }
    expect(isOAuthUrl(`${BASE}/categories`, BASE)).toBe(false);
  });
});

describe('the run-wide tally', () => {
  test('counts every exchange a rule applies to, keeps the first violations and merges across tests', () => {
    const observer = new ExchangeObserver({ baseUrl: BASE, version: new VersionScope({ asked: '3.2' }) });
    observer.see(exchange(200, '{}'), 'a');
    observer.see(exchange(404, '{"errors":[{"code":"RecordNotFound","messages":["no"]}]}'), 'a');
    for (let i = 0; i < VIOLATIONS_KEPT + 2; i++) observer.see(exchange(401, '{}', `${BASE}/user`), `test ${i}`);
    const first = observer.take();
    expect(first['error-body']).toMatchObject({ checked: VIOLATIONS_KEPT + 3, violationCount: VIOLATIONS_KEPT + 2, endpoints: ['GET /skus/:id/reviews', 'GET /user'] });
    expect(first['error-body']!.violations).toHaveLength(VIOLATIONS_KEPT);
    expect(observer.take()).toEqual({});
    const run = mergeObservations({}, first);
    mergeObservations(run, { 'error-body': { checked: 1, endpoints: ['GET /x'], violationCount: 1, violations: [first['error-body']!.violations[0]!] } });
    expect(run['error-body']).toMatchObject({ checked: VIOLATIONS_KEPT + 4, violationCount: VIOLATIONS_KEPT + 3 });
    expect(run['error-body']!.violations).toHaveLength(VIOLATIONS_KEPT);
    expect(run['error-body']!.endpoints).toContain('GET /x');
  });
});
