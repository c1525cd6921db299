// `npm run bench`: the default conformance run against the embedded reference server, as a user
// starts it (`npm run conformance`, in a child process), timed. Prints wall seconds, the requests
// made, the tests run by status and the time spent waiting for the rate limit. Figures, not a
// verdict: speed goals are judged from them, never by a timed test.
//   npm run bench [-- --runs 3]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Figures {
  seconds: number;
  exitCode: number | null;
  requests: number;
  tests: Record<string, number>;
  waitedSeconds: number;
}

function oneRun(): Promise<Figures> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cc-bench-'));
  // The user's configuration must not point the benchmark elsewhere: no .env, no CATALOGUE_* keys.
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('CATALOGUE_')) env[key] = value;
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts'], {
      cwd: ROOT,
      env: { ...env, CATALOGUE_DOTENV_FILE: '/dev/null', CATALOGUE_REPORT_DIR: reportDir, CI: 'true' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      try {
        const results = JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as {
          summary: Record<string, number>;
          requests: { total: number };
        };
        const waited = /waited (\d+) s in all/.exec(stdout);
        resolve({ seconds, exitCode: code, requests: results.requests.total, tests: results.summary, waitedSeconds: waited ? Number(waited[1]) : 0 });
      } catch (error) {
        reject(new Error(`the run wrote no results (exit ${code}): ${(error as Error).message}\n${stdout}`));
      } finally {
        rmSync(reportDir, { recursive: true, force: true });
      }
    });
  });
}

function parseRuns(argv: readonly string[]): number {
  const i = argv.indexOf('--runs');
  if (i === -1) return 1;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 20) {
    console.error('bench: --runs takes a whole number from 1 to 20');
    process.exit(2);
  }
  return n;
}

const runs = parseRuns(process.argv.slice(2));
console.log(`bench: ${runs} default conformance run(s) against the embedded reference server (limits as the spec states: 100 a minute per token)`);
const all: Figures[] = [];
for (let i = 1; i <= runs; i++) {
  const f = await oneRun();
  all.push(f);
  const tests = Object.entries(f.tests).map(([status, n]) => `${n} ${status}`).join(', ');
  console.log(`run ${i}: ${f.seconds.toFixed(1)} s wall, ${f.requests} requests, tests ${tests}, ${f.waitedSeconds} s waiting for the rate limit, exit ${f.exitCode}`);
}
if (runs > 1) {
  const seconds = all.map((f) => f.seconds).sort((a, b) => a - b);
  console.log(`median ${seconds[Math.floor(seconds.length / 2)]!.toFixed(1)} s wall over ${runs} runs`);
}
process.exit(all.every((f) => f.exitCode === 0) ? 0 : 1);
