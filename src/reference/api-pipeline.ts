// The API's pipeline (steps 1 to 8 of app.ts): one function per step, handleApi runs them in order.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TokenRecord } from './auth-records.ts';
import type { FaultName } from './faults.ts';
import {
  ApiError,
  errorResult,
  etagFor,
  ifNoneMatchMatches,
  isErrorsBody,
  legacyErrorBody,
  recordNotFound,
  variantBody,
  writeResult,
  type ApiResult,
  type HeaderMap,
} from './http.ts';
import { RATE_LIMIT_BODY, rateLimitHeaders, type RateLimitState } from './ratelimit.ts';
import { discardRest, MAX_API_BODY_BYTES, parseApiBody, readBody } from './request-body.ts';
import { clip, decodeSegments, publicUrl, stripBase, type Target } from './request-target.ts';
import type { ApiContext, Route } from './router.ts';
import type { ReferenceState } from './state.ts';
import { negotiateVersion, versionAtLeast, type ApiVersion } from './versioning.ts';

export async function handleApi(state: ReferenceState, req: IncomingMessage, res: ServerResponse, parsed: Target | null): Promise<void> {
  state.requests += 1;
  const fault = state.fault;
  const method = (req.method ?? 'GET').toUpperCase();
  const ip = req.socket.remoteAddress ?? 'unknown';
  const answer = apiAnswer(state, req, res, ip);
  try {
    const located = pathBelowBase(state, req, method, parsed);
    if (located instanceof ApiError) return answer.fail(located, answer.count(`ip:${ip}`));
    const { target, rel } = located;
    const canonical = canonicalRedirect(state, req, target, rel);
    if (canonical) return answer.send(canonical, answer.count(`ip:${ip}`));

    const auth = state.auth.authenticate(req.headers.authorization, target.query, fault);
    const limits = answer.count(auth.ok ? `token:${auth.token.value}` : `ip:${ip}`, auth.ok ? perMinuteOf(state, auth.token) : undefined);
    if (limits.exceeded && fault !== 'ratelimit-not-enforced') return answer.send(rateLimited(fault, state), answer.uncounted(limits));
    if (!auth.ok && auth.limit) return answer.send({ status: auth.status, body: { message: auth.message } }, limits);
    if (!auth.ok) return answer.fail(new ApiError(auth.status, auth.code, [auth.message], auth.headers), auth.status === 401 ? answer.uncounted(limits) : limits);

    const negotiation = negotiateVersion(req.headers.accept, fault, state.variants);
    if (!negotiation.ok) return answer.fail(new ApiError(406, 'NotAcceptable', [negotiation.message]), limits);

    const match = matchRoute(state, method, rel, target.pathname);
    if (match === 'front-end-page') return writeFrontEndPage(req, res, limits, fault);
    if (match instanceof ApiError) return answer.fail(match, limits);
    const refused = routeRefusal(state, match, negotiation.version, auth.token);
    if (refused) return answer.fail(refused, limits);

    const body = await requestBody(req, method, fault);
    if (body === 'aborted') return void res.destroy();
    if (body instanceof ApiError) return answer.fail(body, limits);

    const ctx = apiContext(state, req, target, { method, rel, params: match.params, body: body.parsed, version: negotiation.version, token: auth.token });
    answer.send(await runHandler(state, match.route, ctx), limits);
  } catch (err) {
    // A bug outside the handlers (a body that does not serialize, ...): still the errors body
    // and the rate-limit headers.
    state.onError(err);
    if (res.headersSent || res.destroyed) return void res.destroy();
    answer.send(errorResult(new ApiError(500, 'InternalServerError', ['Internal server error']), fault, state.variants), answer.limits() ?? state.limiter.consume(`ip:${ip}`));
  }
}

interface ApiAnswer {
  /** Counts the request against the window of `key` (the last one counted is the one a refund or a late 500 uses). */
  count(key: string, limit?: number): RateLimitState;
  /** The window without this request, for variant refusals-not-counted (a 401 or the over-limit 403); else `limits`. */
  uncounted(limits: RateLimitState): RateLimitState;
  /** The window counted last, or null before any. */
  limits(): RateLimitState | null;
  send(result: ApiResult, limits: RateLimitState): void;
  fail(err: ApiError, limits: RateLimitState): void;
}

/** Step 8: how the answer to one API request is written, with the rate-limit window it counted against. */
function apiAnswer(state: ReferenceState, req: IncomingMessage, res: ServerResponse, ip: string): ApiAnswer {
  const fault = state.fault;
  let rlKey = `ip:${ip}`;
  let rl: RateLimitState | null = null;
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
  return {
    count: (key, limit) => {
      rlKey = key;
      rl = state.limiter.consume(key, limit);
      return rl;
    },
    uncounted: (limits) => (state.variants.has('refusals-not-counted') ? (state.limiter.refund(rlKey) ?? limits) : limits),
    limits: () => rl,
    send,
    fail: (err, limits) => send(errorResult(err, fault, state.variants), limits),
  };
}

/** Step 1: the request target and its path below the base path, or why the target is refused. */
function pathBelowBase(state: ReferenceState, req: IncomingMessage, method: string, target: Target | null): { target: Target; rel: string } | ApiError {
  if (!target) return new ApiError(400, 'BadRequest', ['Malformed request target']);
  if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && req.headers.host === undefined) {
    return new ApiError(400, 'BadRequest', ['An HTTP/1.1 request needs a Host header']);
  }
  // Variant prefix-optional: the paths answer without the base path too.
  const rel = stripBase(target.pathname, state.basePath) ?? (state.variants.has('prefix-optional') ? target.pathname : null);
  if (rel === null) return new ApiError(404, 'NotFound', [`No route matches ${method} ${clip(target.pathname)}`]);
  return { target, rel };
}

/**
 * Step 1: variants trailing-slash-redirect (301, absolute Location) and trailing-slash-redirect-308
 * (308, relative Location): a path with a trailing slash is sent to its canonical form without it.
 */
function canonicalRedirect(state: ReferenceState, req: IncomingMessage, target: Target, rel: string): ApiResult | null {
  const permanent308 = state.variants.has('trailing-slash-redirect-308');
  if (!(permanent308 || state.variants.has('trailing-slash-redirect')) || rel === '/' || !rel.endsWith('/')) return null;
  const relative = `${target.pathname.replace(/\/+$/, '')}${target.search}`;
  return { status: permanent308 ? 308 : 301, headers: { Location: permanent308 ? relative : new URL(relative, publicUrl(state, req, target)).href } };
}

/** Step 3: the answer over the per-minute limit. */
function rateLimited(fault: FaultName | null, state: ReferenceState): ApiResult {
  const status = fault === 'ratelimit-status-429' ? 429 : 403;
  // The bugs: 429 instead of the spec's 403; a 403 with no message.
  if (fault === 'ratelimit-403-without-message') return { status, body: {} };
  // The variants' bodies: the API-wide errors format alone, or beside message.
  const errors = [{ code: 'RateLimitExceeded', messages: [RATE_LIMIT_BODY.message] }];
  if (state.variants.has('ratelimit-errors-body')) return { status, body: { errors } };
  if (state.variants.has('ratelimit-message-and-errors')) return { status, body: { ...RATE_LIMIT_BODY, errors } };
  return { status, body: RATE_LIMIT_BODY };
}

/** Step 3: a token's per-minute limit: the configured one; twice it for user tokens under variant user-token-limit-doubled. */
function perMinuteOf(state: ReferenceState, token: TokenRecord): number | undefined {
  return token.kind === 'user' && state.variants.has('user-token-limit-doubled') ? state.limiter.perMinute * 2 : undefined;
}

/** Step 6: the route that serves the request, the error that answers it, or (a fault) the web front end's page. */
function matchRoute(state: ReferenceState, method: string, rel: string, pathname: string): { route: Route; params: Record<string, string> } | ApiError | 'front-end-page' {
  const segments = decodeSegments(rel);
  const match = segments ? state.router.match(method, segments) : ({ kind: 'not-found' } as const);
  // The variant's server knows no "method not allowed": a path without the method is no route.
  if (match.kind === 'not-found' || (match.kind === 'method-not-allowed' && state.variants.has('method-not-allowed-404'))) {
    // The bug: a catch-all route serves the web front end's page for any path it does not know.
    if (state.fault === 'unknown-route-html-200' && match.kind === 'not-found') return 'front-end-page';
    if (match.kind === 'not-found' && state.variants.has('unknown-route-501')) return new ApiError(501, 'NotImplemented', [`No route serves ${method} ${clip(pathname)}`]);
    return new ApiError(404, 'NotFound', [`No route matches ${method} ${clip(pathname)}`]);
  }
  if (match.kind === 'method-not-allowed') {
    return new ApiError(405, 'MethodNotAllowed', [`${method} is not allowed on ${clip(pathname)}; allowed: ${match.allow.join(', ')}`], {
      Allow: match.allow.join(', '),
    });
  }
  return { route: match.route, params: match.params };
}

/** The fault unknown-route-html-200's answer: the web front end's page. */
function writeFrontEndPage(req: IncomingMessage, res: ServerResponse, limits: RateLimitState, fault: FaultName | null): void {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...rateLimitHeaders(limits, fault) });
  res.end('<!doctype html><html><head><title>Catalogue</title></head><body><div id="app"></div></body></html>');
  return discardRest(req);
}

/** Step 6: why the matched route refuses this request (its version, scope or token kind), or null. */
function routeRefusal(state: ReferenceState, match: { route: Route; params: Record<string, string> }, version: ApiVersion, token: TokenRecord): ApiError | null {
  const { route, params } = match;
  const fault = state.fault;
  // The bug: a path id that is not an integer reaches the database as text, and the cast fails.
  // (An auto list's negative id is an integer: the fault is not to break it.)
  if (fault === 'non-integer-id-500' && Object.values(params).some((v) => !/^-?\d+$/.test(v))) {
    return new ApiError(500, 'InternalServerError', ['Something went wrong']);
  }
  if (route.since !== null && !versionAtLeast(version, route.since)) {
    return new ApiError(404, 'NotFound', [`${route.method} ${route.pattern} is served from version ${route.since}; this request got ${version.label}`]);
  }
  const scopeChecked =
    !(fault === 'notification-read-without-permission' && route.method === 'GET' && route.pattern === '/notifications/:id') &&
    !(fault === 'category-favorites-without-permission' && route.pattern === '/categories/:id/favorites');
  if (route.scope !== null && scopeChecked && !token.scopes.includes(route.scope)) {
    const missing = state.variants.has('missing-record-before-scope') ? missingRecord(state, route.pattern, params) : null;
    if (missing) return missing;
    return refusal(state, `The access token's scope does not include "${route.scope}"`);
  }
  if (route.user && token.kind !== 'user') {
    return refusal(state, `${route.method} ${route.pattern} needs a user token (authorization code grant)`);
  }
  // Variant public-user-token-refused: the user's own endpoints, whose permission is not shown, need more than public.
  if (route.user && (route.scope === null || route.scope === 'public') && token.scopes.every((s) => s === 'public') && state.variants.has('public-user-token-refused')) {
    return refusal(state, `${route.method} ${route.pattern} needs a scope beyond "public"`);
  }
  return placeholderRefusal(state, params);
}

/** Variants placeholder-not-integer-400 and -422: a path placeholder that is not an integer is a bad parameter, not a missing record. */
function placeholderRefusal(state: ReferenceState, params: Record<string, string>): ApiError | null {
  // Integers may be negative: the automatic favorite lists have negative ids.
  const bad = Object.entries(params).find(([, value]) => !/^-?\d{1,15}$/.test(value));
  if (!bad) return null;
  const message = `:${bad[0]} must be an integer, got "${clip(bad[1])}"`;
  if (state.variants.has('placeholder-not-integer-400')) return new ApiError(400, 'InvalidParameter', [message]);
  if (state.variants.has('placeholder-not-integer-422')) return new ApiError(422, 'InvalidParameter', [message]);
  return null;
}

/** The record each scoped path names by :id, by the pattern: its collection and its model's name. */
const RECORD_OF_PATH: Readonly<Record<string, readonly ['favorites' | 'favoriteLists' | 'notifications' | 'categories', string]>> = {
  '/favorites/:id': ['favorites', 'Favorite'],
  '/favorite_lists/:id': ['favoriteLists', 'FavoriteList'],
  '/favorite_lists/:id/favorites': ['favoriteLists', 'FavoriteList'],
  '/categories/:id/favorites': ['categories', 'Category'],
  '/notifications/:id': ['notifications', 'Notification'],
};

/** Variant missing-record-before-scope: the 404 of a record the path names that does not exist, looked up before the scope. */
function missingRecord(state: ReferenceState, pattern: string, params: Record<string, string>): ApiError | null {
  const record = RECORD_OF_PATH[pattern];
  const raw = params['id'] ?? '';
  if (!record) return null;
  const id = /^-?\d{1,15}$/.test(raw) ? Number(raw) : null;
  return id !== null && state.data[record[0]].has(id) ? null : recordNotFound(record[1], clip(raw));
}

/** Step 6: the request body (none for GET and HEAD), the error that refuses it, or 'aborted'. */
async function requestBody(req: IncomingMessage, method: string, fault: FaultName | null): Promise<{ parsed: Record<string, unknown> | null } | ApiError | 'aborted'> {
  if (method === 'GET' || method === 'HEAD') return { parsed: null };
  const raw = await readBody(req, MAX_API_BODY_BYTES);
  if (raw === 'aborted') return 'aborted';
  if (raw === 'too-large') return new ApiError(400, 'BadRequest', [`The request body exceeds ${MAX_API_BODY_BYTES} bytes`]);
  try {
    return { parsed: parseApiBody(raw, req.headers['content-type']) };
  } catch (err) {
    // The bug: the parser's error escapes to the generic handler, a server error.
    if (err instanceof ApiError && fault === 'malformed-json-500') return new ApiError(500, 'InternalServerError', ['Something went wrong']);
    if (err instanceof ApiError) return err;
    throw err;
  }
}

interface Matched {
  method: string;
  /** The path below the base path. */
  rel: string;
  params: Record<string, string>;
  body: Record<string, unknown> | null;
  version: ApiVersion;
  token: TokenRecord;
}

/** Step 7: what the handler is given. */
function apiContext(state: ReferenceState, req: IncomingMessage, target: Target, m: Matched): ApiContext {
  const fault = state.fault;
  return {
    method: m.method,
    path: m.rel,
    params: m.params,
    query: target.query,
    body: m.body,
    // The bug (and variant prefix-optional): links are built from the path below the base path, which is lost.
    url:
      fault === 'link-drops-base-path' || state.variants.has('prefix-optional')
        ? new URL(`${m.rel}${target.search}`, publicUrl(state, req, target))
        : publicUrl(state, req, target),
    version: m.version,
    token: m.token,
    userId: m.token.kind === 'user' ? state.data.demoUserId : null,
    data: state.data,
    fault,
    variants: state.variants,
    now: state.now,
    logout: () => state.auth.logout(m.token.value),
  };
}

/** Step 7: the handler's result; an ApiError becomes its errors body, any other exception a 500. */
async function runHandler(state: ReferenceState, route: Route, ctx: ApiContext): Promise<ApiResult> {
  try {
    return await route.handler(ctx);
  } catch (err) {
    if (err instanceof ApiError) return errorResult(handlerError(state, err), state.fault, state.variants);
    state.onError(err);
    return errorResult(new ApiError(500, 'InternalServerError', ['Internal server error']), state.fault, state.variants);
  }
}

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
