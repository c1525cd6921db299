// Turns vitest's view of a run into the kit's results: one record per test with its requirement
// ids, severity, status (passed, failed, warned, skipped) and the redacted exchanges.
import type { SerializedError } from 'vitest';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { resultsOf, slug, suiteName, testId, type Finding, type RunResults, type Status, type TestRecord } from '../results/model.ts';
import { secrets } from '../http/redact.ts';

export type { RunResults, Status, TestRecord } from '../results/model.ts';
export { resultsOf, slug, suiteName, testId } from '../results/model.ts';

function titleOf(testCase: TestCase): string {
  // fullName joins describe blocks and the test name with ' > '.
  return testCase.fullName;
}

function findingLines(findings: readonly Finding[]): string {
  return findings.map((f) => `[${f.requirements.join(', ')}] ${f.message}`).join('\n');
}

export function recordFor(testCase: TestCase, suite: string): TestRecord {
  const meta = testCase.meta();
  const declared = meta.conformance;
  const outcome = meta.outcome;
  const result = testCase.result();
  const failures = outcome?.failures ?? [];
  const warnings = outcome?.warnings ?? [];
  let status: Status;
  let message = '';
  if (result.state === 'failed') {
    status = 'failed';
    message = failures.length ? findingLines(failures) : secrets.scrub(result.errors.map((e) => e.message).join('\n') || 'failed without a message');
    if (!failures.length) failures.push({ requirements: declared?.requirements ?? [], severity: 'MUST', message });
  } else if (result.state === 'skipped') {
    status = 'skipped';
    message = outcome?.skipReason ?? result.note ?? 'skipped';
  } else if (result.state === 'passed') {
    status = warnings.length ? 'warned' : 'passed';
    message = findingLines(warnings);
  } else {
    status = 'skipped';
    message = 'not run';
  }
  const title = titleOf(testCase);
  return {
    // A test not declared through conformanceTest has no declared id: its title's slug stands in.
    id: testId(suite, declared?.id ?? slug(title)),
    title,
    suite,
    requirements: declared?.requirements ?? [],
    ...(declared?.clauses?.length ? { clauses: declared.clauses } : {}),
    severity: declared?.severity ?? 'MUST',
    profile: declared?.profile ?? 'read',
    status,
    message,
    failures,
    warnings,
    exchanges: outcome?.exchanges ?? [],
    omittedExchanges: outcome?.omittedExchanges ?? 0,
    requests: outcome?.requests ?? 0,
    durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    ...(outcome?.judgedTally ? { judgedTally: outcome.judgedTally } : {}),
  };
}

export function collectResults(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): RunResults {
  const tests: TestRecord[] = [];
  const problems: string[] = [];
  for (const module of modules) {
    const suite = suiteName(module.moduleId);
    for (const error of module.errors()) problems.push(`suite ${module.relativeModuleId} could not run: ${secrets.scrub(error.message)}`);
    for (const testCase of module.children.allTests()) tests.push(recordFor(testCase, suite));
  }
  for (const error of unhandled) problems.push(`unhandled error during the run: ${secrets.scrub(error.message)}`);
  return resultsOf(tests, problems);
}

/** A vitest reporter that only collects: the CLI writes the outputs once the run has ended. */
export class ResultsCollector implements Reporter {
  readonly #modules: TestModule[] = [];
  readonly #unhandled: SerializedError[] = [];
  #runs = 0;

  /** Called once per vitest run; a conformance run may have several (see run.ts, suites/last/). */
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    this.#runs++;
    this.#modules.push(...modules);
    this.#unhandled.push(...unhandled);
  }

  /** The results of every run so far; null before the first ended. */
  get results(): RunResults | null {
    return this.#runs ? collectResults(this.#modules, this.#unhandled) : null;
  }

  /** The results of the suite files `ofTarget` picks (a run of several targets); unhandled errors go to each. */
  resultsOf(ofTarget: (moduleId: string) => boolean): RunResults | null {
    return this.#runs
      ? collectResults(
          this.#modules.filter((m) => ofTarget(m.moduleId)),
          this.#unhandled,
        )
      : null;
  }
}

/** What the results say of a test that never began (vitest's words after a cancelled run, or none). */
const NEVER_BEGUN = /^(The test run was aborted|not run$|skipped$)/;

/**
 * A stopped run's results: the tests that never began say why, and a problem names the suites
 * that did not start at all (they have no test in the results).
 */
export function markNotRun(results: RunResults, reason: string, suites: readonly string[]): void {
  for (const test of results.tests) if (test.status === 'skipped' && NEVER_BEGUN.test(test.message)) test.message = `not run: ${reason}`;
  const started = new Set(results.tests.map((t) => t.suite));
  const missing = suites.filter((suite) => !started.has(suite));
  if (missing.length) results.problems.push(`not started, as the run stopped: ${missing.length} suites (${missing.join(', ')})`);
}
