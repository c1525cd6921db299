// Checks of the OAuth 2.0 flows and token answers (spec: Authentication, Errors, Limits).
// Pure functions over what the server sent; the suite names the requirement and the severity.
import { fail, isPlainObject, pass, show, type CheckResult } from './check.ts';

/** Spec Limits: an application token lives 2 weeks, a user token 1 day. */
export const APP_TOKEN_LIFETIME_S = 14 * 24 * 3600;
export const USER_TOKEN_LIFETIME_S = 24 * 3600;
/**
 * No token of this API lives a year. The spec's own sample expires_in exceeds the stated 2 weeks
 * (AUTH-9), so a value above the lifetime only warns; a value above a year cannot be seconds of
 * any lifetime the spec suggests, and is what milliseconds look like (2 weeks = 1,209,600,000).
 */
export const MAX_PLAUSIBLE_EXPIRES_IN_S = 365 * 24 * 3600;

/** access_token a non-empty string; token_type bearer (OAuth 2.0: case-insensitive). */
export function isBearerTokenResponse(body: unknown): CheckResult {
  if (!isPlainObject(body)) return fail(`token response is ${show(body)}, expected a JSON object`);
  const token = body['access_token'];
  if (typeof token !== 'string' || token === '') return fail(`access_token is ${typeof token === 'string' ? 'empty' : show(token)}, expected a non-empty string`);
  const type = body['token_type'];
  if (typeof type !== 'string' || type.toLowerCase() !== 'bearer') return fail(`token_type is ${show(type)}, expected "bearer"`);
  return pass();
}

/** expires_in is an integer number of seconds: a positive integer, not a millisecond count. */
export function expiresInIsIntegerSeconds(body: unknown): CheckResult {
  const value = isPlainObject(body) ? body['expires_in'] : undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) return fail(`expires_in is ${show(value)}, expected an integer number of seconds`);
  if (value <= 0) return fail(`expires_in is ${value}, expected a positive number of seconds`);
  if (value > MAX_PLAUSIBLE_EXPIRES_IN_S) {
    return fail(`expires_in is ${value}: as seconds that is ${Math.round(value / 86400)} days; it looks like milliseconds (${Math.round(value / 86_400_000)} days)`);
  }
  return pass();
}

/** expires_in does not exceed the lifetime the spec states (the spec's own sample does: a warning). */
export function expiresInWithinLifetime(body: unknown, lifetimeS: number, what: string): CheckResult {
  const value = isPlainObject(body) ? body['expires_in'] : undefined;
  if (typeof value !== 'number') return pass();
  return value <= lifetimeS ? pass() : fail(`expires_in ${value} s is more than the ${what} lifetime of ${lifetimeS} s`);
}

/** refresh_token present (a non-empty string) or absent (absent or null), as the flow says. */
export function refreshTokenIs(body: unknown, expected: 'present' | 'absent'): CheckResult {
  const value = isPlainObject(body) ? body['refresh_token'] : undefined;
  if (expected === 'present') {
    return typeof value === 'string' && value !== '' ? pass() : fail(`refresh_token is ${show(value)}, expected a non-empty string`);
  }
  return value === undefined || value === null ? pass() : fail('the response carries a refresh_token, though no refresh token is used for application tokens');
}

/**
 * A client-credentials request for a scope beyond public did not get it: refused (4xx), or
 * granted with a scope field that names public alone. A 200 without a scope field cannot be
 * judged here (`scopeUnstated` says so, for a warning): OAuth 2.0 would read it as the scope asked.
 */
export function extraScopeNotGranted(status: number, body: unknown, allowed: string): CheckResult {
  if (status >= 400 && status < 500) return pass();
  if (status !== 200) return fail(`the token request answered ${status}, expected a refusal (4xx) or a token of scope ${allowed} alone`);
  const scope = isPlainObject(body) ? body['scope'] : undefined;
  if (typeof scope !== 'string') return pass();
  const extra = scope.split(' ').filter((s) => s !== '' && s !== allowed);
  return extra.length === 0 ? pass() : fail(`an application token was granted scope ${show(scope)}: ${extra.join(', ')} beyond ${allowed}`);
}

export function scopeUnstated(status: number, body: unknown): CheckResult {
  if (status !== 200 || (isPlainObject(body) && typeof body['scope'] === 'string')) return pass();
  return fail('a token was issued without a scope field, so it is unknown whether the scope beyond public was granted (OAuth 2.0 reads no scope field as the scope requested)');
}

/** A token request that must not yield a token was refused: 4xx, no access_token. */
export function tokenRefused(status: number, body: unknown, what: string): CheckResult {
  const issued = isPlainObject(body) && typeof body['access_token'] === 'string';
  if (status >= 400 && status < 500 && !issued) return pass();
  return fail(`${what} answered ${status}${issued ? ' with an access_token' : ''}, expected a refusal (4xx, no token)`);
}

/**
 * A client-credentials request without scope was refused (for a warning): a token issued for it
 * says it is tolerated, since "all parameters are required" may bind the client only and OAuth
 * 2.0 lets a server apply a default scope (RFC 6749 3.3).
 */
export function scopeNotDefaulted(status: number, body: unknown): CheckResult {
  const refused = tokenRefused(status, body, 'a client-credentials request without scope');
  if (refused.ok || status !== 200) return refused;
  return fail(`${refused.message} (tolerated: "all parameters are required" may bind the client only, and OAuth 2.0 lets a server apply a default scope, RFC 6749 3.3)`);
}

export interface ConsentRedirect {
  /** The redirect URI's endpoint was the target (origin and path). */
  toRedirectUri: boolean;
  /** Query parameters of the Location, decoded once. */
  params: URLSearchParams;
  /** The code exactly as it appears in the Location, not decoded; null without one. */
  rawCode: string | null;
  location: string;
}

/** Reads the consent step's answer: a redirect, and where to; null when it is not a redirect. */
export function readConsentRedirect(status: number, headers: Record<string, string>, requestUrl: string, redirectUri: string): ConsentRedirect | null {
  const location = headers['location'];
  if (status < 300 || status >= 400 || !location) return null;
  let target: URL;
  try {
    target = new URL(location, requestUrl);
  } catch {
    return null;
  }
  const expected = new URL(redirectUri);
  const rawQuery = target.search.replace(/^\?/, '');
  const rawCode =
    rawQuery
      .split('&')
      .find((p) => p.startsWith('code='))
      ?.slice('code='.length) ?? null;
  return {
    toRedirectUri: target.origin === expected.origin && target.pathname === expected.pathname,
    params: target.searchParams,
    rawCode,
    location,
  };
}

/** Granted: a redirect to redirect_uri with a non-empty code and no error. */
export function grantRedirectCarriesCode(redirect: ConsentRedirect | null, status: number): CheckResult {
  if (!redirect) return fail(`the authorization request answered ${status}, expected a redirect to the redirect_uri`);
  if (!redirect.toRedirectUri) return fail(`the consent redirect goes to ${show(redirect.location)}, not to the redirect_uri`);
  const code = redirect.params.get('code');
  if (!code)
    return fail(`the consent redirect to the redirect_uri carries no code (${redirect.params.has('error') ? `error=${redirect.params.get('error')}` : 'no code parameter'})`);
  return pass();
}

/**
 * "The code is URL-encoded": in the Location every character of the code is unreserved or
 * percent-encoded. A raw '+' is the harm (form decoding turns it into a space); other reserved
 * characters are legal in a query, so the suite may only warn about them (`strict` false).
 */
export function codeIsUrlEncoded(rawCode: string | null, strict: boolean): CheckResult {
  if (rawCode === null) return pass();
  if (!/^[A-Za-z0-9\-._~%+!$'()*,;:@/?=]*$/.test(rawCode)) return fail(`the code in the Location has characters that are not URL-encoded: ${show(rawCode)}`);
  try {
    decodeURIComponent(rawCode);
  } catch {
    return fail(`the code in the Location is not valid percent-encoding: ${show(rawCode)}`);
  }
  if (rawCode.includes('+')) return fail("the code in the Location has a raw '+', which URL decoding of a query turns into a space: it is not URL-encoded");
  if (strict && /[^A-Za-z0-9\-._~%]/.test(rawCode)) return fail(`the code in the Location has reserved characters that are not percent-encoded: ${show(rawCode)}`);
  return pass();
}

/** Denied: a redirect to redirect_uri with error=access_denied and no code. */
export function denialRedirect(redirect: ConsentRedirect | null, status: number): CheckResult {
  if (!redirect) return fail(`the authorization request answered ${status}, expected a redirect to the redirect_uri`);
  if (!redirect.toRedirectUri) return fail(`the denial redirect goes to ${show(redirect.location)}, not to the redirect_uri`);
  const error = redirect.params.get('error');
  if (error !== 'access_denied') return fail(`the denial redirect carries error=${show(error)}, expected access_denied`);
  if (redirect.params.has('code')) return fail('the denial redirect carries a code as well as error=access_denied');
  return pass();
}

/** A request that a server may refuse or serve (both tokens at once): served is the finding. */
export function notServed(status: number, what: string): CheckResult {
  return status >= 200 && status < 300 ? fail(`${what} was served (${status})`) : pass();
}
