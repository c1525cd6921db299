// Issue 20, point 9: the command line's filters accept suites, test ids and requirement ids; `list`
// shows each test's id and profile and takes the same filters, contacting nothing.
import { describe, expect, test } from 'vitest';
import { startReference } from '../reference/server.ts';
import { runCli, SELFTEST_LIMITS, targetArgs } from '../testing/cli.ts';

const ROOT_TEST = 'categories/root-is-root';

describe('filters by test id and requirement id', () => {
  test('run: only the tests named or citing the requirement run; the others of their suites are skipped, saying why', { timeout: 120_000 }, async () => {
    const ref = await startReference({ limits: SELFTEST_LIMITS });
    try {
      const run = await runCli([...targetArgs(ref), 'FAV-29', ROOT_TEST]);
      expect(run.code, run.stdout).toBe(0);
      const ran = run.results!.tests.filter((t) => t.status !== 'skipped');
      expect(ran.map((t) => t.id)).toContain(ROOT_TEST);
      expect(ran.every((t) => t.id === ROOT_TEST || t.requirements.includes('FAV-29'))).toBe(true);
      expect(ran.filter((t) => t.requirements.includes('FAV-29')).length).toBeGreaterThan(0);
      const skipped = run.results!.tests.filter((t) => t.status === 'skipped');
      expect(skipped.length).toBeGreaterThan(0);
      expect(skipped.every((t) => t.message === `not picked by the filters (${ROOT_TEST}, FAV-29)`)).toBe(true);
      expect(new Set(run.results!.tests.map((t) => t.id.split('/')[0]))).toEqual(new Set(['categories', 'favorites', 'favorites-model']));
    } finally {
      await ref.close();
    }
  });

  test('list: ids and profiles, only the tests picked; nothing contacted (no target configured, none started)', { timeout: 60_000 }, async () => {
    const list = await runCli(['list', 'FAV-29']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^ {2}MUST read {8}GET \/favorites > GET \/favorites\/:id answers/m);
    expect(list.stdout).toMatch(/^ {7}id favorites\/favorite-by-id$/m);
    expect(list.stdout).toMatch(/^2 tests in 2 suites$/m);
    const wrong = await runCli(['list', 'FAV-2x']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/did you mean FAV-2\?/);
  });
});
