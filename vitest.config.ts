// The project's own tests (`npm test`). The conformance suites under suites/ are not run
// from here: the CLI (src/cli/main.ts) runs them with its own configuration.
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files that take longest (child processes, many conformance runs, or waits on purpose),
 * longest first, as vitest's duration cache measured them on 2 cores: started first so that no
 * long one is left running alone at the end. vitest orders by the durations of the last run, but
 * a fresh clone (CI) has none and orders by file size, which put the mutation runs last.
 */
const LONGEST_FIRST = [
  'src/selftest/mutation.test.ts',
  'src/selftest/legal-variants.test.ts',
  'src/selftest/bounded-time.test.ts',
  'src/reference/faults.test.ts',
  'src/selftest/fieldsets-suite.test.ts',
  'src/selftest/category-suite.test.ts',
  'src/selftest/full-run.test.ts',
  'src/selftest/interruption.test.ts',
  'src/requirements/coverage.test.ts',
  'src/selftest/skus-shops-suite.test.ts',
  'src/selftest/caching-suites.test.ts',
  'src/selftest/account-suite.test.ts',
  'src/selftest/har-recording.test.ts',
  'src/selftest/search-suite.test.ts',
  'src/selftest/favorites-model-suite.test.ts',
  'src/selftest/cli.test.ts',
  'src/selftest/package.test.ts',
  'src/reference/skus.test.ts',
  'src/reference/skus-cards.test.ts',
  'src/selftest/versioning-suite.test.ts',
  'src/selftest/observed-suite.test.ts',
  'src/selftest/category-listings-suite.test.ts',
  'src/selftest/pagination-suite.test.ts',
  'src/selftest/reviews-suite.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const at = LONGEST_FIRST.indexOf(relative(file.project.config.root, file.moduleId).split('\\').join('/'));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    // Array.prototype.sort is stable: the others keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Concurrent self-tests of one file batch their conformance runs into one child process
    // (runAgainstReference, src/testing/cli.ts): let them all start at once.
    maxConcurrency: 32,
    // The self-test files mostly wait for the conformance runs of their child processes: one
    // worker more than vitest's default (cores - 1) keeps every core busy on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
  },
});
