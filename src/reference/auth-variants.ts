// How the legal variants of variants/protocol-readings.ts shape the OAuth server's answers
// (auth.ts): the token answer's fields, the application token's lifetime, the scopes a request
// is granted and the authorization step's refusals. Kept apart so that auth.ts reads as the
// reference's own flow.

import { APP_SCOPE, APP_TOKEN_LIFETIME_S, USER_TOKEN_LIFETIME_S, type OAuthResponse, type TokenKind, type TokenRecord } from './auth-records.ts';
import type { FaultName } from './faults.ts';
import type { Variants } from './variants.ts';

/** What the spec's sample adds to the 2 weeks in expires_in (variant expires-in-as-sample): one day. */
const SAMPLE_EXTRA_S = 24 * 60 * 60;
/** The application token lifetime of variant app-token-lifetime-3-weeks. */
const THREE_WEEKS_S = 21 * 24 * 60 * 60;

/** The service's own time zone of variant daily-limit-service-day: UTC+02:00. */
const SERVICE_OFFSET_MS = 2 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The number of the day the daily limit counts in: the UTC day, or the service's own (variant daily-limit-service-day). */
export function dayNumber(now: number, variants: Variants): number {
  return Math.floor((variants.has('daily-limit-service-day') ? now + SERVICE_OFFSET_MS : now) / DAY_MS);
}

/** How long a new token of `kind` lives, in seconds. */
export function lifetimeOf(kind: TokenKind, variants: Variants): number {
  if (kind === 'user') return USER_TOKEN_LIFETIME_S;
  return variants.has('app-token-lifetime-3-weeks') ? THREE_WEEKS_S : APP_TOKEN_LIFETIME_S;
}

/** The token response's fields for an access token of which `remaining` seconds are left. */
export function tokenAnswer(token: TokenRecord, remaining: number, fault: FaultName | null, variants: Variants): Record<string, unknown> {
  const app = token.kind === 'app';
  // The spec's sample reports more than the 2 weeks the token lives: the variant's server does so too.
  const reported = app && variants.has('expires-in-as-sample') ? remaining + SAMPLE_EXTRA_S : remaining;
  return {
    access_token: token.value,
    token_type: variants.has('token-type-capitalised') ? 'Bearer' : 'bearer',
    expires_in: fault === 'expires-in-milliseconds' ? reported * 1000 : reported,
    scope: token.scopes.join(' '),
    ...(app && variants.has('app-refresh-token-null') ? { refresh_token: null } : {}),
  };
}

/**
 * The scope a client-credentials request is taken to ask for: undefined when it is missing and
 * must be refused. Variant missing-scope-public grants public without one.
 */
export function appScopeAsked(scope: string | undefined, variants: Variants): string | undefined {
  return scope ?? (variants.has('missing-scope-public') ? APP_SCOPE : undefined);
}

/** The scopes an authorization request is taken to ask for: variant unknown-scopes-dropped leaves out the names it cannot grant. */
export function authorizableAsked(scopes: readonly string[], authorizable: readonly string[], variants: Variants): readonly string[] {
  return variants.has('unknown-scopes-dropped') ? scopes.filter((s) => authorizable.includes(s)) : scopes;
}

/**
 * A refusal of the authorization step whose client and redirect_uri are good, as the variants
 * send it: a redirect back to the client with the OAuth error (authorize-errors-redirect, RFC
 * 6749 4.1.2.1) or with error=access_denied (authorize-failures-access-denied); else as it is.
 */
export function authorizeRefusal(query: URLSearchParams, registeredUri: string, refusal: OAuthResponse, variants: Variants): OAuthResponse {
  const error = refusal.body?.['error'];
  if (typeof error !== 'string' || query.get('redirect_uri') !== registeredUri) return refusal;
  let sent: string;
  if (variants.has('authorize-errors-redirect')) sent = error;
  else if (variants.has('authorize-failures-access-denied')) sent = 'access_denied';
  else return refusal;
  const state = query.get('state');
  const params = new URLSearchParams({ error: sent, error_description: String(refusal.body?.['error_description'] ?? ''), ...(state ? { state } : {}) });
  const location = `${registeredUri}${registeredUri.includes('?') ? '&' : '?'}${params.toString()}`;
  return { status: 302, headers: { Location: location, 'Cache-Control': 'no-store' } };
}
