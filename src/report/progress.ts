// What a run shows while it goes (issue 20, point 2): a paced run against a deployment lasts
// minutes. On a terminal, one live line, rewritten in place: tests done of those known, the
// suite running, requests used of the budget, failures so far, and an ETA. Elsewhere (CI, a
// log), one line per finished suite. `--quiet`: nothing until the summary; `--verbose`: also a
// line per test.
//
// The ETA follows the requests, which pacing makes the run's clock: the requests the tests still
// to run have reserved (src/harness/conformance.ts, `requests`), at the rate the run has kept so
// far (waits for the rate limit included). Suites not collected yet count as the average of those
// that are.
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { suiteName } from './results.ts';

export type ProgressMode = 'live' | 'lines' | 'quiet' | 'verbose';

export interface ProgressOptions {
  mode: ProgressMode;
  /** Raw output (no newline added). */
  write: (text: string) => void;
  /** How many suite files the run picked. */
  suites: number;
  /** Requests used so far, and the budget. */
  requests: () => { used: number; budget: number };
  now?: () => number;
}

/** A live line is redrawn at most this often. */
const REDRAW_MS = 100;

export class ProgressReporter implements Reporter {
  readonly #options: ProgressOptions;
  readonly #now: () => number;
  readonly #started: number;
  #testsKnown = 0;
  #testsDone = 0;
  #failed = 0;
  #suitesCollected = 0;
  #suitesDone = 0;
  /** Requests the collected tests reserved, and those of the finished ones. */
  #reserved = 0;
  #reservedDone = 0;
  #current = '';
  #lastDraw = Number.NEGATIVE_INFINITY;
  #lineShown = false;
  /** Per suite file: its counts, for its line when it ends. */
  readonly #bySuite = new Map<string, { passed: number; failed: number; skipped: number; warned: number; started: number; requestsAtStart: number }>();

  constructor(options: ProgressOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#started = this.#now();
  }

  onTestModuleCollected(module: TestModule): void {
    this.#suitesCollected++;
    for (const test of module.children.allTests()) {
      const meta = test.meta().conformance;
      if (!meta) continue;
      this.#testsKnown++;
      this.#reserved += meta.requests;
    }
  }

  onTestModuleStart(module: TestModule): void {
    this.#current = suiteName(module.moduleId);
    this.#bySuite.set(module.moduleId, { passed: 0, failed: 0, skipped: 0, warned: 0, started: this.#now(), requestsAtStart: this.#options.requests().used });
    this.#draw();
  }

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta();
    if (!meta.conformance) return;
    this.#testsDone++;
    this.#reservedDone += meta.conformance.requests;
    const state = testCase.result().state;
    const warned = state === 'passed' && (meta.outcome?.warnings.length ?? 0) > 0;
    const status = state === 'failed' ? 'failed' : state === 'skipped' || state === 'pending' ? 'skipped' : warned ? 'warned' : 'passed';
    if (status === 'failed') this.#failed++;
    const suite = this.#bySuite.get(testCase.module.moduleId);
    if (suite) suite[status]++;
    if (this.#options.mode === 'verbose') this.#line(`  ${status.toUpperCase().padEnd(7)} ${suiteName(testCase.module.moduleId)} > ${testCase.fullName}`);
    this.#draw();
  }

  onTestModuleEnd(module: TestModule): void {
    this.#suitesDone++;
    const suite = this.#bySuite.get(module.moduleId);
    if (!suite || this.#options.mode === 'quiet' || this.#options.mode === 'live') return this.#draw(true);
    const { used, budget } = this.#options.requests();
    const counts = `${suite.passed} passed, ${suite.failed} failed${suite.warned ? `, ${suite.warned} warned` : ''}${suite.skipped ? `, ${suite.skipped} skipped` : ''}`;
    const seconds = ((this.#now() - suite.started) / 1000).toFixed(1);
    this.#line(
      `${suiteName(module.moduleId)}: ${counts} (${seconds} s) | suites ${this.#suitesDone}/${this.#options.suites}, tests ${this.#testsDone}/${this.#known()}, requests ${used}/${budget}, ${this.#failed} failed so far${this.#eta()}`,
    );
  }

  /** Clears the live line, before the summary is printed. */
  finish(): void {
    if (this.#lineShown) this.#options.write('\r\x1b[2K');
    this.#lineShown = false;
  }

  /** Tests known: those collected, and the suites not collected yet at the collected ones' average. */
  #known(): string {
    const missing = this.#options.suites - this.#suitesCollected;
    return missing > 0 && this.#suitesCollected > 0 ? `${this.#testsKnown}+` : String(this.#testsKnown);
  }

  /** ", ETA m:ss" once the run has a rate to go by. */
  #eta(): string {
    const elapsed = this.#now() - this.#started;
    const { used } = this.#options.requests();
    if (used < 10 || elapsed < 2000 || this.#suitesCollected === 0) return '';
    const missing = Math.max(0, this.#options.suites - this.#suitesCollected);
    const remaining = Math.max(0, this.#reserved - this.#reservedDone) + (missing * this.#reserved) / this.#suitesCollected;
    // Tests spend less than they reserve: scaled by what the finished ones spent of theirs.
    const spentShare = this.#reservedDone > 0 ? Math.min(1, used / this.#reservedDone) : 1;
    const ms = (remaining * spentShare * elapsed) / used;
    const total = Math.round(ms / 1000);
    return `, ETA ${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
  }

  #line(text: string): void {
    this.finish();
    this.#options.write(`${text}\n`);
  }

  #draw(force = false): void {
    if (this.#options.mode !== 'live') return;
    const now = this.#now();
    if (!force && now - this.#lastDraw < REDRAW_MS) return;
    this.#lastDraw = now;
    const { used, budget } = this.#options.requests();
    const text = `[${this.#testsDone}/${this.#known()} tests] ${this.#current} | requests ${used}/${budget} | ${this.#failed} failed${this.#eta()}`;
    const width = process.stdout.columns && process.stdout.columns > 20 ? process.stdout.columns - 1 : 120;
    this.#options.write(`\r\x1b[2K${text.slice(0, width)}`);
    this.#lineShown = true;
  }
}
