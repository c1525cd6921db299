// Per-minute rate limit (spec "Limits"): a fixed 60-second window per key (an access token,
// or the client IP for requests without a valid token) that starts at the key's first request
// after the previous window ended. Every request counts, including 304s and rejected ones.

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

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  constructor(
    private readonly limit: number,
    private readonly now: () => number,
  ) {}

  /** Counts one request for `key` and reports the window state after it. */
  consume(key: string): RateLimitState {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t >= w.start + WINDOW_MS || t < w.start) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 10_000) this.prune(t);
    }
    w.count += 1;
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - w.count),
      reset: Math.ceil((w.start + WINDOW_MS) / 1000),
      exceeded: w.count > this.limit,
    };
  }

  private prune(t: number): void {
    for (const [k, w] of this.windows) if (t >= w.start + WINDOW_MS) this.windows.delete(k);
  }
}

export function rateLimitHeaders(s: RateLimitState): HeaderMap {
  return {
    'X-RateLimit-Limit': String(s.limit),
    'X-RateLimit-Remaining': String(s.remaining),
    'X-RateLimit-Reset': String(s.reset),
  };
}

/** Body of the over-limit 403 (the one error that does not use the errors envelope). */
export const RATE_LIMIT_BODY = { message: 'Rate limit exceeded' } as const;
