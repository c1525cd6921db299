// Request pipelines of the reference server (no framework: node:http listeners). The steps are
// api-pipeline.ts (1-8), oauth-pipeline.ts (the OAuth endpoints) and raw-answers.ts (0); the
// state they share is state.ts.
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
// envelope (auth-records.ts oauthErrorBody). On a separate auth origin, the answers to other paths and
// the HTTP-level answers of step 0 count against and show the same window.
//
// Legal variants (variants.ts) decided here: method-not-allowed-404 (404 NotFound instead of 405,
// no Allow), unknown-route-501 (501 NotImplemented for a path no route serves), refused-scope-403 (a refused scope or user: 403 Forbidden instead of 401),
// errors-legacy-3-0 ({error, message} errors for 3.0 requests), no-vary (no Vary header),
// the body and header variants of http.ts (variantBody, writeResult), and on the OAuth endpoints
// oauth-plain-errors (only error and error_description, no X-RateLimit-* headers).

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { handleApi } from './api-pipeline.ts';
import { errorsBody, writeJson } from './http.ts';
import { authEndpoint, handleAuth, oauthKey } from './oauth-pipeline.ts';
import { rateLimitHeaders } from './ratelimit.ts';
import { discardRest } from './request-body.ts';
import { clip, parseTarget } from './request-target.ts';
import type { ReferenceState } from './state.ts';

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
