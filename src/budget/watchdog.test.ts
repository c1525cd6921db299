import { afterEach, describe, expect, test, vi } from 'vitest';
import { RunStoppedError, RunWatchdog, stallMsFor } from './watchdog.ts';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('the stall detector', () => {
  test('hops without an answer for longer than the stall time stop the run, naming the last', () => {
    const c = clock();
    const dog = new RunWatchdog({ stallMs: 30_000, now: c.now });
    const sent = c.now();
    c.advance(15_000);
    dog.unanswered('GET /a: no complete response within 15000 ms', sent);
    expect(dog.stopped).toBeNull();
    c.advance(15_000);
    dog.unanswered('GET /b: no complete response within 15000 ms', sent + 15_000);
    expect(dog.stopped).toBe('the target stopped answering: 2 requests in a row got no answer in 30 s, the last GET /b: no complete response within 15000 ms');
    expect(() => dog.check()).toThrow(RunStoppedError);
  });

  test('an answer in between resets it: one endpoint that hangs while others answer is no stall', () => {
    const c = clock();
    const dog = new RunWatchdog({ stallMs: 30_000, now: c.now });
    for (let i = 0; i < 10; i++) {
      const sent = c.now();
      c.advance(15_000);
      dog.unanswered('GET /slow: no complete response within 15000 ms', sent);
      dog.answered();
    }
    expect(dog.stopped).toBeNull();
    expect(() => dog.check()).not.toThrow();
  });

  test('one hop alone, however long, is no stall (a wait for the rate limit may come before it)', () => {
    const c = clock();
    const dog = new RunWatchdog({ stallMs: 30_000, now: c.now });
    const sent = c.now();
    c.advance(120_000);
    dog.unanswered('GET /a: connection refused', sent);
    expect(dog.stopped).toBeNull();
  });

  test('the stall time is twice an exchange timeout, at most 30 s', () => {
    expect(stallMsFor(3_000)).toBe(6_000);
    expect(stallMsFor(15_000)).toBe(30_000);
    expect(stallMsFor(120_000)).toBe(30_000);
  });
});

describe('the run deadline and stopping', () => {
  afterEach(() => vi.useRealTimers());

  test('the deadline stops the run once, and every listener hears the first reason', () => {
    vi.useFakeTimers();
    const dog = new RunWatchdog({ stallMs: 30_000 });
    const heard: string[] = [];
    dog.onStop((reason) => heard.push(reason));
    dog.startDeadline(5);
    vi.advanceTimersByTime(4_999);
    expect(dog.stopped).toBeNull();
    vi.advanceTimersByTime(1);
    dog.stop('something else');
    expect(heard).toEqual(['the run passed its deadline of 5 s (CATALOGUE_DEADLINE_S)']);
    const late: string[] = [];
    dog.onStop((reason) => late.push(reason));
    expect(late).toEqual(heard);
  });

  test('a cleared deadline never fires', () => {
    vi.useFakeTimers();
    const dog = new RunWatchdog({ stallMs: 30_000 });
    dog.startDeadline(1);
    dog.clearDeadline();
    vi.advanceTimersByTime(10_000);
    expect(dog.stopped).toBeNull();
  });
});
