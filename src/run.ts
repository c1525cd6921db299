// One conformance run: target (a deployment, or the embedded reference server), preflight
// (reports writable, target reachable, client credentials accepted), the suites under vitest with
// the shared run services, then the reports and the exit code.
//   0 nothing failed; 1 a MUST requirement failed; 2 the run could not be carried out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import type { KitConfig } from './config/config.ts';
import { suiteNameOf } from './harness/selection.ts';
import { onSignals } from './harness/signals.ts';
import { secrets } from './http/redact.ts';
import { ProgressReporter, type ProgressMode } from './report/progress.ts';
import { ResultsCollector, type RunResults } from './report/results.ts';
import { EXIT, RunError, SUITES_DIR } from './runner/base.ts';
import { pickedSelection, runPasses, writeTargetFiles } from './runner/passes.ts';
import { TargetRun } from './runner/target.ts';

export { EXIT, LATER_PASSES, PROJECT_ROOT, RunError, SUITES_DIR } from './runner/base.ts';
export { pickedSelection, pickedSuiteFiles, type SuiteRole } from './runner/passes.ts';
export { requestsBySuite } from './runner/target.ts';

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
    // No '.': the id ends the suite's module query (?target=<id>), and "x.0" there reads as a file extension, not TypeScript.
    if (!/^[A-Za-z0-9_-]+$/.test(spec.id) || runs.has(spec.id)) throw new RunError(`target id ${JSON.stringify(spec.id)} must be unique and of letters, digits, '_' and '-'`);
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
