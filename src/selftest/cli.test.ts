// The CLI's contract: exit codes 0/1/2, one clear line when the run cannot be carried out, the
// request budget honoured, skips with reasons, and no crash or hang whatever the server does.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CONFIG_KEYS } from '../config/keys.ts';
import { startReference, type RunningReference } from '../reference/server.ts';
import { runAgainstOwnReference, runCli, runCommandHere, targetArgs, type CliRun } from '../testing/cli.ts';

function expectOneLineStop(run: CliRun, pattern: RegExp): void {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^catalogue-conformance: /);
  expect(lines[0]).toMatch(pattern);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A server that answers 500 to everything and counts what it is asked: a run that must contact nothing. */
async function countingServer(): Promise<{ server: Server; url: string; requests: () => number }> {
  let requests = 0;
  const { server, url } = await listen((_req, res) => {
    requests++;
    res.writeHead(500).end();
  });
  return { server, url, requests: () => requests };
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference({ authOrigin: 'separate' });
});
afterAll(() => ref.close());

// The command runs in this process (runCommandHere) where the run stops before any suite starts;
// the process around it (the line, the exit code, no stack trace) is tested once with runCli.
describe('runs that cannot be carried out: exit 2 with one line, before any test', () => {
  test('--help lists every configuration key and exits 0', async () => {
    const run = await runCommandHere(['--help']);
    expect(run.code).toBe(0);
    for (const key of CONFIG_KEYS) {
      expect(run.stdout).toContain(key.env);
      expect(run.stdout).toContain(key.flag);
    }
  });

  test('nothing listening at the target', async () => {
    const run = await runCommandHere(['--base-url', 'http://127.0.0.1:1', '--client-id', 'someone', '--client-secret', 'something']);
    expectOneLineStop(run, /POST http:\/\/127\.0\.0\.1:1\/oauth2\/token: connection refused/);
    expect(run.results).toBeNull();
  });

  test('a target without client credentials names the missing key', async () => {
    const run = await runCommandHere(['--base-url', 'http://127.0.0.1:1']);
    expectOneLineStop(run, /configuration: CATALOGUE_CLIENT_ID \(--client-id\) is required/);
  });

  test('a wrong client secret is an authentication failure, and the secret is not echoed', async () => {
    const run = await runCommandHere([...targetArgs(ref).slice(0, -4), '--client-secret', 'not-the-secret', '--redirect-uri', ref.client.redirectUri]);
    expectOneLineStop(
      run,
      /authentication failed: POST .*\/oauth2\/token \(client credentials\) answered 401 invalid_client \(check CATALOGUE_CLIENT_ID and CATALOGUE_CLIENT_SECRET\)/,
    );
    expect(run.stderr).not.toContain('not-the-secret');
  });

  test('a malformed value from the environment names its key (the process: one line on stderr, exit 2, no stack)', async () => {
    const run = await runCli([], { CATALOGUE_MAX_REQUESTS: '1e3' });
    expectOneLineStop(run, /CATALOGUE_MAX_REQUESTS \(--max-requests\) must be a whole number, got "1e3"/);
  });

  test('values come from the dotenv file; a dotenv file named but missing stops the run', async () => {
    const file = join(tmpdir(), `cc-env-${process.pid}`);
    writeFileSync(file, 'CATALOGUE_PROFILES=read,everything\n');
    expectOneLineStop(await runCommandHere([], { CATALOGUE_DOTENV_FILE: file }), /CATALOGUE_PROFILES \(--profiles\) has unknown profile "everything"/);
    expectOneLineStop(await runCommandHere(['--dotenv-file', `${file}.missing`]), /CATALOGUE_DOTENV_FILE \(--dotenv-file\): .*\.missing does not exist/);
  });

  test('a hints file that is not JSON names the key and the file', async () => {
    const file = join(tmpdir(), `cc-hints-${process.pid}.json`);
    writeFileSync(file, '{ leafCategory: 3 ');
    const run = await runCommandHere(['--hints', file]);
    expectOneLineStop(run, /CATALOGUE_HINTS \(--hints\): .* is not JSON/);
  });

  test('a report directory that cannot be written', async () => {
    const run = await runCommandHere([], { CATALOGUE_REPORT_DIR: '/proc/catalogue-conformance-reports' });
    expectOneLineStop(run, /report directory \/proc\/catalogue-conformance-reports is not writable/);
  });

  test('a suite name that matches no suite, or a key that is not one: refused before any request, with the name meant', async () => {
    const { server, url, requests } = await countingServer();
    try {
      const target = ['--base-url', url, '--client-id', 'a', '--client-secret', 'b'];
      const [slip, none, key, flag] = await Promise.all([
        runCommandHere([...target, 'favorits']),
        // A part of the checkout's path, not of a suite's: it picks nothing.
        runCommandHere(['categories', 'main']),
        runCommandHere(target, { CATALOGUE_PROFILE: 'read' }),
        runCommandHere([...target, '--max-request', '5']),
      ]);
      expectOneLineStop(slip, /no suite, test id or requirement id matches "favorits" \(did you mean favorites\?\); the suites are .*categories/);
      expectOneLineStop(none, /no suite, test id or requirement id matches "main"; the suites are /);
      expectOneLineStop(key, /CATALOGUE_PROFILE \(in the environment\) is not a key; did you mean CATALOGUE_PROFILES\?/);
      expectOneLineStop(flag, /unknown option --max-request; did you mean --max-requests\?/);
      expect(requests()).toBe(0);
    } finally {
      await close(server);
    }
  });

  test('--list prints the suites the names pick, each test with its severity, profile, requirement ids and id, and contacts nothing', async () => {
    const { server, url, requests } = await countingServer();
    try {
      const run = await runCommandHere(['--list', '--base-url', url, '--client-id', 'a', '--client-secret', 'b', 'favorites']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^favorites-model \(suites\/favorites-model\.suite\.ts\)$/m);
      expect(run.stdout).toMatch(/^ {2}MUST read {8}GET \/favorites > .*\[FAV-\d+/m);
      expect(run.stdout).toMatch(/^ {7}id favorites\/favorite-by-id$/m);
      expect(run.stdout).not.toMatch(/^categories /m);
      expect(run.stdout).toMatch(/^\d+ tests in 2 suites$/m);
      expect(requests()).toBe(0);
    } finally {
      await close(server);
    }
  });
});

/** A run against a reference of its own: the concurrent tests' runs go in one child process. */
const ownRun = (args: (own: RunningReference) => Promise<string[]> | string[]): Promise<CliRun> =>
  runAgainstOwnReference(async (own) => [...targetArgs(own), ...(await args(own))]);

describe.concurrent('budget, profiles and hints', () => {
  test('CATALOGUE_MAX_REQUESTS is never exceeded; tests that do not fit are skipped with that reason', async () => {
    // Only the category suite: its tests are all read tests, so every skip is the budget's.
    const run = await ownRun(() => ['--max-requests', '7', 'categories']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const results = run.results!;
    expect(results.requests).toMatchObject({ total: expect.any(Number), budget: 7 });
    expect(results.requests.total).toBeLessThanOrEqual(7);
    const skipped = results.tests.filter((t) => t.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const t of skipped) expect(t.message).toMatch(/request budget/);
    expect(results.summary.failed).toBe(0);
  });

  test('tests of a profile that is not enabled are skipped with that reason', async () => {
    // Only the category suite: all of its tests are read tests.
    const run = await ownRun(() => ['--profiles', 'write', 'categories']);
    expect(run.code).toBe(0);
    const reasons = new Set(run.results!.tests.map((t) => `${t.status}: ${t.message}`));
    expect([...reasons]).toEqual(['skipped: profile read is not enabled (CATALOGUE_PROFILES=write)']);
    // Nothing ran, so nothing but the preflight's token request and GET /categories was made.
    expect(run.results!.requests.total).toBe(2);
  });

  test('a wrong discovery hint is noted, and the run still passes', async () => {
    let root = 0;
    const file = join(tmpdir(), `cc-hints-${process.pid}.json`);
    const run = await ownRun(async (own) => {
      root = ((await (await fetch(`${own.baseUrl}/categories/root`, { headers: { authorization: `Bearer ${await appToken(own)}` } })).json()) as { category: { id: number } })
        .category.id;
      writeFileSync(file, JSON.stringify({ leafCategory: root }));
      return ['--hints', file, 'categories'];
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`NOTE discovery hint leafCategory=${root} is not a leaf category`);
  });
});

async function appToken(of: RunningReference): Promise<string> {
  const response = await fetch(`${of.authUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: of.client.id, client_secret: of.client.secret, scope: 'public' }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

// The preflight meets more misbehaviours (reset, redirect loop, endless or huge body, broken JSON,
// 500 everywhere, silence) in src/harness/preflight.test.ts; here, that its one line is the CLI's.
describe('a misbehaving server: the preflight stops the run with one line naming what happened, no crash, no hang', () => {
  // Tokens come from the reference's auth server; the API answers come from a broken server.
  async function runAgainst(handler: (req: IncomingMessage, res: ServerResponse) => void, extraArgs: string[] = []) {
    const broken = await listen(handler);
    try {
      const args = targetArgs(ref);
      args[1] = `${broken.url}/api`;
      // One suite: what is judged is how the kit meets the server, not the suites' number (a run of
      // all of them would wait for the rate limit the kit assumes when no headers come).
      return { run: await runCli([...args, '--timeout-ms', '1500', ...extraArgs, 'categories']), url: broken.url };
    } finally {
      await close(broken.server);
    }
  }

  test.concurrent('HTML instead of JSON', async () => {
    const { run } = await runAgainst((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Maintenance</body></html>'));
    expectOneLineStop(run, /GET http:\/\/\S+\/api\/categories answered 200 \(text\/html\) without a JSON \{categories\} body: not the Catalogue API/);
  });

  test.concurrent('a redirect to another origin: followed, but the token stays home', async () => {
    const seen: { authorization?: string; url?: string }[] = [];
    const elsewhere = await listen((req, res) => {
      seen.push({ authorization: req.headers.authorization, url: req.url });
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":[{"code":"NotFound","messages":["elsewhere"]}]}');
    });
    try {
      const { run } = await runAgainst((req, res) => res.writeHead(307, { location: `${elsewhere.url}${req.url}` }).end());
      expectOneLineStop(run, /answered 404 NotFound \(application\/json\) after a redirect to http:\/\/127\.0\.0\.1:\d+\/api\/categories: not the Catalogue API/);
      expect(seen.length).toBeGreaterThan(0);
      for (const request of seen) {
        expect(request.authorization).toBeUndefined();
        expect(request.url).not.toMatch(/oauth_token/);
      }
    } finally {
      await close(elsewhere.server);
    }
  });
});
