// Spec: Limits (requests per minute per OAuth token; daily calls per client; "Rate-limit headers
// are on every response": X-RateLimit-Limit, -Remaining, -Reset in UTC epoch seconds; "Over the
// limit the response is 403 with a message body"); Errors (403 rate limit exceeded, body
// {message}; 401 expired token); States and transitions (tokens of a client valid -> daily call
// limit exceeded -> all expired, no new tokens until the next day).
// The header checks run on responses of each kind: a 200 here; the 404, 401 and 422 on the answers
// the categories, oauth and search suites ask for anyway (src/harness/requests.ts mustCarryRateLimit,
// issue 17); the 304 in conditional-requests.suite.ts; and every exchange of the run by the
// observed rules. Remaining is judged only on a user token of the test's own:
// other tests use the run's tokens concurrently. Provoking the limits is profile 'destructive'
// only: the per-minute 403 on a token of its own. The daily lock-out ends every token of the
// client, so it is in suites/lockout/daily-limit.suite.ts, the run's very last pass.
import { describe } from 'vitest';
import {
  headerValue,
  isRateLimitStatus,
  limitIsTheStatedOne,
  rateLimitBodyHasMessage,
  rateLimitHeadersPresent,
  readRateLimit,
  remainingFellByOne,
  resetIsEpochSecondsWithinAMinute,
} from '../src/checks/caching.ts';
import { fail, pass, show } from '../src/checks/check.ts';
import { errorBodyIsWellFormed } from '../src/checks/errors.ts';
import { hasStatus } from '../src/checks/http.ts';
import { conformanceTest } from '../src/harness/conformance.ts';
import { mustCarryRateLimit } from '../src/harness/requests.ts';
import type { HttpResponse } from '../src/http/client.ts';
import { pathOf } from '../src/rules/api-paths.ts';

/** A public resource every token may read. */
const PROBE = pathOf('GET /categories/root');
/** The per-minute test does not try to exhaust a window larger than this. */
const MAX_WINDOW_TRIED = 150;

describe('rate-limit headers', () => {
  conformanceTest(
    'X-RateLimit-Limit, -Remaining and -Reset (epoch seconds, within the coming minute) on a 200 (on a 404, a 401 and a 422: where the categories, oauth and search suites ask them)',
    {
      id: 'headers-on-200',
      clauses: ['RATE-4#1', 'RATE-5#1-2', 'RATE-6#1-2', 'RATE-7#1-2'],
      reuse: false,
      requirements: ['RATE-4', 'RATE-5', 'RATE-6', 'RATE-7', 'RATE-10'],
      readings: ['RATE-4.a-d', 'RATE-5.a-c', 'RATE-6.a-d', 'RATE-7.a-d'],
      requests: 1,
    },
    async (t) => {
      const ok = await t.api.get(PROBE);
      t.must(hasStatus(ok, 200), 'ERR-1');
      mustCarryRateLimit(t, ok.headers, `the ${ok.status} to GET ${PROBE}`);
      t.warn(limitIsTheStatedOne(ok.headers), 'RATE-10', 'RATE-2');
    },
  );

  conformanceTest(
    'X-RateLimit-Remaining falls by one per request and Reset stays in the coming minute, on a user token of its own',
    {
      id: 'remaining-falls-by-one',
      clauses: ['RATE-4#1', 'RATE-6#1-2', 'RATE-7#1-2'],
      reuse: false,
      requirements: ['RATE-6', 'RATE-7', 'RATE-4'],
      readings: ['RATE-6.a-d', 'RATE-7.a-d', 'RATE-4.a-d'],
      requests: 5,
    },
    async (t) => {
      // No other test uses the token meanwhile (lent to one test at a time): each request lowers Remaining by one.
      const auth = { token: await t.lentUserToken() };
      let previous = await t.api.get(PROBE, { auth });
      t.require(hasStatus(previous, 200), 'ERR-1');
      t.require(rateLimitHeadersPresent(previous.headers, `GET ${PROBE}`), 'RATE-4');
      for (let i = 2; i <= 3; i++) {
        const next = await t.api.get(PROBE, { auth });
        t.require(hasStatus(next, 200), 'ERR-1');
        t.must(remainingFellByOne(previous.headers, next.headers, `request ${i} of GET ${PROBE}`), 'RATE-6');
        t.must(resetIsEpochSecondsWithinAMinute(next.headers, Date.now(), `request ${i} of GET ${PROBE}`), 'RATE-7');
        previous = next;
      }
    },
  );
});

describe('rate-limit enforcement (destructive)', () => {
  conformanceTest(
    'over the per-minute limit a token gets 403 with {message}, on a user token of its own',
    {
      id: 'per-minute-limit-403',
      clauses: ['RATE-2#1', 'RATE-4#1', 'RATE-8#1-2', 'ERR-7#1-2'],
      requirements: ['RATE-2', 'RATE-8', 'ERR-7', 'ERR-8', 'RATE-4'],
      readings: ['RATE-2.a-g', 'RATE-8.a-f', 'ERR-7.a-g', 'ERR-8.a-b', 'RATE-4.a-d'],
      profile: 'destructive',
      requests: MAX_WINDOW_TRIED + 8,
      timeoutMs: 10 * 60_000,
    },
    async (t) => {
      const auth = { token: await t.ownUserToken() };
      const first = await t.api.get(PROBE, { auth });
      t.require(hasStatus(first, 200), 'ERR-1');
      t.require(rateLimitHeadersPresent(first.headers, `GET ${PROBE}`), 'RATE-4');
      const start = readRateLimit(first.headers);
      t.require(start.remaining !== null ? pass() : fail(`X-RateLimit-Remaining is ${show(headerValue(first.headers, 'X-RateLimit-Remaining'))}`), 'RATE-6');
      if (start.remaining! > MAX_WINDOW_TRIED)
        t.skip(`X-RateLimit-Remaining is ${start.remaining}: exceeding it takes more than the ${MAX_WINDOW_TRIED} requests this test allows itself`);

      // Unpaced: the harness would otherwise wait for the window. One window renewal is allowed for.
      let cap = start.remaining! + 2;
      let renewed = false;
      let last = first;
      let refused: HttpResponse | null = null;
      for (let sent = 0; sent < cap; sent++) {
        const response = await t.api.get(PROBE, { auth, paced: false, renewOn401: false });
        if (response.status !== 200) {
          refused = response;
          break;
        }
        const before = readRateLimit(last.headers);
        const now = readRateLimit(response.headers);
        if (!renewed && before.reset !== null && now.reset !== null && now.reset > before.reset && now.remaining !== null) {
          renewed = true;
          cap = sent + now.remaining + 2;
        }
        last = response;
      }
      if (refused === null) {
        t.must(
          fail(
            `${cap} requests in a row on one token, after X-RateLimit-Remaining said ${start.remaining} were left, were all served; expected 403 once the window's ${start.limit ?? 'stated'} requests were spent`,
          ),
          'RATE-2',
          'RATE-8',
        );
        return;
      }
      const what = `GET ${PROBE} over the limit`;
      t.require(isRateLimitStatus(refused.status, what), 'RATE-8', 'ERR-7');
      t.must(rateLimitHeadersPresent(refused.headers, `the 403 to ${what}`), 'RATE-4');
      let body: unknown = null;
      try {
        body = JSON.parse(refused.text);
      } catch {
        body = refused.text;
      }
      if (!rateLimitBodyHasMessage(body).ok && errorBodyIsWellFormed(body).ok) {
        t.warn(fail(`the rate-limit 403 has the errors format ${show(body)} instead of the {message} body the 403 row names`), 'ERR-8');
      } else {
        t.must(rateLimitBodyHasMessage(body), 'ERR-7', 'RATE-8');
      }
    },
  );
});
