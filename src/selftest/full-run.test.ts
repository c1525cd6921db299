// A full default run of every suite against the fault-free reference, at the spec's limits (100 a
// minute per token, 1,000 a day per client): no failure and no warning (the baseline of the
// mutation score, src/selftest/mutation.test.ts), inside the request budget, and the reference's
// data as it was before (every write is cleaned up).
import { expect, test } from 'vitest';
import { startReference } from '../reference/server.ts';
import { runCli, targetArgs } from '../testing/cli.ts';

test('every suite passes with no warning, within the budget, and the data is as it was before the run', async () => {
  const ref = await startReference({});
  try {
    const before = ref.stateDigest();
    const run = await runCli(targetArgs(ref), {}, 540_000);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.results!.summary, run.stdout).toMatchObject({ failed: 0, warned: 0 });
    expect(run.results!.requests.total).toBeLessThanOrEqual(run.results!.requests.budget);
    expect(ref.stateDigest(), 'the run left data behind or changed it').toBe(before);
  } finally {
    await ref.close();
  }
}, 600_000);
