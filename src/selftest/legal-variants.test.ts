// Legal variants: the other half of the mutation score. Every suite runs against the reference
// with its legal variants switched on (src/reference/variants/: other answers the spec allows
// where the reference makes a choice, the readings of the catalogue each names), a bundle of
// compatible variants at a time, and its traffic is judged three ways (issue 37, point 2): the
// live suites, the every-exchange rules of the observed pass (suites/last/observed.suite.ts) and
// validate-traffic on the run's HAR. None may find a MUST failure: one reading, one verdict in
// every layer. A check that fails here fails a correct deployment: it must accept the variant's
// reading (at most WARN, with the reason).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { claimsFromEnv, judgeFiles, servedSeriesOf } from '../har/main.ts';
import { startReference } from '../reference/server.ts';
import { kitEnvOf, VARIANT_NAMES, variantBundles, type VariantName } from '../reference/variants.ts';
import { runCliMany, targetArgs, type CliRun } from '../testing/cli.ts';

const LIMITS = { perMinute: 1_000_000, perDay: 1_000_000 };

const passed = new Set<VariantName>();

const BUNDLES = variantBundles();

/** Each bundle's run, from one batch of runs in one process (runCliMany), made before the tests. */
const runs: { run: CliRun; har: string; basePath: string; kitEnv: Record<string, string> }[] = [];
let harRoot = '';

beforeAll(async () => {
  harRoot = mkdtempSync(join(tmpdir(), 'cc-variants-'));
  const refs = await Promise.all(BUNDLES.map((bundle) => startReference({ limits: LIMITS, variants: bundle })));
  try {
    const targets = BUNDLES.map((bundle, index) => {
      const ref = refs[index]!;
      const har = join(harRoot, `bundle-${index + 1}.har`);
      const kitEnv = kitEnvOf(bundle);
      runs.push({ run: null as unknown as CliRun, har, basePath: new URL(ref.baseUrl).pathname.replace(/\/+$/, ''), kitEnv });
      return { id: `bundle-${index + 1}`, args: targetArgs(ref), env: { CATALOGUE_EXPIRED_TOKEN: ref.expiredToken(), CATALOGUE_HAR: har, ...kitEnv } };
    });
    const done = await runCliMany(targets, 540_000);
    targets.forEach((target, index) => (runs[index]!.run = done.get(target.id)!));
  } finally {
    await Promise.all(refs.map((ref) => ref.close()));
  }
}, 600_000);

describe('every suite passes a reference that makes other legal choices', () => {
  BUNDLES.forEach((bundle, index) => {
    test(`bundle ${index + 1}: ${bundle.join(', ')}`, () => {
      const { run, har, basePath, kitEnv } = runs[index]!;
      const failed = (run.results?.tests ?? []).filter((t) => t.status === 'failed');
      const shown = (t: (typeof failed)[number]) =>
        `${t.title}:\n${t.findings
          .filter((f) => f.severity === 'MUST')
          .map((f) => `  [${f.requirements.join(', ')}] ${f.message}`)
          .join('\n')}`;
      // The observed pass's tests are the every-exchange rules (suite "observed"); the others are the live suites.
      expect(failed.filter((t) => !t.id.startsWith('observed/')).map(shown), `live suites\n${run.stdout}\n${run.stderr}`).toEqual([]);
      expect(failed.filter((t) => t.id.startsWith('observed/')).map(shown), 'the every-exchange rules of the observed pass').toEqual([]);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      const passive = judgeFiles([har], basePath, [], { ...claimsFromEnv(kitEnv), ...servedSeriesOf(run) })
        .tests.filter((t) => t.status === 'failed')
        .map((t) => `${t.title}: ${t.message}`);
      expect(passive, 'validate-traffic on the HAR of the run').toEqual([]);
      for (const name of bundle) passed.add(name);
    });
  });

  afterAll(() => {
    console.log(`legal variants: ${passed.size} of ${VARIANT_NAMES.length} pass (live, observed and HAR)`);
    const failed = VARIANT_NAMES.filter((name) => !passed.has(name));
    if (failed.length) console.log(`in a failing bundle: ${failed.join(', ')}`);
    if (harRoot) rmSync(harRoot, { recursive: true, force: true });
  });
});
