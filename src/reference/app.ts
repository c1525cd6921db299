// Request pipelines of the reference server (no framework: node:http listeners).
//
// API request, in order:
//   1. request target parsed; outside the base path -> 404 NotFound (errors body)
//   2. access token checked (auth.ts), which also counts the call against the daily limit
//   3. per-minute rate limit counted for the token (or the client IP when there is no valid
//      token); over the limit -> 403 {"message": ...}
//   4. token problems -> 400 / 401 (errors body)
//   5. version negotiated from Accept -> 406 when unservable
//   6. route matched -> 404 NotFound / 405 MethodNotAllowed (errors body, Allow header);
//      token scope checked -> 401
//   7. handler runs; ApiError -> its status and errors body; any other exception -> 500 with
//      the errors body (the server keeps running)
//   8. response written: X-RateLimit-* headers on every response, JSON, ETag / 304 on 200 GETs.
//
// OAuth endpoints: POST <authBasePath>/oauth2/token, GET <authBasePath>/oauth2/authorizations/new.

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { AuthService, type ClientRecord } from './auth.ts';
import type { Dataset } from './data.ts';
import type { FaultName } from './faults.ts';
import {
  ApiError,
  JSON_CONTENT_TYPE,
  errorResult,
  errorsBody,
  MAX_API_BODY_BYTES,
  parseApiBody,
  readBody,
  writeResult,
  type ApiResult,
  type HeaderMap,
} from './http.ts';
import { RATE_LIMIT_BODY, RateLimiter, rateLimitHeaders, type RateLimitState } from './ratelimit.ts';
import { Router, splitPath, type ApiContext, type RouteModule } from './router.ts';
import { negotiateVersion, versionAtLeast } from './versioning.ts';

export interface StateConfig {
  basePath: string;
  authBasePath: string;
  fault: FaultName | null;
  data: Dataset;
  clients: readonly ClientRecord[];
  perMinute: number;
  perDay: number;
  consent: 'auto' | 'deny';
  now: () => number;
  modules: readonly RouteModule[];
  /** Called with unexpected handler exceptions (500s). */
  onError?: (err: unknown) => void;
}

export interface ReferenceState {
  readonly basePath: string;
  readonly authBasePath: string;
  readonly fault: FaultName | null;
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
  return {
    basePath: cfg.basePath,
    authBasePath: cfg.authBasePath,
    fault: cfg.fault,
    data: cfg.data,
    auth: new AuthService({ clients: cfg.clients, now: cfg.now, perDay: cfg.perDay, consent: cfg.consent }),
    limiter: new RateLimiter(cfg.perMinute, cfg.now),
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
  if (!/^(\/[A-Za-z0-9._~\-]+)+$/.test(trimmed)) {
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

async function handleApi(state: ReferenceState, req: IncomingMessage, res: ServerResponse, target: Target | null): Promise<void> {
  state.requests += 1;
  const fault = state.fault;
  const method = (req.method ?? 'GET').toUpperCase();
  const ip = req.socket.remoteAddress ?? 'unknown';

  const send = (result: ApiResult, rl: RateLimitState): void => {
    const omitRateLimit = fault === 'ratelimit-headers-missing-on-errors' && result.status >= 400 && result.status < 500;
    const headers: HeaderMap = { Vary: 'Accept', ...(omitRateLimit ? {} : rateLimitHeaders(rl)) };
    writeResult(req, res, result, headers);
  };
  const fail = (err: ApiError, rl: RateLimitState): void => send(errorResult(err, fault), rl);

  if (!target) {
    return fail(new ApiError(400, 'BadRequest', ['Malformed request target']), state.limiter.consume(`ip:${ip}`));
  }
  const rel = stripBase(target.pathname, state.basePath);
  if (rel === null) {
    return fail(
      new ApiError(404, 'NotFound', [`No route matches ${method} ${target.pathname}`]),
      state.limiter.consume(`ip:${ip}`),
    );
  }

  const auth = state.auth.authenticate(req.headers.authorization, target.query, fault);
  const rl = state.limiter.consume(auth.ok ? `token:${auth.token.value}` : `ip:${ip}`);
  if (rl.exceeded) return send({ status: 403, body: RATE_LIMIT_BODY }, rl);
  if (!auth.ok) return fail(new ApiError(auth.status, auth.code, [auth.message], auth.headers), rl);

  const negotiation = negotiateVersion(req.headers.accept);
  if (!negotiation.ok) return fail(new ApiError(406, 'NotAcceptable', [negotiation.message]), rl);

  const segments = decodeSegments(rel);
  const match = segments ? state.router.match(method, segments) : ({ kind: 'not-found' } as const);
  if (match.kind === 'not-found') {
    return fail(new ApiError(404, 'NotFound', [`No route matches ${method} ${target.pathname}`]), rl);
  }
  if (match.kind === 'method-not-allowed') {
    return fail(
      new ApiError(405, 'MethodNotAllowed', [`${method} is not allowed on ${target.pathname}; allowed: ${match.allow.join(', ')}`], {
        Allow: match.allow.join(', '),
      }),
      rl,
    );
  }
  const { route, params } = match;
  if (route.since !== null && !versionAtLeast(negotiation.version, route.since)) {
    return fail(
      new ApiError(404, 'NotFound', [`${route.method} ${route.pattern} is served from version ${route.since}; this request got ${negotiation.version.label}`]),
      rl,
    );
  }
  if (route.scope !== null && !auth.token.scopes.includes(route.scope)) {
    return fail(new ApiError(401, 'Unauthorized', [`The access token's scope does not include "${route.scope}"`]), rl);
  }
  if (route.user && auth.token.kind !== 'user') {
    return fail(new ApiError(401, 'Unauthorized', [`${route.method} ${route.pattern} needs a user token (authorization code grant)`]), rl);
  }

  let body: Record<string, unknown> | null = null;
  if (method !== 'GET' && method !== 'HEAD') {
    const raw = await readBody(req, MAX_API_BODY_BYTES);
    if (raw === null) {
      return fail(new ApiError(400, 'BadRequest', [`The request body exceeds ${MAX_API_BODY_BYTES} bytes`]), rl);
    }
    try {
      body = parseApiBody(raw, req.headers['content-type']);
    } catch (err) {
      if (err instanceof ApiError) return fail(err, rl);
      throw err;
    }
  }

  const ctx: ApiContext = {
    method,
    path: rel,
    params,
    query: target.query,
    body,
    url: publicUrl(state, req, target),
    version: negotiation.version,
    token: auth.token,
    userId: auth.token.kind === 'user' ? state.data.demoUserId : null,
    data: state.data,
    fault,
    now: state.now,
    revokeToken: () => state.auth.revoke(auth.token.value, 'The access token was ended by DELETE /user/logout'),
  };
  let result: ApiResult;
  try {
    result = await route.handler(ctx);
  } catch (err) {
    if (err instanceof ApiError) result = errorResult(err, fault);
    else {
      state.onError(err);
      result = errorResult(new ApiError(500, 'InternalServerError', ['Internal server error']), fault);
    }
  }
  send(result, rl);
}

// ---------------------------------------------------------------------------------------------
// OAuth

type AuthEndpoint = 'token' | 'authorize';

function authEndpoint(state: ReferenceState, pathname: string): AuthEndpoint | null {
  const rel = stripBase(pathname, state.authBasePath);
  if (rel === '/oauth2/token') return 'token';
  if (rel === '/oauth2/authorizations/new') return 'authorize';
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
  for (const [k, v] of new URLSearchParams(text)) if (!(k in out)) out[k] = v;
  return out;
}

async function handleAuth(state: ReferenceState, req: IncomingMessage, res: ServerResponse, which: AuthEndpoint, target: Target): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
  if (which === 'token') {
    state.requests += 1;
    if (method !== 'POST') {
      req.resume();
      return writeJson(res, 405, { error: 'invalid_request', error_description: 'Use POST' }, { Allow: 'POST', ...noStore });
    }
    const body = await readBody(req);
    const params = body === null ? null : parseParams(req, body);
    if (params === null) {
      return writeJson(res, 400, { error: 'invalid_request', error_description: 'Unreadable request body' }, noStore);
    }
    const r = state.auth.tokenRequest(params, req.headers.authorization);
    return writeJson(res, r.status, r.body ?? {}, { ...noStore, ...(r.headers ?? {}) });
  }
  if (method !== 'GET' && method !== 'HEAD') {
    req.resume();
    return writeJson(res, 405, { error: 'invalid_request', error_description: 'Use GET' }, { Allow: 'GET, HEAD' });
  }
  const r = state.auth.authorize(target.query);
  if (r.body === undefined) {
    res.writeHead(r.status, { ...(r.headers ?? {}), 'Content-Length': '0' });
    res.end();
    return;
  }
  writeJson(res, r.status, r.body, { ...noStore, ...(r.headers ?? {}) });
}

// ---------------------------------------------------------------------------------------------
// Listeners

function guarded(state: ReferenceState, fn: (req: IncomingMessage, res: ServerResponse) => Promise<void>): RequestListener {
  return (req, res) => {
    fn(req, res).catch((err: unknown) => {
      state.onError(err);
      if (!res.headersSent) writeJson(res, 500, errorsBody('InternalServerError', ['Internal server error']));
      else res.destroy();
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
    req.resume();
    writeJson(res, 404, errorsBody('NotFound', [`No route matches ${req.method ?? 'GET'} ${target?.pathname ?? req.url ?? ''}`]));
  });
}
