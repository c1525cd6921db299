// Rules the spec states for every response of a kind, checked on every exchange of the run rather
// than on one sample (the suites provoke errors and fetch every endpoint; these rules watch all of
// it). Each rule says which exchanges it applies to and checks one exchange with a pure function;
// suites/last/observed.suite.ts reports, per rule, the exchanges that broke it.
import type { Exchange } from '../http/exchange.ts';
import type { VersionScope } from '../rules/version-scope.ts';
import { fail, isPlainObject, pass, type CheckResult } from './check.ts';
import { rateLimitHeadersPresent, rateLimitValuesAreWellFormed, resetIsEpochSecondsWithinAMinute } from './caching.ts';
import { errorBodyIsWellFormed } from './errors.ts';

/** What a rule needs to know of the run besides the exchange. */
export interface ObservationScope {
  /** The API's base URL: rules about "the API" leave the auth server's exchanges alone. */
  baseUrl: string;
  /** Where the OAuth endpoints live, when known: their exchanges are never the API's, even on its origin. */
  authUrl?: string;
  /** The version the exchanges are served (the version asked, at the deployment's patch level). */
  version: VersionScope;
}

/**
 * Whether a URL is one of the OAuth endpoints ({auth_url}/oauth2/token, .../oauth2/authorizations/new,
 * and the form a consent page posts to): they follow OAuth 2.0, not the API's rules (errors
 * format, rate-limit headers), wherever they are served. The API has no /oauth2/ path of its own.
 */
export function isOAuthUrl(url: string, authUrl?: string): boolean {
  try {
    const target = new URL(url);
    if (/\/oauth2\/(token|authorizations(\/new)?)\/?$/.test(target.pathname)) return true;
    if (!authUrl) return false;
    const auth = new URL(authUrl);
    const prefix = auth.pathname.replace(/\/+$/, '');
    return target.origin === auth.origin && target.pathname.startsWith(`${prefix}/oauth2/`);
  } catch {
    return false;
  }
}

export interface ObservedRule {
  id: string;
  /** What holds, for the test title. */
  title: string;
  requirements: string[];
  applies(exchange: Exchange, scope: ObservationScope): boolean;
  /** `nowMs`: when the exchange was seen (it ended a moment before). */
  check(exchange: Exchange, nowMs: number): CheckResult;
}

/** Whether the exchange is a request to the API (under the base URL, not an OAuth endpoint), answered. */
export function isApiExchange(exchange: Exchange, baseUrl: string, authUrl?: string): boolean {
  if (exchange.status === null || isOAuthUrl(exchange.url, authUrl)) return false;
  try {
    const url = new URL(exchange.url);
    const base = new URL(baseUrl);
    const prefix = base.pathname.replace(/\/+$/, '');
    return url.origin === base.origin && (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`));
  } catch {
    return false;
  }
}

/** "GET /skus/:id/products": the path below the base URL with numeric segments as :id. */
export function endpointOf(exchange: Exchange, baseUrl: string): string {
  try {
    const prefix = new URL(baseUrl).pathname.replace(/\/+$/, '');
    const path = new URL(exchange.url).pathname.slice(prefix.length) || '/';
    return `${exchange.method} ${path.replace(/\/-?\d+(?=\/|$)/g, '/:id')}`;
  } catch {
    return `${exchange.method} ${exchange.url}`;
  }
}

function parseBody(exchange: Exchange): { ok: true; value: unknown } | { ok: false } {
  const text = exchange.responseBody ?? '';
  // The exchange keeps an excerpt of long bodies; a cut body cannot be judged here.
  if (/\.\.\. \[\d+ more characters\]$/.test(text)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: true, value: undefined };
  }
}

/**
 * ERR-2: "For 4xx and 5xx the body holds more detail, in this format for the whole API:
 * {errors: [{code (string), messages (array of strings)}]}" (normalized in 3.1.0). Not judged:
 * a 403 `{message}` (the rate-limit body), a 404 with an empty array on a category path (the
 * documented example, ERR-16), a body the exchange record cut short.
 */
export function errorBodyOf(exchange: Exchange): CheckResult {
  const body = parseBody(exchange);
  if (!body.ok) return pass();
  const where = `${exchange.method} ${exchange.url} answered ${exchange.status}`;
  if (body.value === undefined) return fail(`${where} with a body that is not JSON: expected {errors: [{code, messages}]}`);
  if (exchange.status === 403 && isPlainObject(body.value) && typeof body.value['message'] === 'string') return pass();
  if (exchange.status === 404 && Array.isArray(body.value) && body.value.length === 0 && /\/categories\//.test(exchange.url)) return pass();
  const result = errorBodyIsWellFormed(body.value);
  return result.ok ? result : fail(`${where}: ${result.message}`);
}

/** Responses the spec's statuses cover: a redirect (3xx other than 304) is not an answer of the API. */
function isAnswer(exchange: Exchange): boolean {
  return exchange.status !== null && (exchange.status < 300 || exchange.status >= 400 || exchange.status === 304);
}

const described = (exchange: Exchange) => `${exchange.method} ${exchange.url} (${exchange.status})`;

export const OBSERVED_RULES: readonly ObservedRule[] = [
  {
    id: 'error-body',
    title: 'every 4xx and 5xx answer of the API has the body {errors: [{code, messages}]} (403 {message} for the rate limit)',
    requirements: ['ERR-2'],
    applies: (exchange, scope) =>
      isApiExchange(exchange, scope.baseUrl, scope.authUrl) && exchange.status! >= 400 && exchange.method !== 'HEAD' && scope.version.has('normalized-errors'),
    check: errorBodyOf,
  },
  {
    id: 'rate-limit-headers',
    title: 'every answer of the API, 2xx, 304 and 4xx alike, carries X-RateLimit-Limit, -Remaining and -Reset',
    requirements: ['RATE-4'],
    applies: (exchange, scope) => isApiExchange(exchange, scope.baseUrl, scope.authUrl) && isAnswer(exchange),
    check: (exchange) => rateLimitHeadersPresent(exchange.responseHeaders, described(exchange)),
  },
  {
    id: 'rate-limit-values',
    title: 'X-RateLimit-Limit and -Remaining are whole numbers (Remaining at most Limit) and -Reset is UTC epoch seconds within the coming minute',
    requirements: ['RATE-5', 'RATE-6', 'RATE-7'],
    applies: (exchange, scope) => isApiExchange(exchange, scope.baseUrl, scope.authUrl) && isAnswer(exchange) && rateLimitHeadersPresent(exchange.responseHeaders).ok,
    check: (exchange, nowMs) => {
      const values = rateLimitValuesAreWellFormed(exchange.responseHeaders, described(exchange));
      return values.ok ? resetIsEpochSecondsWithinAMinute(exchange.responseHeaders, nowMs, described(exchange)) : values;
    },
  },
];
