// A full default run of every suite against the fault-free reference, at the spec's limits (100 a
// minute per token, 1,000 a day per client) on a scaled clock (the minute lasts a second, and the
// kit's pacer is told so, as in the embedded run): no failure and no warning (the baseline of the
// mutation score, src/selftest/mutation.test.ts), inside the request budget, and the reference's
// data as it was before (every write is cleaned up). The run is recorded to HAR (--har), and the
// passive judge (npm run validate-traffic) finds no failure in it either.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { judgeFiles } from '../har/main.ts';
import { EMBEDDED_WINDOW_MS, startReference } from '../reference/server.ts';
import { runCliMany, targetArgs } from '../testing/cli.ts';

test('every suite passes with no warning, within the budget, and the data is as it was before the run', async () => {
  const ref = await startReference({ limits: { windowMs: EMBEDDED_WINDOW_MS } });
  const harDir = mkdtempSync(join(tmpdir(), 'cc-full-run-'));
  try {
    const before = ref.stateDigest();
    const har = join(harDir, 'run.har');
    const run = (await runCliMany([{ id: 'full', args: targetArgs(ref), env: { CATALOGUE_HAR: har }, scaledMinuteMs: ref.rateWindowMs }], 540_000)).get('full')!;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.results!.summary, run.stdout).toMatchObject({ failed: 0, warned: 0 });
    expect(run.results!.requests.total).toBeLessThanOrEqual(run.results!.requests.budget);
    expect(ref.stateDigest(), 'the run left data behind or changed it').toBe(before);

    const passive = judgeFiles([har], '');
    const failed = passive.tests.filter((t) => t.status === 'failed').map((t) => `${t.title}: ${t.message}`);
    expect(failed, 'validate-traffic on the HAR of the run').toEqual([]);
    // Every exchange of the run is an entry, and most are judged (token and authorization steps aside).
    expect(passive.summary.passed).toBeGreaterThan(run.results!.requests.total);
  } finally {
    await ref.close();
    rmSync(harDir, { recursive: true, force: true });
  }
}, 600_000);
