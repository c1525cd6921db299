// The OAuth endpoints' pipeline (see app.ts): POST <authBasePath>/oauth2/token,
// GET <authBasePath>/oauth2/authorizations/new and POST <authBasePath>/oauth2/authorizations,
// each with the rate-limit window of the client IP.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { oauthErrorBody, type OAuthResponse } from './auth-records.ts';
import { errorsBody, writeJson, type HeaderMap } from './http.ts';
import { RATE_LIMIT_BODY, rateLimitHeaders, type RateLimitState } from './ratelimit.ts';
import { discardRest, readBody } from './request-body.ts';
import { clip, stripBase, type Target } from './request-target.ts';
import type { ReferenceState } from './state.ts';

export type AuthEndpoint = 'token' | 'authorize' | 'decide';

export function authEndpoint(state: ReferenceState, pathname: string): AuthEndpoint | null {
  const rel = stripBase(pathname, state.authBasePath);
  if (rel === '/oauth2/token') return 'token';
  if (rel === '/oauth2/authorizations/new') return 'authorize';
  if (rel === '/oauth2/authorizations') return 'decide';
  return null;
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
export function oauthKey(req: IncomingMessage): string {
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

export async function handleAuth(state: ReferenceState, req: IncomingMessage, res: ServerResponse, which: AuthEndpoint, target: Target): Promise<void> {
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
