// Request pipelines of the reference server (no framework: node:http listeners).
//
// API request, in order:
//   0. HTTP-level problems that node:http's parser finds (unknown method -> 501, headers over
//      16 KiB -> 431, timeouts -> 408, anything else -> 400) and CONNECT (405) are answered by
//      `clientErrorListener` / `connectListener` with the errors body and the rate-limit
//      headers, then the connection is closed
//   1. request target parsed (unparsable -> 400; HTTP/1.1 without Host -> 400); outside the
//      base path -> 404 NotFound (errors body)
//   2. access token checked (auth.ts), which also counts the call against the daily limit
//   3. per-minute rate limit counted for the token (or the client IP when there is no valid
//      token); over the limit -> 403 {"message": ...}
//   4. token problems -> 400 / 401 (errors body)
//   5. version negotiated from Accept -> 406 when unservable
//   6. route matched -> 404 NotFound / 405 MethodNotAllowed (errors body, Allow header);
//      token scope checked -> 401
//      request body read (not for GET/HEAD): over 2 MiB -> 400 at once, without waiting for
//      the rest (which is then read and dropped, at most 8 MiB more or 2 s, or the connection
//      is closed); malformed -> 400
//   7. handler runs; ApiError -> its status and errors body; any other exception -> 500 with
//      the errors body (the server keeps running)
//   8. response written: X-RateLimit-* headers on every response (304, 4xx and 5xx included),
//      Vary: Accept, Authorization, JSON, ETag / 304 on 200 GETs only.
//
// OAuth endpoints: POST <authBasePath>/oauth2/token, GET <authBasePath>/oauth2/authorizations/new,
// POST <authBasePath>/oauth2/authorizations (the consent page's form). "Rate-limit headers are on
// every response", so theirs carry X-RateLimit-* too, from a per-minute window of their own per
// client IP (key `oauth:<ip>`, the API's per-minute limit; never a token's or the API's IP
// window). Every request counts; over the limit -> 403 with {message} and the OAuth error body.
// Every 4xx/5xx JSON body has OAuth 2.0's error/error_description and the API's errors
// envelope (auth.ts oauthErrorBody). On a separate auth origin, the answers to other paths and
// the HTTP-level answers of step 0 count against and show the same window.
//
// Legal variants (variants.ts) decided here: method-not-allowed-404 (404 NotFound instead of 405,
// no Allow), unknown-route-501 (501 NotImplemented for a path no route serves), refused-scope-403 (a refused scope or user: 403 Forbidden instead of 401),
// errors-legacy-3-0 ({error, message} errors for 3.0 requests), no-vary (no Vary header),
// the body and header variants of http.ts (variantBody, writeResult), and on the OAuth endpoints
// oauth-plain-errors (only error and error_description, no X-RateLimit-* headers).

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AuthService, oauthErrorBody, type ClientRecord, type ConsentMode, type OAuthResponse, type ReviewActionsScope, type LogoutEnds } from './auth.ts';
import type { Dataset } from './data.ts';
import type { FaultName } from './faults.ts';
import { NO_VARIANTS, type Variants } from './variants.ts';
import {
  ApiError,
  JSON_CONTENT_TYPE,
  discardRest,
  errorResult,
  errorsBody,
  etagFor,
  ifNoneMatchMatches,
  isErrorsBody,
  jsonContentType,
  legacyErrorBody,
  MAX_API_BODY_BYTES,
  parseApiBody,
  readBody,
  variantBody,
  writeResult,
  type ApiResult,
  type HeaderMap,
} from './http.ts';
import { RATE_LIMIT_BODY, RateLimiter, rateLimitHeaders, type RateLimitState } from './ratelimit.ts';
import { Router, splitPath, type ApiContext, type RouteModule } from './router.ts';
import { negotiateVersion, versionAtLeast, type ApiVersion } from './versioning.ts';

export interface StateConfig {
  basePath: string;
  authBasePath: string;
  fault: FaultName | null;
  /** Default: none. */
  variants?: Variants;
  data: Dataset;
  clients: readonly ClientRecord[];
  perMinute: number;
  /** Length of the rate-limit "minute"; default 60,000 (shorter with a scaled clock). */
  windowMs?: number;
  perDay: number;
  consent: ConsentMode;
  /** Default 'granted'. */
  reviewActionsScope?: ReviewActionsScope;
  /** Default 'token'. */
  logoutEnds?: LogoutEnds;
  now: () => number;
  modules: readonly RouteModule[];
  /** Called with unexpected handler exceptions (500s). */
  onError?: (err: unknown) => void;
}

export interface ReferenceState {
  readonly basePath: string;
  readonly authBasePath: string;
  readonly fault: FaultName | null;
  readonly variants: Variants;
  readonly data: Dataset;
  readonly auth: AuthService;
  readonly limiter: RateLimiter;
  readonly router: Router;
  readonly now: () => number;
  readonly onError: (err: unknown) => void;
  /** Origin used for absolute links when the Host header is missing or odd. */
  fallbackOrigin: string;
  /** API requests + token requests served. */
  requests: number;
}

export function createState(cfg: StateConfig): ReferenceState {
  const router = new Router();
  for (const register of cfg.modules) register(router);
  const variants = cfg.variants ?? NO_VARIANTS;
  return {
    basePath: cfg.basePath,
    authBasePath: cfg.authBasePath,
    fault: cfg.fault,
    variants,
    data: cfg.data,
    auth: new AuthService({
      clients: cfg.clients,
      now: cfg.now,
      perDay: cfg.perDay,
      consent: cfg.consent,
      reviewActionsScope: cfg.reviewActionsScope ?? 'granted',
      logoutEnds: cfg.logoutEnds ?? 'token',
      variants,
    }),
    limiter: new RateLimiter(cfg.perMinute, cfg.now, variants.has('ratelimit-calendar-minute') ? 'calendar-minute' : 'first-request', cfg.windowMs),
    router,
    now: cfg.now,
    onError: cfg.onError ?? ((err) => console.error('[reference] unexpected error:', err)),
    fallbackOrigin: 'http://127.0.0.1',
    requests: 0,
  };
}

/** '' or '/x/y' (leading slash, no trailing slash). Throws on anything else. */
export function normalizeBasePath(raw: string, name: string): string {
  const trimmed = raw.replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new Error(`${name} must look like "/api" (slash-separated segments of letters, digits, . _ ~ -), got "${raw}"`);
  }
  return trimmed;
}

interface Target {
  pathname: string;
  search: string;
  query: URLSearchParams;
}

function parseTarget(req: IncomingMessage): Target | null {
  const raw = req.url ?? '';
  try {
    let u: URL;
    if (raw.startsWith('/')) u = new URL(`http://reference.invalid${raw}`);
    else if (/^https?:\/\//i.test(raw)) u = new URL(raw);
    else return null;
    return { pathname: u.pathname, search: u.search, query: u.searchParams };
  } catch {
    return null;
  }
}

/** Path below `base`, or null when outside it. */
function stripBase(pathname: string, base: string): string | null {
  if (base === '') return pathname;
  if (pathname === base) return '/';
  if (pathname.startsWith(`${base}/`)) return pathname.slice(base.length);
  return null;
}

function decodeSegments(path: string): string[] | null {
  try {
    return splitPath(path).map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

const HOST_RE = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function publicUrl(state: ReferenceState, req: IncomingMessage, t: Target): URL {
  const host = req.headers.host;
  const origin = host !== undefined && HOST_RE.test(host) ? `http://${host}` : state.fallbackOrigin;
  return new URL(`${origin}${t.pathname}${t.search}`);
}

// ---------------------------------------------------------------------------------------------
// API

/** A 401 or 403 refusing a token's scope or user: 401 Unauthorized, or (variant refused-scope-403) 403 Forbidden. */
function refusal(state: ReferenceState, message: string): ApiError {
  return state.variants.has('refused-scope-403') ? new ApiError(403, 'Forbidden', [message]) : new ApiError(401, 'Unauthorized', [message]);
}

/**
 * A handler's ApiError as the variants answer it. Handlers run only for a valid token, so a 401
 * of theirs refuses a scope or the user (refused-scope-403).
 */
function handlerError(state: ReferenceState, err: ApiError): ApiError {
  if (err.status === 401 && state.variants.has('refused-scope-403')) return new ApiError(403, 'Forbidden', err.messages);
  return err;
}

/** The version the request's Accept header chooses; null when it chooses none (406). */
function chosenVersion(state: ReferenceState, req: IncomingMessage): ApiVersion | null {
  const n = negotiateVersion(req.headers.accept, state.fault, state.variants);
  return n.ok ? n.version : null;
}

/** Is this a request for version 3.0 (whose errors variant errors-legacy-3-0 writes in the old format)? */
function asks30(state: ReferenceState, req: IncomingMessage): boolean {
  return chosenVersion(state, req)?.minor === 0;
}

/** The result as the variants write its body (see variantBody; errors-legacy-3-0 here). */
function presented(state: ReferenceState, req: IncomingMessage, result: ApiResult): ApiResult {
  if (result.body === undefined || state.variants.size === 0) return result;
  let body = result.body;
  if (state.variants.has('errors-legacy-3-0') && result.status >= 400 && isErrorsBody(body) && asks30(state, req)) body = legacyErrorBody(body);
  return { ...result, body: variantBody(body, state.variants) };
}

/** Would writeResult answer 304 to this request? (Used only by fault not-modified-not-counted.) */
function wouldBeNotModified(req: IncomingMessage, result: ApiResult): boolean {
  if (result.status !== 200 || result.body === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  return ifNoneMatchMatches(req.headers['if-none-match'], etagFor(Buffer.from(JSON.stringify(result.body), 'utf8')));
}

async function handleApi(state: ReferenceState, req: IncomingMessage, res: ServerResponse, target: Target | null): Promise<void> {
  state.requests += 1;
  const fault = state.fault;
  const method = (req.method ?? 'GET').toUpperCase();
  const ip = req.socket.remoteAddress ?? 'unknown';
  let rlKey = `ip:${ip}`;
  let rl: RateLimitState | null = null;
  const count = (key: string): RateLimitState => {
    rlKey = key;
    rl = state.limiter.consume(key);
    return rl;
  };

  const send = (given: ApiResult, limits: RateLimitState): void => {
    // ETags are computed over the body as written.
    const result = presented(state, req, given);
    let shown = limits;
    if (fault === 'not-modified-not-counted' && wouldBeNotModified(req, result)) shown = state.limiter.refund(rlKey) ?? limits;
    const omitRateLimit = fault === 'ratelimit-headers-missing-on-errors' && result.status >= 400 && result.status < 500;
    const vary: HeaderMap = state.variants.has('no-vary') ? {} : { Vary: 'Accept, Authorization' };
    const headers: HeaderMap = { ...vary, ...(omitRateLimit ? {} : rateLimitHeaders(shown, fault)) };
    // Variant vendor-content-type names the served version in the Content-Type.
    const served = state.variants.has('vendor-content-type') ? chosenVersion(state, req) : null;
    writeResult(req, res, result, headers, fault, state.variants, served);
    // Answered without reading the whole body (an early error, or a body over the limit).
    discardRest(req);
  };
  const fail = (err: ApiError, limits: RateLimitState): void => send(errorResult(err, fault), limits);

  try {
    if (!target) return fail(new ApiError(400, 'BadRequest', ['Malformed request target']), count(`ip:${ip}`));
    if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && req.headers.host === undefined) {
      return fail(new ApiError(400, 'BadRequest', ['An HTTP/1.1 request needs a Host header']), count(`ip:${ip}`));
    }
    // Variant prefix-optional: the paths answer without the base path too.
    const rel = stripBase(target.pathname, state.basePath) ?? (state.variants.has('prefix-optional') ? target.pathname : null);
    if (rel === null) {
      return fail(new ApiError(404, 'NotFound', [`No route matches ${method} ${clip(target.pathname)}`]), count(`ip:${ip}`));
    }

    const auth = state.auth.authenticate(req.headers.authorization, target.query, fault);
    const limits = count(auth.ok ? `token:${auth.token.value}` : `ip:${ip}`);
    if (limits.exceeded && fault !== 'ratelimit-not-enforced') {
      // The bugs: 429 instead of the spec's 403; a 403 with no message.
      return send({ status: fault === 'ratelimit-status-429' ? 429 : 403, body: fault === 'ratelimit-403-without-message' ? {} : RATE_LIMIT_BODY }, limits);
    }
    if (!auth.ok) return fail(new ApiError(auth.status, auth.code, [auth.message], auth.headers), limits);

    const negotiation = negotiateVersion(req.headers.accept, fault, state.variants);
    if (!negotiation.ok) return fail(new ApiError(406, 'NotAcceptable', [negotiation.message]), limits);

    const segments = decodeSegments(rel);
    const match = segments ? state.router.match(method, segments) : ({ kind: 'not-found' } as const);
    // The variant's server knows no "method not allowed": a path without the method is no route.
    if (match.kind === 'not-found' || (match.kind === 'method-not-allowed' && state.variants.has('method-not-allowed-404'))) {
      // The bug: a catch-all route serves the web front end's page for any path it does not know.
      if (fault === 'unknown-route-html-200' && match.kind === 'not-found') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...rateLimitHeaders(limits, fault) });
        res.end('<!doctype html><html><head><title>Catalogue</title></head><body><div id="app"></div></body></html>');
        return discardRest(req);
      }
      if (match.kind === 'not-found' && state.variants.has('unknown-route-501')) return fail(new ApiError(501, 'NotImplemented', [`No route serves ${method} ${clip(target.pathname)}`]), limits);
      return fail(new ApiError(404, 'NotFound', [`No route matches ${method} ${clip(target.pathname)}`]), limits);
    }
    if (match.kind === 'method-not-allowed') {
      return fail(
        new ApiError(405, 'MethodNotAllowed', [`${method} is not allowed on ${clip(target.pathname)}; allowed: ${match.allow.join(', ')}`], {
          Allow: match.allow.join(', '),
        }),
        limits,
      );
    }
    const { route, params } = match;
    // The bug: a path id that is not an integer reaches the database as text, and the cast fails.
    if (fault === 'non-integer-id-500' && Object.values(params).some((v) => !/^\d+$/.test(v))) {
      return fail(new ApiError(500, 'InternalServerError', ['Something went wrong']), limits);
    }
    if (route.since !== null && !versionAtLeast(negotiation.version, route.since)) {
      return fail(
        new ApiError(404, 'NotFound', [`${route.method} ${route.pattern} is served from version ${route.since}; this request got ${negotiation.version.label}`]),
        limits,
      );
    }
    const scopeChecked = !(fault === 'notification-read-without-permission' && route.method === 'GET' && route.pattern === '/notifications/:id');
    if (route.scope !== null && scopeChecked && !auth.token.scopes.includes(route.scope)) {
      return fail(refusal(state, `The access token's scope does not include "${route.scope}"`), limits);
    }
    if (route.user && auth.token.kind !== 'user') {
      return fail(refusal(state, `${route.method} ${route.pattern} needs a user token (authorization code grant)`), limits);
    }

    let body: Record<string, unknown> | null = null;
    if (method !== 'GET' && method !== 'HEAD') {
      const raw = await readBody(req, MAX_API_BODY_BYTES);
      if (raw === 'aborted') return void res.destroy();
      if (raw === 'too-large') {
        return fail(new ApiError(400, 'BadRequest', [`The request body exceeds ${MAX_API_BODY_BYTES} bytes`]), limits);
      }
      try {
        body = parseApiBody(raw, req.headers['content-type']);
      } catch (err) {
        // The bug: the parser's error escapes to the generic handler, a server error.
        if (err instanceof ApiError && fault === 'malformed-json-500') return fail(new ApiError(500, 'InternalServerError', ['Something went wrong']), limits);
        if (err instanceof ApiError) return fail(err, limits);
        throw err;
      }
    }

    const ctx: ApiContext = {
      method,
      path: rel,
      params,
      query: target.query,
      body,
      // The bug (and variant prefix-optional): links are built from the path below the base path, which is lost.
      url: fault === 'link-drops-base-path' || state.variants.has('prefix-optional') ? new URL(`${rel}${target.search}`, publicUrl(state, req, target)) : publicUrl(state, req, target),
      version: negotiation.version,
      token: auth.token,
      userId: auth.token.kind === 'user' ? state.data.demoUserId : null,
      data: state.data,
      fault,
      variants: state.variants,
      now: state.now,
      logout: () => state.auth.logout(auth.token.value),
    };
    let result: ApiResult;
    try {
      result = await route.handler(ctx);
    } catch (err) {
      if (err instanceof ApiError) result = errorResult(handlerError(state, err), fault);
      else {
        state.onError(err);
        result = errorResult(new ApiError(500, 'InternalServerError', ['Internal server error']), fault);
      }
    }
    send(result, limits);
  } catch (err) {
    // A bug outside the handlers (a body that does not serialize, ...): still the errors body
    // and the rate-limit headers.
    state.onError(err);
    if (res.headersSent || res.destroyed) return void res.destroy();
    send(errorResult(new ApiError(500, 'InternalServerError', ['Internal server error']), fault), rl ?? state.limiter.consume(`ip:${ip}`));
  }
}

/** Request paths echoed in messages are cut short. */
function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

// ---------------------------------------------------------------------------------------------
// OAuth

type AuthEndpoint = 'token' | 'authorize' | 'decide';

function authEndpoint(state: ReferenceState, pathname: string): AuthEndpoint | null {
  const rel = stripBase(pathname, state.authBasePath);
  if (rel === '/oauth2/token') return 'token';
  if (rel === '/oauth2/authorizations/new') return 'authorize';
  if (rel === '/oauth2/authorizations') return 'decide';
  return null;
}

function writeJson(res: ServerResponse, status: number, body: unknown, headers: HeaderMap = {}): void {
  const buf = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, { ...headers, 'Content-Type': JSON_CONTENT_TYPE, 'Content-Length': String(buf.length) });
  res.end(buf);
}

function parseParams(req: IncomingMessage, body: Buffer): Record<string, unknown> | null {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const text = body.toString('utf8');
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
  // application/x-www-form-urlencoded, or no content type: form encoding.
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(text)) if (!Object.prototype.hasOwnProperty.call(out, k)) out[k] = v;
  return out;
}

/** Writes a JSON answer of the OAuth endpoints (status, body, headers). */
type JsonWriter = (status: number, body: unknown, headers?: HeaderMap) => void;

/** An OAuth error body with OAuth 2.0's fields only (variant oauth-plain-errors); other bodies unchanged. */
function plainOAuthBody(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('error' in body)) return body;
  const b = body as Record<string, unknown>;
  return { error: b['error'], ...('error_description' in b ? { error_description: b['error_description'] } : {}) };
}

function writeOAuth(json: JsonWriter, res: ServerResponse, r: OAuthResponse, headers: HeaderMap = {}): void {
  if (r.html !== undefined) {
    const buf = Buffer.from(r.html, 'utf8');
    res.writeHead(r.status, { ...headers, ...(r.headers ?? {}), 'Content-Length': String(buf.length) });
    res.end(buf);
  } else if (r.body === undefined) {
    res.writeHead(r.status, { ...headers, ...(r.headers ?? {}), 'Content-Length': '0' });
    res.end();
  } else {
    json(r.status, r.body, { ...headers, ...(r.headers ?? {}) });
  }
}

/** Reads a form or JSON body of an OAuth endpoint; null when it answered already. */
async function readOAuthParams(req: IncomingMessage, res: ServerResponse, json: JsonWriter, headers: HeaderMap): Promise<Record<string, unknown> | null> {
  const body = await readBody(req);
  if (body === 'aborted') {
    res.destroy();
    return null;
  }
  if (body === 'too-large') {
    json(400, oauthErrorBody('invalid_request', 'The request body is too large'), headers);
    discardRest(req);
    return null;
  }
  const params = parseParams(req, body);
  if (params === null) json(400, oauthErrorBody('invalid_request', 'Unreadable request body'), headers);
  return params;
}

/** Rate-limit key of the OAuth endpoints (and of anything else a separate auth origin answers). */
function oauthKey(req: IncomingMessage): string {
  return `oauth:${req.socket.remoteAddress ?? 'unknown'}`;
}

/** The over-limit 403 of the OAuth endpoints: the API's {message}, plus the OAuth error body. */
function oauthRateLimitBody(limits: RateLimitState): Record<string, unknown> {
  return {
    ...RATE_LIMIT_BODY,
    ...oauthErrorBody(
      'access_denied',
      `Rate limit exceeded: at most ${limits.limit} requests a minute to the OAuth endpoints from one IP address; the window resets at X-RateLimit-Reset`,
    ),
  };
}

async function handleAuth(state: ReferenceState, req: IncomingMessage, res: ServerResponse, which: AuthEndpoint, target: Target): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  if (which === 'token') state.requests += 1;
  // Counted first, whatever the request: a refused one (403 included) still uses the window.
  const limits = state.limiter.consume(oauthKey(req));
  // The variant's OAuth endpoints speak OAuth 2.0 only: no API errors envelope, no rate-limit headers.
  const plain = state.variants.has('oauth-plain-errors');
  const rl = plain ? {} : rateLimitHeaders(limits, state.fault);
  const noStore = { ...rl, 'Cache-Control': 'no-store', Pragma: 'no-cache' };
  const json: JsonWriter = (status, body, headers = {}) => writeJson(res, status, plain ? plainOAuthBody(body) : body, headers);
  try {
    if (limits.exceeded) {
      json(403, oauthRateLimitBody(limits), noStore);
      return discardRest(req);
    }
    const only = (allow: string): void => {
      if (state.variants.has('method-not-allowed-404')) {
        // As an unknown route: the API's 404, without Allow.
        writeJson(res, 404, errorsBody('NotFound', [`No route matches ${method} ${clip(target.pathname)}`]), noStore);
      } else json(405, oauthErrorBody('invalid_request', `Use ${allow}`), { Allow: allow, ...noStore });
      discardRest(req);
    };
    if (which === 'token') {
      if (method !== 'POST') return only('POST');
      const params = await readOAuthParams(req, res, json, noStore);
      if (params === null) return;
      const r = state.auth.tokenRequest(params, req.headers.authorization, state.fault);
      return writeOAuth(json, res, r, noStore);
    }
    if (which === 'decide') {
      if (method !== 'POST') return only('POST');
      const params = await readOAuthParams(req, res, json, noStore);
      if (params === null) return;
      return writeOAuth(json, res, state.auth.decide(params), noStore);
    }
    if (method !== 'GET' && method !== 'HEAD') return only('GET, HEAD');
    const r = state.auth.authorize(target.query, `${state.authBasePath}/oauth2/authorizations`);
    writeOAuth(json, res, r, r.status === 302 ? rl : noStore);
  } catch (err) {
    state.onError(err);
    if (res.headersSent || res.destroyed) return void res.destroy();
    json(500, oauthErrorBody('server_error', 'Internal server error'), noStore);
    discardRest(req);
  }
}

// ---------------------------------------------------------------------------------------------
// Listeners

function guarded(state: ReferenceState, fn: (req: IncomingMessage, res: ServerResponse) => Promise<void>): RequestListener {
  return (req, res) => {
    fn(req, res).catch((err: unknown) => {
      state.onError(err);
      if (!res.headersSent) writeJson(res, 500, errorsBody('InternalServerError', ['Internal server error']));
      else res.destroy();
      discardRest(req);
    });
  };
}

/** The API (and, for authOrigin 'same', the OAuth endpoints) on one server. */
export function createApiListener(state: ReferenceState, withAuth: boolean): RequestListener {
  return guarded(state, async (req, res) => {
    const target = parseTarget(req);
    if (withAuth && target) {
      const which = authEndpoint(state, target.pathname);
      if (which) return handleAuth(state, req, res, which, target);
    }
    return handleApi(state, req, res, target);
  });
}

/** The OAuth endpoints alone (authOrigin 'separate'). */
export function createAuthListener(state: ReferenceState): RequestListener {
  return guarded(state, async (req, res) => {
    const target = parseTarget(req);
    const which = target ? authEndpoint(state, target.pathname) : null;
    if (target && which) return handleAuth(state, req, res, which, target);
    // Not an OAuth endpoint: the API's 404, with the rate-limit headers of the auth origin.
    const rl = rateLimitHeaders(state.limiter.consume(oauthKey(req)), state.fault);
    writeJson(res, 404, errorsBody('NotFound', [`No route matches ${req.method ?? 'GET'} ${clip(target?.pathname ?? req.url ?? '')}`]), rl);
    discardRest(req);
  });
}

// ---------------------------------------------------------------------------------------------
// Answers below HTTP requests: what node:http's parser rejects, and CONNECT

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
};

/** Sockets that got a raw answer; the parser's further complaints about them are ignored. */
const answered = new WeakSet<Duplex>();

/**
 * Writes a complete HTTP/1.1 response with the errors body on a raw socket, then closes it.
 * The client may still be sending its request (headers over the limit): what it sends is read
 * and dropped for a moment, since closing at once makes many clients report "other side
 * closed" instead of the answer.
 */
function writeRaw(socket: Duplex, status: number, code: string, message: string, headers: HeaderMap, variants: Variants = NO_VARIANTS): void {
  answered.add(socket);
  const body = JSON.stringify(variantBody(errorsBody(code, [message]), variants));
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`),
    `Content-Type: ${jsonContentType(variants)}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ];
  socket.write(lines.join('\r\n'));
  socket.once('end', () => socket.end());
  setTimeout(() => socket.end(), 200).unref();
  // A client that keeps sending (or never reads) must not hold the connection.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/**
 * node:http's 'clientError': a request the parser rejects, or a timeout. Answered with the
 * errors body and the client IP's rate-limit headers (on a separate auth origin, from the OAuth
 * endpoints' window) unless the socket is gone or a response has started: 501 NotImplemented
 * for an unknown method, 431 for headers over the size limit, 408 for a timeout, 400
 * BadRequest otherwise.
 */
export function clientErrorListener(state: ReferenceState, api: boolean): (err: Error & { code?: string }, socket: Duplex) => void {
  return (err, socket) => {
    if (answered.has(socket)) return;
    // As node:http does: no answer when the socket is gone or a response is being written on it.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    let status = 400;
    let code = 'BadRequest';
    let message = 'Malformed HTTP request';
    if (err.code === 'HPE_INVALID_METHOD') [status, code, message] = [501, 'NotImplemented', 'The request method is not implemented'];
    else if (err.code === 'HPE_HEADER_OVERFLOW') [status, code, message] = [431, 'RequestHeaderFieldsTooLarge', 'The request line and headers exceed 16 KiB'];
    else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'HPE_HEADER_TIMEOUT') {
      [status, code, message] = [408, 'RequestTimeout', 'The request was not received in time'];
    }
    const ip = (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? 'unknown';
    // The API server's answers follow its variants; the auth origin's stay plain JSON.
    writeRaw(socket, status, code, message, rateLimitHeaders(state.limiter.consume(`${api ? 'ip' : 'oauth'}:${ip}`), state.fault), api ? state.variants : NO_VARIANTS);
  };
}

/** CONNECT is no API method: 405 with the errors body, then the connection is closed. */
export function connectListener(state: ReferenceState, api: boolean): (req: IncomingMessage, socket: Duplex) => void {
  return (req, socket) => {
    socket.on('error', () => undefined);
    const headers = rateLimitHeaders(state.limiter.consume(`${api ? 'ip' : 'oauth'}:${req.socket.remoteAddress ?? 'unknown'}`), state.fault);
    writeRaw(socket, 405, 'MethodNotAllowed', 'CONNECT is not allowed', { ...headers, Allow: 'GET, HEAD, POST, PUT, PATCH, DELETE' }, api ? state.variants : NO_VARIANTS);
  };
}
