// The run-wide tally of the rules one exchange shows (src/rules/exchange-rules.ts, the table the
// passive judge of recorded traffic applies too): each test's exchanges are judged as they happen,
// the tally goes to the run's main process when the test ends, and suites/last/observed.suite.ts
// reports it per rule after every other suite has finished.
import type { Exchange, RuleCounts } from '../results/model.ts';
import { redactBodyText } from '../http/redact.ts';
import { judgeView, viewOf } from './exchange-rules.ts';

/** Findings kept per rule as evidence; the rest are counted. */
export const VIOLATIONS_KEPT = 5;

export interface ObservedViolation {
  severity: 'MUST' | 'WARN';
  requirements: string[];
  message: string;
  /** The test whose request it was. */
  test: string;
  exchange: Exchange;
}

export interface RuleTally {
  /** Exchanges the rule judged (not those it had to skip). */
  checked: number;
  /** Endpoints ("GET /skus/:id") of those exchanges. */
  endpoints: string[];
  /** Exchanges with a MUST finding, and with warnings only. */
  violationCount: number;
  warningCount: number;
  /** The first findings, MUST and WARN alike. */
  violations: ObservedViolation[];
  /** Why the rule skipped an exchange it applies to (the first reason), for a rule that judged none. */
  skipReason?: string;
}

export type Observations = Record<string, RuleTally>;

export type { RuleCounts } from '../results/model.ts';

export const countsOf = (tally: RuleTally | undefined): RuleCounts => ({
  checked: tally?.checked ?? 0,
  violations: tally?.violationCount ?? 0,
  warnings: tally?.warningCount ?? 0,
});

/** What a rule needs to know of the run besides the exchange. */
export interface ObservationScope {
  /** The API's base URL: rules about "the API" leave other exchanges alone. */
  baseUrl: string;
  /** Where the OAuth endpoints live: their exchanges are never the API's, even on its origin. */
  authUrl?: string;
  /** CATALOGUE_IMPLEMENTS. */
  implements: string;
  /** The minor series the deployment serves (the run's, found or listed), or 'unknown' (VersionScope); absent: every series up to the patch level. */
  servedSeries?: readonly string[] | 'unknown';
}

const emptyTally = (): RuleTally => ({ checked: 0, endpoints: [], violationCount: 0, warningCount: 0, violations: [] });

/** Adds `from` into `into` (keeping the first VIOLATIONS_KEPT findings of each rule). */
export function mergeObservations(into: Observations, from: Observations): Observations {
  for (const [rule, tally] of Object.entries(from)) {
    const target = (into[rule] ??= emptyTally());
    target.checked += tally.checked;
    for (const endpoint of tally.endpoints) if (!target.endpoints.includes(endpoint)) target.endpoints.push(endpoint);
    target.violationCount += tally.violationCount;
    target.warningCount += tally.warningCount;
    target.violations.push(...tally.violations.slice(0, Math.max(0, VIOLATIONS_KEPT - target.violations.length)));
    if (tally.skipReason !== undefined) target.skipReason ??= tally.skipReason;
  }
  return into;
}

/** Judges one test's exchanges with every rule of the table. */
export class ExchangeObserver {
  #pending: Observations = {};

  constructor(private scope: ObservationScope) {}

  /** The run found which minor series the deployment serves (src/harness/served-versions.ts): later exchanges are judged knowing it. */
  knowServedSeries(servedSeries: readonly string[]): void {
    this.scope = { ...this.scope, servedSeries };
  }

  /**
   * `text` is the whole answer (the exchange record keeps an excerpt of long bodies). It is judged
   * redacted, as a HAR keeps it, so that `verify` re-judging the HAR reaches the same verdicts.
   */
  see(exchange: Exchange, test: string, text?: string, atMs = Date.now()): void {
    const judged = text === undefined ? undefined : redactBodyText(text);
    const view = viewOf({
      exchange,
      text: judged,
      baseUrl: this.scope.baseUrl,
      ...(this.scope.authUrl ? { authUrl: this.scope.authUrl } : {}),
      implements: this.scope.implements,
      ...(this.scope.servedSeries ? { servedSeries: this.scope.servedSeries } : {}),
      atMs,
    });
    for (const { rule, outcome } of judgeView(view)) {
      const tally = (this.#pending[rule.id] ??= emptyTally());
      if (outcome.kind === 'skipped') {
        tally.skipReason ??= outcome.reason;
        continue;
      }
      tally.checked++;
      const endpoint = view.endpoint ?? `${exchange.method} ${view.apiPath ?? exchange.url}`;
      if (!tally.endpoints.includes(endpoint)) tally.endpoints.push(endpoint);
      if (outcome.kind === 'passed') continue;
      if (outcome.findings.some((f) => f.severity === 'MUST')) tally.violationCount++;
      else tally.warningCount++;
      for (const f of outcome.findings) {
        if (tally.violations.length < VIOLATIONS_KEPT) tally.violations.push({ severity: f.severity, requirements: f.requirements, message: f.message, test, exchange });
      }
    }
  }

  /** What was seen since the last take. */
  take(): Observations {
    const taken = this.#pending;
    this.#pending = {};
    return taken;
  }
}
