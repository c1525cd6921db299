// What the OAuth suite asks and how it reads the answers: the probes' paths and requirement ids,
// how a refusal is judged, and why a consent answer gives no code.
import { describe, expect, test } from 'vitest';
import { fail, pass } from './check.ts';
import {
  APP_TOKEN_ENDPOINTS,
  FAVORITES_ENDPOINTS,
  labelled,
  NO_ID,
  noCodeReason,
  NOTIFICATIONS_ENDPOINTS,
  otherRedirectUri,
  permissionIds,
  probePath,
  refusalJudgement,
  REVIEW_ACTION_ENDPOINTS,
  type Probe,
} from './oauth-cases.ts';

const probe = (endpoint: string): Probe => [...FAVORITES_ENDPOINTS, ...NOTIFICATIONS_ENDPOINTS, ...REVIEW_ACTION_ENDPOINTS].find((p) => p.endpoint === endpoint)!;
const redirect = (location: string, toRedirectUri: boolean) => ({
  location,
  toRedirectUri,
  params: new URL(location).searchParams,
  rawCode: new URL(location).searchParams.get('code'),
});

describe('permission probes', () => {
  test('permissionIds: the permission of each table, the category favorites and the review actions by their own ids', () => {
    expect(permissionIds(probe('GET /favorites'))).toEqual(['FAV-34', 'SCOPE-3']);
    expect(permissionIds(probe('GET /categories/:id/favorites'))).toEqual(['CAT-23', 'SCOPE-3']);
    expect(permissionIds(probe('POST /notifications/view'))).toEqual(['NOTIF-7', 'SCOPE-4']);
    expect(permissionIds(probe('POST /skus/:sku_id/reviews/:review_id/votes'))).toEqual(['REV-27', 'SCOPE-5']);
    expect(permissionIds(probe('POST /skus/:sku_id/reviews/:review_id/flags'))).toEqual(['REV-28', 'SCOPE-5']);
  });

  test('APP_TOKEN_ENDPOINTS: GET /user and the permission endpoints other suites do not show an application token', () => {
    const endpoints = APP_TOKEN_ENDPOINTS.map((p) => p.endpoint);
    expect(endpoints[0]).toBe('GET /user');
    expect(endpoints).not.toContain('GET /favorite_lists');
    expect(endpoints).not.toContain('GET /categories/:id/favorites');
    expect(endpoints).not.toContain('GET /notifications');
    expect(endpoints).toContain('GET /notifications/:id');
    expect(endpoints).toHaveLength(1 + FAVORITES_ENDPOINTS.length - 2 + NOTIFICATIONS_ENDPOINTS.length - 1);
  });

  test('probePath: a read takes its real id where there is one; a write and a read without one keep NO_ID', () => {
    const ids = { favorite: 12, category: 3 };
    expect(probePath(probe('GET /favorites/:id'), ids)).toEqual({ method: 'GET', path: '/favorites/12', placeholder: false });
    expect(probePath(probe('DELETE /favorites/:id'), ids)).toEqual({ method: 'DELETE', path: `/favorites/${NO_ID}`, placeholder: true });
    expect(probePath(probe('GET /notifications/:id'), ids)).toEqual({ method: 'GET', path: `/notifications/${NO_ID}`, placeholder: true });
    expect(probePath(probe('POST /skus/:sku_id/reviews/:review_id/votes'), ids)).toEqual({ method: 'POST', path: `/skus/${NO_ID}/reviews/${NO_ID}/votes`, placeholder: true });
    expect(probePath(probe('GET /favorites'), ids)).toEqual({ method: 'GET', path: '/favorites', placeholder: false });
  });

  test('refusalJudgement: 401 and 403 pass; a 2xx fails; another 4xx fails a MUST with a real id, only warns with a placeholder', () => {
    expect(refusalJudgement(403, 'GET /favorites', false)).toEqual({ check: pass(), must: true });
    expect(refusalJudgement(401, 'GET /favorites/9', true)).toEqual({ check: pass(), must: false });
    expect(refusalJudgement(200, 'DELETE /favorites/9', true)).toEqual({ check: fail('DELETE /favorites/9 answered 200, expected a refusal (401 or 403)'), must: true });
    expect(refusalJudgement(404, 'GET /favorites/12', false)).toEqual({ check: fail('GET /favorites/12 answered 404, expected a refusal (401 or 403)'), must: true });
    const open = refusalJudgement(404, 'DELETE /favorites/9', true);
    expect(open.must).toBe(false);
    expect(open.check).toEqual(
      fail('DELETE /favorites/9, an id that does not exist (the permission could not be judged: the record may be looked up first) answered 404, expected a refusal (401 or 403)'),
    );
  });
});

describe('the consent and the code flow', () => {
  test('noCodeReason: none with a code; an error at once, a consent page, or anything else says why', () => {
    expect(noCodeReason({ status: 302, redirect: redirect('https://app.example/cb?code=abc', true) })).toBeNull();
    expect(noCodeReason({ status: 302, redirect: redirect('https://app.example/cb?error=access_denied', true) })).toMatch(/with error=access_denied at once/);
    expect(noCodeReason({ status: 200, redirect: null })).toMatch(/shows a consent page/);
    expect(noCodeReason({ status: 302, redirect: redirect('https://auth.example/login', false) })).toBe(
      'the authorization request answered 302 (a redirect to https://auth.example/login), not a redirect to the redirect_uri',
    );
    expect(noCodeReason({ status: 500, redirect: null })).toBe('the authorization request answered 500, not a redirect to the redirect_uri');
  });

  test('otherRedirectUri: another path on the same origin, never the registered one', () => {
    expect(otherRedirectUri('https://app.example/callback?x=1')).toBe('https://app.example/conformance-other-callback');
    expect(otherRedirectUri('https://app.example/conformance-other-callback')).toBe('https://app.example/conformance-other-callback-2');
  });

  test('labelled: a failure names what was asked; a pass stays as it is', () => {
    expect(labelled(pass(), 'GET /user')).toEqual(pass());
    expect(labelled(fail('status 500, expected 200'), 'GET /user with the token')).toEqual(fail('GET /user with the token: status 500, expected 200'));
  });
});
