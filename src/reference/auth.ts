// OAuth 2.0 (spec "Authentication") and the per-client daily call limit (spec "Limits").
//
// - POST {auth_url}/oauth2/token: grant types client_credentials, authorization_code and
//   refresh_token. Bodies: application/x-www-form-urlencoded or JSON. Client credentials in the
//   body (client_id, client_secret) or, additionally accepted, HTTP Basic.
// - GET {auth_url}/oauth2/authorizations/new: the consent step, decided by the `consent` option.
// - authenticate(): validates the access token of an API request.
//
// Choices where the spec is silent:
// - Repeating a client-credentials request issues a new token (earlier ones stay valid).
// - Refresh rotates: the response carries a new refresh token and the old refresh token stops
//   working; the previous access token stays valid until it expires.
// - The daily limit counts every API call made with any of the client's tokens and every token
//   request whose client authenticated. The call that would exceed it gets 401 and expires all
//   of the client's access tokens for good; until the next UTC day of the clock the token
//   endpoint answers 403 {"error":"access_denied"}. Refresh tokens survive the lock-out.
// - A token whose scope lacks what a route needs gets 401 (403 is kept for the rate limit, the
//   only meaning the spec's error table gives it).

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FaultName } from './faults.ts';
import type { HeaderMap } from './http.ts';

export interface ClientRecord {
  id: string;
  secret: string;
  redirectUri: string;
}

export type TokenKind = 'app' | 'user';

export interface TokenRecord {
  value: string;
  kind: TokenKind;
  clientId: string;
  scopes: readonly string[];
  issuedAt: number;
  expiresAt: number;
  /** Set when the token was expired early (daily limit). */
  expiredReason?: string;
}

interface CodeRecord {
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  expiresAt: number;
  used: boolean;
}

interface RefreshRecord {
  clientId: string;
  scopes: readonly string[];
  revoked: boolean;
}

export const APP_TOKEN_LIFETIME_S = 14 * 24 * 60 * 60; // 2 weeks
export const USER_TOKEN_LIFETIME_S = 24 * 60 * 60; // 1 day
export const CODE_LIFETIME_MS = 10 * 60 * 1000; // 10 minutes
export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Scopes a user may grant in the authorization step. The spec's step-1 table draws the scope
 * from public, favorites and notifications, yet voting and flagging need
 * publish_sku_review_actions, which only a user token can carry; the reference accepts it too
 * (a choice, listed in docs/reference-choices.md).
 */
export const AUTHORIZABLE_SCOPES: readonly string[] = ['public', 'favorites', 'notifications', 'publish_sku_review_actions'];
/** The only scope allowed in an application token. */
export const APP_SCOPE = 'public';

export interface OAuthResponse {
  status: number;
  body?: Record<string, unknown>;
  headers?: HeaderMap;
}

export type AuthOutcome =
  | { ok: true; token: TokenRecord }
  | { ok: false; status: 400 | 401; code: string; message: string; headers?: HeaderMap };

export interface AuthServiceOptions {
  clients: readonly ClientRecord[];
  now: () => number;
  perDay: number;
  consent: 'auto' | 'deny';
}

function oauthError(status: number, error: string, description: string, headers?: HeaderMap): OAuthResponse {
  return { status, body: { error, error_description: description }, ...(headers ? { headers } : {}) };
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
  private readonly daily = new Map<string, { day: number; count: number }>();

  constructor(private readonly opts: AuthServiceOptions) {
    for (const c of opts.clients) this.clients.set(c.id, c);
  }

  // --- daily limit -----------------------------------------------------------------------------

  /** Counts one call for the client; false (and all its tokens expired) when over the limit. */
  private chargeDaily(clientId: string): boolean {
    const day = Math.floor(this.opts.now() / DAY_MS);
    let use = this.daily.get(clientId);
    if (!use || use.day !== day) {
      use = { day, count: 0 };
      this.daily.set(clientId, use);
    }
    if (use.count >= this.opts.perDay) {
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

  // --- issuing ---------------------------------------------------------------------------------

  private issue(clientId: string, kind: TokenKind, scopes: readonly string[]): OAuthResponse {
    const now = this.opts.now();
    const lifetime = kind === 'app' ? APP_TOKEN_LIFETIME_S : USER_TOKEN_LIFETIME_S;
    const value = newToken();
    this.tokens.set(value, { value, kind, clientId, scopes, issuedAt: now, expiresAt: now + lifetime * 1000 });
    const body: Record<string, unknown> = {
      access_token: value,
      token_type: 'bearer',
      expires_in: lifetime,
      scope: scopes.join(' '),
    };
    if (kind === 'user') {
      const refresh = newToken();
      this.refreshTokens.set(refresh, { clientId, scopes, revoked: false });
      body['refresh_token'] = refresh;
    }
    return { status: 200, body };
  }

  /** POST /oauth2/token with the parsed body parameters. */
  tokenRequest(params: Record<string, unknown>, authorization?: string): OAuthResponse {
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
    if (clientId === undefined || clientSecret === undefined) {
      return oauthError(400, 'invalid_request', 'client_id and client_secret are required');
    }
    const client = this.clients.get(clientId);
    if (!client || !sameSecret(client.secret, clientSecret)) {
      return oauthError(401, 'invalid_client', 'Unknown client or wrong client secret', {
        'WWW-Authenticate': 'Basic realm="catalogue"',
      });
    }
    if (!this.chargeDaily(client.id)) {
      return oauthError(
        403,
        'access_denied',
        `The daily call limit of ${this.opts.perDay} for this client was exceeded; new tokens can be created from the next UTC day`,
      );
    }
    switch (grantType) {
      case 'client_credentials':
        return this.clientCredentials(client, params);
      case 'authorization_code':
        return this.authorizationCode(client, params);
      case 'refresh_token':
        return this.refresh(client, params);
      default:
        return oauthError(400, 'unsupported_grant_type', `grant_type "${grantType}" is not supported`);
    }
  }

  private clientCredentials(client: ClientRecord, params: Record<string, unknown>): OAuthResponse {
    const scope = param(params, 'scope');
    if (scope === undefined) return oauthError(400, 'invalid_request', 'scope is required');
    const scopes = splitScopes(scope);
    if (scopes.length === 0 || scopes.some((s) => s !== APP_SCOPE)) {
      return oauthError(400, 'invalid_scope', `An application token may only have the scope "${APP_SCOPE}"`);
    }
    return this.issue(client.id, 'app', [APP_SCOPE]);
  }

  private authorizationCode(client: ClientRecord, params: Record<string, unknown>): OAuthResponse {
    const code = param(params, 'code');
    const redirectUri = param(params, 'redirect_uri');
    if (code === undefined || redirectUri === undefined) {
      return oauthError(400, 'invalid_request', 'code and redirect_uri are required');
    }
    const rec = this.codes.get(code);
    if (!rec || rec.clientId !== client.id) return oauthError(400, 'invalid_grant', 'Unknown authorization code');
    if (rec.used) return oauthError(400, 'invalid_grant', 'The authorization code was already used');
    if (this.opts.now() >= rec.expiresAt) return oauthError(400, 'invalid_grant', 'The authorization code expired');
    if (rec.redirectUri !== redirectUri) {
      return oauthError(400, 'invalid_grant', 'redirect_uri does not match the one used in the authorization request');
    }
    rec.used = true;
    return this.issue(client.id, 'user', rec.scopes);
  }

  private refresh(client: ClientRecord, params: Record<string, unknown>): OAuthResponse {
    const token = param(params, 'refresh_token');
    if (token === undefined) return oauthError(400, 'invalid_request', 'refresh_token is required');
    const rec = this.refreshTokens.get(token);
    if (!rec || rec.revoked || rec.clientId !== client.id) {
      return oauthError(400, 'invalid_grant', 'Unknown or already used refresh token');
    }
    rec.revoked = true;
    return this.issue(client.id, 'user', rec.scopes);
  }

  /** GET /oauth2/authorizations/new. Invalid parameters never redirect. */
  authorize(query: URLSearchParams): OAuthResponse {
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
    const scopes = splitScopes(query.get('scope')!);
    if (scopes.length === 0 || scopes.some((s) => !AUTHORIZABLE_SCOPES.includes(s))) {
      return oauthError(400, 'invalid_scope', `scope must be a space-separated set of ${AUTHORIZABLE_SCOPES.join(', ')}`);
    }
    const state = query.get('state');
    const extra: Record<string, string> = state !== null ? { state } : {};
    let location: string;
    if (this.opts.consent === 'deny') {
      location = withQuery(redirectUri, { error: 'access_denied', ...extra });
    } else {
      const code = newCode();
      this.codes.set(code, {
        clientId: client.id,
        redirectUri,
        scopes: [...new Set(scopes)],
        expiresAt: this.opts.now() + CODE_LIFETIME_MS,
        used: false,
      });
      location = withQuery(redirectUri, { code, ...extra });
    }
    return { status: 302, headers: { Location: location, 'Cache-Control': 'no-store' } };
  }

  /** Ends an access token at once (DELETE /user/logout); unknown values are ignored. */
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
      status: 401,
      code: 'Unauthorized',
      message,
      headers: {
        'WWW-Authenticate': presented ? 'Bearer realm="catalogue", error="invalid_token"' : 'Bearer realm="catalogue"',
      },
    });
    let headerToken: string | undefined;
    let otherScheme = false;
    if (authorization !== undefined && authorization.trim() !== '') {
      const m = /^Bearer +(\S+) *$/i.exec(authorization);
      if (m) headerToken = m[1];
      else otherScheme = true;
    }
    const queryTokens = fault === 'token-in-query-ignored' ? [] : query.getAll('oauth_token');
    if (headerToken !== undefined && queryTokens.length > 0) {
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
    if (this.opts.now() >= token.expiresAt) return unauthorized(token.expiredReason ?? 'The access token expired', true);
    if (!this.chargeDaily(token.clientId)) {
      return unauthorized(token.expiredReason ?? 'The access token expired: daily call limit exceeded', true);
    }
    return { ok: true, token };
  }
}
