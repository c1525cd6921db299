// The rules of an answer's headers and status (src/rules/exchange-rules.ts holds them in its table):
// a redirect names its target in Location, all access is over HTTPS, and the rate limit's headers
// on every answer, their values, and its status (403, never 429).
import { pass } from '../checks/check.ts';
import { isRateLimitStatus, limitIsWellFormed, rateLimitHeadersPresent, remainingIsWellFormed, resetIsEpochSecondsWithinAMinute } from '../checks/caching.ts';
import { isLoopbackHost, redirectHasLocation, REDIRECT_STATUSES, staysOnHttps } from '../checks/http.ts';
import { checkOutcome, described, isAnswer, outcome, skip, where, type ExchangeRule } from './exchange-rule.ts';
import { isOAuthUrl } from './exchange-view.ts';

const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
};

export const REDIRECT_LOCATION: ExchangeRule = {
  id: 'redirect-location',
  clauses: ['RED-3#1'],
  title: 'a redirect (301, 302, 303, 307, 308) names its target in the Location header',
  requirements: ['RED-3'],
  readings: ['RED-3.a-d'],
  severity: 'MUST',
  // Any redirect the run meets, the API's, a moved base URL's or the OAuth consent step's.
  anyExchange: true,
  applies: (v) => v.exchange.status !== null && REDIRECT_STATUSES.has(v.exchange.status),
  check: (v) => checkOutcome(redirectHasLocation(v.exchange.status!, v.exchange.responseHeaders, v.exchange.url, `${v.exchange.method} ${v.exchange.url}`), ['RED-3'], 'MUST'),
};

export const HTTPS: ExchangeRule = {
  id: 'https',
  clauses: ['GEN-3#1'],
  title: "all access is over HTTPS: no answer over HTTPS points to http (but to the client's own redirect URI or loopback address; a deployment reached over http is noted)",
  requirements: ['GEN-3'],
  readings: ['GEN-3.a-d'],
  severity: 'MUST',
  // The service's exchanges, the API's, the OAuth endpoints' and redirects, but those with the
  // machine itself: a deployment under test there is not the service. The consent step's redirect
  // to the client's redirect URI (an http loopback one, RFC 8252) leaves the service: not judged.
  anyExchange: true,
  applies: (v) => v.exchange.status !== null && (v.isApi || isOAuthUrl(v.exchange.url) || REDIRECT_STATUSES.has(v.exchange.status)),
  check: (v) => {
    if (isLoopbackHost(hostOf(v.exchange.url))) return skip('the deployment is on this machine (a loopback address): not the service HTTPS is required of');
    const { downgrade, plainHttp } = staysOnHttps(v.exchange.url, v.exchange.responseHeaders);
    if (!downgrade.ok) return checkOutcome(downgrade, ['GEN-3'], 'MUST');
    return checkOutcome(plainHttp, ['GEN-3'], 'WARN');
  },
};

/** The rate limit: its headers on every answer, their values, and its status. */
export const RATE_LIMIT_RULES: readonly ExchangeRule[] = [
  {
    id: 'rate-limit-headers',
    clauses: ['RATE-4#1'],
    title: 'every answer of the API, 2xx, 304 and 4xx alike, carries X-RateLimit-Limit, -Remaining and -Reset',
    requirements: ['RATE-4'],
    readings: ['RATE-4.a-d'],
    severity: 'MUST',
    applies: isAnswer,
    check: (v) => checkOutcome(rateLimitHeadersPresent(v.exchange.responseHeaders, described(v)), ['RATE-4'], 'MUST'),
  },
  {
    id: 'rate-limit-values',
    clauses: ['RATE-5#1-2', 'RATE-6#1-2', 'RATE-7#1-2'],
    title: 'X-RateLimit-Limit and -Remaining are whole numbers (Remaining at most Limit) and -Reset is UTC epoch seconds within the coming minute',
    requirements: ['RATE-5', 'RATE-6', 'RATE-7'],
    readings: ['RATE-5.a-c', 'RATE-6.a-d', 'RATE-7.a-d'],
    severity: 'MUST',
    applies: (v) => isAnswer(v) && rateLimitHeadersPresent(v.exchange.responseHeaders).ok,
    // Each value under its own statement: Limit and Remaining (RATE-5, RATE-6), Reset (RATE-7).
    check: (v) => {
      const limit = checkOutcome(limitIsWellFormed(v.exchange.responseHeaders, described(v)), ['RATE-5'], 'MUST');
      const remaining = checkOutcome(remainingIsWellFormed(v.exchange.responseHeaders, described(v)), ['RATE-6'], 'MUST');
      const found = [limit, remaining].flatMap((o) => (o.kind === 'findings' ? o.findings : []));
      const values = outcome(found);
      if (Number.isNaN(v.atMs) && !('date' in v.exchange.responseHeaders))
        return found.length ? values : skip('no time to judge X-RateLimit-Reset by (no Date header, no time of the exchange)');
      const reset = checkOutcome(resetIsEpochSecondsWithinAMinute(v.exchange.responseHeaders, v.atMs, described(v)), ['RATE-7'], 'MUST');
      return outcome([...found, ...(reset.kind === 'findings' ? reset.findings : [])]);
    },
  },
  {
    id: 'rate-limit-status',
    clauses: ['RATE-8#1', 'ERR-7#1'],
    title: 'over the rate limit the answer is 403: no answer is 429',
    requirements: ['RATE-8', 'ERR-7'],
    readings: ['RATE-8.a-f', 'ERR-7.a-g'],
    severity: 'MUST',
    // 429 Too Many Requests is a rate-limit answer by its definition (RFC 6585): the spec's is 403.
    applies: isAnswer,
    check: (v) => checkOutcome(v.exchange.status === 429 ? isRateLimitStatus(429, where(v)) : pass(), ['RATE-8', 'ERR-7'], 'MUST'),
  },
];
