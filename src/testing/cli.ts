// For the project's own tests: runs the conformance CLI as a user would, in a child process, and
// reads back what it wrote.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../cli/command.ts';
import { PROJECT_ROOT } from '../run.ts';
import { LATEST } from '../report/write.ts';
import { WINDOW_MS } from '../reference/ratelimit.ts';
import { startReference, type ReferenceOptions, type RunningReference } from '../reference/server.ts';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  reportDir: string;
  /** Parsed results.json, or null when none was written. */
  results: ResultsFile | null;
  junit: string | null;
  /** Every file under the report directory, concatenated (for secret scans). */
  allReportText(): string;
}

export interface ResultsFile {
  summary: { passed: number; failed: number; warned: number; skipped: number };
  tests: {
    id: string;
    title: string;
    requirements: string[];
    clauses?: string[];
    severity: string;
    status: string;
    message: string;
    findings: { requirements: string[]; severity: string; message: string; details?: string[]; follows?: string }[];
  }[];
  requests: { total: number; budget: number };
  problems: string[];
  /** The run's configuration as written (only what the self-tests read). */
  run?: { versions?: string[]; notes?: string[] };
}

/** What src/testing/multi-run.ts writes into each target's report directory: {code, stdout}. */
export const OUTCOME_FILE = 'cli-outcome.json';

/** Keys of the user's environment that must not leak into a test run of the CLI. */
const SCRUBBED_ENV = /^CATALOGUE_/;

/** The environment a self-test's CLI run gets: the user's without CATALOGUE_* keys, no .env, its own report directory. */
function cliEnv(reportDir: string, env: Record<string, string>): Record<string, string> {
  const cleanEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !SCRUBBED_ENV.test(key)) cleanEnv[key] = value;
  // /dev/null as the dotenv file: a developer's .env must never point a self-test at a real deployment.
  return { ...cleanEnv, CATALOGUE_DOTENV_FILE: '/dev/null', CATALOGUE_REPORT_DIR: reportDir, CI: 'true', ...env };
}

function runOf(code: number | null, stdout: string, stderr: string, reportDir: string): CliRun {
  return { code, stdout, stderr, ...readReports(reportDir) };
}

/**
 * The CLI's command (src/cli/command.ts) in this process, with what runCli would give: for the
 * runs that stop before any suite starts (configuration, credentials, a target that is not
 * there), at no process start. The process around it (one line on a crash, the exit) is
 * runCli's to test.
 */
export async function runCommandHere(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const reportDir = env['CATALOGUE_REPORT_DIR'] ?? mkdtempSync(join(tmpdir(), 'cc-report-'));
  let stdout = '';
  let stderr = '';
  const code = await runCommand(args, {
    env: cliEnv(reportDir, env),
    cwd: PROJECT_ROOT,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    interactive: false,
  });
  return runOf(code, stdout, stderr, reportDir);
}

/**
 * `onChild`: the child process, as it starts (a test that signals it); `group`: the child leads a
 * process group of its own, which a test signals as a terminal's Ctrl-C does (process.kill(-pid)).
 * An env CATALOGUE_REPORT_DIR replaces the fresh one.
 */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 120_000, onChild?: (child: ChildProcess) => void, group = false): Promise<CliRun> {
  const reportDir = env['CATALOGUE_REPORT_DIR'] ?? mkdtempSync(join(tmpdir(), 'cc-report-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: PROJECT_ROOT,
      env: cliEnv(reportDir, env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: group,
    });
    onChild?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the CLI did not finish within ${timeoutMs} ms: ${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(runOf(code, stdout, stderr, reportDir));
    });
  });
}

/**
 * Several CLI runs in one child process and one vitest (src/testing/multi-run.ts): what runCli
 * gives for each target, by id, at a fraction of the cost of a process per run. Each target
 * must be on origins of its own (a reference server of its own).
 */
export function runCliMany(
  targets: readonly { id: string; args: string[]; env?: Record<string, string>; scaledMinuteMs?: number; requirements?: string[] }[],
  timeoutMs = 600_000,
): Promise<Map<string, CliRun>> {
  const specDir = mkdtempSync(join(tmpdir(), 'cc-multi-'));
  const reportDirs = new Map(targets.map((t) => [t.id, mkdtempSync(join(tmpdir(), 'cc-report-'))]));
  const spec = targets.map((t) => ({
    id: t.id,
    args: t.args,
    env: { CATALOGUE_REPORT_DIR: reportDirs.get(t.id)!, ...t.env },
    ...(t.scaledMinuteMs ? { scaledMinuteMs: t.scaledMinuteMs } : {}),
    ...(t.requirements ? { requirements: t.requirements } : {}),
  }));
  writeFileSync(join(specDir, 'targets.json'), JSON.stringify(spec));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/testing/multi-run.ts', join(specDir, 'targets.json')], {
      cwd: PROJECT_ROOT,
      env: { ...cleanEnvironment(), CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the runs did not finish within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      rmSync(specDir, { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`multi-run exited ${code}: ${stderr}`));
      const runs = new Map<string, CliRun>();
      for (const [id, reportDir] of reportDirs) {
        const outcomePath = join(reportDir, OUTCOME_FILE);
        const outcome = existsSync(outcomePath) ? (JSON.parse(readFileSync(outcomePath, 'utf8')) as { code: number; stdout: string }) : { code: null, stdout: '' };
        runs.set(id, { ...readReports(reportDir), code: outcome.code, stdout: outcome.stdout, stderr });
      }
      resolve(runs);
    });
  });
}

/** The newest run's reports under `reportDir` (its `latest` link, src/report/write.ts). */
function readReports(reportDir: string): Pick<CliRun, 'reportDir' | 'results' | 'junit' | 'allReportText'> {
  const resultsPath = join(reportDir, LATEST, 'results.json');
  const junitPath = join(reportDir, LATEST, 'junit.xml');
  return {
    reportDir,
    results: existsSync(resultsPath) ? (JSON.parse(readFileSync(resultsPath, 'utf8')) as ResultsFile) : null,
    junit: existsSync(junitPath) ? readFileSync(junitPath, 'utf8') : null,
    allReportText: () => reportText(reportDir, OUTCOME_FILE),
  };
}

/** Every file under the report directory (the run's journal too), concatenated, but `except`. */
function reportText(reportDir: string, except?: string): string {
  return readdirSync(reportDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== except)
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

function cleanEnvironment(): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !SCRUBBED_ENV.test(key)) clean[key] = value;
  return clean;
}

/**
 * The rate-limit minute a run against `ref` must pace by, when the reference runs on a scaled
 * clock (limits.windowMs); undefined at the spec's minute.
 */
export function scaledMinuteOf(ref: RunningReference): number | undefined {
  return ref.rateWindowMs < WINDOW_MS ? ref.rateWindowMs : undefined;
}

/** CLI arguments that point the kit at a running reference server. */
/** `movedBase`: the run is pointed at the reference's old base URL (movedBaseUrl), which redirects to the base path. */
export function targetArgs(ref: RunningReference, movedBase = false): string[] {
  if (movedBase && ref.movedBaseUrl === null) throw new Error('the reference has no moved base URL (options.redirect)');
  return [
    '--base-url',
    movedBase ? ref.movedBaseUrl! : ref.baseUrl,
    '--auth-url',
    ref.authUrl,
    '--client-id',
    ref.client.id,
    '--client-secret',
    ref.client.secret,
    '--redirect-uri',
    ref.client.redirectUri,
  ];
}

/** Limits a self-test's reference runs with, so that pacing never waits (unless the test is about the limits). */
export const SELFTEST_LIMITS = Object.freeze({ perMinute: 1_000_000, perDay: 1_000_000 });

/**
 * Starts the reference (SELFTEST_LIMITS unless `options` says otherwise), runs the named suites
 * against it as the CLI would, and closes it. `changed`: whether the run left its data changed.
 * Calls made while others are waiting (a test file's concurrent tests) are run together, in one
 * child process and one vitest (runCliMany): a process per run would cost seconds each.
 */
export async function runAgainstReference(
  suites: readonly string[],
  options: ReferenceOptions = {},
  env: Record<string, string> = {},
  timeoutMs?: number,
): Promise<{ run: CliRun; changed: boolean }> {
  const ref = await startReference({ limits: SELFTEST_LIMITS, ...options });
  try {
    const before = ref.stateDigest();
    const run = await runCliBatched([...targetArgs(ref), ...suites], env, timeoutMs, scaledMinuteOf(ref));
    return { run, changed: ref.stateDigest() !== before };
  } finally {
    await ref.close();
  }
}

/**
 * runAgainstReference for any arguments: starts a reference of its own (SELFTEST_LIMITS unless
 * `options` says otherwise), runs the CLI with the arguments `argsOf` gives for it, batched as
 * runCliBatched, and closes the reference.
 */
export async function runAgainstOwnReference(
  argsOf: (ref: RunningReference) => string[] | Promise<string[]>,
  options: ReferenceOptions = {},
  env: Record<string, string> = {},
  timeoutMs?: number,
): Promise<CliRun> {
  const ref = await startReference({ limits: SELFTEST_LIMITS, ...options });
  try {
    return await runCliBatched(await argsOf(ref), env, timeoutMs, scaledMinuteOf(ref));
  } finally {
    await ref.close();
  }
}

/**
 * runCli for a run of suites against a server of its own origin, batched with the other calls
 * made meanwhile into one child process (runCliMany). What differs from runCli: stderr is the
 * batch's, and a configuration error is in stdout. `scaledMinuteMs`: the rate-limit minute of a
 * reference started with limits.windowMs.
 */
export function runCliBatched(args: string[], env: Record<string, string> = {}, timeoutMs = 120_000, scaledMinuteMs?: number): Promise<CliRun> {
  return batched({ args, env, scaledMinuteMs, timeoutMs });
}

interface QueuedRun {
  args: string[];
  env: Record<string, string>;
  scaledMinuteMs: number | undefined;
  timeoutMs: number;
  resolve: (run: CliRun) => void;
  reject: (error: unknown) => void;
}

/** How long a batch waits for more runs after the latest one came. */
const BATCH_IDLE_MS = 150;
const queued: QueuedRun[] = [];
let flushTimer: NodeJS.Timeout | null = null;
let batchCount = 0;

function batched(run: Omit<QueuedRun, 'resolve' | 'reject'>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    queued.push({ ...run, resolve, reject });
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = setTimeout(() => {
      flushTimer = null;
      void flush(queued.splice(0));
    }, BATCH_IDLE_MS);
  });
}

async function flush(batch: QueuedRun[]): Promise<void> {
  const ids = batch.map(() => `run-${++batchCount}`);
  try {
    const runs = await runCliMany(
      batch.map((q, i) => ({ id: ids[i]!, args: q.args, env: q.env, ...(q.scaledMinuteMs ? { scaledMinuteMs: q.scaledMinuteMs } : {}) })),
      Math.max(...batch.map((q) => q.timeoutMs)) + 60_000,
    );
    batch.forEach((q, i) => q.resolve(runs.get(ids[i]!)!));
  } catch (error) {
    for (const q of batch) q.reject(error);
  }
}

/** What a failed expectation shows: the CLI's output and every test that did not pass. */
export function runSummary(run: CliRun): string {
  const notPassed = run.results?.tests.filter((t) => t.status !== 'passed').map((t) => ({ title: t.title, status: t.status, message: t.message, findings: t.findings }));
  return run.stdout + run.stderr + JSON.stringify(notPassed, null, 1);
}
