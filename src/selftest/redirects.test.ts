// Redirects from the deployment (issue 6, point 7): a base URL that moved answers every request
// with a redirect to the new place on the same origin. The kit follows 301, 302 and 307 (a 307
// keeping the method and body of writes), sends the token along on the same origin, and counts
// each hop in the budget. That the token never goes to another origin is shown in
// src/http/client.test.ts, where a test server stands at both ends.
import { describe, expect, test } from 'vitest';
import { startReference } from '../reference/server.ts';
import { targetArgs, runCliBatched } from '../testing/cli.ts';

const LIMITS = { perMinute: 1_000_000, perDay: 1_000_000 };

describe.concurrent('a deployment whose base URL redirects', () => {
  for (const [status, suite] of [
    [301, 'categories'],
    [302, 'categories'],
    [307, 'favorites'],
  ] as const) {
    test(`${status}: the ${suite} suite passes through the redirect, each hop counted`, async () => {
      const ref = await startReference({ limits: LIMITS, basePath: '/api', redirect: { from: '/v3', status } });
      try {
        const before = ref.stateDigest();
        const args = targetArgs(ref, true);
        const run = await runCliBatched([...args, `${suite}.suite`]);
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(run.results!.summary.failed).toBe(0);
        expect(run.results!.summary.passed).toBeGreaterThan(5);
        // Every request took two hops, and the budget counted both: the redirect (not served by
        // the API pipeline, so not in requestCount) and the request it led to.
        expect(run.results!.requests.total - ref.requestCount()).toBeGreaterThan(5);
        expect(ref.stateDigest(), 'writes through the redirect were not undone').toBe(before);
      } finally {
        await ref.close();
      }
    });
  }
});
