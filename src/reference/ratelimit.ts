// Per-minute rate limit (spec "Limits"): a fixed 60-second window (shorter when the reference runs
// with a scaled clock, `limits.windowMs`: the embedded run's minute lasts a second) per key (an access token,
// the client IP for API requests without a valid token, or `oauth:<ip>` for the client IP's
// requests to the OAuth endpoints, which never touch the other windows) that starts at the key's first request
// after the previous window ended. Every request counts, including 304s and rejected ones
// (the over-limit 403s too, so hammering does not shorten the wait).
// Variant ratelimit-calendar-minute (variants.ts): windows are calendar minutes instead, so
// X-RateLimit-Reset is the start of the next minute. Variant ratelimit-sliding-window: the
// window is the last 60 seconds, Reset when its oldest request leaves it. Variant
// remaining-before-count: Remaining is what was left before the request was counted.

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
  limit: number;
  /** The times of the requests counted (sliding windows only). */
  times?: number[];
}

/** When a key's window starts: at its first request, at the start of the calendar minute, or a minute before now (sliding). */
export type WindowStart = 'first-request' | 'calendar-minute' | 'sliding';

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  constructor(
    /** The limit of a key that has none of its own. */
    readonly perMinute: number,
    private readonly now: () => number,
    private readonly windowStart: WindowStart = 'first-request',
    private readonly windowMs: number = WINDOW_MS,
    private readonly remainingBeforeCount = false,
  ) {}

  /** Counts one request for `key` (whose limit is `limit`) and reports the window state after it. */
  consume(key: string, limit = this.perMinute): RateLimitState {
    const t = this.now();
    const before = this.windows.get(key);
    let w = before;
    if (this.windowStart === 'sliding') {
      w ??= { start: t, count: 0, limit, times: [] };
      const times = w.times!.filter((at) => at > t - this.windowMs && at <= t);
      times.push(t);
      // Only the limit's worth (and one over) matters for Remaining and Reset.
      if (times.length > limit + 1) times.splice(0, times.length - limit - 1);
      Object.assign(w, { start: times[0]!, count: times.length, times });
      this.windows.set(key, w);
    } else if (!w || t >= w.start + this.windowMs || t < w.start) {
      w = { start: this.windowStart === 'calendar-minute' ? t - (t % this.windowMs) : t, count: 0, limit };
      this.windows.set(key, w);
    }
    if (w !== before && this.windows.size > 10_000) this.prune(t);
    if (this.windowStart !== 'sliding') w.count += 1;
    return this.state(w, true);
  }

  /** Takes back the last request counted for `key` (used only by fault not-modified-not-counted). */
  refund(key: string): RateLimitState | null {
    const w = this.windows.get(key);
    if (!w || w.count === 0) return null;
    w.count -= 1;
    w.times?.pop();
    if (w.times?.length) w.start = w.times[0]!;
    return this.state(w, false);
  }

  /** `justCounted`: the state is the answer to the request just counted (which variant remaining-before-count leaves out of Remaining). */
  private state(w: Window, justCounted: boolean): RateLimitState {
    const counted = this.remainingBeforeCount && justCounted ? w.count - 1 : w.count;
    return {
      limit: w.limit,
      remaining: Math.max(0, w.limit - counted),
      reset: Math.ceil((w.start + this.windowMs) / 1000),
      exceeded: w.count > w.limit,
    };
  }

  private prune(t: number): void {
    for (const [k, w] of this.windows) if (t >= w.start + this.windowMs) this.windows.delete(k);
  }
}

export function rateLimitHeaders(s: RateLimitState, fault: FaultName | null = null): HeaderMap {
  return {
    // The bugs: numbers printed as floats; Reset the window's start, not its end.
    'X-RateLimit-Limit': fault === 'ratelimit-limit-decimal' ? s.limit.toFixed(1) : String(s.limit),
    'X-RateLimit-Remaining': fault === 'ratelimit-remaining-decimal' ? s.remaining.toFixed(1) : String(fault === 'ratelimit-remaining-not-decreasing' ? s.limit : s.remaining),
    'X-RateLimit-Reset': String(fault === 'ratelimit-reset-in-milliseconds' ? s.reset * 1000 : fault === 'ratelimit-reset-window-start' ? s.reset - 60 : s.reset),
  };
}

/** Body of the over-limit 403 (the one error that does not use the errors envelope). */
export const RATE_LIMIT_BODY = { message: 'Rate limit exceeded' } as const;
