// Loaded in every vitest worker of a conformance run (setupFiles, src/run.ts). Ctrl-C in a
// terminal signals the whole process group: a worker that died of it would leave its test's
// changes on the deployment. The run's main process handles the signal (it stops the run, and
// the tests in flight end at their next request); the worker carries on until told.
const KEY = Symbol.for('catalogue-conformance.worker-signals');
const state = globalThis as { [KEY]?: true };
if (!state[KEY]) {
  state[KEY] = true;
  process.on('SIGINT', () => undefined);
}
