// Issue 19, point 5: two runs of the same client against the same deployment at the same time
// either both pass or say why not, never a false FAIL, and neither touches what the other made.
// On one machine a run sees the other's journal; from two machines, its beacon list on the
// deployment (src/harness/run-beacon.ts). A run that finds another skips its writes; a test that
// read the user's data and failed beside another run is a warning saying so, not a verdict.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BEACON_WHAT } from '../harness/run-beacon.ts';
import { startReference, type ReferenceOptions, type RunningReference } from '../reference/server.ts';
import { runCli, SELFTEST_LIMITS, targetArgs } from '../testing/cli.ts';
import { hostileProxy } from '../testing/hostile.ts';
import { servicesFor } from '../testing/services.ts';
import { kitName } from '../util/kit-names.ts';

const SKIPPED_BESIDE = "the user's data is shared with another run";

/** A reference with a beacon list of another machine's run still going (its time not come). */
async function referenceWithLiveBeacon(options: ReferenceOptions = {}): Promise<{ ref: RunningReference; beacon: string }> {
  const ref = await startReference({ limits: SELFTEST_LIMITS, ...options });
  const beacon = kitName(BEACON_WHAT, Date.now() + 600_000);
  const made = await servicesFor(ref)
    .api('other machine')
    .request('POST', '/favorite_lists', { auth: 'user', json: { favorite_list: { name: beacon } } });
  expect(made.status).toBe(201);
  return { ref, beacon };
}

const machine = () => ({ CATALOGUE_REPORT_DIR: mkdtempSync(join(tmpdir(), 'cc-machine-')) });

describe('two runs of the same client at once', () => {
  test.concurrent('on one machine (one journal directory): both pass, the later names the other and leaves the user data to it', { timeout: 120_000 }, async () => {
    const ref = await startReference({ limits: SELFTEST_LIMITS });
    try {
      const before = ref.stateDigest();
      const reportDir = mkdtempSync(join(tmpdir(), 'cc-two-'));
      const env = { CATALOGUE_REPORT_DIR: reportDir };
      const [a, b] = await Promise.all([runCli([...targetArgs(ref), 'favorites', 'user'], env), runCli([...targetArgs(ref), 'favorites', 'user'], env)]);
      expect(a.code, a.stdout).toBe(0);
      expect(b.code, b.stdout).toBe(0);
      const noted = [a, b].filter((r) => /^NOTE another run of this client against this target was going on/m.test(r.stdout));
      expect(noted.length).toBeGreaterThan(0);
      for (const run of noted) expect(run.results!.tests.filter((t) => t.status === 'skipped' && t.message.startsWith(SKIPPED_BESIDE)).length).toBeGreaterThan(0);
      expect(ref.stateDigest()).toBe(before);
    } finally {
      await ref.close();
    }
  });

  // Two machines: each run has a journal directory of its own, so neither sees the other's journal;
  // their beacon lists on the deployment tell them apart.
  test.concurrent('from two machines (journals apart): both pass, and never both change the user data', { timeout: 120_000 }, async () => {
    const ref = await startReference({ limits: SELFTEST_LIMITS });
    try {
      const before = ref.stateDigest();
      const [a, b] = await Promise.all([runCli([...targetArgs(ref), 'favorites', 'user'], machine()), runCli([...targetArgs(ref), 'favorites', 'user'], machine())]);
      expect(a.code, a.stdout).toBe(0);
      expect(b.code, b.stdout).toBe(0);
      const wrote = [a, b].filter((r) => !r.results!.tests.some((t) => t.status === 'skipped' && t.message.startsWith(`${SKIPPED_BESIDE} of this client, whose beacon list`)));
      expect(wrote.length, `${a.stdout}\n${b.stdout}`).toBeLessThan(2);
      for (const run of [a, b].filter((r) => !wrote.includes(r)))
        expect(run.stdout).toMatch(
          /^NOTE another run of this client is changing this user's data, or may be \(its beacon, the favorite list cc-run-\S+, says it is over by \S+\)/m,
        );
      expect(ref.stateDigest()).toBe(before);
    } finally {
      await ref.close();
    }
  });

  test.concurrent("a beacon another machine's run left and whose time has not come: the run skips its writes, names the list, and leaves it", { timeout: 120_000 }, async () => {
    const { ref, beacon } = await referenceWithLiveBeacon();
    try {
      const before = ref.stateDigest();
      const run = await runCli([...targetArgs(ref), 'user'], machine());
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toContain(`NOTE another run of this client is changing this user's data, or may be (its beacon, the favorite list ${beacon}`);
      expect(run.stdout).toMatch(/if no run is going, delete that list/);
      const writers = run.results!.tests.filter((t) => t.message.startsWith(SKIPPED_BESIDE));
      expect(writers.length).toBeGreaterThan(0);
      expect(writers.every((t) => t.status === 'skipped')).toBe(true);
      expect(ref.stateDigest()).toBe(before);
    } finally {
      await ref.close();
    }
  });
});

describe('beside another run, a failure of what that run may change is not a verdict', () => {
  test.concurrent('a read test of the user data that fails: a warning naming the other run, exit 0', { timeout: 120_000 }, async () => {
    const { ref, beacon } = await referenceWithLiveBeacon({ fault: 'favorites-order-dir-ignored' });
    try {
      const run = await runCli([...targetArgs(ref), 'favorites'], machine());
      expect(run.code, run.stdout).toBe(0);
      const setAside = run.results!.tests.filter(
        (t) =>
          t.status === 'warned' &&
          t.message.includes(
            `not judged, as another run of this client, whose beacon list ${beacon} is on the deployment may have changed what this test read (run alone to judge it)`,
          ),
      );
      expect(setAside.length, run.stdout).toBeGreaterThan(0);
      expect(run.stdout).toMatch(/^NOTE \d+ test\(s\) failed on answers another run of this client may have changed: shown as warnings, not judged; run alone to judge them/m);
    } finally {
      await ref.close();
    }
  });

  test.concurrent('a failure of public data no user writes (the category tree): still a failure', { timeout: 120_000 }, async () => {
    const { ref } = await referenceWithLiveBeacon({ fault: 'children-count-off-by-one' });
    try {
      const run = await runCli([...targetArgs(ref), 'categories'], machine());
      expect(run.code, run.stdout).toBe(1);
      expect(run.results!.tests.filter((t) => t.status === 'failed').length).toBeGreaterThan(0);
      expect(run.stdout).not.toMatch(/not judged/);
    } finally {
      await ref.close();
    }
  });

  test.concurrent('another run that begins meanwhile: a failure after it began is a warning too (the run looks again when a test fails)', { timeout: 120_000 }, async () => {
    const ref = await startReference({ limits: SELFTEST_LIMITS, fault: 'favorites-order-dir-ignored' });
    const beacon = kitName(BEACON_WHAT, Date.now() + 600_000);
    let begun = false;
    // The other run's beacon appears as this run's first GET /favorites goes out, after its own beacon's check.
    const proxy = await hostileProxy(new URL(ref.baseUrl).origin, (_n, req) => {
      if (begun || req.method !== 'GET' || req.url?.replace(/\?.*/, '') !== '/favorites') return { pass: true };
      begun = true;
      void servicesFor(ref)
        .api('other machine')
        .request('POST', '/favorite_lists', { auth: 'user', json: { favorite_list: { name: beacon } } });
      return { pass: true, delayMs: 300 };
    });
    try {
      const args = targetArgs(ref);
      args[1] = proxy.origin + new URL(ref.baseUrl).pathname;
      const run = await runCli([...args, 'favorites'], machine());
      expect(begun).toBe(true);
      expect(run.code, run.stdout).toBe(0);
      expect(
        run.results!.tests.filter((t) => t.status === 'warned' && t.message.includes(`not judged, as another run of this client, whose beacon list ${beacon}`)).length,
        run.stdout,
      ).toBeGreaterThan(0);
      expect(run.stdout).toContain(`NOTE another run of this client began while this one was going (its beacon, the favorite list ${beacon})`);
    } finally {
      await proxy.close();
      await ref.close();
    }
  });

  test.concurrent('alone (no other beacon), the same fault fails the run', { timeout: 120_000 }, async () => {
    const ref = await startReference({ limits: SELFTEST_LIMITS, fault: 'favorites-order-dir-ignored' });
    try {
      const run = await runCli([...targetArgs(ref), 'favorites'], machine());
      expect(run.code, run.stdout).toBe(1);
      expect(run.stdout).not.toMatch(/not judged/);
    } finally {
      await ref.close();
    }
  });
});
