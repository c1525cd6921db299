// Each check passes what the spec allows and fails what it forbids, with a message that says what
// was seen: a check that cannot fail is a defect.
import { describe, expect, test } from 'vitest';
import { allOf, type CheckResult } from './check.ts';
import {
  changedResourceIsSentAgain,
  hasEtag,
  headerValue,
  isNotModified,
  isRateLimitStatus,
  limitIsTheStatedOne,
  mostCarryEtag,
  someCarryEtag,
  notModifiedHasNoBody,
  rateLimitBodyHasMessage,
  rateLimitHeadersPresent,
  limitIsWellFormed,
  remainingIsWellFormed,
  readRateLimit,
  remainingFellByOne,
  resetIsEpochSecondsWithinAMinute,
} from './caching.ts';

const failsWith = (result: CheckResult, pattern: RegExp) => {
  expect(result.ok).toBe(false);
  expect(result.ok ? '' : result.message).toMatch(pattern);
};
const passes = (result: CheckResult) => expect(result).toEqual({ ok: true });

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const S = NOW / 1000;
const rl = (limit: string, remaining: string, reset: string): Record<string, string> => ({
  'x-ratelimit-limit': limit,
  'x-ratelimit-remaining': remaining,
  'x-ratelimit-reset': reset,
});

/** Limit and Remaining judged together, as the rate-limit rule judges one answer. */
const rateLimitValuesAreWellFormed = (headers: Record<string, string>): CheckResult => allOf([limitIsWellFormed(headers), remainingIsWellFormed(headers)]);

describe('rate-limit headers', () => {
  test('present: all three, in any case of name; names the missing ones', () => {
    passes(rateLimitHeadersPresent(rl('100', '99', String(S + 60))));
    passes(rateLimitHeadersPresent({ 'X-RateLimit-Limit': '1', 'X-RATELIMIT-REMAINING': '0', 'x-ratelimit-reset': '1' }));
    failsWith(rateLimitHeadersPresent({ 'x-ratelimit-limit': '100' }, 'the 404'), /^the 404 has no X-RateLimit-Remaining, X-RateLimit-Reset headers$/);
    failsWith(rateLimitHeadersPresent({}), /no X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset/);
    expect(headerValue({ ETag: ['"a"', '"b"'] }, 'etag')).toBe('"a", "b"');
  });

  test('values: whole numbers, Limit above 0, Remaining at most Limit', () => {
    passes(rateLimitValuesAreWellFormed(rl('100', '0', '1')));
    passes(rateLimitValuesAreWellFormed({}));
    failsWith(rateLimitValuesAreWellFormed(rl('100', '101', '1')), /Remaining 101 exceeds X-RateLimit-Limit 100/);
    failsWith(rateLimitValuesAreWellFormed(rl('0', '0', '1')), /Limit is "0"/);
    failsWith(rateLimitValuesAreWellFormed(rl('100', '-1', '1')), /Remaining is "-1"/);
    failsWith(rateLimitValuesAreWellFormed(rl('1e2', '5', '1')), /Limit is "1e2"/);
    expect(readRateLimit(rl('100', '7', '12'))).toEqual({ limit: 100, remaining: 7, reset: 12 });
  });

  test('Reset: epoch seconds within the coming minute, by the Date header when there is one', () => {
    passes(resetIsEpochSecondsWithinAMinute(rl('100', '99', String(S + 60)), NOW));
    passes(resetIsEpochSecondsWithinAMinute(rl('100', '99', String(S + 1)), NOW));
    passes(resetIsEpochSecondsWithinAMinute({}, NOW));
    // The server's clock (Date) wins over a kit clock an hour off.
    passes(resetIsEpochSecondsWithinAMinute({ ...rl('100', '99', String(S + 30)), date: new Date(NOW).toUTCString() }, NOW + 3_600_000));
    failsWith(resetIsEpochSecondsWithinAMinute(rl('100', '99', String((S + 30) * 1000)), NOW), /looks like epoch milliseconds/);
    failsWith(resetIsEpochSecondsWithinAMinute(rl('100', '99', '42'), NOW), /looks like seconds from now/);
    failsWith(resetIsEpochSecondsWithinAMinute(rl('100', '99', String(S + 3600)), NOW), /not UTC epoch seconds within the coming minute/);
    failsWith(resetIsEpochSecondsWithinAMinute(rl('100', '99', String(S - 120)), NOW), /within the coming minute/);
    failsWith(resetIsEpochSecondsWithinAMinute(rl('100', '99', 'soon'), NOW), /Reset is "soon"/);
  });

  test('Remaining falls by one per request, unless a new window began', () => {
    const r = String(S + 50);
    passes(remainingFellByOne(rl('100', '50', r), rl('100', '49', r)));
    passes(remainingFellByOne(rl('100', '0', r), rl('100', '0', r)));
    passes(remainingFellByOne(rl('100', '3', r), rl('100', '99', String(S + 110))));
    failsWith(remainingFellByOne(rl('100', '100', r), rl('100', '100', r), 'the 304'), /^the 304: X-RateLimit-Remaining went from 100 to 100 .* expected 99$/);
    failsWith(remainingFellByOne(rl('100', '50', r), rl('100', '47', r)), /from 50 to 47/);
    failsWith(remainingFellByOne(rl('100', '50', r), {}), /missing/);
  });

  test('the stated limit is 100', () => {
    passes(limitIsTheStatedOne(rl('100', '1', '1')));
    passes(limitIsTheStatedOne({}));
    failsWith(limitIsTheStatedOne(rl('60', '1', '1')), /is 60; the spec states 100/);
  });
});

describe('ETag and 304', () => {
  const answer = (status: number, headers: Record<string, string> = {}, text = '') => ({ status, headers, text });

  test('ETag present; most of a sample carry one', () => {
    passes(hasEtag({ etag: '"x"' }));
    failsWith(hasEtag({}, 'GET /flags'), /^GET \/flags carries no ETag$/);
    passes(
      mostCarryEtag([
        { what: 'a', headers: { etag: '"1"' } },
        { what: 'b', headers: { etag: '"2"' } },
        { what: 'c', headers: {} },
      ]),
    );
    // Half of a sample (collections without ETag, ETAG-1.d) does not show that most lack one.
    passes(
      mostCarryEtag([
        { what: 'a', headers: { etag: '"1"' } },
        { what: 'b', headers: {} },
      ]),
    );
    failsWith(
      mostCarryEtag([
        { what: 'a', headers: { etag: '"1"' } },
        { what: 'b', headers: {} },
        { what: 'c', headers: {} },
      ]),
      /2 of 3 .*\(b, c\)/,
    );
    failsWith(mostCarryEtag([]), /no successful response/);
    passes(
      someCarryEtag([
        { what: 'a', headers: {} },
        { what: 'b', headers: { etag: '"2"' } },
      ]),
    );
    failsWith(someCarryEtag([{ what: 'a', headers: {} }]), /none of 1 .*\(a\)/);
  });

  test('304 for an unchanged resource, without a body', () => {
    passes(isNotModified(answer(304), 'GET /x'));
    failsWith(isNotModified(answer(200), 'GET /x'), /answered 200, expected 304/);
    passes(notModifiedHasNoBody(answer(304), 'GET /x'));
    failsWith(notModifiedHasNoBody(answer(304, {}, '{"a":1}'), 'GET /x'), /the 304 has a body/);
  });

  test('a changed resource is sent again under another ETag', () => {
    passes(changedResourceIsSentAgain(answer(200, { etag: '"new"' }), '"old"', 'GET /l'));
    passes(changedResourceIsSentAgain(answer(200), '"old"', 'GET /l'));
    failsWith(changedResourceIsSentAgain(answer(304, { etag: '"old"' }), '"old"', 'GET /l'), /answered 304 Not Modified, although the resource changed/);
    failsWith(changedResourceIsSentAgain(answer(200, { etag: 'W/"old"' }), '"old"', 'GET /l'), /same ETag/);
    failsWith(changedResourceIsSentAgain(answer(500), '"old"', 'GET /l'), /answered 500/);
  });
});

describe('over the limit', () => {
  test('403, not 429 or a success', () => {
    passes(isRateLimitStatus(403, 'GET /x'));
    failsWith(isRateLimitStatus(429, 'GET /x'), /429 Too Many Requests; .* is 403/);
    failsWith(isRateLimitStatus(200, 'GET /x'), /answered 200, expected 403/);
  });

  test('body {message: <string>}', () => {
    passes(rateLimitBodyHasMessage({ message: 'Rate limit exceeded' }));
    passes(rateLimitBodyHasMessage({ message: 'x', errors: [] }));
    failsWith(rateLimitBodyHasMessage({ errors: [{ code: 'RateLimited', messages: ['x'] }] }), /expected \{message: <string>\}/);
    failsWith(rateLimitBodyHasMessage(''), /body is ""/);
    failsWith(rateLimitBodyHasMessage({ message: 3 }), /"message":3/);
  });
});
