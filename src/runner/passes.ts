// The suites a run picks and the order they run in: files and filters, the passes (every suite,
// then suites/last/, then suites/lockout/), readers and writers in steps, one vitest for all.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProvidedContext } from 'vitest';
import { BaseSequencer, createVitest, type Reporter, type TestSpecification } from 'vitest/node';
import type { RunWatchdog } from '../budget/watchdog.ts';
import { picks, SelectionError, selectionOf, type TestSelection } from '../harness/selection.ts';
import { ensureDir } from '../util/fs.ts';

import { LATER_PASSES, PROJECT_ROOT, RunError } from './base.ts';

/**
 * Which pass a suite file (its path relative to the suites' directory, or to a target's directory
 * of generated files) runs in: 0 for most, i + 1 for those under LATER_PASSES[i].
 */
function passOf(rel: string): number {
  const at = LATER_PASSES.findIndex((dir) => rel.startsWith(`${dir}/`));
  return at + 1;
}

/** A test of the write profile, or a request other than GET and HEAD, in a suite's source. */
const SENDS_WRITES = /profile:\s*'write'|\b(request|requestUrl)\(\s*'(POST|PUT|PATCH|DELETE)'|\bmethod:\s*'(POST|PUT|PATCH|DELETE)'/;
/** A test of the write profile: it changes the user's data (in the first pass; logout, later, ends a session only). */
const CHANGES_THE_USERS_DATA = /profile:\s*'write'/;

/** Whether a suite the filters pick may change the user's data (the run then announces itself: src/harness/run-beacon.ts). */
export function changesUserData(suitesDir: string, filters: readonly string[]): boolean {
  return pickedSuiteFiles(suitesDir, filters).some((rel) => {
    if (passOf(rel) > 0) return false;
    try {
      return CHANGES_THE_USERS_DATA.test(readFileSync(join(suitesDir, rel), 'utf8'));
    } catch {
      return true;
    }
  });
}

/** A reader that asks for much of what other readers ask (its answers without parameters): it runs after them, and reuses theirs. */
const READS_AFTER_READERS = /^export const RUNS_AFTER_THE_OTHER_READERS = true;/m;
/**
 * A writer whose writes are all meant to be refused (permission checks): it runs after the other
 * writers, so that the writes it sends, each of which may change any answer for all the run
 * knows, come after the others have reused what the readers got.
 */
const WRITES_AFTER_WRITERS = /^export const RUNS_AFTER_THE_OTHER_WRITERS = true;/m;
/**
 * A writer whose first tests only read what the readers have read already: it runs before the
 * other writers, so that those reads are answered from the readers' answers, not asked again.
 */
const WRITES_BEFORE_WRITERS = /^export const RUNS_BEFORE_THE_OTHER_WRITERS = true;/m;

/** When a suite of the first pass runs: with the readers, after them, with the writers (one suite at a time), before or after them. */
export type SuiteRole = 'reader' | 'late reader' | 'early writer' | 'writer' | 'late writer';

/** The role of a suite file, from its source: SENDS_WRITES (also writes it expects refused), and the markers above. */
export function roleIn(suiteFile: string): SuiteRole {
  try {
    const source = readFileSync(suiteFile, 'utf8');
    if (SENDS_WRITES.test(source)) return WRITES_AFTER_WRITERS.test(source) ? 'late writer' : WRITES_BEFORE_WRITERS.test(source) ? 'early writer' : 'writer';
    return READS_AFTER_READERS.test(source) ? 'late reader' : 'reader';
  } catch {
    return 'reader';
  }
}

/**
 * The steps of a run, each after the one before has ended: the passes in order (LATER_PASSES),
 * the first pass in firstPassSteps'.
 */
function runSteps<T>(files: readonly T[], suiteOf: (file: T) => string, roleOf: (suite: string) => SuiteRole): T[][] {
  const steps: T[][] = [];
  for (let pass = 0; pass <= LATER_PASSES.length; pass++) {
    const inPass = files.filter((f) => passOf(suiteOf(f)) === pass);
    if (pass === 0) steps.push(...firstPassSteps(inPass, suiteOf, roleOf));
    else if (inPass.length) steps.push(inPass);
  }
  return steps;
}

/** vitest's order (BaseSequencer), then runSteps' (one worker runs the files in this order). */
function stepsInOrder(suiteOf: (spec: TestSpecification) => string, roleOf: (suite: string) => SuiteRole): typeof BaseSequencer {
  return class StepsInOrder extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      return runSteps(await super.sort(files), suiteOf, roleOf).flat();
    }
  };
}

/**
 * The steps of the first pass, each run after the one before has ended: every file that only
 * reads, in parallel; then the late readers (their baselines are the readers' answers, reused);
 * then the files that write, one suite at a time (with a batch of targets, that suite's file of
 * every target at once: each target is a server of its own), the early writers first and the late
 * writers last.
 *   - Two suites writing the user's data at once would see each other's writes (a favorite
 *     listed, then deleted by the other before it is asked for) and fail a correct server;
 *     a reader would see a collection change between its pages.
 *   - No write comes while the readers run, so the answers they get stay valid for reuse
 *     (src/harness/reuse.ts) for all of them, and for the late readers.
 */
function firstPassSteps<T>(files: readonly T[], suiteOf: (file: T) => string, roleOf: (suite: string) => SuiteRole): T[][] {
  const withRole = (role: SuiteRole): T[] => files.filter((f) => roleOf(suiteOf(f)) === role);
  /** One step per suite, in name order. */
  const oneSuiteEach = (writers: T[]): T[][] => {
    const bySuite = new Map<string, T[]>();
    for (const file of writers) bySuite.set(suiteOf(file), [...(bySuite.get(suiteOf(file)) ?? []), file]);
    return [...bySuite.keys()].sort().map((suite) => bySuite.get(suite)!);
  };
  const steps = [withRole('reader'), withRole('late reader'), ...(['early writer', 'writer', 'late writer'] as const).flatMap((role) => oneSuiteEach(withRole(role)))];
  return steps.filter((step) => step.length > 0);
}

/**
 * Whether a suite name filter picks a suite file: part of its path below suitesDir ("favorites",
 * "last/"), or the end of its whole path ("suites/search.suite.ts", as a shell completes it). Not
 * any part of the whole path: "main" would pick every suite of a checkout in /work/main.
 */

/** The suite files under suitesDir (paths relative to it) that one of the filters picks (all without one). */
function suiteFilesOf(suitesDir: string, filters: readonly string[]): string[] {
  const files = readdirSync(suitesDir, { recursive: true, encoding: 'utf8' })
    .map((rel) => rel.split(sep).join('/'))
    .filter((rel) => rel.endsWith('.suite.ts') && !rel.includes('node_modules/'));
  return files.filter((rel) => filters.length === 0 || filters.some((f) => picks(f, suitesDir, rel))).sort();
}

/**
 * The suite files the filters pick (suiteFilesOf); a filter that matches none is refused, with
 * the closest suite name and the list.
 */
export function pickedSuiteFiles(suitesDir: string, filters: readonly string[]): string[] {
  return pickedSelection(suitesDir, filters).files;
}

/** The suite files the filters pick (suites, test ids, requirement ids: src/harness/selection.ts), and which of their tests run. */
export function pickedSelection(suitesDir: string, filters: readonly string[]): { files: string[]; selection: TestSelection | null } {
  try {
    return selectionOf(suitesDir, suiteFilesOf(suitesDir, []), filters);
  } catch (error) {
    if (error instanceof SelectionError) throw new RunError(error.message);
    throw error;
  }
}

/** Writes, for target `id`, one file per suite that loads the suite against the target. */
export function writeTargetFiles(generated: string, id: string, suitesDir: string, filters: readonly string[]): number {
  const harness = fileURLToPath(new URL('../harness/conformance.ts', import.meta.url));
  const files = suiteFilesOf(suitesDir, filters);
  for (const rel of files) {
    const file = join(generated, id, rel);
    ensureDir(dirname(file));
    const from = (path: string) => {
      const r = relative(dirname(file), path).split(sep).join('/');
      return r.startsWith('.') ? r : `./${r}`;
    };
    writeFileSync(
      file,
      `// Generated by runConformanceMany (src/run.ts): ${rel} against target ${id}.\n` +
        `import { useTarget } from ${JSON.stringify(from(harness))};\n` +
        `useTarget(${JSON.stringify(id)});\n` +
        // The query makes the suite a module of its own per target (its module state too).
        `await import(${JSON.stringify(`${from(join(suitesDir, rel))}?target=${id}`)});\n`,
    );
  }
  return files.length;
}

/**
 * vitest's cache of transformed modules on disk (experimental.fsModuleCache), kept between runs:
 * a run starts about a second sooner. Only where the kit may write (with an unwritable cache
 * directory vitest hangs), else no cache.
 */
function moduleCache(): { experimental?: { fsModuleCache: true; fsModuleCachePath: string } } {
  const dir = join(PROJECT_ROOT, 'node_modules', '.experimental-vitest-cache');
  try {
    mkdirSync(dir, { recursive: true });
    const probe = join(dir, `.writable-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe);
    return { experimental: { fsModuleCache: true, fsModuleCachePath: dir } };
  } catch {
    return {};
  }
}

/**
 * Workers for a run against a deployment: its pace is set by the network and the rate limit (one
 * minute's calls per token), not by the CPU, and workers in parallel keep the application and the
 * user token busy at once (the pacer, shared through the coordinator, keeps each within its limit).
 */
const NETWORK_WORKERS = 4;

/** What runPasses runs: the suites' directory (or a batch's of generated files), the filters, the reporters and what the workers are given. */
export interface PassesRun {
  dir: string;
  suitesDir: string;
  filters: string[];
  reporters: Reporter[];
  provide: Partial<ProvidedContext>;
  /** 'cpu': the embedded reference; 'network': one deployment; 'batch': many targets at once (vitest's default workers). */
  bound: 'cpu' | 'network' | 'batch';
  /**
   * When it stops the run, no new step starts. vitest is not cancelled: a test in flight ends at
   * its next request (RunStoppedError), with its own bookkeeping (the journal) done, and the tests
   * not begun are skipped at once (their reservation is refused with the reason).
   */
  watchdog?: RunWatchdog;
  /** Before the first pass after the main one (LATER_PASSES): the run's writes are over (src/harness/run-records.ts). */
  beforeLaterPasses?: () => Promise<void>;
}

/**
 * Runs the suite files under `dir` in passes, one vitest and one worker pool for all: every
 * suite, then those under each of LATER_PASSES, each pass after everything before it has ended.
 * A file's pass is read from its path below `dir`, or below a target's directory of generated files.
 */
export async function runPasses(run: PassesRun): Promise<void> {
  const relOf = (moduleId: string): string => {
    const rel = relative(run.dir, moduleId).split(sep).join('/');
    // Generated files: <target>/<path of the suite>.
    return run.provide.conformanceRuns ? rel.slice(rel.indexOf('/') + 1) : rel;
  };
  const suiteOf = (spec: TestSpecification): string => relOf(spec.moduleId);
  // Each suite's source is read once, however many targets and sorts ask.
  const roles = new Map<string, SuiteRole>();
  const roleOf = (rel: string): SuiteRole => {
    if (!roles.has(rel)) roles.set(rel, roleIn(join(run.suitesDir, rel)));
    return roles.get(rel)!;
  };
  const signalListeners = { SIGINT: new Set(process.listeners('SIGINT')), SIGTERM: new Set(process.listeners('SIGTERM')) };
  const vitest = await suitesVitest(run, suiteOf, roleOf);
  // vitest exits the process on SIGINT and SIGTERM; a conformance run handles them itself (onSignals).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) for (const listener of process.listeners(signal)) if (!signalListeners[signal].has(listener)) process.off(signal, listener);
  try {
    const specifications = await vitest.globTestSpecifications(run.filters);
    // No file at all still makes a run, so that the reporters hear of it (and say no suite matched).
    if (specifications.length === 0) await vitest.runTestSpecifications([]);
    // One worker runs the files one after another, in the steps' order (stepsInOrder): one run
    // of vitest does it, sparing the worker that each run starts (about half a second).
    if (vitest.config.maxWorkers === 1) {
      if (specifications.length) await vitest.runTestSpecifications(specifications);
    } else {
      let laterPasses = false;
      for (const step of runSteps(specifications, suiteOf, roleOf)) {
        if (run.watchdog?.stopped) break;
        if (!laterPasses && step.every((spec) => passOf(suiteOf(spec)) > 0)) {
          laterPasses = true;
          await run.beforeLaterPasses?.();
        }
        await vitest.runTestSpecifications(step);
      }
    }
  } finally {
    await vitest.close();
  }
}

/** One vitest for every pass of the run: the suites under `run.dir`, in the steps' order, in worker threads as the target is bound. */
function suitesVitest(run: PassesRun, suiteOf: (spec: TestSpecification) => string, roleOf: (rel: string) => SuiteRole): ReturnType<typeof createVitest> {
  return createVitest(
    'test',
    {
      watch: false,
      config: false,
      root: PROJECT_ROOT,
      dir: run.dir,
      include: ['**/*.suite.ts'],
      exclude: ['**/node_modules/**'],
      reporters: run.reporters,
      provide: run.provide,
      passWithNoTests: true,
      // Console output of suites would interleave with the summary; the reports carry everything.
      silent: true,
      // Suite files share their worker's modules, so the schemas compile once per worker, not
      // once per suite file (the suites keep no state of their own in modules).
      isolate: false,
      // The embedded reference answers from this process: the run is bound by CPU, and one
      // worker thread beside the server does it fastest. A deployment's run is bound by the
      // network and the rate limit: workers in parallel keep both tokens busy. Threads, not
      // processes: a process per worker held about 120 MB more each (issue 19: a run stays under
      // 600 MB, whatever the deployment sends).
      ...(run.bound === 'cpu' ? { pool: 'threads', maxWorkers: 1 } : run.bound === 'network' ? { pool: 'threads', maxWorkers: NETWORK_WORKERS } : {}),
      sequence: { sequencer: stepsInOrder(suiteOf, roleOf) },
      ...moduleCache(),
    },
    {},
    { stdout: process.stdout, stderr: process.stderr },
  );
}
