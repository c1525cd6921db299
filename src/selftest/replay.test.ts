// Issue 20, point 3: the replay a failure prints is self-contained. Its token: line gets a token from
// the user's own configuration (never the run's, which no report shows), and with it the replay
// line sends the request that broke the rule: run in bash with real curl against the server the
// run judged, it gets the same answer.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../reference/server.ts';
import { runCli, SELFTEST_LIMITS, targetArgs } from '../testing/cli.ts';

const CURL = ['/usr/bin/curl', '/bin/curl'].find((path) => existsSync(path));

describe.skipIf(!CURL)('a printed replay, run as printed', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ limits: SELFTEST_LIMITS, fault: 'children-count-off-by-one' });
  });
  afterAll(async () => {
    await ref?.close();
  });

  test('token: then replay: in bash with curl gets the answer that failed, the token from CATALOGUE_CLIENT_ID and _SECRET', { timeout: 120_000 }, async () => {
    const run = await runCli([...targetArgs(ref), 'categories']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const block = run.stdout.split(/^FAIL categories > .*children_count$/m)[1] ?? '';
    const token = /^ {7}token: {2}(.*)$/m.exec(block)?.[1];
    const replay = /^ {7}replay: (curl .*)$/m.exec(block)?.[1];
    expect(token, run.stdout).toBeDefined();
    expect(replay, run.stdout).toMatch(/\/categories\/\d+\/children/);
    // Nothing of the run's token in what was printed.
    expect(`${token} ${replay}`).not.toMatch(/Bearer [A-Za-z0-9._~+/-]{8,}/);
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', CATALOGUE_CLIENT_ID: ref.client.id, CATALOGUE_CLIENT_SECRET: ref.client.secret };
    // Not spawnSync: the reference answers from this process.
    const { stdout } = await promisify(execFile)('bash', ['--norc', '--noprofile', '-c', `${token}\n${replay!.replace(/^curl -i /, 'curl -s -i ')}`], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(stdout).toMatch(/^HTTP\/1\.1 200 /);
    // The children listing the failure was about: {categories, meta}.
    expect(stdout).toMatch(/"categories":\[/);
  });
});
