// One conformance run: target (a deployment, or the embedded reference server), preflight
// (reports writable, target reachable, client credentials accepted), the suites under vitest with
// the shared run services, then the reports and the exit code.
//   0 nothing failed; 1 a MUST requirement failed; 2 the run could not be carried out.
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProvidedContext } from 'vitest';
import { BaseSequencer, createVitest, type Reporter, type TestSpecification } from 'vitest/node';
import { AuthError, loopbackConsent } from './auth/tokens.ts';
import type { KitConfig } from './config/config.ts';
import { startCoordinator, type RunningCoordinator } from './coordinator/coordinator.ts';
import { HarWriteError, startHarRecording, type HarRecording } from './har/write.ts';
import { NOT_JUDGED, type RunContext } from './harness/run-context.ts';
import { preflight } from './harness/preflight.ts';
import { createRunServices, type MainServices } from './harness/run-services.ts';
import type { RunWatchdog } from './budget/watchdog.ts';
import { RunRecords } from './harness/run-records.ts';
import { picks, SelectionError, selectionOf, suiteNameOf, type TestSelection } from './harness/selection.ts';
import { INTERRUPTED_EXIT, onSignals } from './harness/signals.ts';
import { secrets } from './http/redact.ts';
import { closestName } from './util/closest.ts';
import { EMBEDDED_WINDOW_MS, startReference, type RunningReference } from './reference/server.ts';
import { BUNDLE_HAR, writeBundle } from './report/bundle.ts';
import { applyExpectedFailures } from './report/expected.ts';
import { ProgressReporter, type ProgressMode } from './report/progress.ts';
import { markNotRun, ResultsCollector, type RunResults } from './report/results.ts';
import { terminalSummary, verdictLine } from './report/terminal.ts';
import { writeReports, type RunInfo } from './report/write.ts';
import { ensureDir } from './util/fs.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SUITES_DIR = fileURLToPath(new URL('../suites/', import.meta.url));
/**
 * Directories of suites (under SUITES_DIR) run in passes of their own, in this order, each after
 * everything before it has finished: last/ may end the run's user session (logout) and judges
 * the exchanges of the whole run; lockout/ ends every token of the client (the daily limit).
 */
export const LATER_PASSES = ['last', 'lockout'] as const;

export const EXIT = { PASS: 0, FAIL: 1, ERROR: 2, INTERRUPTED: INTERRUPTED_EXIT } as const;

/** The run cannot be carried out: one line for the user, exit code 2. */
export class RunError extends Error {
  override name = 'RunError';
}

export interface RunOptions {
  config: KitConfig;
  /** Suite name filters; empty runs every suite. */
  filters: string[];
  print: (text: string) => void;
  /** Someone is at a terminal and can consent in a browser. */
  interactive: boolean;
  /** What to show while the run goes (src/report/progress.ts); absent: nothing. */
  progress?: { mode: ProgressMode; write: (text: string) => void };
  /** --bundle: the report directory becomes an evidence bundle (src/report/bundle.ts). */
  bundle?: boolean;
}

export interface RunOutcome {
  exitCode: number;
  results: RunResults | null;
}

export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const { config, print } = options;
  const suitesDir = config.suitesDir ?? SUITES_DIR;
  // Before any request: a filter that picks no suite is a slip, not a run of nothing. From here on
  // the picked files stand for the filters (a test or requirement id picks its suites' files).
  const { files: picked, selection } = pickedSelection(suitesDir, options.filters);
  const fileFilters = options.filters.length ? picked : [];
  // A bundle holds the run's HAR: the one CATALOGUE_HAR asks for (copied), else one written for it (moved in).
  const bundleHar = options.bundle ? { path: config.har ?? join(config.reportDir, `bundle-traffic-${process.pid}.har`), move: config.har === null } : null;
  const target = new TargetRun(bundleHar ? { ...config, har: bundleHar.path } : config, print, bundleHar);
  const signals = onSignals(target, print, () => target.cleanUp());
  try {
    await target.prepare(options.interactive, null, null, fileFilters);
    if (options.filters.length) print(`Suites: ${picked.map(suiteNameOf).join(', ')} (picked by ${options.filters.map((f) => JSON.stringify(f)).join(', ')})`);
    const collector = new ResultsCollector();
    const progress =
      options.progress && options.progress.mode !== 'quiet'
        ? new ProgressReporter({ mode: options.progress.mode, write: options.progress.write, suites: picked.length, requests: () => target.requestsUsed() })
        : null;
    // vitest is given the files picked, by absolute path, so that it runs exactly those (its own filters match the whole path).
    const filters = options.filters.length ? picked.map((rel) => join(suitesDir, rel)) : [];
    await runPasses({
      dir: suitesDir,
      suitesDir,
      filters,
      reporters: progress ? [collector, progress] : [collector],
      provide: { conformanceRun: selection ? { ...target.context, selection } : target.context },
      bound: config.baseUrl === null ? 'cpu' : 'network',
      watchdog: target.watchdog,
      beforeLaterPasses: () => target.endWrites(),
    });
    await target.sweepOwn();
    const outcome = target.finish(collector.results, fileFilters);
    progress?.finish();
    print(outcome.summary);
    return { exitCode: outcome.exitCode, results: outcome.results };
  } finally {
    signals.remove();
    await target.cleanUp();
  }
}

/** One target of runConformanceMany: its configuration and suite name filters. */
export interface ManyTarget {
  id: string;
  config: KitConfig;
  filters: string[];
  /**
   * For a reference whose clock is scaled (limits.windowMs): its rate-limit minute, which the
   * pacer then keeps to. Never for a deployment: its minute is the spec's.
   */
  scaledMinuteMs?: number;
  /** Only the tests that check one of these requirement ids (RunContext.requirementsOnly); absent: every test. */
  requirements?: readonly string[];
}

export interface ManyOutcome extends RunOutcome {
  /** What `npm run conformance` would have printed for this target. */
  printed: string;
}

/**
 * Several conformance runs at once, in one vitest and one worker pool: the way the project's
 * self-tests run a hundred faulty servers in a minute instead of starting a run for each. Each
 * target has its own configuration, services (budget, pacer, tokens, discovery), HAR and
 * reports, exactly as its own `npm run conformance` would; a suite file is loaded once per target
 * through a generated file (useTarget, src/harness/conformance.ts). Targets must be on origins of
 * their own (the HAR of each keeps the exchanges with its origins). Not interactive.
 */
export async function runConformanceMany(targets: readonly ManyTarget[]): Promise<Map<string, ManyOutcome>> {
  const runs = new Map<string, { target: TargetRun; lines: string[]; spec: ManyTarget }>();
  for (const spec of targets) {
    if (!/^[A-Za-z0-9._-]+$/.test(spec.id) || runs.has(spec.id)) throw new RunError(`target id ${JSON.stringify(spec.id)} must be unique and of letters, digits, '.', '_' and '-'`);
    if (spec.config.baseUrl === null) throw new RunError(`target ${spec.id}: runConformanceMany needs a base URL (the embedded reference is one target's run)`);
    const lines: string[] = [];
    runs.set(spec.id, { target: new TargetRun(spec.config, (line) => lines.push(line)), lines, spec });
  }
  const outcomes = new Map<string, ManyOutcome>();
  const generated = mkdtempSync(join(tmpdir(), 'cc-targets-'));
  try {
    const ready: string[] = [];
    for (const [id, run] of runs) {
      try {
        await run.target.prepare(false, [run.spec.config.baseUrl!, run.spec.config.authUrl ?? run.spec.config.baseUrl!], run.spec.scaledMinuteMs ?? null, run.spec.filters);
        ready.push(id);
      } catch (error) {
        if (!(error instanceof RunError)) throw error;
        run.lines.push(`catalogue-conformance: ${secrets.scrub(error.message)}`);
        outcomes.set(id, { exitCode: EXIT.ERROR, results: null, printed: run.lines.join('\n') });
      }
    }
    const collector = new ResultsCollector();
    const suitesDir = targets[0]?.config.suitesDir ?? SUITES_DIR;
    let files = 0;
    for (const id of ready) files += writeTargetFiles(generated, id, suitesDir, runs.get(id)!.spec.filters);
    if (files > 0) {
      await runPasses({
        dir: generated,
        suitesDir,
        filters: [],
        reporters: [collector],
        provide: {
          conformanceRuns: Object.fromEntries(
            ready.map((id) => {
              const { target, spec } = runs.get(id)!;
              return [id, spec.requirements ? { ...target.context, requirementsOnly: spec.requirements } : target.context];
            }),
          ),
        },
        // One target is a deployment's run (the bench's remote run); many are the self-tests' batches, bound by CPU.
        bound: ready.length === 1 ? 'network' : 'batch',
        // A target that stops stops the whole run when it is the only one; among many, only its own requests stop.
        ...(ready.length === 1 ? { watchdog: runs.get(ready[0]!)!.target.watchdog } : {}),
        beforeLaterPasses: async () => {
          for (const id of ready) await runs.get(id)!.target.endWrites();
        },
      });
    }
    for (const id of ready) {
      const run = runs.get(id)!;
      const prefix = join(generated, id) + sep;
      const results = collector.resultsOf((moduleId) => moduleId.startsWith(prefix));
      await run.target.sweepOwn();
      const outcome = run.target.finish(results, run.spec.filters);
      run.lines.push(outcome.summary);
      outcomes.set(id, { exitCode: outcome.exitCode, results: outcome.results, printed: run.lines.join('\n') });
    }
    return outcomes;
  } finally {
    for (const { target } of runs.values()) await target.cleanUp();
    rmSync(generated, { recursive: true, force: true });
  }
}

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
function changesUserData(suitesDir: string, filters: readonly string[]): boolean {
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
function roleIn(suiteFile: string): SuiteRole {
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
function writeTargetFiles(generated: string, id: string, suitesDir: string, filters: readonly string[]): number {
  const harness = fileURLToPath(new URL('./harness/conformance.ts', import.meta.url));
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

/**
 * Runs the suite files under `dir` in passes, one vitest and one worker pool for all: every
 * suite, then those under each of LATER_PASSES, each pass after everything before it has ended.
 * A file's pass is read from its path below `dir`, or below a target's directory of generated files.
 */
async function runPasses(run: {
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
}): Promise<void> {
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
  const vitest = await createVitest(
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

/**
 * One target's run around the suites: target (a deployment, or the embedded reference server),
 * preflight (reports writable, target reachable, client credentials accepted), services and
 * coordinator, HAR; then the reports and the exit code.
 */
class TargetRun {
  readonly #config: KitConfig;
  readonly #print: (text: string) => void;
  readonly #cleanups: (() => Promise<void>)[] = [];
  readonly #startedAt = new Date().toISOString();
  #har: HarRecording | null = null;
  #reference: RunningReference | null = null;
  #main: MainServices | null = null;
  #context: RunContext | null = null;
  #baseUrl = '';
  #authUrl = '';
  #scaledMinuteMs: number | null = null;
  /** The journal, the beacon, the sweeps (src/harness/run-records.ts). */
  #records: RunRecords | null = null;

  constructor(
    config: KitConfig,
    print: (text: string) => void,
    /** --bundle: the HAR it takes in (moved when written for it alone). */
    private readonly bundleHar: { path: string; move: boolean } | null = null,
  ) {
    this.#config = config;
    this.#print = print;
  }

  /** Whether the suites may have begun (the run has its journal): a signal then stops the run in order. */
  get started(): boolean {
    return this.#records?.journal != null;
  }

  /** The run's deadline and stall detector. */
  get watchdog(): RunWatchdog {
    if (!this.#main) throw new Error('the target is not prepared');
    return this.#main.watchdog;
  }

  get context(): RunContext {
    if (!this.#context) throw new Error('the target is not prepared');
    return this.#context;
  }

  /** `harOrigins`: the origins whose exchanges this target's HAR keeps (null: every exchange of the process); `filters`: the suites picked. */
  async prepare(interactive: boolean, harOrigins: readonly string[] | null, scaledMinuteMs: number | null = null, filters: readonly string[] = []): Promise<void> {
    const config = this.#config;
    const print = this.#print;
    ensureWritable(config.reportDir);
    // Before the first request, so that the HAR holds every one of them (the preflight's token request too).
    if (config.har !== null) {
      try {
        this.#har = startHarRecording(config.har, harOrigins);
      } catch (error) {
        if (error instanceof HarWriteError) throw new RunError(error.message);
        throw error;
      }
    }

    let reference: RunningReference | null = null;
    if (config.baseUrl === null) {
      // A scaled clock: the reference's rate-limit minute lasts a second, and the pacer below
      // keeps to that minute, so the run paces as against a deployment without waiting minutes.
      reference = await startReference({ limits: { windowMs: EMBEDDED_WINDOW_MS } });
      this.#reference = reference;
      scaledMinuteMs = reference.rateWindowMs;
      this.#cleanups.push(() => reference!.close());
    }
    const baseUrl = reference?.baseUrl ?? config.baseUrl!;
    const authUrl = reference?.authUrl ?? config.authUrl!;
    this.#baseUrl = baseUrl;
    this.#authUrl = authUrl;
    const clientId = reference?.client.id ?? config.clientId!;
    const clientSecret = reference?.client.secret ?? config.clientSecret!;
    const redirectUri = reference?.client.redirectUri ?? config.redirectUri;
    secrets.add(clientSecret);
    secrets.add(config.expiredToken);

    const main = createRunServices({
      baseUrl,
      tokens: {
        authUrl,
        clientId,
        clientSecret,
        redirectUri,
        userToken: config.userToken,
        userRefreshToken: config.userRefreshToken,
      },
      apiVersion: config.apiVersion,
      mediaType: config.mediaType,
      timeoutMs: config.timeoutMs,
      maxRequests: config.maxRequests,
      hints: config.fixtures,
      interactive: interactive ? loopbackConsent((line) => print(line)) : null,
      implements: config.implements,
      // A deployment: the defaults (the spec's minute, a second's slack for clock skew).
      ...(scaledMinuteMs !== null ? { pacer: { windowMs: scaledMinuteMs, resetSlackMs: 0 } } : {}),
    });
    this.#main = main;
    this.#scaledMinuteMs = scaledMinuteMs;
    const { services, tokens } = main;

    // Preflight: an application token proves the auth server is reachable and the credentials good.
    try {
      await tokens.appToken();
    } catch (error) {
      if (error instanceof AuthError) throw new RunError(error.message);
      throw error;
    }
    // Then whether the base URL is this API at all: one line and exit 2 if not (src/harness/preflight.ts).
    const checked = await preflight(main.api('preflight'));
    if (!checked.ok) throw new RunError(checked.problem);
    if (interactive && !config.userToken && !config.userRefreshToken && redirectUri) {
      // Consent now, before the suites start, rather than while a test's clock runs.
      await tokens.userToken();
    }

    // The run's journal (a deployment's in CATALOGUE_JOURNAL_DIR; the embedded reference's, which
    // ends with the run, in a directory that goes with it), then its beacon: only a deployment may
    // be shared with a run on another machine.
    const records = new RunRecords(main);
    const journalDir = reference ? mkdtempSync(join(tmpdir(), 'cc-journal-')) : config.journalDir;
    if (reference) this.#cleanups.push(async () => rmSync(journalDir, { recursive: true, force: true }));
    await records.open(journalDir, { target: baseUrl, client: clientId });
    this.#records = records;
    const recordsOverBy = Date.now() + config.deadlineS * 1000;
    if (!reference && config.profiles.includes('write') && changesUserData(config.suitesDir ?? SUITES_DIR, filters)) await records.announce(recordsOverBy);

    const expiredToken = config.expiredToken ?? reference?.expiredToken() ?? null;
    secrets.add(expiredToken);
    const coordinator: RunningCoordinator = await startCoordinator(services);
    this.#cleanups.push(() => coordinator.close());
    this.#context = {
      coordinator: { url: coordinator.url, key: coordinator.key },
      baseUrl,
      authUrl,
      apiVersion: config.apiVersion,
      implements: config.implements,
      mediaType: config.mediaType,
      // The embedded reference says what it serves: every version is checked unless the user chose.
      versions: reference && !config.versionsGiven ? [...reference.servedVersions] : config.versions,
      client: { id: clientId, secret: clientSecret, redirectUri },
      profiles: config.profiles,
      timeoutMs: config.timeoutMs,
      expiredToken,
      seed: config.seed,
      // Drawn once for the run when CATALOGUE_SEED is not given, so that the reports can say how to replay it.
      runSeed: config.seed?.seed ?? randomInt(0x7fffffff),
      maxRequests: config.maxRequests,
      dailyLimit: config.dailyLimit,
      harParts: this.#har?.partsDir ?? null,
      concurrentRun: records.concurrentRun,
      recordsOverBy,
    };
    // The run's clock starts with the suites (a user's consent in a browser is not counted).
    main.watchdog.startDeadline(config.deadlineS);
  }

  /** Requests used so far, and the budget (for the progress line). */
  requestsUsed(): { used: number; budget: number } {
    return this.#main ? { used: this.#main.budget.spent, budget: this.#main.budget.max } : { used: 0, budget: 0 };
  }

  /** The run's writes are over: its beacon withdrawn (src/harness/run-records.ts). */
  async endWrites(): Promise<void> {
    await this.#records?.withdraw();
  }

  /** After the suites: the run's beacon and what the tests left, taken back (src/harness/run-records.ts). */
  async sweepOwn(): Promise<void> {
    await this.#records?.sweepOwn();
  }

  /** After every pass (no worker appends any more): the HAR, the reports, the summary and the exit code. */
  finish(collected: RunResults | null, filters: readonly string[]): { exitCode: number; results: RunResults; summary: string } {
    const config = this.#config;
    const { services, budget, pacer, discovery } = this.#main!;
    const reference = this.#reference;
    const results = collected;
    if (!results) throw new RunError('the suites did not run (vitest reported no results)');
    if (results.tests.length === 0 && results.problems.length === 0) {
      results.problems.push(
        filters.length
          ? `no suite matches ${filters.join(' ')} in ${config.suitesDir ?? SUITES_DIR}`
          : `no conformance test found in ${config.suitesDir ?? SUITES_DIR}`,
      );
    }
    results.problems.push(...services.problems);
    // Known deviations (CATALOGUE_EXPECTED_FAILURES): their failures are reported, not counted.
    const expectedNotes = applyExpectedFailures(results, config.expectedFailures, new Date().toISOString().slice(0, 10), config.expectedFailuresFile ?? 'CATALOGUE_EXPECTED_FAILURES');

    const harNotes: string[] = [...(this.#har?.notes ?? [])];
    let harWritten: string | null = null;
    const har = this.#har;
    if (har) {
      try {
        const merged = har.finish();
        harWritten = har.path;
        if (merged.brokenLines) harNotes.push(`HAR: ${merged.brokenLines} unreadable recorded lines left out of ${har.path}`);
        if (merged.lost) results.problems.push(`HAR: ${merged.lost} exchanges could not be recorded in ${har.path}`);
      } catch (error) {
        results.problems.push(error instanceof HarWriteError ? error.message : `HAR file ${har.path} cannot be written: ${(error as Error).message}`);
      }
    }

    if (this.bundleHar && harWritten === null) results.problems.push('--bundle: the run has no HAR, so no bundle was made');
    const { watchdog } = this.#main!;
    watchdog.clearDeadline();
    const stopped = watchdog.stopped ?? undefined;
    if (stopped !== undefined) markNotRun(results, stopped, pickedSuiteFiles(config.suitesDir ?? SUITES_DIR, filters).map(suiteNameOf));
    this.#records?.end();
    // A run that stopped early gives no verdict on the deployment: its failures may be the stop's.
    const interrupted = watchdog.kind === 'interrupted';
    const exitCode = interrupted
      ? EXIT.INTERRUPTED
      : stopped !== undefined
        ? EXIT.ERROR
        : results.summary.failed > 0
          ? EXIT.FAIL
          : results.problems.length > 0
            ? EXIT.ERROR
            : EXIT.PASS;
    const notes = [...expectedNotes, ...(this.#records?.notes ?? []), ...discovery.wrongHints.map((h) => `discovery hint ${h}`), ...harNotes];
    const setAside = results.tests.filter((t) => t.warnings.some((w) => w.message.startsWith(NOT_JUDGED))).length;
    if (setAside) notes.push(`${setAside} test(s) failed on answers another run of this client may have changed: shown as warnings, not judged; run alone to judge them`);
    if (pacer.waitedMs > 0) {
      const seconds = pacer.waitedMs < 10_000 ? (pacer.waitedMs / 1000).toFixed(1) : String(Math.round(pacer.waitedMs / 1000));
      const minute = this.#scaledMinuteMs !== null ? ` (the ${reference ? 'embedded ' : ''}reference's rate-limit minute lasts ${this.#scaledMinuteMs / 1000} s)` : '';
      notes.push(`waited ${seconds} s in all to stay inside the rate limit${minute}`);
    }
    const run: RunInfo = {
      target: this.#baseUrl,
      authUrl: this.#authUrl,
      referenceServer: reference !== null,
      apiVersion: config.apiVersion,
      implements: config.implements,
      mediaType: config.mediaType,
      profiles: config.profiles,
      startedAt: this.#startedAt,
      finishedAt: new Date().toISOString(),
      requests: { total: budget.spent, budget: budget.max, bySuite: requestsBySuite(results, budget.spent) },
      exitCode,
      ...(stopped !== undefined ? { stopped } : {}),
      ...(interrupted ? { interrupted } : {}),
      notes,
      versions: [...this.context.versions],
      seed: { seed: this.context.runSeed, ...(this.context.seed?.path ? { path: this.context.seed.path } : {}), ...(this.context.seed?.replayPath ? { replayPath: this.context.seed.replayPath } : {}), given: this.context.seed !== null },
      filters: [...filters],
      observed: services.observedCounts(),
    };
    run.exitReason = verdictLine(run);
    const paths = writeReports(config.reportDir, results, run);
    const bundle = this.bundleHar && harWritten ? makeBundle(paths.dir, this.bundleHar) : null;
    const harShown = bundle?.made && this.bundleHar?.move ? join(paths.dir, BUNDLE_HAR) : harWritten;
    const summary = terminalSummary(results, run, { ...paths, ...(harShown ? { har: harShown } : {}), ...(bundle?.made ? { bundle: paths.dir } : {}) });
    // The bundle is made after the reports it holds: its failure can only be said after them.
    if (bundle?.problem) return { exitCode: EXIT.ERROR, results, summary: `${summary}\nERROR ${bundle.problem}` };
    return { exitCode, results, summary };
  }

  /** Always, also after a failure: a run that stopped early still leaves the exchanges it made. */
  async cleanUp(): Promise<void> {
    const har = this.#har;
    if (har && !har.finished) {
      try {
        har.finish();
        this.#print(`HAR: ${har.path}`);
      } catch (error) {
        this.#print(`HAR: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    this.#main?.watchdog.clearDeadline();
    for (const cleanup of this.#cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  }
}

/** The report directory made a bundle, or why not (a disk that failed: the reports stay as they are). */
function makeBundle(dir: string, har: { path: string; move: boolean }): { made: boolean; problem?: string } {
  try {
    writeBundle(dir, har);
    return { made: true };
  } catch (error) {
    return { made: false, problem: `--bundle: ${dir} could not be made a bundle (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
}

/** Requests by suite, most first; `(run)`: those of no test (tokens, discovery, shared by all). */
export function requestsBySuite(results: RunResults, total: number): Record<string, number> {
  const counts = new Map<string, number>();
  for (const test of results.tests) counts.set(test.suite, (counts.get(test.suite) ?? 0) + test.requests);
  const byTests = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total > byTests) counts.set('(run)', total - byTests);
  return Object.fromEntries([...counts].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

function ensureWritable(dir: string): void {
  try {
    ensureDir(dir);
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new RunError(`report directory ${dir} is not writable (${(error as NodeJS.ErrnoException).code ?? 'error'}): set CATALOGUE_REPORT_DIR`);
  }
}
