// Checks of conditional requests (Endpoints > General rules 3: ETag, If-None-Match, 304) and of
// the rate-limit headers and answers (Limits; Errors: 403 {message}). Pure functions of a headers
// record (any case of names; the HTTP layer gives lower case) and, where time matters, a clock:
// the rate-limit header checks apply to every response of a run, whatever its status.
import { fail, isPlainObject, pass, show, type CheckResult } from './check.ts';

export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

export const RATE_LIMIT_HEADER_NAMES = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** The spec's per-minute limit (Limits: 100 requests a minute per OAuth token). */
export const STATED_PER_MINUTE_LIMIT = 100;

/** Value of a header, names compared case-insensitively; repeated values joined with ', '. */
export function headerValue(headers: HeaderRecord, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(', ');
  }
  return undefined;
}

export interface RateLimitReading {
  limit: number | null;
  remaining: number | null;
  /** As sent (the spec: UTC epoch seconds). */
  reset: number | null;
}

const wholeNumber = (value: string | undefined): number | null => (value !== undefined && /^\s*\d+\s*$/.test(value) ? Number(value) : null);

/** The three X-RateLimit-* values; absent or not a whole number gives null. */
export function readRateLimit(headers: HeaderRecord): RateLimitReading {
  return {
    limit: wholeNumber(headerValue(headers, 'X-RateLimit-Limit')),
    remaining: wholeNumber(headerValue(headers, 'X-RateLimit-Remaining')),
    reset: wholeNumber(headerValue(headers, 'X-RateLimit-Reset')),
  };
}

/** Limits: "Rate-limit headers are on every response" (RATE-4). */
export function rateLimitHeadersPresent(headers: HeaderRecord, what = 'the response'): CheckResult {
  const missing = RATE_LIMIT_HEADER_NAMES.filter((name) => headerValue(headers, name) === undefined);
  if (missing.length === 0) return pass();
  return fail(`${what} has no ${missing.join(', ')} header${missing.length > 1 ? 's' : ''}`);
}

/** Limit (RATE-5) is a whole number above 0. An absent header is left to rateLimitHeadersPresent. */
export function limitIsWellFormed(headers: HeaderRecord, what = 'the response'): CheckResult {
  const text = headerValue(headers, 'X-RateLimit-Limit');
  const limit = readRateLimit(headers).limit;
  if (text === undefined || (limit !== null && limit > 0)) return pass();
  return fail(`${what}: X-RateLimit-Limit is ${show(text)}, expected a positive whole number of requests a minute`);
}

/** Remaining (RATE-6) is a whole number, at most Limit (when that is one). An absent header is left to rateLimitHeadersPresent. */
export function remainingIsWellFormed(headers: HeaderRecord, what = 'the response'): CheckResult {
  const text = headerValue(headers, 'X-RateLimit-Remaining');
  const r = readRateLimit(headers);
  if (text !== undefined && r.remaining === null) return fail(`${what}: X-RateLimit-Remaining is ${show(text)}, expected a whole number of requests`);
  if (r.limit !== null && r.remaining !== null && r.remaining > r.limit) return fail(`${what}: X-RateLimit-Remaining ${r.remaining} exceeds X-RateLimit-Limit ${r.limit}`);
  return pass();
}

/**
 * RATE-7: X-RateLimit-Reset is "when the window resets, in UTC epoch seconds"; the window is a
 * minute, so it lies between now and a minute from now. "Now" is the response's Date header
 * when it has a valid one (the server's clock), else `nowMs`; `toleranceMs` allows for clock
 * skew and the rounding to whole seconds.
 */
export function resetIsEpochSecondsWithinAMinute(headers: HeaderRecord, nowMs: number, what = 'the response', toleranceMs = 5_000): CheckResult {
  const text = headerValue(headers, 'X-RateLimit-Reset');
  if (text === undefined) return pass();
  const reset = wholeNumber(text);
  if (reset === null) return fail(`${what}: X-RateLimit-Reset is ${show(text)}, expected UTC epoch seconds (a whole number)`);
  const dateText = headerValue(headers, 'Date');
  const dateMs = dateText !== undefined ? Date.parse(dateText) : Number.NaN;
  const now = Number.isFinite(dateMs) ? dateMs : nowMs;
  const clock = Number.isFinite(dateMs) ? `the response's Date ${dateText}` : `the kit's clock ${new Date(nowMs).toISOString()}`;
  const at = reset * 1000;
  if (at >= now - toleranceMs && at <= now + 60_000 + toleranceMs) return pass();
  let hint = '';
  const nowS = now / 1000;
  if (reset > nowS * 100) hint = ' (it looks like epoch milliseconds)';
  else if (reset < 1_000_000_000 && reset <= 3_600) hint = ' (it looks like seconds from now, not an epoch time)';
  const when = reset < 1e11 ? ` = ${new Date(at).toISOString()}` : '';
  return fail(`${what}: X-RateLimit-Reset ${reset}${when} is not UTC epoch seconds within the coming minute of ${clock}${hint}`);
}

/**
 * RATE-6 (and RATE-9 when `after` is a 304): over one request on a token no other request uses,
 * X-RateLimit-Remaining falls by exactly one, unless a new window began in between (a later
 * X-RateLimit-Reset), where nothing can be concluded.
 */
export function remainingFellByOne(before: HeaderRecord, after: HeaderRecord, what = 'the next request'): CheckResult {
  const b = readRateLimit(before);
  const a = readRateLimit(after);
  if (b.remaining === null || a.remaining === null) return fail(`${what}: X-RateLimit-Remaining is missing or not a whole number, so its fall cannot be seen`);
  if (b.reset !== null && a.reset !== null && a.reset > b.reset && a.remaining >= b.remaining) return pass();
  const expected = Math.max(0, b.remaining - 1);
  if (a.remaining === expected) return pass();
  return fail(`${what}: X-RateLimit-Remaining went from ${b.remaining} to ${a.remaining} over one request on a token no other request uses; expected ${expected}`);
}

/** RATE-2 / RATE-10: the stated limit is 100 a minute (the spec's own 403 example shows 60). */
export function limitIsTheStatedOne(headers: HeaderRecord): CheckResult {
  const { limit } = readRateLimit(headers);
  if (limit === null || limit === STATED_PER_MINUTE_LIMIT) return pass();
  return fail(`X-RateLimit-Limit is ${limit}; the spec states ${STATED_PER_MINUTE_LIMIT} requests a minute per token (its 403 example shows 60)`);
}

export interface Answer {
  status: number;
  headers: HeaderRecord;
  text: string;
}

export function hasEtag(headers: HeaderRecord, what = 'the response'): CheckResult {
  const etag = headerValue(headers, 'ETag');
  return etag !== undefined && etag.trim() !== '' ? pass() : fail(`${what} carries no ETag`);
}

/** ETAG-1: some ETag at all: fails when none of the successful GETs sampled carries one. */
export function someCarryEtag(answers: readonly { what: string; headers: HeaderRecord }[]): CheckResult {
  if (answers.length === 0) return fail('no successful response to judge');
  if (answers.some((a) => hasEtag(a.headers).ok)) return pass();
  return fail(`none of ${answers.length} successful GET responses carries an ETag (${answers.map((a) => a.what).join(', ')}); the spec says most responses carry one`);
}

/**
 * ETAG-1: "most responses carry ETag", on a sample: fails when more than half of the successful
 * GETs sampled carry none. A server may leave the ETag off some kinds of answer (collections,
 * ETAG-1.d), and a small sample may hold more of them than of the others: only a warning then.
 */
export function mostCarryEtag(answers: readonly { what: string; headers: HeaderRecord }[]): CheckResult {
  if (answers.length === 0) return fail('no successful response to judge');
  const without = answers.filter((a) => !hasEtag(a.headers).ok).map((a) => a.what);
  if (without.length * 2 <= answers.length) return pass();
  return fail(`${without.length} of ${answers.length} successful GET responses carry no ETag (${without.join(', ')}); the spec says most responses carry one`);
}

/** ETAG-2: the same request with If-None-Match: <its ETag>, the resource unchanged, answers 304. */
export function isNotModified(answer: Answer, what: string): CheckResult {
  return answer.status === 304 ? pass() : fail(`${what} with If-None-Match set to its ETag answered ${answer.status}, expected 304 Not Modified (the resource did not change)`);
}

/** A 304 has no body (ERR-3: not modified; RFC 9110 15.4.5). */
export function notModifiedHasNoBody(answer: Answer, what: string): CheckResult {
  return answer.text.length === 0 ? pass() : fail(`${what}: the 304 has a body: ${show(answer.text.slice(0, 80))}`);
}

/**
 * ERR-3 (304 means not modified): after the resource changed, If-None-Match with the old ETag
 * gets the new representation (200), under another ETag when it has one.
 */
export function changedResourceIsSentAgain(answer: Answer, oldEtag: string, what: string): CheckResult {
  if (answer.status === 304) return fail(`${what} with If-None-Match set to the ETag from before the change answered 304 Not Modified, although the resource changed`);
  if (answer.status !== 200) return fail(`${what} answered ${answer.status}, expected 200 with the changed resource`);
  const etag = headerValue(answer.headers, 'ETag');
  if (etag !== undefined && etag.trim().replace(/^W\//, '') === oldEtag.trim().replace(/^W\//, '')) {
    return fail(`${what}: the changed resource has the same ETag ${etag} as before the change`);
  }
  return pass();
}

/** RATE-8 / ERR-7: over the limit the answer is 403 (not 429, not a success). */
export function isRateLimitStatus(status: number, what: string): CheckResult {
  if (status === 403) return pass();
  if (status === 429) return fail(`${what} answered 429 Too Many Requests; the spec's rate-limit answer is 403`);
  return fail(`${what} answered ${status}, expected 403 (rate limit exceeded)`);
}

/** ERR-7: the rate-limit 403 body is `{message: <string>}`. */
export function rateLimitBodyHasMessage(body: unknown): CheckResult {
  if (isPlainObject(body) && typeof body['message'] === 'string' && body['message'].trim() !== '') return pass();
  return fail(`the rate-limit 403 body is ${show(body)}, expected {message: <string>}`);
}
