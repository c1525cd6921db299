// Legal variants: the other half of the mutation score. Every suite runs against the reference
// with its legal variants switched on (src/reference/variants/: other answers the spec allows
// where the reference makes a choice, other readings of statements that admit two), a bundle of
// compatible variants at a time, and must find no MUST failure; the HAR of the same run, judged
// by validate-traffic, must hold no failure either. A check that fails here fails a correct
// deployment: it must accept the variant's reading (at most WARN, with the reason).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { claimsFromEnv, judgeFiles } from '../har/main.ts';
import { startReference } from '../reference/server.ts';
import { kitEnvOf, VARIANT_NAMES, variantBundles, type VariantName } from '../reference/variants.ts';
import { runCli, targetArgs } from '../testing/cli.ts';

const LIMITS = { perMinute: 1_000_000, perDay: 1_000_000 };

const passed = new Set<VariantName>();

describe.concurrent('every suite passes a reference that makes other legal choices', () => {
  variantBundles().forEach((bundle, index) => {
    test(`bundle ${index + 1}: ${bundle.join(', ')}`, async () => {
      const ref = await startReference({ limits: LIMITS, variants: bundle });
      const harDir = mkdtempSync(join(tmpdir(), 'cc-variants-'));
      try {
        const har = join(harDir, 'run.har');
        const kitEnv = kitEnvOf(bundle);
        const run = await runCli(targetArgs(ref), { CATALOGUE_EXPIRED_TOKEN: ref.expiredToken(), CATALOGUE_HAR: har, ...kitEnv }, 300_000);
        const failures = (run.results?.tests ?? [])
          .filter((t) => t.status === 'failed')
          .map((t) => `${t.title}:\n${t.findings.filter((f) => f.severity === 'MUST').map((f) => `  [${f.requirements.join(', ')}] ${f.message}`).join('\n')}`);
        expect(failures, `${run.stdout}\n${run.stderr}`).toEqual([]);
        expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
        const basePath = new URL(ref.baseUrl).pathname.replace(/\/+$/, '');
        const passive = judgeFiles([har], basePath, [], claimsFromEnv(kitEnv)).tests.filter((t) => t.status === 'failed').map((t) => `${t.title}: ${t.message}`);
        expect(passive, 'validate-traffic on the HAR of the run').toEqual([]);
        for (const name of bundle) passed.add(name);
      } finally {
        await ref.close();
        rmSync(harDir, { recursive: true, force: true });
      }
    }, 360_000);
  });

  afterAll(() => {
    console.log(`legal variants: ${passed.size} of ${VARIANT_NAMES.length} pass`);
    const failed = VARIANT_NAMES.filter((name) => !passed.has(name));
    if (failed.length) console.log(`in a failing bundle: ${failed.join(', ')}`);
  });
});
