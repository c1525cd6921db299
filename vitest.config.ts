// The project's own tests (`npm test`). The conformance suites under suites/ are not run
// from here: the CLI (src/cli/main.ts) runs them with its own configuration.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

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
  },
});
