// Each OAuth check passes what the spec allows and fails what it forbids.
import { describe, expect, test } from 'vitest';
import type { CheckResult } from './check.ts';
import {
  codeIsUrlEncoded,
  denialRedirect,
  expiresInIsIntegerSeconds,
  expiresInWithinLifetime,
  extraScopeNotGranted,
  grantRedirectCarriesCode,
  isBearerTokenResponse,
  notServed,
  readConsentRedirect,
  refreshTokenIs,
  scopeNotDefaulted,
  scopeUnstated,
  tokenRefused,
} from './oauth.ts';

const failsWith = (result: CheckResult, pattern: RegExp) => {
  expect(result.ok).toBe(false);
  expect(result.ok ? '' : result.message).toMatch(pattern);
};
const REDIRECT = 'http://127.0.0.1:9/callback';
const AUTHORIZE = 'http://auth.test/oauth2/authorizations/new?client_id=c';
const redirect = (location: string, status = 302) => readConsentRedirect(status, { location }, AUTHORIZE, REDIRECT);

describe('token responses', () => {
  test('isBearerTokenResponse: bearer in any case; a token is required', () => {
    expect(isBearerTokenResponse({ access_token: 'abc', token_type: 'bearer' }).ok).toBe(true);
    expect(isBearerTokenResponse({ access_token: 'abc', token_type: 'Bearer' }).ok).toBe(true);
    failsWith(isBearerTokenResponse({ access_token: '', token_type: 'bearer' }), /access_token is empty/);
    failsWith(isBearerTokenResponse({ token_type: 'bearer' }), /access_token is undefined/);
    failsWith(isBearerTokenResponse({ access_token: 'a', token_type: 'mac' }), /token_type is "mac"/);
    failsWith(isBearerTokenResponse('x'), /expected a JSON object/);
  });
  test('expiresInIsIntegerSeconds: a positive integer, not milliseconds', () => {
    expect(expiresInIsIntegerSeconds({ expires_in: 1_209_600 }).ok).toBe(true);
    // The spec's sample exceeds 2 weeks: still seconds.
    expect(expiresInIsIntegerSeconds({ expires_in: 5_183_999 }).ok).toBe(true);
    failsWith(expiresInIsIntegerSeconds({ expires_in: 1_209_600_000 }), /looks like milliseconds \(14 days\)/);
    failsWith(expiresInIsIntegerSeconds({ expires_in: 86_400_000 }), /milliseconds \(1 days\)/);
    failsWith(expiresInIsIntegerSeconds({ expires_in: '3600' }), /expected an integer/);
    failsWith(expiresInIsIntegerSeconds({ expires_in: 1.5 }), /expected an integer/);
    failsWith(expiresInIsIntegerSeconds({ expires_in: 0 }), /positive/);
    failsWith(expiresInIsIntegerSeconds({}), /absent/);
  });
  test('expiresInWithinLifetime', () => {
    expect(expiresInWithinLifetime({ expires_in: 86_400 }, 86_400, 'user token').ok).toBe(true);
    failsWith(expiresInWithinLifetime({ expires_in: 86_401 }, 86_400, 'user token'), /more than the user token lifetime of 86400 s/);
  });
  test('refreshTokenIs', () => {
    expect(refreshTokenIs({ refresh_token: 'r' }, 'present').ok).toBe(true);
    failsWith(refreshTokenIs({}, 'present'), /expected a non-empty string/);
    expect(refreshTokenIs({}, 'absent').ok).toBe(true);
    expect(refreshTokenIs({ refresh_token: null }, 'absent').ok).toBe(true);
    failsWith(refreshTokenIs({ refresh_token: 'r' }, 'absent'), /no refresh token is used for application tokens/);
  });
});

describe('scopes and refusals', () => {
  test('extraScopeNotGranted: a 4xx, or a token of scope public alone', () => {
    expect(extraScopeNotGranted(400, { error: 'invalid_scope' }, 'public').ok).toBe(true);
    expect(extraScopeNotGranted(401, null, 'public').ok).toBe(true);
    expect(extraScopeNotGranted(200, { access_token: 't', scope: 'public' }, 'public').ok).toBe(true);
    expect(extraScopeNotGranted(200, { access_token: 't' }, 'public').ok).toBe(true);
    failsWith(extraScopeNotGranted(200, { access_token: 't', scope: 'public favorites' }, 'public'), /granted scope "public favorites": favorites beyond public/);
    failsWith(extraScopeNotGranted(500, null, 'public'), /answered 500/);
  });
  test('scopeUnstated warns about a token without a scope field only', () => {
    expect(scopeUnstated(400, {}).ok).toBe(true);
    expect(scopeUnstated(200, { scope: 'public' }).ok).toBe(true);
    failsWith(scopeUnstated(200, { access_token: 't' }), /without a scope field/);
  });
  test('scopeNotDefaulted: a token issued without scope is tolerated, and the warning says why; other answers as tokenRefused', () => {
    expect(scopeNotDefaulted(400, { error: 'invalid_request' }).ok).toBe(true);
    failsWith(
      scopeNotDefaulted(200, { access_token: 't' }),
      /without scope answered 200 with an access_token, .*\(tolerated: "all parameters are required" may bind the client only.*RFC 6749 3\.3\)$/,
    );
    failsWith(scopeNotDefaulted(500, {}), /answered 500, expected a refusal \(4xx, no token\)$/);
  });

  test('tokenRefused: 4xx and no token', () => {
    expect(tokenRefused(400, { error: 'invalid_grant' }, 'x').ok).toBe(true);
    failsWith(tokenRefused(200, { access_token: 't' }, 'a second exchange'), /a second exchange answered 200 with an access_token/);
    failsWith(tokenRefused(400, { access_token: 't' }, 'x'), /with an access_token/);
    failsWith(tokenRefused(500, {}, 'x'), /answered 500, expected a refusal/);
  });
  test('notServed', () => {
    expect(notServed(400, 'x').ok).toBe(true);
    expect(notServed(401, 'x').ok).toBe(true);
    failsWith(notServed(200, 'both'), /both was served \(200\)/);
  });
});

describe('consent redirects', () => {
  test('readConsentRedirect: only redirects; where to; the raw code', () => {
    expect(readConsentRedirect(200, {}, AUTHORIZE, REDIRECT)).toBeNull();
    expect(readConsentRedirect(302, {}, AUTHORIZE, REDIRECT)).toBeNull();
    const r = redirect(`${REDIRECT}?code=a%2Bb%2F%3D&state=s`)!;
    expect(r.toRedirectUri).toBe(true);
    expect(r.rawCode).toBe('a%2Bb%2F%3D');
    expect(r.params.get('code')).toBe('a+b/=');
    expect(redirect('http://elsewhere.test/callback?code=x')!.toRedirectUri).toBe(false);
  });
  test('grantRedirectCarriesCode', () => {
    expect(grantRedirectCarriesCode(redirect(`${REDIRECT}?code=abc`), 302).ok).toBe(true);
    failsWith(grantRedirectCarriesCode(null, 200), /answered 200, expected a redirect/);
    failsWith(grantRedirectCarriesCode(redirect('http://elsewhere.test/cb?code=abc'), 302), /not to the redirect_uri/);
    failsWith(grantRedirectCarriesCode(redirect(`${REDIRECT}?error=access_denied`), 302), /carries no code \(error=access_denied\)/);
  });
  test('codeIsUrlEncoded: a raw + always fails; other reserved characters only when strict', () => {
    expect(codeIsUrlEncoded('a%2Bb%2F%3D', true).ok).toBe(true);
    expect(codeIsUrlEncoded(null, true).ok).toBe(true);
    failsWith(codeIsUrlEncoded('a+b', false), /raw '\+'/);
    expect(codeIsUrlEncoded('a/b=', false).ok).toBe(true);
    failsWith(codeIsUrlEncoded('a/b=', true), /reserved characters that are not percent-encoded/);
    failsWith(codeIsUrlEncoded('a%zz', false), /not valid percent-encoding/);
    failsWith(codeIsUrlEncoded('a b', false), /not URL-encoded/);
  });
  test('denialRedirect', () => {
    expect(denialRedirect(redirect(`${REDIRECT}?error=access_denied`), 302).ok).toBe(true);
    failsWith(denialRedirect(redirect(`${REDIRECT}?error=server_error`), 302), /error="server_error", expected access_denied/);
    failsWith(denialRedirect(redirect(`${REDIRECT}?error=access_denied&code=x`), 302), /carries a code/);
    failsWith(denialRedirect(redirect('http://elsewhere.test/x?error=access_denied'), 302), /not to the redirect_uri/);
    failsWith(denialRedirect(null, 400), /answered 400/);
  });
});
