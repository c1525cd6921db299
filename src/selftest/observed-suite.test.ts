// The observed rules (suites/last/observed.suite.ts), run through the real CLI: they judge every
// exchange the other suites of the run made, pass against the reference, fail naming the
// requirement and showing the exchange when one response of one endpoint breaks a rule, and skip
// when the run made no exchange a rule applies to.
import { describe, expect, test } from 'vitest';
import { EXCHANGE_RULES } from '../rules/exchange-rules.ts';
import { FAULTS, startReference, type FaultName, type ReferenceOptions } from '../reference/server.ts';
import { targetArgs, type CliRun, runCliBatched } from '../testing/cli.ts';
import { CAUGHT_BY, FAULT_SETUP } from './fault-coverage.ts';

const LIMITS = { perMinute: 1_000_000, perDay: 1_000_000 };

/** Faults the observed rules catch: those no suite checks itself, and some a suite catches too. */
const OBSERVED_FAULTS: readonly FaultName[] = [...CAUGHT_BY.observed, 'ratelimit-headers-missing-on-errors', 'ratelimit-reset-in-milliseconds', 'not-found-wrong-body'];
const RULES = EXCHANGE_RULES.length;

async function run(options: ReferenceOptions, suites: string[], env: Record<string, string> = {}, movedBase = false): Promise<CliRun> {
  const ref = await startReference({ limits: LIMITS, ...options });
  try {
    // A moved base path's fault shows to a run pointed at the old base URL (FAULT_SETUP).
    return await runCliBatched([...targetArgs(ref, movedBase), ...suites], env);
  } finally {
    await ref.close();
  }
}

const observed = (r: CliRun) => r.results!.tests.filter((t) => t.id.startsWith('observed/'));
const summary = (r: CliRun) => r.stdout + r.stderr + JSON.stringify(observed(r), null, 1);

describe.concurrent('the observed rules against the reference', () => {
  test('pass on what the notifications suite exchanged (its refusals are 401s with the errors body)', async () => {
    const r = await run({}, ['notifications', 'observed']);
    expect(r.code, summary(r)).toBe(0);
    // Every rule judged what applied to it and found nothing; the rules of endpoints the suite does
    // not ask (a 304, price history) skip.
    expect(
      observed(r).filter((t) => t.status !== 'passed' && t.status !== 'skipped'),
      summary(r),
    ).toEqual([]);
    expect(
      observed(r)
        .filter((t) => t.status === 'passed')
        .map((t) => t.id),
      summary(r),
    ).toHaveLength(observed(r).length - observed(r).filter((t) => t.status === 'skipped').length);
    for (const id of ['ERR-2', 'RATE-4', 'GEN-7'])
      expect(
        observed(r).some((t) => t.status === 'passed' && t.requirements.includes(id)),
        id,
      ).toBe(true);
    expect(observed(r)).toHaveLength(RULES);
  });

  test("with a run that made no exchange but the preflight's (GET /categories), the rules that apply to none skip saying so", async () => {
    const r = await run({}, ['observed']);
    expect(r.code, summary(r)).toBe(0);
    const rules = observed(r);
    expect(rules).toHaveLength(RULES);
    // The preflight's answer is an exchange of the run like any other: the rules for a 200 GET judge it.
    expect(rules.filter((t) => t.status === 'passed').length, summary(r)).toBeGreaterThan(0);
    const skipped = rules.filter((t) => t.status === 'skipped');
    expect(skipped.length, summary(r)).toBeGreaterThan(0);
    expect(
      rules.filter((t) => t.status !== 'passed' && t.status !== 'skipped'),
      summary(r),
    ).toEqual([]);
    for (const t of skipped) expect(t.message).toMatch(/^no exchange of this run was one the rule applies to|the deployment is on this machine/);
  });

  test('the error format is not judged before 3.1.0, when it was normalized', async () => {
    const r = await run({ fault: 'unauthorized-messages-string' }, ['notifications', 'observed'], { CATALOGUE_API_VERSION: '3.0' });
    const errorBody = EXCHANGE_RULES.find((rule) => rule.id === 'error-body')!;
    expect(observed(r).find((t) => t.title.endsWith(errorBody.title))!.status, summary(r)).toBe('skipped');
  });

  for (const fault of OBSERVED_FAULTS) {
    const requirement = FAULTS[fault]!.requirement;
    test(`${fault}: the observed rule fails, naming ${requirement} and the endpoint`, async () => {
      const movedBase = FAULT_SETUP[fault]?.movedBase === true;
      const r = await run({ fault, basePath: '/api' }, ['notifications', 'observed'], {}, movedBase);
      expect(r.code, summary(r)).toBe(1);
      const failed = observed(r).filter((t) => t.status === 'failed');
      expect(
        failed.flatMap((t) => t.findings.flatMap((f) => f.requirements)),
        summary(r),
      ).toContain(requirement);
      // A finding names the exchange: method, URL under the base path the run was given, status.
      const base = movedBase ? 'v3' : 'api';
      expect(failed.map((t) => t.message).join('\n')).toMatch(new RegExp(`GET http://127\\.0\\.0\\.1:\\d+/${base}/\\S+ \\(?(answered )?\\d{3}`));
    });
  }
});
