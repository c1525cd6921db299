// Rate-limit pacing with an injected clock: sleep moves the clock, so nothing really waits.
import { describe, expect, test } from 'vitest';
import { RateLimitPacer, RateLimitWaitError, readRateLimitHeaders, type PacerOptions } from './pacing.ts';

const T0 = 1_700_000_000_000; // a whole second, so epoch-second resets are exact

function fakeClock() {
  const clock = {
    t: T0,
    sleeps: [] as number[],
    now: () => clock.t,
    // Sleeping until now+ms; parallel sleepers wake at their own deadline, not at the sum.
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      const until = clock.t + ms;
      await Promise.resolve();
      clock.t = Math.max(clock.t, until);
    },
  };
  return clock;
}

function pacer(options: PacerOptions = {}) {
  const clock = fakeClock();
  return { clock, pacer: new RateLimitPacer({ now: clock.now, sleep: clock.sleep, ...options }) };
}

const epochSeconds = (ms: number) => String(Math.floor(ms / 1000));

describe('readRateLimitHeaders', () => {
  test('reads the three headers; Reset in epoch seconds becomes epoch milliseconds', () => {
    expect(readRateLimitHeaders({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': ' 7 ', 'x-ratelimit-reset': '1700000060' }, T0)).toEqual({
      limit: 100,
      remaining: 7,
      resetAtMs: 1_700_000_060_000,
    });
  });

  test('a Reset that looks like seconds-from-now is taken as now + that', () => {
    expect(readRateLimitHeaders({ 'x-ratelimit-reset': '30' }, T0)).toEqual({ limit: null, remaining: null, resetAtMs: T0 + 30_000 });
  });

  test('a Reset in epoch milliseconds is taken as such, not as a date thousands of years ahead', () => {
    expect(readRateLimitHeaders({ 'x-ratelimit-reset': '1700000060000' }, T0).resetAtMs).toBe(1_700_000_060_000);
  });

  test('absent or malformed values give null', () => {
    expect(readRateLimitHeaders({}, T0)).toEqual({ limit: null, remaining: null, resetAtMs: null });
    expect(readRateLimitHeaders({ 'x-ratelimit-limit': '10abc', 'x-ratelimit-remaining': '-1', 'x-ratelimit-reset': '1.5' }, T0)).toEqual({
      limit: null,
      remaining: null,
      resetAtMs: null,
    });
    expect(readRateLimitHeaders({ 'x-ratelimit-limit': '', 'x-ratelimit-remaining': 'many', 'x-ratelimit-reset': 'soon' }, T0)).toEqual({
      limit: null,
      remaining: null,
      resetAtMs: null,
    });
  });
});

describe('RateLimitPacer', () => {
  test('no wait initially', async () => {
    const { clock, pacer: p } = pacer();
    expect(p.delayFor('k')).toBe(0);
    await p.acquire('k');
    expect(clock.sleeps).toEqual([]);
    expect(p.waitedMs).toBe(0);
  });

  test('Remaining 1 with Reset 30 s ahead: the next request waits until reset + 1 s', async () => {
    const { clock, pacer: p } = pacer();
    await p.acquire('k');
    p.complete('k', { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': epochSeconds(T0 + 30_000) }, 200);
    expect(p.delayFor('k')).toBe(31_000);
    await p.acquire('k');
    expect(clock.sleeps).toEqual([31_000]);
    expect(clock.t).toBe(T0 + 31_000);
    expect(p.waitedMs).toBe(31_000);
    // The window has reset: the remaining count is forgotten.
    expect(p.delayFor('k')).toBe(0);
  });

  test('a scaled clock (the embedded reference): a minute of 1 s and no slack past Reset', async () => {
    const { clock, pacer: p } = pacer({ windowMs: 1_000, resetSlackMs: 0 });
    await p.acquire('k');
    p.complete('k', { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': epochSeconds(T0 + 1_000) }, 200);
    expect(p.delayFor('k')).toBe(1_000);
    await p.acquire('k');
    expect(clock.t).toBe(T0 + 1_000);
    // Without headers, at most 99 sends in any sliding second.
    const q = pacer({ windowMs: 1_000, resetSlackMs: 0 });
    for (let i = 0; i < 99; i++) await q.pacer.acquire('k');
    expect(q.pacer.delayFor('k')).toBe(1_001);
  });

  test('plenty remaining: no wait', async () => {
    const { clock, pacer: p } = pacer();
    await p.acquire('k');
    p.complete('k', { 'x-ratelimit-remaining': '50', 'x-ratelimit-reset': epochSeconds(T0 + 30_000) }, 200);
    for (let i = 0; i < 10; i++) await p.acquire('k');
    expect(clock.sleeps).toEqual([]);
    expect(clock.t).toBe(T0);
  });

  test('each request sent lowers the remaining count until the margin is reached', async () => {
    const { clock, pacer: p } = pacer();
    await p.acquire('k');
    p.complete('k', { 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': epochSeconds(T0 + 10_000) }, 200);
    await p.acquire('k'); // 3 left
    await p.acquire('k'); // 2 left
    await p.acquire('k'); // 1 left: the margin
    expect(clock.sleeps).toEqual([]);
    await p.acquire('k');
    expect(clock.sleeps).toEqual([11_000]);
  });

  test('without headers, at most defaultLimit - margin sends in a sliding window', async () => {
    const { clock, pacer: p } = pacer({ defaultLimit: 5, margin: 1, windowMs: 60_000 });
    for (let i = 0; i < 4; i++) {
      await p.acquire('k');
      clock.t += 1_000;
    }
    expect(clock.sleeps).toEqual([]);
    // The 5th waits until the first send has left the window.
    expect(p.delayFor('k')).toBe(60_000 - 4_000 + 1);
    await p.acquire('k');
    expect(clock.sleeps).toEqual([56_001]);
    expect(clock.t).toBe(T0 + 60_001);
    // One slot freed: the next waits for the second send to leave the window.
    expect(p.delayFor('k')).toBe(1_000);
  });

  test('an X-RateLimit-Limit lower than the default lowers the local cap', async () => {
    const { clock, pacer: p } = pacer({ defaultLimit: 100, margin: 1, windowMs: 60_000 });
    await p.acquire('k');
    p.complete('k', { 'x-ratelimit-limit': '3' }, 200);
    await p.acquire('k');
    expect(clock.sleeps).toEqual([]);
    expect(p.delayFor('k')).toBe(60_001);
    await p.acquire('k');
    expect(clock.sleeps).toEqual([60_001]);
  });

  test('a wait longer than maxWaitMs throws RateLimitWaitError without waiting', async () => {
    const { clock, pacer: p } = pacer({ maxWaitMs: 75_000 });
    await p.acquire('k');
    p.complete('k', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': epochSeconds(T0 + 100_000) }, 200);
    await expect(p.acquire('k')).rejects.toThrow(RateLimitWaitError);
    await expect(p.acquire('k')).rejects.toThrow(/wait 101 s/);
    expect(clock.sleeps).toEqual([]);
    expect(p.waitedMs).toBe(0);
  });

  test('a Reset given as seconds-from-now ("30") is treated as now + 30 s', async () => {
    const { clock, pacer: p } = pacer();
    await p.acquire('k');
    p.complete('k', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '30' }, 200);
    await p.acquire('k');
    expect(clock.sleeps).toEqual([31_000]);
  });

  test('malformed headers are ignored: no wait, no throw', async () => {
    const { clock, pacer: p } = pacer();
    await p.acquire('k');
    p.complete('k', { 'x-ratelimit-remaining': 'zero', 'x-ratelimit-reset': 'later', 'x-ratelimit-limit': '-3' }, 200);
    await p.acquire('k');
    expect(clock.sleeps).toEqual([]);
  });

  test('a 403 without rate-limit headers makes the next request wait a window', async () => {
    const { clock, pacer: p } = pacer({ windowMs: 60_000 });
    await p.acquire('k');
    p.complete('k', { 'content-type': 'application/json' }, 403);
    expect(p.delayFor('k')).toBe(60_000);
    await p.acquire('k');
    expect(clock.sleeps).toEqual([60_000]);
  });

  test('other statuses without headers, and hops with no response, change nothing', async () => {
    const { clock, pacer: p } = pacer();
    await p.acquire('k');
    p.complete('k', {}, 500);
    await p.acquire('k');
    p.complete('k', null);
    await p.acquire('k');
    expect(clock.sleeps).toEqual([]);
  });

  test('requests still in flight are assumed not counted in the answer', async () => {
    const { clock, pacer: p } = pacer();
    await p.acquire('k'); // A
    await p.acquire('k'); // B, still in flight when A's answer comes
    p.complete('k', { 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': epochSeconds(T0 + 20_000) }, 200);
    // 2 - B in flight = 1 = the margin.
    expect(p.delayFor('k')).toBe(21_000);

    const other = pacer();
    await other.pacer.acquire('k');
    other.pacer.complete('k', { 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': epochSeconds(T0 + 20_000) }, 200);
    expect(other.pacer.delayFor('k')).toBe(0);
    expect(clock.sleeps).toEqual([]);
  });

  test('concurrent acquires with 3 remaining do not all go at once', async () => {
    const { clock, pacer: p } = pacer({ windowMs: 60_000 });
    await p.acquire('k');
    p.complete('k', { 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': epochSeconds(T0 + 10_000) }, 200);
    const wentAt: number[] = [];
    await Promise.all(Array.from({ length: 5 }, () => p.acquire('k').then(() => wentAt.push(clock.t - T0))));
    expect(wentAt.filter((t) => t === 0)).toHaveLength(2);
    expect(wentAt.filter((t) => t >= 11_000)).toHaveLength(3);
  });

  test('tokens are paced independently', async () => {
    const { clock, pacer: p } = pacer();
    await p.acquire('a');
    p.complete('a', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': epochSeconds(T0 + 30_000) }, 200);
    expect(p.delayFor('a')).toBe(31_000);
    expect(p.delayFor('b')).toBe(0);
    await p.acquire('b');
    expect(clock.sleeps).toEqual([]);
  });
});
