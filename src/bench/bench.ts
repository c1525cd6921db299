// `npm run bench`: the speed and request-economy figures (issue 17), one figure a line, each
// with its goal beside it when it misses it. Figures, not a verdict: no test times anything.
//   - the embedded default run, as a user starts it (`npm run conformance`, a child process):
//     wall seconds, tests, requests;
//   - a remote default run: the reference served over HTTP at the spec's limits with real
//     pacing headers, on a scaled clock so that nothing waits: requests, by suite, and per MUST
//     requirement checked;
//   - the same run at the limit, on a 10 s minute: its wall time in minutes of the reference,
//     against 1.1 x (requests / 100), the least one token alone could take;
//   - the mutation part of `npm test` (src/selftest/mutation.test.ts): wall seconds;
//   - HAR judging: `npm run bench:har` on a 50 MB file, in MB/s and seconds.
//   npm run bench [-- --runs 3] [--quick]   (--quick: the embedded and the remote run only)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requirements } from '../requirements/catalogue.ts';
import { EMBEDDED_WINDOW_MS, startReference } from '../reference/server.ts';
import { runCliMany, targetArgs, type ResultsFile } from '../testing/cli.ts';
import { LATEST } from '../report/write.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The goals of issue 17. */
const GOALS = { embeddedSeconds: 10, remoteRequests: 400, npmTestSeconds: 360, harSeconds: 30 };

/** The user's environment without CATALOGUE_* keys: the user's configuration must not point the benchmark elsewhere. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('CATALOGUE_')) env[key] = value;
  return env;
}

function timed(command: string[], env: Record<string, string>): Promise<{ seconds: number; code: number | null; stdout: string }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ seconds: Number(process.hrtime.bigint() - started) / 1e9, code, stdout }));
  });
}

/** "<figure>", and " (goal ...)" when it misses the goal. */
function figure(text: string, value: number, goal: number, unit: string): string {
  return value > goal ? `${text} (goal: at most ${goal}${unit})` : text;
}

/** MUST requirements the run's tests checked (passed or failed, not skipped). */
function mustChecked(results: ResultsFile): number {
  const catalogue = requirements();
  const ids = new Set(results.tests.filter((t) => t.status !== 'skipped').flatMap((t) => t.requirements));
  return [...ids].filter((id) => catalogue.get(id)?.level === 'MUST').length;
}

async function embeddedRun(index: number): Promise<number> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cc-bench-'));
  try {
    const run = await timed([process.execPath, '--import', 'tsx', 'src/cli/main.ts'], {
      ...cleanEnv(),
      CATALOGUE_DOTENV_FILE: '/dev/null',
      CATALOGUE_REPORT_DIR: reportDir,
      CI: 'true',
    });
    const results = JSON.parse(readFileSync(join(reportDir, LATEST, 'results.json'), 'utf8')) as ResultsFile;
    const tests = Object.entries(results.summary)
      .map(([status, n]) => `${n} ${status}`)
      .join(', ');
    const label = index > 0 ? `embedded run ${index + 1}` : 'embedded run';
    console.log(figure(`${label}: ${run.seconds.toFixed(1)} s wall`, run.seconds, GOALS.embeddedSeconds, ' s'));
    console.log(`${label}: tests ${tests}`);
    console.log(`${label}: ${results.requests.total} requests, exit ${run.code}`);
    return run.code ?? 2;
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

async function remoteRun(): Promise<number> {
  // The spec's limits (100 a minute, 1,000 a day) on a scaled clock; the kit is told the minute,
  // as for the embedded run. Its configuration is a remote run's defaults (CATALOGUE_VERSIONS unset).
  const ref = await startReference({ limits: { windowMs: EMBEDDED_WINDOW_MS } });
  try {
    const run = (await runCliMany([{ id: 'remote', args: targetArgs(ref), env: { CATALOGUE_EXPIRED_TOKEN: ref.expiredToken() }, scaledMinuteMs: ref.rateWindowMs }])).get(
      'remote',
    )!;
    const results = run.results!;
    const requests = results.requests.total;
    const bySuite = (results.requests as { bySuite?: Record<string, number> }).bySuite ?? {};
    console.log(figure(`remote run: ${requests} requests (at 100 a minute: at least ${(requests / 100).toFixed(1)} min)`, requests, GOALS.remoteRequests, ''));
    console.log(
      `remote run: requests by suite: ${Object.entries(bySuite)
        .map(([suite, n]) => `${suite} ${n}`)
        .join(', ')}`,
    );
    const checked = mustChecked(results);
    console.log(`remote run: ${(requests / Math.max(1, checked)).toFixed(2)} requests per MUST requirement checked (${checked} checked)`);
    return run.code ?? 2;
  } finally {
    await ref.close();
  }
}

/** The rate-limit minute of the run at the limit: long enough that pacing, not the CPU, sets the pace. */
const LIMIT_MINUTE_MS = 10_000;

/**
 * A remote default run against the reference at the spec's limits, on a minute of LIMIT_MINUTE_MS:
 * its wall time in minutes of the reference against the goal of 1.1 x (requests / 100) minutes,
 * the least one token could take (issue 17), and how many of them each token sent.
 */
async function remoteRunAtTheLimit(): Promise<number> {
  const ref = await startReference({ limits: { windowMs: LIMIT_MINUTE_MS } });
  try {
    const run = (await runCliMany([{ id: 'limit', args: targetArgs(ref), env: { CATALOGUE_EXPIRED_TOKEN: ref.expiredToken() }, scaledMinuteMs: ref.rateWindowMs }])).get('limit')!;
    const info = (run.results as { run?: { startedAt?: string; finishedAt?: string } } | null)?.run;
    if (!run.results || !info?.startedAt || !info.finishedAt) {
      console.log(`remote run at the limit: no figures (exit ${run.code})`);
      return 2;
    }
    // The run's own span (preflight to reports), not the process start around it.
    const seconds = (Date.parse(info.finishedAt) - Date.parse(info.startedAt)) / 1000;
    const requests = run.results.requests.total;
    const minutes = (seconds * 1000) / LIMIT_MINUTE_MS;
    const goal = (1.1 * requests) / 100;
    console.log(
      figure(
        `remote run at the limit: ${minutes.toFixed(2)} minutes for ${requests} requests at 100 a minute a token (${seconds.toFixed(1)} s on a ${LIMIT_MINUTE_MS / 1000} s minute; one token alone: at least ${(requests / 100).toFixed(2)})`,
        minutes,
        Number(goal.toFixed(2)),
        ' minutes',
      ),
    );
    return run.code ?? 2;
  } finally {
    await ref.close();
  }
}

async function mutationPart(): Promise<number> {
  const run = await timed([process.execPath, join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'src/selftest/mutation.test.ts'], cleanEnv());
  const score = /mutation score: [^\n]*/.exec(run.stdout)?.[0] ?? 'no mutation score printed';
  console.log(`npm test, mutation part: ${run.seconds.toFixed(1)} s wall (${score})`);
  // Precision rides on the same runs; with a fresh seed each time, a bench run is one more sample of it.
  const precision = /requirement precision: [^\n]*(\n {2}\S[^\n]*)*/.exec(run.stdout)?.[0];
  if (precision) console.log(`npm test, mutation part: ${precision}`);
  return run.code ?? 2;
}

async function harJudging(): Promise<number> {
  const run = await timed([process.execPath, '--import', 'tsx', 'src/bench/har-bench.ts'], cleanEnv());
  const size = /: ([\d.]+) MiB, \d+ entries/.exec(run.stdout);
  const judged = /validate-traffic: ([\d.]+) s wall, peak RSS (\S+ MiB|unknown)/.exec(run.stdout);
  if (!size || !judged) {
    console.log(`HAR judging: no figures (bench:har exit ${run.code})`);
    return 2;
  }
  const mb = (Number(size[1]) * 1024 * 1024) / 1e6;
  const seconds = Number(judged[1]);
  console.log(
    figure(`HAR judging: ${(mb / seconds).toFixed(1)} MB/s (${mb.toFixed(0)} MB in ${seconds.toFixed(1)} s, peak RSS ${judged[2]})`, seconds, GOALS.harSeconds, ' s for 50 MB'),
  );
  return run.code ?? 2;
}

function parseArgs(argv: readonly string[]): { runs: number; quick: boolean } {
  const i = argv.indexOf('--runs');
  const runs = i === -1 ? 1 : Number(argv[i + 1]);
  if (!Number.isInteger(runs) || runs < 1 || runs > 20) {
    console.error('bench: --runs takes a whole number from 1 to 20');
    process.exit(2);
  }
  return { runs, quick: argv.includes('--quick') };
}

const { runs, quick } = parseArgs(process.argv.slice(2));
console.log(`bench: on ${cpus().length} cores`);
const codes: number[] = [];
for (let i = 0; i < runs; i++) codes.push(await embeddedRun(i));
codes.push(await remoteRun());
if (!quick) {
  codes.push(await remoteRunAtTheLimit());
  codes.push(await mutationPart());
  codes.push(await harJudging());
}
process.exit(codes.every((code) => code === 0) ? 0 : 1);
