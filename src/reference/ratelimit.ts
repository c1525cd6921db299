// Per-minute rate limit (spec "Limits"): a fixed 60-second window (shorter when the reference runs
// with a scaled clock, `limits.windowMs`: the embedded run's minute lasts a second) per key (an access token,
// the client IP for API requests without a valid token, or `oauth:<ip>` for the client IP's
// requests to the OAuth endpoints, which never touch the other windows) that starts at the key's first request
// after the previous window ended. Every request counts, including 304s and rejected ones
// (the over-limit 403s too, so hammering does not shorten the wait).
// Variant ratelimit-calendar-minute (variants.ts): windows are calendar minutes instead, so
// X-RateLimit-Reset is the start of the next minute.

import type { FaultName } from './faults.ts';
import type { HeaderMap } from './http.ts';

export const WINDOW_MS = 60_000;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** UTC epoch seconds at which the current window ends. */
  reset: number;
  exceeded: boolean;
}

interface Window {
  start: number;
  count: number;
}

/** When a key's window starts: at its first request, or at the start of the calendar minute. */
export type WindowStart = 'first-request' | 'calendar-minute';

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  constructor(
    private readonly limit: number,
    private readonly now: () => number,
    private readonly windowStart: WindowStart = 'first-request',
    private readonly windowMs: number = WINDOW_MS,
  ) {}

  /** Counts one request for `key` and reports the window state after it. */
  consume(key: string): RateLimitState {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t >= w.start + this.windowMs || t < w.start) {
      w = { start: this.windowStart === 'calendar-minute' ? t - (t % this.windowMs) : t, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 10_000) this.prune(t);
    }
    w.count += 1;
    return this.state(w);
  }

  /** Takes back the last request counted for `key` (used only by fault not-modified-not-counted). */
  refund(key: string): RateLimitState | null {
    const w = this.windows.get(key);
    if (!w || w.count === 0) return null;
    w.count -= 1;
    return this.state(w);
  }

  private state(w: Window): RateLimitState {
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - w.count),
      reset: Math.ceil((w.start + this.windowMs) / 1000),
      exceeded: w.count > this.limit,
    };
  }

  private prune(t: number): void {
    for (const [k, w] of this.windows) if (t >= w.start + this.windowMs) this.windows.delete(k);
  }
}

export function rateLimitHeaders(s: RateLimitState, fault: FaultName | null = null): HeaderMap {
  return {
    'X-RateLimit-Limit': String(s.limit),
    'X-RateLimit-Remaining': String(fault === 'ratelimit-remaining-not-decreasing' ? s.limit : s.remaining),
    'X-RateLimit-Reset': String(fault === 'ratelimit-reset-in-milliseconds' ? s.reset * 1000 : s.reset),
  };
}

/** Body of the over-limit 403 (the one error that does not use the errors envelope). */
export const RATE_LIMIT_BODY = { message: 'Rate limit exceeded' } as const;
