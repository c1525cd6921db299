// The run's request budget (CATALOGUE_MAX_REQUESTS): a hard cap on every request the kit sends,
// token requests and redirect hops included. Lives in one process and is shared by all workers
// through the coordinator, so the cap holds for the whole run, not per worker.
//
// A test reserves its estimated number of requests before it starts; if the reservation does not
// fit, the test is skipped with the reason instead of being cut off half-way. A test that goes over
// its estimate draws from what nobody reserved, and is stopped (skipped) only when that is empty.

/** The budget when CATALOGUE_MAX_REQUESTS is not set: room for the default run and its shrinking, under the 1,000 calls a day. */
export const DEFAULT_MAX_REQUESTS = 900;

/**
 * How many random cases (fieldsets, the favorites model) a run draws: `atDefault` at the default
 * budget, in proportion to a larger or smaller one, never fewer than `least`. The default run is
 * kept small (issue 17: a certifier runs it twice a day); a larger budget buys more cases.
 */
export function scaledToBudget(atDefault: number, budget: number, least: number): number {
  return Math.max(least, Math.round((atDefault * budget) / DEFAULT_MAX_REQUESTS));
}

export class BudgetExhaustedError extends Error {
  override name = 'BudgetExhaustedError';
}

export interface BudgetSnapshot {
  max: number;
  spent: number;
  reserved: number;
  available: number;
}

export class RequestBudget {
  readonly max: number;
  #spent = 0;
  /** holder -> requests reserved and not yet spent */
  readonly #reservations = new Map<string, number>();

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`budget must be a positive integer, got ${max}`);
    this.max = max;
  }

  get spent(): number {
    return this.#spent;
  }

  snapshot(): BudgetSnapshot {
    const reserved = [...this.#reservations.values()].reduce((a, b) => a + b, 0);
    return { max: this.max, spent: this.#spent, reserved, available: this.max - this.#spent - reserved };
  }

  /** Sets aside `count` requests for `holder`; returns a skip reason when they do not fit. */
  reserve(holder: string, count: number): { ok: true } | { ok: false; reason: string } {
    // A negative or NaN estimate would raise the cap (or disable it) for everybody.
    if (!Number.isInteger(count) || count < 0) {
      return { ok: false, reason: `request budget: the estimate must be a whole number of requests, got ${count}` };
    }
    const { available } = this.snapshot();
    if (count > available) {
      return {
        ok: false,
        reason: `request budget: needs about ${count} requests, ${Math.max(available, 0)} left of CATALOGUE_MAX_REQUESTS=${this.max}`,
      };
    }
    this.#reservations.set(holder, (this.#reservations.get(holder) ?? 0) + count);
    return { ok: true };
  }

  /** Accounts for one request about to be sent by `holder`; throws when the cap would be passed. */
  spend(holder: string): void {
    const own = this.#reservations.get(holder) ?? 0;
    if (own > 0) {
      this.#reservations.set(holder, own - 1);
    } else if (this.snapshot().available < 1) {
      throw new BudgetExhaustedError(`request budget spent: ${this.#spent} of CATALOGUE_MAX_REQUESTS=${this.max} requests made or reserved`);
    }
    this.#spent++;
  }

  /** Returns what `holder` reserved and did not use. */
  settle(holder: string): void {
    this.#reservations.delete(holder);
  }
}
