// SIGINT and SIGTERM during a conformance run (issue 19): the first stops the run in order, a
// second exits at once. The run's main process alone decides: its vitest workers ignore Ctrl-C
// (src/harness/conformance.ts), and vitest's own handlers are removed (src/runner/passes.ts).
import type { RunWatchdog } from '../budget/watchdog.ts';

/** The exit code of an interrupted run (128 + SIGINT, as shells report it). */
export const INTERRUPTED_EXIT = 130;

/** A signal this soon after the first is the same one, relayed (the terminal's, then tsx's or npm's). */
const SAME_SIGNAL_MS = 1000;

/** What the handler needs of the run. */
export interface SignalledRun {
  /** Whether the suites may have begun (the run has its journal). */
  readonly started: boolean;
  readonly watchdog: RunWatchdog;
}

/**
 * The first signal stops the run (no new test; the tests in flight end at their next request;
 * what the run changed is taken back; the reports and the HAR are written; exit 130); a second
 * exits at once after `cleanUp`. Before the suites start, the first exits at once: nothing has
 * been changed yet.
 */
export function onSignals(run: SignalledRun, print: (text: string) => void, cleanUp: () => Promise<void>): { remove(): void } {
  let signalledAt = 0;
  const handler = (signal: NodeJS.Signals) => {
    if (signalledAt !== 0 && Date.now() - signalledAt < SAME_SIGNAL_MS) return;
    if (signalledAt !== 0 || !run.started) {
      print(`${signal}: exiting at once${run.started ? '; what the run changed and did not take back is in its journal, for the next run to sweep' : ''}`);
      void cleanUp().finally(() => process.exit(INTERRUPTED_EXIT));
      return;
    }
    signalledAt = Date.now();
    print(`${signal}: stopping; taking back what the run changed, then writing the reports (${signal} again exits at once)`);
    run.watchdog.stop(`interrupted by ${signal}`, 'interrupted');
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    remove() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
