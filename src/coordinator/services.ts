// What a test needs from the run besides HTTP: budget, pacing, tokens and discovery. The run's
// main process owns the one real instance (LocalRunServices); vitest workers reach it through the
// coordinator (remote.ts), so every worker shares one budget, one pacer and one token cache.
import { createHash } from 'node:crypto';
import type { RequestBudget } from '../budget/budget.ts';
import type { RateLimitPacer } from '../budget/pacing.ts';
import { mergeObservations, type Observations } from '../harness/observations.ts';
import { AuthError, type TokenKind, type TokenManager, type UserTokenResult } from '../auth/tokens.ts';

/**
 * A token, and the run's write count when it was handed out (`writes`: requests other than GET
 * and HEAD begun or ended so far, by any worker): an answer a worker keeps is reused only while
 * that count stays as it was (src/harness/reuse.ts).
 */
export type TokenResult = UserTokenResult & { writes?: number };
export type DiscoveryResult = { id: number } | { unavailable: string };

export interface RunServices {
  /** Sets aside a test's estimated requests before it starts. */
  reserve(holder: string, requests: number): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** Returns what the holder reserved and did not use. */
  settle(holder: string): Promise<void>;
  /**
   * Before every request: accounts it to the budget and waits for the rate limit (pacingKey null:
   * no wait). `write`: a method other than GET and HEAD (counted for the reuse of answers).
   */
  beforeSend(holder: string, pacingKey: string | null, write?: boolean): Promise<void>;
  /** After every request; headers null when no response came; paced false when beforeSend had no key. */
  afterReceive(pacingKey: string, status: number | null, headers: Record<string, string> | null, paced?: boolean, write?: boolean): Promise<void>;
  token(kind: TokenKind): Promise<TokenResult>;
  /** A new user token for one test alone (e.g. logout), never handed to another test. */
  ownUserToken(): Promise<TokenResult>;
  /** A request with this token got 401; the next token() renews it if it is still the cached one. */
  tokenRejected(kind: TokenKind, token: string): Promise<void>;
  discover(role: string): Promise<DiscoveryResult>;
  /** Adds a test's tally of the observed rules to the run's. */
  observe(batch: Observations): Promise<void>;
  /** The run's tally of the observed rules so far. */
  observations(): Promise<Observations>;
}

/** Rate limits are per token; the pacer keys on a fingerprint so no token is kept in its state. */
export function pacingKey(token: string | null): string {
  return token ? `token:${createHash('sha256').update(token).digest('hex').slice(0, 16)}` : 'anonymous';
}

export interface Discoverer {
  find(role: string): Promise<DiscoveryResult>;
}

export class LocalRunServices implements RunServices {
  /** Problems that stopped tests from running at all (e.g. no application token mid-run). */
  readonly problems: string[] = [];

  constructor(
    readonly budget: RequestBudget,
    readonly pacer: RateLimitPacer,
    readonly tokens: TokenManager,
    private readonly discovery: () => Discoverer,
  ) {}

  async reserve(holder: string, requests: number) {
    return this.budget.reserve(holder, requests);
  }

  async settle(holder: string) {
    this.budget.settle(holder);
  }

  /** Writes begun and ended: both count, so that an answer got while a write was on its way is not reused after it. */
  #writes = 0;

  async beforeSend(holder: string, key: string | null, write = false) {
    // Budget first: a request the budget refuses must not take a rate-limit slot either.
    this.budget.spend(holder);
    if (write) this.#writes++;
    if (key !== null) await this.pacer.acquire(key);
  }

  async afterReceive(key: string, status: number | null, headers: Record<string, string> | null, paced = true, write = false) {
    if (write) this.#writes++;
    this.pacer.complete(key, headers, status ?? undefined, paced);
  }

  async token(kind: TokenKind): Promise<TokenResult> {
    if (kind === 'user') {
      const result = await this.tokens.userToken();
      return 'token' in result ? { ...result, writes: this.#writes } : result;
    }
    try {
      return { token: await this.tokens.appToken(), writes: this.#writes };
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      if (!this.problems.includes(error.message)) this.problems.push(error.message);
      return { unavailable: error.message };
    }
  }

  async ownUserToken(): Promise<TokenResult> {
    return this.tokens.ownUserToken();
  }

  async tokenRejected(kind: TokenKind, token: string) {
    this.tokens.rejected(kind, token);
  }

  async discover(role: string) {
    return this.discovery().find(role);
  }

  readonly #observations: Observations = {};

  async observe(batch: Observations) {
    mergeObservations(this.#observations, batch);
  }

  async observations() {
    return structuredClone(this.#observations);
  }
}
