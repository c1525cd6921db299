// What a test needs from the run besides HTTP: budget, pacing, tokens and discovery. The run's
// main process owns the one real instance (LocalRunServices); vitest workers reach it through the
// coordinator (remote.ts), so every worker shares one budget, one pacer and one token cache.
import { createHash } from 'node:crypto';
import type { RequestBudget } from '../budget/budget.ts';
import type { RateLimitPacer } from '../budget/pacing.ts';
import { countsOf, mergeObservations, type Observations, type RuleCounts } from '../rules/observations.ts';
import { ReusedAnswers, WriteCounts, type WriteReach } from '../harness/reuse.ts';
import type { PlainResponse, Unanswered } from '../http/client.ts';
import type { RunWatchdog } from '../budget/watchdog.ts';
import type { RunJournal, UndoEntry } from '../harness/journal.ts';
import { AuthError, type TokenKind, type TokenManager, type UserTokenResult } from '../auth/tokens.ts';

/**
 * A token, and the stamp of an answer got with it (`writes`: the writes begun or ended so far, by
 * any worker, that may change such an answer, src/harness/reuse.ts); with `kept`, the answer the
 * run kept for the GET asked about, still valid at that stamp; else `asking` true when the caller
 * is to report its answer to keep() (kept or not), false when it asks without keeping.
 */
export type TokenResult = UserTokenResult & { writes?: number; kept?: PlainResponse; asking?: boolean };

/** The holder of the requests that take back a run's changes (src/harness/sweep.ts): sent also after the run has stopped. */
export const SWEEP_HOLDER = 'sweep';

/** How long a test waits for the lent user token another test holds (a few paced requests) before it gets one of its own. */
const LEND_WAIT_MS = 120_000;
/** How long a GET waits for the same GET another test has out (pacing may hold that one for a minute). */
const SAME_GET_WAIT_MS = 120_000;
export type DiscoveryResult = { id: number } | { unavailable: string };

export interface RunServices {
  /** Sets aside a test's estimated requests before it starts. */
  reserve(holder: string, requests: number): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** Returns what the holder reserved and did not use. */
  settle(holder: string): Promise<void>;
  /**
   * Before every request: accounts it to the budget and waits for the rate limit (pacingKey null:
   * no wait). `write`: what a method other than GET and HEAD may change (counted for the reuse of answers).
   */
  beforeSend(holder: string, pacingKey: string | null, write?: WriteReach | null): Promise<void>;
  /**
   * After every request; headers null when no response came; paced false when beforeSend had no
   * key; `unanswered` when no complete answer came (for the run's stall detector).
   */
  afterReceive(
    pacingKey: string,
    status: number | null,
    headers: Record<string, string> | null,
    paced?: boolean,
    write?: WriteReach | null,
    unanswered?: Unanswered | null,
  ): Promise<void>;
  /**
   * The run's token of `kind`; with `reuseKey`, also the answer kept for that GET if still valid
   * (waiting for it while another test has the same GET out), or `asking`; `readsFrom`: the
   * areas whose writes may change that answer (src/harness/reuse.ts), null or absent: every area.
   */
  token(kind: TokenKind, reuseKey?: string, readsFrom?: readonly WriteReach[] | null): Promise<TokenResult>;
  /** The answer to a GET token() said to ask (`asking`): a 2xx one is kept for the tests after; null when none came. */
  keep(reuseKey: string, writes: number, response: PlainResponse | null): Promise<void>;
  /** A new user token for one test alone (one that spends its minute), never handed to another test. */
  ownUserToken(): Promise<TokenResult>;
  /**
   * A user token no other test uses while `holder` has it: lent to one test at a time, taken back
   * when the holder settles (a test counting X-RateLimit-Remaining on a token of its own), so that
   * such tests share one token instead of each costing a consent and a code exchange. `ends`: the
   * holder ends it (logout): the next borrower gets a new one.
   */
  lentUserToken(holder: string, ends?: boolean): Promise<TokenResult>;
  /** A request with this token got 401; the next token() renews it if it is still the cached one. */
  tokenRejected(kind: TokenKind, token: string): Promise<void>;
  discover(role: string): Promise<DiscoveryResult>;
  /**
   * The run's journal (src/harness/journal.ts): `undo`, how to take back changes, before they are
   * made; `done`, the keys of changes taken back. One call for both: a write's answer does both.
   */
  journal(change: { undo?: UndoEntry[]; done?: string[] }): Promise<void>;
  /** Adds a test's tally of the observed rules to the run's. */
  observe(batch: Observations): Promise<void>;
  /** The run's tally of the observed rules so far. */
  observations(): Promise<Observations>;
  /**
   * Another run of the same client that may be changing the user's data now, as a fresh look at
   * the deployment finds it (src/harness/run-records.ts; asked when a test that read such data
   * failed), or null: none seen, or the run cannot look.
   */
  otherRun(): Promise<string | null>;
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
    readonly watchdog: RunWatchdog,
  ) {}

  async reserve(holder: string, requests: number): Promise<{ ok: true } | { ok: false; reason: string }> {
    if (this.watchdog.stopped !== null) return { ok: false, reason: `not run: ${this.watchdog.stopped}` };
    return this.budget.reserve(holder, requests);
  }

  async settle(holder: string) {
    this.budget.settle(holder);
    this.#giveBack(holder);
  }

  /** The lent user token (lentUserToken): its value, its holder, and the holders waiting for it. */
  readonly #lent: { token: string | null; holder: string | null; ends: boolean; waiting: (() => void)[] } = { token: null, holder: null, ends: false, waiting: [] };

  async lentUserToken(holder: string, ends = false): Promise<TokenResult> {
    const lent = this.#lent;
    const deadline = Date.now() + LEND_WAIT_MS;
    while (lent.holder !== null && lent.holder !== holder) {
      // A holder that never settles (a test stuck in its own wait) must not hold the others: past the wait, a token of its own.
      const left = deadline - Date.now();
      if (left <= 0) return this.tokens.ownUserToken();
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        lent.waiting.push(resolve);
        timer = setTimeout(resolve, left);
      });
      clearTimeout(timer);
    }
    lent.holder = holder;
    lent.ends ||= ends;
    if (lent.token === null) {
      const result = await this.tokens.ownUserToken();
      if (!('token' in result)) {
        this.#giveBack(holder);
        return result;
      }
      lent.token = result.token;
    }
    return { token: lent.token };
  }

  #giveBack(holder: string): void {
    const lent = this.#lent;
    if (lent.holder !== holder) return;
    if (lent.ends) lent.token = null;
    lent.holder = null;
    lent.ends = false;
    lent.waiting.shift()?.();
  }

  /** Writes begun and ended: both count, so that an answer got while a write was on its way is not reused after it. */
  readonly #writes = new WriteCounts();
  /** The run's GET answers, for every worker (src/harness/reuse.ts). */
  readonly answers = new ReusedAnswers();

  async beforeSend(holder: string, key: string | null, write: WriteReach | null = null) {
    // A stopped run sends nothing more, except the sweep that takes back what it changed.
    if (holder !== SWEEP_HOLDER) this.watchdog.check();
    // Budget first: a request the budget refuses must not take a rate-limit slot either.
    this.budget.spend(holder);
    if (write) this.#writes.count(write);
    if (key !== null) await this.pacer.acquire(key);
  }

  async afterReceive(
    key: string,
    status: number | null,
    headers: Record<string, string> | null,
    paced = true,
    write: WriteReach | null = null,
    unanswered: Unanswered | null = null,
  ) {
    if (write) this.#writes.count(write);
    if (unanswered) this.watchdog.unanswered(unanswered.message, unanswered.sentAtMs);
    else this.watchdog.answered();
    this.pacer.complete(key, headers, status ?? undefined, paced);
  }

  async token(kind: TokenKind, reuseKey?: string, readsFrom: readonly WriteReach[] | null = null): Promise<TokenResult> {
    // The stamp as the answer is looked up: a write that begins after it changes the count, so an
    // answer kept at this stamp is not given after that write.
    const reuse = async () => {
      const stampNow = () => this.#writes.stampFor(kind, readsFrom);
      if (reuseKey === undefined) return { writes: stampNow() };
      const found = await this.answers.lookup(reuseKey, stampNow, SAME_GET_WAIT_MS);
      return { writes: stampNow(), ...('kept' in found ? { kept: found.kept } : { asking: found.ask }) };
    };
    if (kind === 'user') {
      const result = await this.tokens.userToken();
      return 'token' in result ? { ...result, ...(await reuse()) } : result;
    }
    try {
      return { token: await this.tokens.appToken(), ...(await reuse()) };
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      if (!this.problems.includes(error.message)) this.problems.push(error.message);
      return { unavailable: error.message };
    }
  }

  async keep(reuseKey: string, writes: number, response: PlainResponse | null) {
    this.answers.answered(reuseKey, writes, response);
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

  /** The run's journal, once the run has one (the preflight and discovery change nothing). */
  runJournal: RunJournal | null = null;

  async journal(change: { undo?: UndoEntry[]; done?: string[] }) {
    for (const entry of change.undo ?? []) this.runJournal?.undoable(entry);
    for (const key of change.done ?? []) this.runJournal?.done(key);
  }

  /** How the run looks for another run going on (set once it has a beacon), or null. */
  otherRunLook: (() => Promise<string | null>) | null = null;

  async otherRun() {
    return this.otherRunLook ? this.otherRunLook() : null;
  }

  readonly #observations: Observations = {};

  async observe(batch: Observations) {
    mergeObservations(this.#observations, batch);
  }

  async observations() {
    return structuredClone(this.#observations);
  }

  /** Every observed rule's tally in numbers, by rule id (the reports keep it: src/report/verify.ts re-judges it). */
  observedCounts(): Record<string, RuleCounts> {
    return Object.fromEntries(Object.entries(this.#observations).map(([rule, tally]) => [rule, countsOf(tally)]));
  }
}
