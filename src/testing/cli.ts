// For the project's own tests: runs the conformance CLI as a user would, in a child process, and
// reads back what it wrote.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../run.ts';
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
    severity: string;
    status: string;
    message: string;
    findings: { requirements: string[]; severity: string; message: string; details?: string[] }[];
  }[];
  requests: { total: number; budget: number };
  problems: string[];
}

/** Keys of the user's environment that must not leak into a test run of the CLI. */
const SCRUBBED_ENV = /^CATALOGUE_/;

export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<CliRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cc-report-'));
  const cleanEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !SCRUBBED_ENV.test(key)) cleanEnv[key] = value;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: PROJECT_ROOT,
      // /dev/null as the dotenv file: a developer's .env must never point a self-test at a real
      // deployment.
      env: { ...cleanEnv, CATALOGUE_DOTENV_FILE: '/dev/null', CATALOGUE_REPORT_DIR: reportDir, CI: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
      const resultsPath = join(reportDir, 'results.json');
      const junitPath = join(reportDir, 'junit.xml');
      resolve({
        code,
        stdout,
        stderr,
        reportDir,
        results: existsSync(resultsPath) ? (JSON.parse(readFileSync(resultsPath, 'utf8')) as ResultsFile) : null,
        junit: existsSync(junitPath) ? readFileSync(junitPath, 'utf8') : null,
        allReportText: () => readdirSync(reportDir).map((f) => readFileSync(join(reportDir, f), 'utf8')).join('\n'),
      });
    });
  });
}

/** CLI arguments that point the kit at a running reference server. */
export function targetArgs(ref: RunningReference): string[] {
  return ['--base-url', ref.baseUrl, '--auth-url', ref.authUrl, '--client-id', ref.client.id, '--client-secret', ref.client.secret, '--redirect-uri', ref.client.redirectUri];
}

/** Limits a self-test's reference runs with, so that pacing never waits (unless the test is about the limits). */
export const SELFTEST_LIMITS = Object.freeze({ perMinute: 1_000_000, perDay: 1_000_000 });

/**
 * Starts the reference (SELFTEST_LIMITS unless `options` says otherwise), runs the named suites
 * against it through the CLI, and closes it. `changed`: whether the run left its data changed.
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
    const run = await runCli([...targetArgs(ref), ...suites], env, timeoutMs);
    return { run, changed: ref.stateDigest() !== before };
  } finally {
    await ref.close();
  }
}

/** What a failed expectation shows: the CLI's output and every test that did not pass. */
export function runSummary(run: CliRun): string {
  const notPassed = run.results?.tests
    .filter((t) => t.status !== 'passed')
    .map((t) => ({ title: t.title, status: t.status, message: t.message, findings: t.findings }));
  return run.stdout + run.stderr + JSON.stringify(notPassed, null, 1);
}
