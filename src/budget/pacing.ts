// Paces requests so that a default run never provokes the 403 rate-limit answer (spec: Limits,
// 100 requests a minute per OAuth token). Two guards per token, the stricter wins:
//  - what the server says: X-RateLimit-Remaining / X-RateLimit-Reset of the latest response,
//    lowered by every request sent since;
//  - what the kit knows by itself: at most `limit - margin` sends in any sliding minute, where
//    limit is X-RateLimit-Limit once seen, else the spec's 100 (covers servers that omit headers).
// Clock and sleep are injected so the logic is tested without waiting.

export interface PacerOptions {
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Per-minute limit assumed until the server states one (spec: Limits). */
  defaultLimit?: number;
  windowMs?: number;
  /** Requests kept in hand below the limit, for clock skew and other users of the token. */
  margin?: number;
  /** A longer wait than this skips the test instead of stalling the run. */
  maxWaitMs?: number;
  /**
   * How long after X-RateLimit-Reset the window is taken as refilled (default 1,000: the header
   * is whole seconds and the server's clock may differ). 0 only for a server on the same clock.
   */
  resetSlackMs?: number;
}

export class RateLimitWaitError extends Error {
  override name = 'RateLimitWaitError';
}

interface Bucket {
  limit: number | null;
  remaining: number | null;
  resetAtMs: number | null;
  observedAtMs: number;
  inFlight: number;
  sends: number[];
}

export interface RateLimitHeaders {
  limit: number | null;
  remaining: number | null;
  /** Epoch milliseconds. */
  resetAtMs: number | null;
}

/** Reads the three X-RateLimit-* headers; absent or malformed values give null. */
export function readRateLimitHeaders(headers: Record<string, string>, nowMs: number): RateLimitHeaders {
  const int = (name: string): number | null => {
    const value = headers[name];
    return value !== undefined && /^\s*\d+\s*$/.test(value) ? Number(value) : null;
  };
  const reset = int('x-ratelimit-reset');
  let resetAtMs: number | null = null;
  if (reset !== null) {
    // The spec says epoch seconds; a server sending seconds-from-now or epoch milliseconds
    // instead fails the header checks, but pacing must stay safe and sensible either way.
    if (reset < 1_000_000_000) resetAtMs = nowMs + reset * 1000;
    else if (reset > 100_000_000_000) resetAtMs = reset;
    else resetAtMs = reset * 1000;
  }
  return { limit: int('x-ratelimit-limit'), remaining: int('x-ratelimit-remaining'), resetAtMs };
}

export class RateLimitPacer {
  readonly #buckets = new Map<string, Bucket>();
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #defaultLimit: number;
  readonly #windowMs: number;
  readonly #margin: number;
  readonly #maxWaitMs: number;
  readonly #resetSlackMs: number;
  /** Total time spent waiting, for the run summary. */
  waitedMs = 0;

  constructor(options: PacerOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#defaultLimit = options.defaultLimit ?? 100;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#margin = options.margin ?? 1;
    this.#maxWaitMs = options.maxWaitMs ?? 75_000;
    this.#resetSlackMs = options.resetSlackMs ?? 1_000;
  }

  #bucket(key: string): Bucket {
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      bucket = { limit: null, remaining: null, resetAtMs: null, observedAtMs: 0, inFlight: 0, sends: [] };
      this.#buckets.set(key, bucket);
    }
    return bucket;
  }

  /** How long the next request on `key` must wait; 0 when it may go now. */
  delayFor(key: string): number {
    const bucket = this.#bucket(key);
    const now = this.#now();
    bucket.sends = bucket.sends.filter((t) => t > now - this.#windowMs);
    let wait = 0;

    if (bucket.remaining !== null) {
      const refillAt = bucket.resetAtMs !== null && bucket.resetAtMs > bucket.observedAtMs ? bucket.resetAtMs + this.#resetSlackMs : bucket.observedAtMs + this.#windowMs;
      if (now >= refillAt) {
        bucket.remaining = null;
        bucket.resetAtMs = null;
      } else if (bucket.remaining <= this.#margin) {
        wait = Math.max(wait, refillAt - now);
      }
    }
    const limit = Math.min(bucket.limit ?? this.#defaultLimit, this.#defaultLimit * 10);
    const allowed = Math.max(1, limit - this.#margin);
    if (bucket.sends.length >= allowed) {
      wait = Math.max(wait, bucket.sends[bucket.sends.length - allowed]! + this.#windowMs - now + 1);
    }
    return wait;
  }

  /** Waits until a request on `key` is safe, then counts it as in flight. */
  async acquire(key: string): Promise<void> {
    for (;;) {
      const wait = this.delayFor(key);
      if (wait <= 0) break;
      if (wait > this.#maxWaitMs) {
        throw new RateLimitWaitError(`rate limit: the next request would have to wait ${Math.ceil(wait / 1000)} s for the window to reset`);
      }
      this.waitedMs += wait;
      await this.#sleep(wait);
    }
    const bucket = this.#bucket(key);
    bucket.inFlight++;
    bucket.sends.push(this.#now());
    if (bucket.remaining !== null) bucket.remaining--;
  }

  /**
   * Ends an in-flight request; `headers` are the response's, or null when none came. `acquired`
   * false: the request was sent without acquire (unpaced), so only its headers are learnt.
   */
  complete(key: string, headers: Record<string, string> | null, status?: number, acquired = true): void {
    const bucket = this.#bucket(key);
    if (acquired) bucket.inFlight = Math.max(0, bucket.inFlight - 1);
    if (!headers) return;
    const now = this.#now();
    const observed = readRateLimitHeaders(headers, now);
    if (observed.limit !== null && observed.limit > 0) bucket.limit = observed.limit;
    if (observed.remaining !== null) {
      // Requests still in flight may not be counted in this answer yet: assume they are not.
      bucket.remaining = observed.remaining - bucket.inFlight;
      bucket.observedAtMs = now;
      bucket.resetAtMs = observed.resetAtMs;
    } else if (status === 403) {
      // A 403 without headers may be the rate limit: assume the window is spent.
      bucket.remaining = 0;
      bucket.observedAtMs = now;
      bucket.resetAtMs = null;
    }
  }
}
