// Issue 19, interruption: Ctrl-C (SIGINT) right after the run has changed something on the
// deployment ends the run within 15 s with exit 130, the reports marked interrupted and the HAR
// merged, and nothing left behind: what the run created is deleted, what it changed is put back.
// A run killed outright (SIGKILL) leaves its journal; the next run of the same client against
// the same target takes back what it names before its own tests, and finds the record of a POST
// whose answer never came by what it sent.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { startReference } from '../reference/server.ts';
import { runCli, SELFTEST_LIMITS, targetArgs, type CliRun } from '../testing/cli.ts';
import { hostileProxy } from '../testing/hostile.ts';

interface Signalled {
  run: CliRun;
  /** When the signal was sent, and when the run ended (ms). */
  signalledAt: number;
  ended: number;
  /** The maps of the reference's data the run changed (empty: all as before). */
  changed: string[];
}

/**
 * Runs the kit against a reference behind a proxy; when the first request whose method and path
 * end with `trigger` arrives, `signal` goes to the run's process (the request still goes on).
 * `second`: a later run with the same report directory, after the first.
 */
async function signalledRun(trigger: string, signal: NodeJS.Signals | 'Ctrl-C', suites: string[], reportDir = mkdtempSync(join(tmpdir(), 'cc-int-')), second?: string[]) {
  const ref = await startReference({ limits: SELFTEST_LIMITS, authOrigin: 'separate' });
  const before = ref.stateDigests();
  const changed = () =>
    Object.entries(ref.stateDigests())
      .filter(([map, digest]) => before[map] !== digest)
      .map(([map]) => map);
  let child: ChildProcess | null = null;
  let signalledAt = 0;
  const proxy = await hostileProxy(new URL(ref.baseUrl).origin, (_n, req) => {
    if (signalledAt === 0 && `${req.method} ${req.url?.replace(/\?.*/, '')}`.endsWith(trigger)) {
      signalledAt = Date.now();
      // Ctrl-C: SIGINT to the whole process group, the vitest workers too, as a terminal sends it.
      if (signal === 'Ctrl-C') process.kill(-child!.pid!, 'SIGINT');
      else child?.kill(signal);
    }
    return { pass: true };
  });
  try {
    const args = targetArgs(ref);
    args[1] = proxy.origin + new URL(ref.baseUrl).pathname;
    const env = { CATALOGUE_REPORT_DIR: reportDir, CATALOGUE_HAR: join(reportDir, 'run.har') };
    const run = await runCli([...args, ...suites], env, 180_000, (c) => (child = c), signal === 'Ctrl-C');
    const first: Signalled = { run, signalledAt, ended: Date.now(), changed: changed() };
    const next = second ? await runCli([...args, ...second], env) : null;
    return { first, next, changed: changed(), reportDir };
  } finally {
    await proxy.close();
    await ref.close();
  }
}

describe('Ctrl-C right after a change: exit 130 within 15 s, reports and HAR written, nothing left behind', () => {
  // A record created (journalled from the answer, and a list the server made along with it) and
  // a value changed (journalled before the request), each with the one suite that sends it. The
  // other writes take the same two ways; a killed run's PATCH /user is the test below.
  // Ctrl-C signals the vitest workers too: they must carry on until the run tells them.
  const triggers: [string, string[], 'SIGINT' | 'Ctrl-C'][] = [
    ['POST /favorites', ['favorites-model'], 'Ctrl-C'],
    ['PUT /personalization', ['user'], 'SIGINT'],
  ];
  for (const [trigger, suites, signal] of triggers) {
    test.concurrent(`${signal} as ${trigger} is on its way`, { timeout: 120_000 }, async () => {
      const { first, reportDir } = await signalledRun(trigger, signal, suites);
      const { run } = first;
      expect(first.signalledAt, `no ${trigger} was sent`).toBeGreaterThan(0);
      expect(run.code, run.stdout + run.stderr).toBe(130);
      expect(first.ended - first.signalledAt).toBeLessThan(15_000);
      expect(run.stdout).toMatch(/^SIGINT: stopping; taking back what the run changed/m);
      expect(run.stdout).toMatch(/^INTERRUPTED \(interrupted by SIGINT\)/m);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      const results = run.results as unknown as { run: { interrupted?: boolean; stopped?: string; exitCode: number } };
      expect(results.run).toMatchObject({ interrupted: true, stopped: 'interrupted by SIGINT', exitCode: 130 });
      expect(run.junit).not.toBeNull();
      // The HAR merged: one file, its parts gone.
      const har = JSON.parse(readFileSync(join(reportDir, 'run.har'), 'utf8')) as { log: { entries: unknown[] } };
      expect(har.log.entries.length).toBeGreaterThan(0);
      expect(readdirSync(reportDir).filter((f) => f.includes('part'))).toEqual([]);
      // Nothing left: the journal is gone, the deployment's data as before.
      expect(first.changed, run.stdout).toEqual([]);
      expect(existsSync(join(reportDir, '.journal')) ? readdirSync(join(reportDir, '.journal')) : []).toEqual([]);
    });
  }
});

test.concurrent('a run killed outright leaves its journal; the next run takes back what it names first, and says so', { timeout: 120_000 }, async () => {
  const { first, next, changed } = await signalledRun('PATCH /user', 'SIGKILL', ['user'], undefined, ['categories']);
  expect(first.run.code).toBeNull();
  // The user's field, and the run's beacon list (src/harness/run-beacon.ts).
  expect(first.changed.sort()).toEqual(['favoriteLists', 'users']);
  expect(next!.code, next!.stdout).toBe(0);
  // The user's field, and whatever else the killed run's workers got to before they noticed.
  expect(next!.stdout).toMatch(/^NOTE an earlier run \(\S+, started \S+\) left \d+ change\(s\) on the deployment; took back \d+: .*the user's (sex|birthyear) as before the run/m);
  expect(next!.stdout).toMatch(/^NOTE an earlier run .*the record POST \/favorite_lists created/m);
  expect(changed).toEqual([]);
});

test.concurrent('a run killed while its POST was out: the next run finds the record that POST made by what it sent, deletes it, and says so', { timeout: 120_000 }, async () => {
  // The list is made (the proxy passes the request on), but its answer never reaches the journal.
  // The first POST /favorite_lists of a run against a deployment is its beacon (src/harness/run-beacon.ts).
  const { first, next, changed } = await signalledRun('POST /favorite_lists', 'SIGKILL', ['favorites'], undefined, ['categories']);
  expect(first.run.code).toBeNull();
  expect(first.changed).toEqual(['favoriteLists']);
  expect(next!.code, next!.stdout).toBe(0);
  expect(next!.stdout).toMatch(
    /^NOTE an earlier run .* took back \d+: .*POST \/favorite_lists \{"favorite_list":\{"name":"cc-[^"]+"\}\} \(its answer never recorded; found and deleted \/favorite_lists\/\d+\)/m,
  );
  expect(next!.stdout).not.toMatch(/look for it by hand/);
  expect(changed).toEqual([]);
});
