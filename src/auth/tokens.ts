// Obtains and caches the run's access tokens (spec: Authentication).
// - Application token: client credentials, scope public; cached until shortly before expiry and
//   renewed when a request with it gets 401.
// - User token: CATALOGUE_USER_TOKEN as is, else CATALOGUE_USER_REFRESH_TOKEN exchanged, else the
//   authorization-code flow when the deployment consents at once, else (on a terminal) a browser
//   consent caught on a loopback listener. With none of these, user tests are skipped, not failed.
// - Own user token: a second user token for one test (DELETE /user/logout), by the authorization-
//   code flow when the deployment consents at once; never cached, never shared.
// The authorization step first asks for publish_sku_review_actions too (votes and flags need it),
// and without it when the deployment refuses the scope: the spec's step-1 table lists only
// public, favorites and notifications, so either answer is correct.
import { createServer } from 'node:http';
import { HttpClient, HttpError, joinUrl, type HttpResponse } from '../http/client.ts';
import { secrets } from '../http/redact.ts';

/** The run cannot authenticate: one line the user can act on. */
export class AuthError extends Error {
  override name = 'AuthError';
}

export type TokenKind = 'app' | 'user';

export interface TokenSettings {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string | null;
  userToken: string | null;
  userRefreshToken: string | null;
}

export interface TokenManagerOptions {
  settings: TokenSettings;
  http: HttpClient;
  now?: () => number;
  /** Lets the user consent in a browser; absent when no one is at a terminal. */
  interactive?: InteractiveConsent | null;
}

export interface InteractiveConsent {
  /** Shows the consent URL and waits for the redirect; resolves to the redirect URL seen. */
  (consentUrl: string, redirectUri: string): Promise<string>;
}

interface CachedToken {
  value: string;
  /** Epoch ms after which the token is renewed before use; Infinity when the lifetime is unknown. */
  renewAfter: number;
}

/** Scopes a user token asks for (spec: User token, step 1), in order of preference. */
export const USER_SCOPE_SETS = ['public favorites notifications publish_sku_review_actions', 'public favorites notifications'] as const;
/** Lifetimes from the spec's Limits, used when a token response omits expires_in. */
const APP_LIFETIME_S = 14 * 24 * 3600;
const USER_LIFETIME_S = 24 * 3600;

/** A user token and, when the run knows them, the scopes it was granted (conditions such as "with publish_sku_review_actions" depend on them). */
export type UserTokenResult = { token: string; scopes?: readonly string[] } | { unavailable: string };

/** What the authorization-code flow ends with: a token response, or why there is none. */
type CodeFlowResult = { body: Record<string, unknown> } | { unavailable: string };

export class TokenManager {
  readonly #settings: TokenSettings;
  readonly #http: HttpClient;
  readonly #now: () => number;
  readonly #interactive: InteractiveConsent | null;
  #app: CachedToken | null = null;
  #appPending: Promise<string> | null = null;
  #user: CachedToken | null = null;
  /** The scopes the user token was granted: the token response's scope, else the set consented to; null when not known (a configured token). */
  #userScopes: readonly string[] | null = null;
  #userUnavailable: string | null = null;
  #userPending: Promise<UserTokenResult> | null = null;
  #refreshToken: string | null;
  /** Index into USER_SCOPE_SETS of the first set the deployment did not refuse. */
  #scopeSet = 0;

  constructor(options: TokenManagerOptions) {
    this.#settings = options.settings;
    this.#http = options.http;
    this.#now = options.now ?? Date.now;
    this.#interactive = options.interactive ?? null;
    this.#refreshToken = options.settings.userRefreshToken;
    secrets.add(options.settings.clientSecret);
    secrets.add(options.settings.userToken);
    secrets.add(options.settings.userRefreshToken);
  }

  get tokenEndpoint(): string {
    return joinUrl(this.#settings.authUrl, '/oauth2/token');
  }

  async appToken(): Promise<string> {
    if (this.#app && this.#now() < this.#app.renewAfter) return this.#app.value;
    this.#appPending ??= this.#fetchAppToken().finally(() => {
      this.#appPending = null;
    });
    return this.#appPending;
  }

  async userToken(): Promise<UserTokenResult> {
    if (this.#user && this.#now() < this.#user.renewAfter) return this.#userResult(this.#user.value);
    if (this.#userUnavailable) return { unavailable: this.#userUnavailable };
    this.#userPending ??= this.#obtainUserToken()
      .then((result) => {
        if ('unavailable' in result) this.#userUnavailable = result.unavailable;
        return result;
      })
      .finally(() => {
        this.#userPending = null;
      });
    return this.#userPending;
  }

  /**
   * A user token for one test alone (one that may end its session), by the authorization-code
   * flow without a browser. Not cached: each call costs a consent request and a code exchange.
   */
  async ownUserToken(): Promise<UserTokenResult> {
    try {
      const result = await this.#authorizationCode(false);
      if ('unavailable' in result) return { unavailable: result.unavailable.replace(/^no user token/, 'no user token of its own') };
      return { token: result.body['access_token'] as string };
    } catch (error) {
      if (error instanceof AuthError || error instanceof HttpError) return { unavailable: `no user token of its own: ${error.message}` };
      throw error;
    }
  }

  /** A request with `token` got 401: drop it if it is still the cached one, so the next use renews. */
  rejected(kind: TokenKind, token: string): void {
    if (kind === 'app' && this.#app?.value === token) this.#app = null;
    if (kind === 'user' && this.#user?.value === token) {
      this.#user = null;
      // A configured user token cannot be renewed without a refresh token.
      if (!this.#refreshToken) this.#userUnavailable = 'the user token was rejected (401) and no refresh token is configured';
    }
  }

  async #fetchAppToken(): Promise<string> {
    const { clientId, clientSecret } = this.#settings;
    const body = await this.#tokenRequest({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope: 'public' }, 'client credentials');
    this.#app = this.#cache(body, APP_LIFETIME_S);
    return this.#app.value;
  }

  async #obtainUserToken(): Promise<UserTokenResult> {
    const configured = this.#settings.userToken;
    if (configured && !this.#configuredUserTokenUsed) {
      // Used as given; its lifetime is unknown, so it is kept until a request with it gets 401.
      this.#configuredUserTokenUsed = true;
      this.#user = { value: configured, renewAfter: Number.POSITIVE_INFINITY };
      return { token: configured };
    }
    try {
      if (this.#refreshToken) return this.#userResult(await this.#refresh(this.#refreshToken));
      const result = await this.#authorizationCode(this.#interactive !== null);
      if ('unavailable' in result) return result;
      if (typeof result.body['refresh_token'] === 'string') {
        this.#refreshToken = result.body['refresh_token'];
        secrets.add(this.#refreshToken);
      }
      this.#user = this.#cache(result.body, USER_LIFETIME_S);
      this.#userScopes = grantedScopes(result.body) ?? USER_SCOPE_SETS[this.#scopeSet]!.split(' ');
      return this.#userResult(this.#user.value);
    } catch (error) {
      if (error instanceof AuthError || error instanceof HttpError) return { unavailable: error.message };
      throw error;
    }
  }

  #configuredUserTokenUsed = false;

  async #refresh(refreshToken: string): Promise<string> {
    const { clientId, clientSecret } = this.#settings;
    const body = await this.#tokenRequest({ grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: refreshToken }, 'refresh token');
    // The spec does not show the refresh response; a new refresh token, when given, replaces the old.
    if (typeof body['refresh_token'] === 'string') {
      this.#refreshToken = body['refresh_token'];
      secrets.add(this.#refreshToken);
    }
    this.#user = this.#cache(body, USER_LIFETIME_S);
    // A refresh keeps the grant unless its answer names another.
    this.#userScopes = grantedScopes(body) ?? this.#userScopes;
    return this.#user.value;
  }

  #userResult(token: string): UserTokenResult {
    return this.#userScopes ? { token, scopes: this.#userScopes } : { token };
  }

  async #authorizationCode(interactive: boolean): Promise<CodeFlowResult> {
    const { clientId, redirectUri, authUrl } = this.#settings;
    if (!redirectUri) {
      return {
        unavailable: 'no user token: set CATALOGUE_USER_TOKEN, CATALOGUE_USER_REFRESH_TOKEN, or CATALOGUE_REDIRECT_URI for the authorization-code flow',
      };
    }
    for (;;) {
      const scope = USER_SCOPE_SETS[this.#scopeSet]!;
      const consentUrl = joinUrl(authUrl, '/oauth2/authorizations/new', {
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope,
      });
      // Not followed: a 302 straight to the redirect URI means the deployment consented at once.
      const response = await this.#http.request(consentUrl, { followRedirects: false, accept: null });
      const location = response.headers['location'];
      let redirected: string | null = null;
      if (response.status >= 300 && response.status < 400 && location && sameEndpoint(new URL(location, consentUrl), redirectUri)) {
        redirected = new URL(location, consentUrl).toString();
      } else if (scopeRefused(response) && this.#scopeSet < USER_SCOPE_SETS.length - 1) {
        this.#scopeSet++;
        continue;
      } else if (interactive && this.#interactive) {
        redirected = await this.#interactive(consentUrl, redirectUri);
      } else {
        return {
          unavailable: `no user token: ${describeConsent(response)}; set CATALOGUE_USER_TOKEN or CATALOGUE_USER_REFRESH_TOKEN, or run on a terminal to consent in a browser`,
        };
      }
      const params = new URL(redirected).searchParams;
      const error = params.get('error');
      if (error === 'invalid_scope' && this.#scopeSet < USER_SCOPE_SETS.length - 1) {
        this.#scopeSet++;
        continue;
      }
      if (error) return { unavailable: `no user token: the deployment redirected with error=${error}` };
      // URLSearchParams decodes the URL-encoded code once; the form body encodes it again (spec:
      // "decode it before passing it to an HTTP library that encodes it again").
      const code = params.get('code');
      if (!code) return { unavailable: 'no user token: the consent redirect carried neither code nor error' };
      secrets.add(code);
      const body = await this.#tokenRequest(
        {
          grant_type: 'authorization_code',
          client_id: clientId,
          client_secret: this.#settings.clientSecret,
          redirect_uri: redirectUri,
          code,
        },
        'authorization code',
      );
      if (typeof body['refresh_token'] === 'string') secrets.add(body['refresh_token']);
      return { body };
    }
  }

  async #tokenRequest(form: Record<string, string>, grant: string): Promise<Record<string, unknown>> {
    let response: HttpResponse;
    try {
      response = await this.#http.request(this.tokenEndpoint, { method: 'POST', form, accept: 'application/json' });
    } catch (error) {
      if (error instanceof HttpError) throw new AuthError(`cannot obtain a token (${grant}): ${error.message}`);
      throw error;
    }
    let body: unknown;
    try {
      body = response.json();
    } catch {
      body = null;
    }
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    if (response.status !== 200) {
      const reason = typeof fields['error'] === 'string' ? ` ${fields['error']}` : '';
      const hint = response.status === 401 || fields['error'] === 'invalid_client' ? ' (check CATALOGUE_CLIENT_ID and CATALOGUE_CLIENT_SECRET)' : '';
      throw new AuthError(`authentication failed: POST ${this.tokenEndpoint} (${grant}) answered ${response.status}${reason}${hint}`);
    }
    if (typeof fields['access_token'] !== 'string' || fields['access_token'] === '') {
      throw new AuthError(`authentication failed: the token endpoint answered 200 without an access_token (${grant})`);
    }
    secrets.add(fields['access_token']);
    return fields;
  }

  #cache(body: Record<string, unknown>, defaultLifetimeS: number): CachedToken {
    const value = body['access_token'] as string;
    const expiresIn = typeof body['expires_in'] === 'number' && body['expires_in'] > 0 ? body['expires_in'] : defaultLifetimeS;
    // Renewed a little early so that a token does not die in the middle of a test.
    return { value, renewAfter: this.#now() + expiresIn * 1000 * 0.95 };
  }
}

/** The scope a token response names (RFC 6749 5.1: sent when it differs from the one asked), or null. */
function grantedScopes(body: Record<string, unknown>): string[] | null {
  return typeof body['scope'] === 'string' ? body['scope'].split(' ').filter((s) => s !== '') : null;
}

function sameEndpoint(location: URL, redirectUri: string): boolean {
  const expected = new URL(redirectUri);
  return location.origin === expected.origin && location.pathname === expected.pathname;
}

/** The consent request was refused for its scope: a 400 whose body names invalid_scope. */
function scopeRefused(response: HttpResponse): boolean {
  return response.status === 400 && response.text.includes('invalid_scope');
}

function describeConsent(response: HttpResponse): string {
  if (response.status >= 300 && response.status < 400) return `the consent request redirected elsewhere (${response.status})`;
  if (response.status === 200) return 'the deployment shows a consent page';
  return `the consent request answered ${response.status}`;
}

/**
 * Browser consent for a terminal user: prints the URL and catches the redirect on the loopback
 * address of CATALOGUE_REDIRECT_URI. Needs a redirect URI on 127.0.0.1 or localhost.
 */
export function loopbackConsent(write: (line: string) => void, timeoutMs = 5 * 60_000): InteractiveConsent {
  return (consentUrl, redirectUri) =>
    new Promise((resolve, reject) => {
      const target = new URL(redirectUri);
      if (target.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname) || !target.port) {
        reject(new AuthError('no user token: interactive consent needs CATALOGUE_REDIRECT_URI on http://127.0.0.1:<port>/...'));
        return;
      }
      const server = createServer((req, res) => {
        const seen = new URL(req.url ?? '/', redirectUri);
        if (seen.pathname !== target.pathname) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain' }).end('catalogue-conformance received the answer; you may close this window.\n');
        clearTimeout(timer);
        server.close();
        resolve(seen.toString());
      });
      const timer = setTimeout(() => {
        server.close();
        reject(new AuthError('no user token: nobody consented within the time allowed'));
      }, timeoutMs);
      server.on('error', (error) => {
        clearTimeout(timer);
        reject(new AuthError(`no user token: cannot listen on ${target.host} (${(error as NodeJS.ErrnoException).code})`));
      });
      server.listen(Number(target.port), target.hostname.replace(/^\[|\]$/g, ''), () => {
        write(`Open this URL in a browser to give the kit a user token (waiting ${Math.round(timeoutMs / 60_000)} min):`);
        write(`  ${consentUrl}`);
      });
    });
}
