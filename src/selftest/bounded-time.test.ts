// Issue 19, bounded time: a target that stops answering in the middle of a run ends it within
// 60 s with exit 2, one line saying what happened and the reports written; the run's deadline
// (CATALOGUE_DEADLINE_S) ends it likewise; a 300 MB answer to every request ends it with its
// processes under 600 MB; a slow target that does answer is judged as usual.
// The deployment is the reference behind a proxy that misbehaves from its n-th request on.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../reference/server.ts';
import { runCli, SELFTEST_LIMITS, targetArgs } from '../testing/cli.ts';
import { hostileProxy, silence, type Behaviour } from '../testing/hostile.ts';
import { available as memoryMeasured, watchTreeMemory } from '../testing/memory.ts';

let ref: RunningReference;
beforeAll(async () => {
  // Tokens from an origin of their own: the proxy breaks the API alone.
  ref = await startReference({ limits: SELFTEST_LIMITS, authOrigin: 'separate' });
});
afterAll(() => ref.close());

/**
 * Runs the kit against the reference behind a proxy behaving as `behave` says; `stalledAt`: when it
 * began to misbehave. `peakBytes`: the most memory the run's processes held at once (0 where it
 * cannot be measured).
 */
async function runBehind(behave: (n: number) => Behaviour, args: string[], env: Record<string, string> = {}) {
  const proxy = await hostileProxy(new URL(ref.baseUrl).origin, behave);
  let watch: { stop(): number } | null = null;
  try {
    const target = targetArgs(ref);
    target[1] = proxy.origin + new URL(ref.baseUrl).pathname;
    const started = Date.now();
    const run = await runCli([...target, ...args], env, 180_000, (child) => {
      if (memoryMeasured && child.pid) watch = watchTreeMemory(child.pid);
    });
    return { run, ended: Date.now(), started, peakBytes: (watch as { stop(): number } | null)?.stop() ?? 0 };
  } finally {
    await proxy.close();
  }
}

/** An answer of 300 MB of JSON-looking text, sent as fast as the client reads it, until it hangs up. */
const HUGE_BODY: Behaviour = {
  answer: (_req, res) => {
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    let sent = 0;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * 1024 * 1024) });
    res.write('{"categories": "');
    const more = () => {
      while (sent < 300 && !res.destroyed) {
        sent++;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      if (!res.destroyed) res.end();
    };
    res.on('close', () => (sent = 300));
    more();
  },
};

describe('a target that stops in the middle of a run', () => {
  test.concurrent('silence after 25 requests: the run stops within 60 s of it, exit 2, the cause said first, the reports written', { timeout: 120_000 }, async () => {
    let stalledAt = 0;
    const { run, ended } = await runBehind(
      (n) => {
        if (n < 25) return { pass: true };
        if (stalledAt === 0) stalledAt = Date.now();
        return silence;
      },
      ['--timeout-ms', '3000', 'categories', 'manufacturers', 'skus'],
    );
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(stalledAt).toBeGreaterThan(0);
    expect(ended - stalledAt).toBeLessThan(60_000);
    expect(run.stdout).toMatch(
      /^STOPPED the target stopped answering: \d+ requests in a row got no answer in \d+ s, the last GET http:\/\/127\.0\.0\.1:\d+\/\S+: no complete response within 3000 ms$/m,
    );
    expect(run.stdout).toMatch(/^ERROR: the run stopped before its end \(the target stopped answering/m);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.results).not.toBeNull();
    expect((run.results as unknown as { run: { stopped?: string; exitCode: number } }).run).toMatchObject({
      stopped: expect.stringMatching(/^the target stopped answering/),
      exitCode: 2,
    });
    expect(existsSync(join(run.reportDir, 'latest', 'junit.xml'))).toBe(true);
    // Tests not begun say why, and suites not started are named: one or the other, as the stall falls.
    const notRun = run.results!.tests.filter((t) => t.status === 'skipped' && t.message.startsWith('not run: the target stopped answering'));
    const notStarted = run.results!.problems.filter((p) => /^not started, as the run stopped: \d+ suites/.test(p));
    expect(notRun.length + notStarted.length, run.stdout).toBeGreaterThan(0);
  });

  test.concurrent('the run deadline: CATALOGUE_DEADLINE_S passed, exit 2, the reports written', { timeout: 120_000 }, async () => {
    const { run, started, ended } = await runBehind(() => ({ pass: true, delayMs: 500 }), ['categories', 'manufacturers', 'skus'], { CATALOGUE_DEADLINE_S: '3' });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stdout).toMatch(/^STOPPED the run passed its deadline of 3 s \(CATALOGUE_DEADLINE_S\)$/m);
    expect(run.results).not.toBeNull();
    expect(run.results!.tests.length).toBeGreaterThan(0);
    // The deadline, an exchange's timeout and the process around the run.
    expect(ended - started).toBeLessThan(60_000);
  });
});

test.concurrent(
  'a 300 MB answer to every request after the first 20: the run ends with exit 1 or 2 within 60 s, its processes under 600 MB, no stack trace, the reports written',
  { timeout: 120_000 },
  async () => {
    const { run, started, ended, peakBytes } = await runBehind((n) => (n <= 20 ? { pass: true } : HUGE_BODY), ['categories', 'manufacturers', 'skus']);
    expect([1, 2], run.stdout + run.stderr).toContain(run.code);
    expect(ended - started).toBeLessThan(60_000);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.results).not.toBeNull();
    expect(existsSync(join(run.reportDir, 'latest', 'junit.xml'))).toBe(true);
    // Each answer is read up to the body cap (8 MB) and given up: the size of the answers does not add up.
    if (memoryMeasured) expect(peakBytes / 2 ** 20, "peak MiB of the run's processes").toBeLessThan(600);
  },
);

test.concurrent('a slow target that answers (1.5 s on every answer) is judged as any other: exit 0', { timeout: 120_000 }, async () => {
  const { run } = await runBehind(() => ({ pass: true, delayMs: 1500 }), ['categories']);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.results!.summary.failed).toBe(0);
  expect(run.results!.summary.passed).toBeGreaterThan(0);
});
