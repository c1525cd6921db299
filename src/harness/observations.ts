// The run-wide tally of the observed rules (src/checks/observed-rules.ts): each test's exchanges
// are checked as they happen, the tally goes to the run's main process when the test ends, and
// suites/last/observed.suite.ts reads the whole run's tally after every other suite has finished.
import { endpointOf, OBSERVED_RULES, type ObservationScope } from '../checks/observed-rules.ts';
import type { Exchange } from '../http/exchange.ts';

/** Exchanges kept per rule as evidence; the rest are counted. */
export const VIOLATIONS_KEPT = 5;

export interface ObservedViolation {
  message: string;
  /** The test whose request it was. */
  test: string;
  exchange: Exchange;
}

export interface RuleTally {
  /** Exchanges the rule applied to. */
  checked: number;
  /** Endpoints ("GET /skus/:id") of those exchanges. */
  endpoints: string[];
  violationCount: number;
  violations: ObservedViolation[];
}

export type Observations = Record<string, RuleTally>;

const emptyTally = (): RuleTally => ({ checked: 0, endpoints: [], violationCount: 0, violations: [] });

/** Adds `from` into `into` (keeping the first VIOLATIONS_KEPT violations of each rule). */
export function mergeObservations(into: Observations, from: Observations): Observations {
  for (const [rule, tally] of Object.entries(from)) {
    const target = (into[rule] ??= emptyTally());
    target.checked += tally.checked;
    for (const endpoint of tally.endpoints) if (!target.endpoints.includes(endpoint)) target.endpoints.push(endpoint);
    target.violationCount += tally.violationCount;
    target.violations.push(...tally.violations.slice(0, Math.max(0, VIOLATIONS_KEPT - target.violations.length)));
  }
  return into;
}

/** Checks one test's exchanges against every observed rule. */
export class ExchangeObserver {
  #pending: Observations = {};

  constructor(private readonly scope: ObservationScope) {}

  see(exchange: Exchange, test: string): void {
    for (const rule of OBSERVED_RULES) {
      if (!rule.applies(exchange, this.scope)) continue;
      const tally = (this.#pending[rule.id] ??= emptyTally());
      tally.checked++;
      const endpoint = endpointOf(exchange, this.scope.baseUrl);
      if (!tally.endpoints.includes(endpoint)) tally.endpoints.push(endpoint);
      const result = rule.check(exchange, Date.now());
      if (result.ok) continue;
      tally.violationCount++;
      if (tally.violations.length < VIOLATIONS_KEPT) tally.violations.push({ message: result.message, test, exchange });
    }
  }

  /** What was seen since the last take. */
  take(): Observations {
    const taken = this.#pending;
    this.#pending = {};
    return taken;
  }
}
