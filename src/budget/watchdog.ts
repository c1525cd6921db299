// The run's bounds in time (issue 19): a deadline for the whole run (CATALOGUE_DEADLINE_S) and a
// stall detector. Each exchange has its own deadline already (CATALOGUE_TIMEOUT_MS, headers and
// body together, src/http/client.ts); this ends the run when the target as a whole stops
// answering, instead of letting every remaining test wait out its own timeout. One watchdog per
// run, in its main process: every hop of every worker reports to it (LocalRunServices).
//
// Stalled: the hops that ended since the last answer all ended without one (timeout, reset,
// refused), at least STALL_HOPS of them, and the first of them was sent at least `stallMs` ago.
// One endpoint that hangs while the others answer is no stall: the answers in between reset it.

/** The run was stopped (deadline, stall, interruption): no new request is sent. Tests it meets are skipped with this reason. */
export class RunStoppedError extends Error {
  override name = 'RunStoppedError';
}

/** Hops without an answer, one after another, before a stall can be declared. */
export const STALL_HOPS = 2;

/** How long the hops must have gone unanswered: twice an exchange's timeout, at most 30 s (the bound is 60 s). */
export function stallMsFor(timeoutMs: number): number {
  return Math.min(30_000, 2 * timeoutMs);
}

export interface WatchdogOptions {
  /** See stallMsFor. */
  stallMs: number;
  now?: () => number;
}

/** Why a run stopped early: the target stopped answering, the deadline passed, or the user interrupted it. */
export type StopKind = 'stalled' | 'deadline' | 'interrupted';

export class RunWatchdog {
  readonly #stallMs: number;
  readonly #now: () => number;
  readonly #listeners = new Set<(reason: string) => void>();
  #stopped: string | null = null;
  #kind: StopKind | null = null;
  #deadline: NodeJS.Timeout | null = null;
  /** The unanswered hops since the last answer: how many, and when the first of them was sent. */
  #streak = 0;
  #streakSince = 0;

  constructor(options: WatchdogOptions) {
    this.#stallMs = options.stallMs;
    this.#now = options.now ?? Date.now;
  }

  /** Why the run was stopped, or null while it goes on. */
  get stopped(): string | null {
    return this.#stopped;
  }

  /** How the run stopped, or null while it goes on. */
  get kind(): StopKind | null {
    return this.#kind;
  }

  /** Stops the run (the first reason stays); the listeners hear it once. */
  stop(reason: string, kind: StopKind = 'interrupted'): void {
    if (this.#stopped !== null) return;
    this.#stopped = reason;
    this.#kind = kind;
    this.clearDeadline();
    for (const listener of this.#listeners) listener(reason);
  }

  /** Calls `listener` when the run stops (at once if it has). Returns its removal. */
  onStop(listener: (reason: string) => void): () => void {
    if (this.#stopped !== null) listener(this.#stopped);
    else this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Before a request: throws RunStoppedError once the run is stopped. */
  check(): void {
    if (this.#stopped !== null) throw new RunStoppedError(`not run: ${this.#stopped}`);
  }

  /** Starts the run's deadline: `seconds` from now the run stops. */
  startDeadline(seconds: number): void {
    this.clearDeadline();
    this.#deadline = setTimeout(() => this.stop(`the run passed its deadline of ${seconds} s (CATALOGUE_DEADLINE_S)`, 'deadline'), seconds * 1000);
    // The deadline alone never keeps the process alive.
    this.#deadline.unref();
  }

  clearDeadline(): void {
    if (this.#deadline) clearTimeout(this.#deadline);
    this.#deadline = null;
  }

  /** A hop got an answer (any status): the target is answering. */
  answered(): void {
    this.#streak = 0;
  }

  /**
   * A hop ended without an answer: `what` says which and how ("GET /categories: no complete
   * response within 15000 ms"), `sentAtMs` when it was sent.
   */
  unanswered(what: string, sentAtMs: number): void {
    if (this.#streak === 0 || sentAtMs < this.#streakSince) this.#streakSince = sentAtMs;
    this.#streak++;
    const silentMs = this.#now() - this.#streakSince;
    if (this.#streak >= STALL_HOPS && silentMs >= this.#stallMs) {
      this.stop(`the target stopped answering: ${this.#streak} requests in a row got no answer in ${Math.round(silentMs / 1000)} s, the last ${what}`, 'stalled');
    }
  }
}
