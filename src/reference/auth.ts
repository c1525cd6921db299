// OAuth 2.0 (spec "Authentication") and the per-client daily call limit (spec "Limits").
//
// - POST {auth_url}/oauth2/token: grant types client_credentials, authorization_code and
//   refresh_token. Bodies: application/x-www-form-urlencoded or JSON. Client credentials in the
//   body (client_id, client_secret) or, additionally accepted, HTTP Basic.
// - GET {auth_url}/oauth2/authorizations/new: the consent step, decided by the `consent` option:
//   'auto' redirects at once with a code, 'deny' at once with error=access_denied, 'page' shows
//   an HTML consent page whose Approve / Deny buttons POST to {auth_url}/oauth2/authorizations.
// - authenticate(): validates the access token of an API request.
//
// Choices where the spec is silent:
// - Repeating a client-credentials request issues a new token (earlier ones stay valid).
// - Refresh rotates: the response carries a new refresh token and the old refresh token stops
//   working; the previous access token stays valid until it expires.
// - The daily limit counts every API call made with any of the client's tokens and every token
//   request whose client authenticated. The call that would exceed it gets 401 (variant
//   daily-limit-403: 403 {message}) and expires all of the client's access tokens for good; until the next UTC day of the clock the token
//   endpoint answers 403 {"error":"access_denied"}. Refresh tokens survive the lock-out.
// - A token whose scope lacks what a route needs gets 401 (403 is kept for the rate limit, the
//   only meaning the spec's error table gives it).
// - Authorization codes live 10 minutes and work once; a second exchange is invalid_grant (the
//   tokens already issued from the code stay valid).
// - Issuing an application token leaves the client's earlier ones valid until they expire.
// - Consent page: names the client by its client_id and lists the requested scopes with the
//   spec's meaning of each. The form carries client_id, redirect_uri, response_type, scope and
//   state in hidden fields plus a single-use nonce (10 minutes) bound to them; a POST with an
//   unknown, used or expired nonce, or with hidden fields that differ from the ones the nonce
//   was issued for, is 400 invalid_request (JSON, never a redirect). The request is validated
//   before the page is shown, exactly as in the other modes.
// - Every 4xx/5xx JSON body of the OAuth endpoints has OAuth 2.0's error and error_description
//   and the API's errors [{code: <error>, messages: [<error_description>]}] (oauthErrorBody);
//   the access_denied redirects of the consent step stay plain redirects.
//
// Legal variants (variants.ts): client-credentials-same-token (a repeated client-credentials
// request returns the client's valid token), app-token-replaces-earlier (a new application token
// revokes the client's earlier ones), code-reuse-revokes-tokens (a second exchange of a code
// revokes the tokens issued from it, RFC 6749 4.1.2), refresh-keeps-refresh-token (no new refresh
// token; the one used stays valid), both-placements-accepted (the same token in the header and
// the query is served); oauth-plain-errors and refused-scope-403 live in the pipelines
// (oauth-pipeline.ts, api-pipeline.ts).
//
// The records, lifetimes and scopes are auth-records.ts; the consent page is consent-page.ts.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  APP_SCOPE,
  APP_TOKEN_LIFETIME_S,
  AUTHORIZABLE_SCOPES,
  CODE_LIFETIME_MS,
  CONSENT_LIFETIME_MS,
  DAY_MS,
  oauthError,
  type AuthOutcome,
  type ClientRecord,
  type CodeRecord,
  type ConsentRecord,
  type OAuthResponse,
  type RefreshRecord,
  type TokenKind,
  type TokenRecord,
} from './auth-records.ts';
import { appScopeAsked, authorizableAsked, authorizeRefusal, dayNumber, lifetimeOf, tokenAnswer } from './auth-variants.ts';
import { consentPage, CONSENT_PAGE_HEADERS } from './consent-page.ts';
import type { FaultName } from './faults.ts';
import type { ConsentMode, LogoutEnds, ReviewActionsScope } from './options.ts';
import { NO_VARIANTS, type Variants } from './variants.ts';

export interface AuthServiceOptions {
  clients: readonly ClientRecord[];
  now: () => number;
  perDay: number;
  consent: ConsentMode;
  /** 'refused': the authorization step keeps to the spec's step-1 table (default 'granted'). */
  reviewActionsScope?: ReviewActionsScope;
  /** What DELETE /user/logout ends (default 'token'). */
  logoutEnds?: LogoutEnds;
  /** The server's legal variants (default none). */
  variants?: Variants;
}

function sameSecret(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * An authorization code: standard base64 of random bytes, padded, and always containing '+'
 * and '/' so a client that forgets to URL-decode it (or decodes '+' as a space) fails.
 */
function newCode(): string {
  for (;;) {
    const code = randomBytes(31).toString('base64'); // 31 bytes -> ends with '=='
    if (code.includes('+') && code.includes('/')) return code;
  }
}

function splitScopes(raw: string): string[] {
  return raw.split(' ').filter((s) => s !== '');
}

function withQuery(uri: string, params: Record<string, string>): string {
  const parts = Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return uri + (uri.includes('?') ? '&' : '?') + parts.join('&');
}

function param(params: Record<string, unknown>, name: string): string | undefined {
  const v = params[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export class AuthService {
  private readonly clients = new Map<string, ClientRecord>();
  private readonly tokens = new Map<string, TokenRecord>();
  private readonly codes = new Map<string, CodeRecord>();
  private readonly refreshTokens = new Map<string, RefreshRecord>();
  private readonly consents = new Map<string, ConsentRecord>();
  private readonly daily = new Map<string, { day: number; count: number }>();

  private readonly variants: Variants;

  constructor(private readonly opts: AuthServiceOptions) {
    for (const c of opts.clients) this.clients.set(c.id, c);
    this.variants = opts.variants ?? NO_VARIANTS;
  }

  // --- daily limit -----------------------------------------------------------------------------

  /** Counts one call for the client; false (and all its tokens expired) when over the limit. */
  private chargeDaily(clientId: string, fault: FaultName | null): boolean {
    const day = dayNumber(this.opts.now(), this.variants);
    let use = this.daily.get(clientId);
    if (!use || use.day !== day) {
      use = { day, count: 0 };
      this.daily.set(clientId, use);
    }
    // The bug: the calls are counted, the limit never applied.
    if (use.count >= this.opts.perDay && fault !== 'daily-limit-not-enforced') {
      this.expireAllTokens(clientId);
      return false;
    }
    use.count += 1;
    return true;
  }

  private expireAllTokens(clientId: string): void {
    const t = this.opts.now();
    for (const tok of this.tokens.values()) {
      if (tok.clientId === clientId && tok.expiresAt > t) {
        tok.expiresAt = t;
        tok.expiredReason = `The access token expired: the daily call limit of ${this.opts.perDay} for this client was exceeded`;
      }
    }
  }

  /**
   * An application token of `clientId` that expired a day ago, as a token a day past its
   * lifetime would be: for the kit's expired-token checks against the embedded server.
   */
  expiredToken(clientId: string): string {
    const now = this.opts.now();
    const value = newToken();
    this.tokens.set(value, { value, kind: 'app', clientId, scopes: [APP_SCOPE], issuedAt: now - (APP_TOKEN_LIFETIME_S * 1000 + DAY_MS), expiresAt: now - DAY_MS });
    return value;
  }

  // --- issuing ---------------------------------------------------------------------------------

  /**
   * A new access token (and, for a user token unless `withRefresh` is false, a refresh token);
   * `grant` is the authorization code a user token descends from.
   */
  private issue(clientId: string, kind: TokenKind, scopes: readonly string[], fault: FaultName | null, withRefresh = true, grant?: string): OAuthResponse {
    const now = this.opts.now();
    const lifetime = lifetimeOf(kind, this.variants);
    const value = newToken();
    const token: TokenRecord = { value, kind, clientId, scopes, issuedAt: now, expiresAt: now + lifetime * 1000, ...(grant ? { grant } : {}) };
    this.tokens.set(value, token);
    const body = this.tokenBody(token, fault, lifetime);
    if (kind === 'user' && withRefresh) {
      const refresh = newToken();
      this.refreshTokens.set(refresh, { clientId, scopes, revoked: false, ...(grant ? { grant } : {}) });
      body['refresh_token'] = refresh;
    }
    return { status: 200, body };
  }

  /** The token response's fields for an access token; expires_in is what remains of its lifetime. */
  private tokenBody(token: TokenRecord, fault: FaultName | null, remaining = Math.max(0, Math.ceil((token.expiresAt - this.opts.now()) / 1000))): Record<string, unknown> {
    return tokenAnswer(token, remaining, fault, this.variants);
  }

  /** The newest application token of the client that is still valid (variant client-credentials-same-token). */
  private validAppToken(clientId: string): TokenRecord | undefined {
    const now = this.opts.now();
    let found: TokenRecord | undefined;
    for (const t of this.tokens.values()) {
      const valid = t.kind === 'app' && t.clientId === clientId && now < t.expiresAt && t.expiredReason === undefined;
      if (valid && t.scopes.length === 1 && t.scopes[0] === APP_SCOPE && (!found || t.issuedAt >= found.issuedAt)) found = t;
    }
    return found;
  }

  /** POST /oauth2/token with the parsed body parameters. */
  tokenRequest(params: Record<string, unknown>, authorization?: string, fault: FaultName | null = null): OAuthResponse {
    let clientId = param(params, 'client_id');
    let clientSecret = param(params, 'client_secret');
    const basic = authorization !== undefined ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization) : null;
    if (basic && clientId === undefined && clientSecret === undefined) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) {
        clientId = decodeURIComponent(decoded.slice(0, colon));
        clientSecret = decodeURIComponent(decoded.slice(colon + 1));
      }
    }
    const grantType = param(params, 'grant_type');
    if (grantType === undefined) return oauthError(400, 'invalid_request', 'grant_type is required');
    // The bug: the secret is compared only when one is sent.
    const secretOptional = fault === 'client-secret-optional' && clientId !== undefined && clientSecret === undefined;
    if (!secretOptional && (clientId === undefined || clientSecret === undefined)) {
      return oauthError(400, 'invalid_request', 'client_id and client_secret are required');
    }
    const client = this.clients.get(clientId!);
    if (!client || (!secretOptional && !sameSecret(client.secret, clientSecret!))) {
      return oauthError(401, 'invalid_client', 'Unknown client or wrong client secret', {
        'WWW-Authenticate': 'Basic realm="catalogue"',
      });
    }
    if (!this.chargeDaily(client.id, fault)) {
      const status = this.variants.has('lockout-token-refusal-429') ? 429 : 403;
      return oauthError(status, 'access_denied', `The daily call limit of ${this.opts.perDay} for this client was exceeded; new tokens can be created from the next day`);
    }
    switch (grantType) {
      case 'client_credentials':
        return this.clientCredentials(client, params, fault);
      case 'authorization_code':
        return this.authorizationCode(client, params, fault);
      case 'refresh_token':
        if (fault === 'refresh-grant-unsupported') return oauthError(400, 'unsupported_grant_type', `grant_type "${grantType}" is not supported`);
        return this.refresh(client, params, fault);
      default:
        return oauthError(400, 'unsupported_grant_type', `grant_type "${grantType}" is not supported`);
    }
  }

  private clientCredentials(client: ClientRecord, params: Record<string, unknown>, fault: FaultName | null): OAuthResponse {
    const scope = appScopeAsked(param(params, 'scope'), this.variants);
    if (scope === undefined) return oauthError(400, 'invalid_request', 'scope is required');
    const scopes = splitScopes(scope);
    if (fault === 'app-token-extra-scope' && scopes.includes(APP_SCOPE) && scopes.every((s) => AUTHORIZABLE_SCOPES.includes(s))) {
      return this.issue(client.id, 'app', [...new Set(scopes)], fault);
    }
    // Variant unknown-scopes-dropped: what an application token cannot have is dropped, public issued.
    if ((scopes.length === 0 || scopes.some((s) => s !== APP_SCOPE)) && !this.variants.has('unknown-scopes-dropped')) {
      return oauthError(400, 'invalid_scope', `An application token may only have the scope "${APP_SCOPE}"`);
    }
    // "Repeating the request returns the existing token or a new one": the existing one, with what remains of its lifetime.
    // The bug: a client that already holds a token gets a new one that is never stored.
    const held = fault === 'client-credentials-repeat-invalid' ? this.validAppToken(client.id) : undefined;
    if (held) return { status: 200, body: this.tokenBody({ ...held, value: newToken() }, fault) };
    // Variant same-app-token-full-expires-in restates the full lifetime in expires_in, the token still ending when it did.
    const restated = this.variants.has('same-app-token-full-expires-in');
    const existing = this.variants.has('client-credentials-same-token') || restated ? this.validAppToken(client.id) : undefined;
    if (existing) return { status: 200, body: this.tokenBody(existing, fault, restated ? lifetimeOf('app', this.variants) : undefined) };
    // The variant's server keeps one application token per client: a new one ends the earlier ones.
    if (this.variants.has('app-token-replaces-earlier')) {
      for (const token of this.tokens.values()) {
        if (token.kind === 'app' && token.clientId === client.id) this.revoke(token.value, 'The access token was replaced by a newer application token of its client');
      }
    }
    return this.issue(client.id, 'app', [APP_SCOPE], fault);
  }

  private authorizationCode(client: ClientRecord, params: Record<string, unknown>, fault: FaultName | null): OAuthResponse {
    const code = param(params, 'code');
    const redirectUri = param(params, 'redirect_uri');
    if (code === undefined || redirectUri === undefined) {
      return oauthError(400, 'invalid_request', 'code and redirect_uri are required');
    }
    const rec = this.codes.get(code);
    if (!rec || rec.clientId !== client.id) return oauthError(400, 'invalid_grant', 'Unknown authorization code');
    if (rec.used && fault !== 'authorization-code-reusable') {
      // The variant's server follows RFC 6749 4.1.2's SHOULD: the tokens issued from the code end too.
      if (this.variants.has('code-reuse-revokes-tokens')) this.revokeGrant(code);
      return oauthError(400, 'invalid_grant', 'The authorization code was already used');
    }
    if (this.opts.now() >= rec.expiresAt) return oauthError(400, 'invalid_grant', 'The authorization code expired');
    if (rec.redirectUri !== redirectUri && fault !== 'code-exchange-redirect-uri-not-compared') {
      return oauthError(400, 'invalid_grant', 'redirect_uri does not match the one used in the authorization request');
    }
    rec.used = true;
    return this.issue(client.id, 'user', rec.scopes, fault, true, code);
  }

  /** Ends every access and refresh token that descends from the authorization code `grant`. */
  private revokeGrant(grant: string): void {
    for (const token of this.tokens.values()) if (token.grant === grant) this.revoke(token.value, 'The access token was revoked: its authorization code was used again');
    for (const refresh of this.refreshTokens.values()) if (refresh.grant === grant) refresh.revoked = true;
  }

  private refresh(client: ClientRecord, params: Record<string, unknown>, fault: FaultName | null): OAuthResponse {
    const token = param(params, 'refresh_token');
    if (token === undefined) return oauthError(400, 'invalid_request', 'refresh_token is required');
    const rec = this.refreshTokens.get(token);
    if (!rec || rec.revoked || rec.clientId !== client.id) {
      return oauthError(400, 'invalid_grant', 'Unknown or already used refresh token');
    }
    // The variant's refresh token is long-lived: it stays valid and no new one is issued.
    if (this.variants.has('refresh-keeps-refresh-token')) return this.issue(client.id, 'user', rec.scopes, fault, false, rec.grant);
    rec.revoked = true;
    // The variant's server ends the access tokens the refresh token's chain issued before.
    const ended = this.variants.has('refresh-ends-previous-token') ? [...this.tokens.values()].filter((t) => rec.grant !== undefined && t.grant === rec.grant) : [];
    for (const t of ended) this.revoke(t.value, 'The access token was replaced by a refresh');
    return this.issue(client.id, 'user', rec.scopes, fault, true, rec.grant);
  }

  /**
   * GET /oauth2/authorizations/new. Invalid parameters never redirect. `formAction` is the path
   * the consent page's form posts to (POST /oauth2/authorizations on the auth origin).
   */
  authorize(query: URLSearchParams, formAction: string): OAuthResponse {
    const answer = this.authorizeChecked(query, formAction);
    const client = this.clients.get(query.get('client_id') ?? '');
    return answer.status >= 400 && client ? authorizeRefusal(query, client.redirectUri, answer, this.variants) : answer;
  }

  private authorizeChecked(query: URLSearchParams, formAction: string): OAuthResponse {
    for (const name of ['client_id', 'redirect_uri', 'response_type', 'scope']) {
      if (!query.get(name)) return oauthError(400, 'invalid_request', `${name} is required`);
    }
    const client = this.clients.get(query.get('client_id')!);
    if (!client) return oauthError(400, 'invalid_client', 'Unknown client_id');
    const redirectUri = query.get('redirect_uri')!;
    if (redirectUri !== client.redirectUri) {
      return oauthError(400, 'invalid_request', 'redirect_uri is not the redirect URI registered for this client');
    }
    if (query.get('response_type') !== 'code') {
      return oauthError(400, 'unsupported_response_type', 'response_type must be "code"');
    }
    const scope = query.get('scope')!;
    const authorizable = this.opts.reviewActionsScope === 'refused' ? AUTHORIZABLE_SCOPES.filter((s) => s !== 'publish_sku_review_actions') : AUTHORIZABLE_SCOPES;
    const scopes = authorizableAsked(splitScopes(scope), authorizable, this.variants);
    if (scopes.length === 0 || scopes.some((s) => !authorizable.includes(s))) {
      return oauthError(400, 'invalid_scope', `scope must be a space-separated set of ${authorizable.join(', ')}`);
    }
    const state = query.get('state');
    if (this.opts.consent === 'page') {
      const nonce = newToken();
      this.prune();
      this.consents.set(nonce, {
        clientId: client.id,
        redirectUri,
        scope,
        scopes: [...new Set(scopes)],
        state,
        expiresAt: this.opts.now() + CONSENT_LIFETIME_MS,
      });
      return {
        status: 200,
        html: consentPage({ clientId: client.id, redirectUri, scope, scopes: [...new Set(scopes)], state, nonce, formAction }),
        headers: CONSENT_PAGE_HEADERS,
      };
    }
    return this.conclude(client.id, redirectUri, [...new Set(scopes)], state, this.opts.consent === 'auto');
  }

  /** POST /oauth2/authorizations: the answer of the consent page's form. */
  decide(params: Record<string, unknown>): OAuthResponse {
    const nonce = param(params, 'nonce');
    const rec = nonce === undefined ? undefined : this.consents.get(nonce);
    if (nonce !== undefined) this.consents.delete(nonce);
    if (!rec || this.opts.now() >= rec.expiresAt) {
      return oauthError(400, 'invalid_request', 'The consent form expired or was already answered; start the authorization again');
    }
    const same =
      params['client_id'] === rec.clientId &&
      params['redirect_uri'] === rec.redirectUri &&
      params['response_type'] === 'code' &&
      params['scope'] === rec.scope &&
      (params['state'] ?? null) === rec.state;
    if (!same) return oauthError(400, 'invalid_request', 'The form fields differ from the authorization request the consent page was shown for');
    const decision = param(params, 'decision');
    if (decision !== 'approve' && decision !== 'deny') return oauthError(400, 'invalid_request', 'decision must be "approve" or "deny"');
    return this.conclude(rec.clientId, rec.redirectUri, rec.scopes, rec.state, decision === 'approve');
  }

  /** The redirect that ends the authorization step: with a new code, or error=access_denied. */
  private conclude(clientId: string, redirectUri: string, scopes: readonly string[], state: string | null, granted: boolean): OAuthResponse {
    const extra: Record<string, string> = state !== null ? { state } : {};
    let location: string;
    if (!granted) {
      location = withQuery(redirectUri, { error: 'access_denied', ...extra });
    } else {
      const code = this.variants.has('url-safe-codes') ? newToken() : newCode();
      this.prune();
      this.codes.set(code, { clientId, redirectUri, scopes, expiresAt: this.opts.now() + CODE_LIFETIME_MS, used: false });
      location = withQuery(redirectUri, { code, ...extra });
    }
    return { status: 302, headers: { Location: location, 'Cache-Control': 'no-store' } };
  }

  /** Forgets expired codes and consent nonces once there are many (memory stays bounded). */
  private prune(): void {
    const t = this.opts.now();
    if (this.codes.size > 1000) for (const [k, c] of this.codes) if (t >= c.expiresAt) this.codes.delete(k);
    if (this.consents.size > 1000) for (const [k, c] of this.consents) if (t >= c.expiresAt) this.consents.delete(k);
  }

  /** DELETE /user/logout with the access token `value`: ends it, or all of the user's tokens. */
  logout(value: string): void {
    const reason = 'The access token was ended by DELETE /user/logout';
    // The variant's logout ends the user's session, not the tokens (the effect is not shown).
    if (this.variants.has('logout-keeps-token')) return;
    if (this.opts.logoutEnds !== 'all-user-tokens') return this.revoke(value, reason);
    // The reference has one user: every user token is theirs.
    for (const token of this.tokens.values()) if (token.kind === 'user') this.revoke(token.value, reason);
    for (const refresh of this.refreshTokens.values()) refresh.revoked = true;
  }

  /** Ends an access token at once; unknown values are ignored. */
  revoke(value: string, reason: string): void {
    const token = this.tokens.get(value);
    if (!token) return;
    token.expiresAt = Math.min(token.expiresAt, this.opts.now());
    token.expiredReason = reason;
  }

  // --- API requests ----------------------------------------------------------------------------

  /**
   * Finds and checks the access token of an API request (header `Authorization: Bearer <t>` or
   * query `oauth_token=<t>`, not both) and counts the call against the client's daily limit.
   */
  authenticate(authorization: string | undefined, query: URLSearchParams, fault: FaultName | null): AuthOutcome {
    const unauthorized = (message: string, presented: boolean): AuthOutcome => ({
      ok: false,
      status: !presented && fault === 'missing-token-answered-403' ? 403 : 401,
      code: 'Unauthorized',
      message,
      headers: {
        'WWW-Authenticate': presented ? 'Bearer realm="catalogue", error="invalid_token"' : 'Bearer realm="catalogue"',
      },
    });
    let headerToken: string | undefined;
    let otherScheme = false;
    if (authorization !== undefined && authorization.trim() !== '') {
      // Variant bearer-scheme-exact: only the scheme name spelled Bearer is taken.
      const m = (this.variants.has('bearer-scheme-exact') ? /^Bearer +(\S+) *$/ : /^Bearer +(\S+) *$/i).exec(authorization);
      if (m) headerToken = m[1];
      else otherScheme = true;
    }
    const queryTokens = fault === 'token-in-query-ignored' ? [] : query.getAll('oauth_token');
    // The variant's server serves a request that carries one token in both places.
    const sameInBoth = queryTokens.length === 1 && queryTokens[0] === headerToken && this.variants.has('both-placements-accepted');
    const both = headerToken !== undefined && queryTokens.length > 0 && !sameInBoth;
    // The spec forbids clients to send both (Sending the token, 3) without saying how a server
    // reacts, so no fault plays with this: refusing is the reference's choice.
    if (both) {
      return {
        ok: false,
        status: 400,
        code: 'BadRequest',
        message: 'Send the access token either in the Authorization header or as oauth_token, not both',
      };
    }
    if (queryTokens.length > 1) {
      return { ok: false, status: 400, code: 'BadRequest', message: 'oauth_token was given more than once' };
    }
    const value = headerToken ?? queryTokens[0];
    if (value === undefined) {
      return unauthorized(
        otherScheme
          ? 'The Authorization header must be "Bearer <access token>"'
          : 'No access token: send "Authorization: Bearer <access token>" or the oauth_token query parameter',
        false,
      );
    }
    const token = this.tokens.get(value);
    if (!token) return unauthorized('The access token is invalid', true);
    // A token ended early (logout, daily limit) carries a reason; only natural expiry is skipped by the fault.
    const lifetimeIgnored = fault === 'token-expiry-not-checked' && token.expiredReason === undefined;
    if (this.opts.now() >= token.expiresAt && !lifetimeIgnored) return unauthorized(token.expiredReason ?? 'The access token expired', true);
    if (!this.chargeDaily(token.clientId, fault)) {
      // Variant daily-limit-403: the call that exceeds the limit is refused as over it, 403
      // {message}; the tokens are expired all the same, so later calls get 401.
      if (this.variants.has('daily-limit-403')) return { ok: false, status: 403, code: 'Forbidden', message: `Daily call limit of ${this.opts.perDay} exceeded`, limit: true };
      return unauthorized(token.expiredReason ?? 'The access token expired: daily call limit exceeded', true);
    }
    return { ok: true, token };
  }
}
