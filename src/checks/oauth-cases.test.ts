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
  noDenialReason,
  NOTIFICATIONS_ENDPOINTS,
  otherRedirectUri,
  permissionIds,
  probeJudgement,
  probePath,
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

  test('probeJudgement: 401 and 403 pass; a 2xx fails; another 4xx fails a MUST with a real id, only warns with a placeholder', () => {
    const none = { placeholder: false, body: false };
    expect(probeJudgement(403, 'GET /favorites', none)).toEqual({ check: pass(), must: true });
    expect(probeJudgement(401, 'GET /favorites/9', { placeholder: true, body: false })).toEqual({ check: pass(), must: true });
    expect(probeJudgement(403, 'POST /favorites', { placeholder: false, body: true })).toEqual({ check: pass(), must: true });
    expect(probeJudgement(200, 'DELETE /favorites/9', { placeholder: true, body: false })).toEqual({
      check: fail('DELETE /favorites/9 answered 200, expected a refusal (401 or 403)'),
      must: true,
    });
    expect(probeJudgement(422, 'GET /favorites/12', none)).toEqual({ check: fail('GET /favorites/12 answered 422, expected a refusal (401 or 403)'), must: true });
    const open = probeJudgement(404, 'DELETE /favorites/9', { placeholder: true, body: false });
    expect(open.must).toBe(false);
    expect(open.check).toEqual(
      fail('DELETE /favorites/9 answered 404, not a refusal (401 or 403): the permission could not be judged: the id does not exist, and the record may be looked up first'),
    );
  });

  test('probeJudgement: a 404 only warns, saying why (no such resource for the token: GET /user with an application token)', () => {
    const judged = probeJudgement(404, 'GET /user with an application token', { placeholder: false, body: false });
    expect(judged.must).toBe(false);
    expect(judged.check).toEqual(
      fail(
        'GET /user with an application token answered 404, not a refusal (401 or 403): tolerated: the spec names no status for a missing permission, and 404 may say there is no such resource for this token',
      ),
    );
  });

  test('probeJudgement: a made-up body validated first (400, 422) only warns, saying why; elsewhere 400 fails, and a 2xx always', () => {
    const madeUpBody = { placeholder: false, body: true };
    for (const status of [400, 404, 422]) {
      const judged = probeJudgement(status, 'POST /notifications/view', madeUpBody);
      expect(judged, String(status)).toEqual({
        check: fail(
          `POST /notifications/view answered ${status}, not a refusal (401 or 403): the permission could not be judged: the body names no existing record or lacks fields, and it may be validated first`,
        ),
        must: false,
      });
    }
    expect(probeJudgement(204, 'POST /notifications/view', madeUpBody)).toEqual({
      check: fail('POST /notifications/view answered 204, expected a refusal (401 or 403)'),
      must: true,
    });
    expect(probeJudgement(400, 'GET /favorites', { placeholder: false, body: false }).must).toBe(true);
    expect(probeJudgement(500, 'POST /favorites', madeUpBody).must).toBe(true);
  });

  test('probes of endpoints a later patch level brought name its feature', () => {
    expect(probe('POST /notifications/view').since).toBe('notifications-view');
    expect(probe('POST /skus/:sku_id/reviews/:review_id/votes').since).toBe('review-votes');
    expect(probe('GET /favorites').since).toBeUndefined();
  });
});

describe('the consent and the code flow', () => {
  test('noCodeReason: none with a code; an error at once, a consent page, or anything else says why', () => {
    expect(noCodeReason({ status: 302, redirect: redirect('https://app.example/cb?code=abc', true) })).toBeNull();
    expect(noCodeReason({ status: 302, redirect: redirect('https://app.example/cb?error=access_denied', true) })).toMatch(/with error=access_denied at once/);
    expect(noCodeReason({ status: 200, redirect: null })).toMatch(/shows a consent page/);
    expect(noCodeReason({ status: 302, redirect: redirect('https://auth.example/login', false) })).toBe(
      'the authorization request redirects to https://auth.example/login, not to the redirect_uri: the deployment needs a person to sign in first, so the code flow cannot run without one',
    );
    expect(noCodeReason({ status: 400, redirect: null })).toMatch(
      /answered 400 without a redirect: the deployment does not take the configured client or redirect URI .*configuration/,
    );
    expect(noCodeReason({ status: 500, redirect: null })).toBe('the authorization request answered 500, not a redirect to the redirect_uri');
  });

  test('noDenialReason: a sign-in page, an error page, an error that is no denial, a code or a consent page leave the denial unjudged, saying why', () => {
    expect(noDenialReason({ status: 302, redirect: redirect('https://auth.example/login?return_to=%2Fx', false) })).toBe(
      'the authorization request redirects to https://auth.example/login, not to the redirect_uri: the deployment needs a person to sign in first, so no denial can be provoked without one',
    );
    for (const status of [400, 401, 404]) expect(noDenialReason({ status, redirect: null }), String(status)).toMatch(/configured client or redirect URI/);
    for (const error of ['unauthorized_client', 'invalid_scope', 'server_error', 'temporarily_unavailable', 'login_required', 'consent_required', 'interaction_required']) {
      expect(noDenialReason({ status: 302, redirect: redirect(`https://app.example/cb?error=${error}`, true) }), error).toMatch(
        new RegExp(`error=${error} at once: not a denial by the user \\(of which error=access_denied is required\\)`),
      );
    }
    expect(noDenialReason({ status: 302, redirect: redirect('https://app.example/cb?code=abc', true) })).toMatch(/consents at once/);
    expect(noDenialReason({ status: 200, redirect: null })).toMatch(/shows a consent page: a denial needs a person/);
  });

  test('noDenialReason: what may be a denial is judged (access_denied, another error, no error, a server error)', () => {
    for (const location of ['https://app.example/cb?error=access_denied', 'https://app.example/cb?error=denied', 'https://app.example/cb']) {
      expect(noDenialReason({ status: 302, redirect: redirect(location, true) }), location).toBeNull();
    }
    expect(noDenialReason({ status: 500, redirect: null })).toBeNull();
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
