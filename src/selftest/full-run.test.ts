// A full default run of every suite against the reference: it passes, stays inside the request
// budget, and leaves the reference's data as it found it (every write is cleaned up).
import { expect, test } from 'vitest';
import { startReference } from '../reference/server.ts';
import { runCli, targetArgs } from '../testing/cli.ts';

test('every suite passes, within the budget, and the data is as it was before the run', async () => {
  const ref = await startReference({ limits: { perMinute: 1_000_000, perDay: 1_000_000 } });
  try {
    const before = ref.stateDigest();
    const run = await runCli(targetArgs(ref));
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.results!.summary.failed).toBe(0);
    expect(run.results!.requests.total).toBeLessThanOrEqual(run.results!.requests.budget);
    expect(ref.stateDigest(), 'the run left data behind or changed it').toBe(before);
  } finally {
    await ref.close();
  }
}, 180_000);
