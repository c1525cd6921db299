// Spec: Limits ("Daily calls | 1000 | per client; when exceeded, all of the client's OAuth tokens
// expire and new ones cannot be created until the next day begins"); States and transitions
// (tokens of a client valid -> daily call limit exceeded -> all expired); Errors (401 expired).
// Profile 'destructive' only. It ends every token of the client, so it runs in the run's last
// pass (suites/lockout/), after every other suite, suites/last/ included, has finished.
import { describe } from 'vitest';
import { rateLimitBodyHasMessage, readRateLimit } from '../../src/checks/caching.ts';
import { fail, inContext, isPlainObject, pass, show } from '../../src/checks/check.ts';
import { errorBodyIsWellFormed } from '../../src/checks/errors.ts';
import { hasStatus } from '../../src/checks/http.ts';
import { BudgetExhaustedError } from '../../src/budget/budget.ts';
import { conformanceTest, type ConformanceContext } from '../../src/harness/conformance.ts';
import type { Auth } from '../../src/harness/api.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { secrets } from '../../src/http/redact.ts';
import { pathOf } from '../../src/rules/api-paths.ts';

/** A public resource every token may read. */
const PROBE = pathOf('GET /categories/root');

describe('the daily call limit (destructive)', () => {
  conformanceTest(
    'past the daily call limit every token of the client gets 401 and no new token is issued',
    {
      id: 'daily-limit-lockout',
      clauses: ['RATE-1#1-2', 'RATE-3#1-4', 'RATE-8#2', 'ERR-6#3', 'ERR-7#2'],
      reuse: false,
      requirements: ['RATE-3', 'RATE-1', 'ERR-6', 'RATE-8', 'ERR-7'],
      readings: ['RATE-3.a-h', 'RATE-1.a-g', 'ERR-6.a-i', 'RATE-8.a-f', 'ERR-7.a-g'],
      profile: 'destructive',
      // The rest is drawn from what no test reserved; when that runs out first, the test is skipped.
      requests: 10,
      timeoutMs: 60 * 60_000,
    },
    async (t) => {
      // Paced (the per-minute limit is never provoked, so every call surely counts), and on a fresh
      // user token of its own whenever the window of the current one is nearly spent.
      const used: Auth[] = ['app'];
      let auth: Auth = 'app';
      let sent = 0;
      // Past twice the limit, served without a break, no reading holds: a new day beginning during
      // the test resets the count once at most, and other traffic of the client only uses it up sooner.
      const surelyOver = 2 * t.run.dailyLimit;
      /** The call that crossed the limit, when it was refused with 403 (the limit's answer) rather than 401. */
      let crossing: HttpResponse | null = null;
      try {
        for (;;) {
          const response = await t.api.get(PROBE, { auth, renewOn401: false });
          sent++;
          // The lock-out: the call past the limit, or the first after it, is refused as expired
          // (401), or the call past it is refused as over the limit (403 with a message, RATE-8).
          if (response.status === 401) break;
          if (response.status === 403) {
            crossing = response;
            break;
          }
          t.require(hasStatus(response, 200), 'ERR-1');
          if (sent > surelyOver) {
            return t.require(
              fail(
                `this test alone made ${sent} calls with the client's tokens, more than twice the daily limit of ${t.run.dailyLimit} (CATALOGUE_DAILY_LIMIT), and every one was served: the limit is not applied`,
              ),
              'RATE-3',
              'RATE-1',
            );
          }
          const { remaining } = readRateLimit(response.headers);
          if (remaining !== null && remaining <= 2) {
            const fresh = await ownToken(t);
            if (fresh !== null) {
              auth = { token: fresh };
              used.push(auth);
            }
          }
        }
      } catch (error) {
        if (!(error instanceof BudgetExhaustedError)) throw error;
        t.skip(
          `the daily call limit was not reached within the run's request budget (${sent} calls sent by this test; the spec's limit is 1000 a day per client, and CATALOGUE_MAX_REQUESTS is at most 1000; a test deployment with a lower limit names it in CATALOGUE_DAILY_LIMIT): ${error.message}`,
        );
      }
      if (crossing) {
        judgeLimitAnswer(t, crossing);
        // The tokens are expired now: the next call with the same token is 401.
        const later = await t.api.get(PROBE, { auth, renewOn401: false });
        t.must(
          later.status === 401
            ? pass()
            : fail(`the call past the daily limit answered 403, but the next call with the same token answered ${later.status}, expected 401 (expired)`),
          'RATE-3',
          'ERR-6',
        );
      }
      // Every other token this test used, the run's application token first, is expired too.
      for (const other of used.filter((a) => a !== auth).slice(0, 2)) {
        const response = await t.api.get(PROBE, { auth: other, renewOn401: false });
        t.must(
          response.status === 401 ? pass() : fail(`after the daily limit was exceeded on another token, a token of the same client answered ${response.status}, expected 401`),
          'RATE-3',
          'ERR-6',
        );
      }
      // New tokens cannot be created until the next day begins (status not given: any refusal).
      const tokenUrl = `${t.run.authUrl.replace(/\/+$/, '')}/oauth2/token`;
      const issued = await t.api.requestUrl('POST', tokenUrl, {
        auth: 'none',
        form: { grant_type: 'client_credentials', client_id: t.run.client.id, client_secret: t.run.client.secret, scope: 'public' },
      });
      const token = issuedToken(issued);
      secrets.add(token);
      t.must(
        token === null ? pass() : fail(`after the daily limit was exceeded, POST ${tokenUrl} (client credentials) answered ${issued.status} with an access token`),
        'RATE-1',
        'RATE-3',
      );
      if (token !== null) {
        const check = await t.api.get(PROBE, { auth: { token }, renewOn401: false });
        t.must(check.status === 401 ? pass() : fail(`a token issued after the daily limit was exceeded is accepted (${check.status})`), 'RATE-1', 'RATE-3');
      }
    },
  );
});

/** A 403 to the call past the limit: "403 (limit exceeded) {message}"; the API-wide errors format instead is noted, as for the per-minute limit. */
function judgeLimitAnswer(t: ConformanceContext, answer: HttpResponse): void {
  let body: unknown = null;
  try {
    body = JSON.parse(answer.text);
  } catch {
    body = answer.text;
  }
  if (!rateLimitBodyHasMessage(body).ok && errorBodyIsWellFormed(body).ok) {
    t.warn(fail(`the daily limit's 403 has the errors format ${show(body)} instead of the {message} body the 403 row names`), 'ERR-8');
  } else {
    t.must(inContext("the daily limit's 403", rateLimitBodyHasMessage(body)), 'ERR-7', 'RATE-8');
  }
}

/** A user token of the test's own, or null when none can be had (the lock-out may refuse it). */
async function ownToken(t: ConformanceContext): Promise<string | null> {
  try {
    return await t.ownUserToken();
  } catch (error) {
    if (error instanceof BudgetExhaustedError) throw error;
    return null;
  }
}

/** The access_token of a 2xx token response, else null. */
function issuedToken(response: HttpResponse): string | null {
  if (response.status < 200 || response.status > 299) return null;
  try {
    const body: unknown = JSON.parse(response.text);
    return isPlainObject(body) && typeof body['access_token'] === 'string' && body['access_token'] !== '' ? body['access_token'] : null;
  } catch {
    return null;
  }
}
