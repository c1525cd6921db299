// The OAuth server's records (clients, access and refresh tokens, authorization codes, consent
// pages shown), their lifetimes, the scopes, and the answers of its endpoints (auth.ts).

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
  /** The authorization code the token descends from (by exchange or refresh). */
  grant?: string;
}

export interface CodeRecord {
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  expiresAt: number;
  used: boolean;
}

/** A consent page shown and not yet answered. */
export interface ConsentRecord {
  clientId: string;
  redirectUri: string;
  /** The scope parameter exactly as requested. */
  scope: string;
  scopes: readonly string[];
  state: string | null;
  expiresAt: number;
}

export interface RefreshRecord {
  clientId: string;
  scopes: readonly string[];
  revoked: boolean;
  /** The authorization code the refresh token descends from. */
  grant?: string;
}

export const APP_TOKEN_LIFETIME_S = 14 * 24 * 60 * 60; // 2 weeks
export const USER_TOKEN_LIFETIME_S = 24 * 60 * 60; // 1 day
export const CODE_LIFETIME_MS = 10 * 60 * 1000; // 10 minutes
export const CONSENT_LIFETIME_MS = 10 * 60 * 1000; // 10 minutes
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

/** What the scopes grant (spec "Permissions"), shown on the consent page. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  public: 'read the public catalogue',
  favorites: 'read and change your favorites and favorite lists',
  notifications: 'read your notifications and mark them viewed',
  publish_sku_review_actions: 'vote on and flag SKU reviews in your name',
};

export interface OAuthResponse {
  status: number;
  body?: Record<string, unknown>;
  /** An HTML page instead of a JSON body (the consent page). */
  html?: string;
  headers?: HeaderMap;
}

export type AuthOutcome =
  | { ok: true; token: TokenRecord }
  /** `limit`: the body is {message}, the limits' answer, rather than the errors format. */
  | { ok: false; status: 400 | 401 | 403; code: string; message: string; headers?: HeaderMap; limit?: true };

/**
 * The error body of the OAuth endpoints: OAuth 2.0's `error` and `error_description`, which
 * token clients read, and the API's errors envelope (spec "Errors": "in this format for the
 * whole API") carrying the same code and text.
 */
export function oauthErrorBody(error: string, description: string): Record<string, unknown> {
  return { error, error_description: description, errors: [{ code: error, messages: [description] }] };
}

export function oauthError(status: number, error: string, description: string, headers?: HeaderMap): OAuthResponse {
  return { status, body: oauthErrorBody(error, description), ...(headers ? { headers } : {}) };
}
