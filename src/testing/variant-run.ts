// For the kit's developers: runs every suite (or those named) against the reference with the
// given legal variants (and optionally a fault), as src/selftest/legal-variants.test.ts does,
// and prints the MUST failures, the warnings and what the passive judge (validate-traffic)
// found in the run's HAR.
//   npx tsx src/testing/variant-run.ts weak-etags,base-path [suite ...] [--fault NAME] [--env KEY=VALUE] [--warnings]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimsFromEnv, judgeFiles, servedSeriesOf } from '../har/main.ts';
import { startReference } from '../reference/server.ts';
import { kitEnvOf, resolveVariants } from '../reference/variants.ts';
import { runCli, targetArgs } from './cli.ts';

const args = process.argv.slice(2);
const faultAt = args.indexOf('--fault');
const fault = faultAt >= 0 ? (args.splice(faultAt, 2)[1] ?? null) : null;
const showWarnings = args.includes('--warnings');
const extraEnv: Record<string, string> = {};
for (let i = args.indexOf('--env'); i >= 0; i = args.indexOf('--env')) {
  const [key = '', ...value] = (args.splice(i, 2)[1] ?? '').split('=');
  extraEnv[key] = value.join('=');
}
const [list = '', ...suites] = args.filter((a) => a !== '--warnings');
const variants = [...resolveVariants(list.split(',').filter((v) => v !== '' && v !== 'none'))];
const ref = await startReference({ limits: { perMinute: 1_000_000, perDay: 1_000_000 }, variants, fault });
const dir = mkdtempSync(join(tmpdir(), 'cc-variant-run-'));
try {
  const har = join(dir, 'run.har');
  const started = Date.now();
  const kitEnv = { ...kitEnvOf(variants), ...extraEnv };
  const run = await runCli([...targetArgs(ref), ...suites], { CATALOGUE_EXPIRED_TOKEN: ref.expiredToken(), CATALOGUE_HAR: har, ...kitEnv }, 600_000);
  const tests = run.results?.tests ?? [];
  console.log(
    `variants: ${variants.join(', ') || 'none'}${fault ? `; fault ${fault}` : ''}; exit ${run.code} in ${((Date.now() - started) / 1000).toFixed(1)} s; ${JSON.stringify(run.results?.summary ?? null)}`,
  );
  if (!run.results) console.log(run.stdout, run.stderr);
  if (showWarnings) for (const t of tests.filter((x) => x.status === 'skipped')) console.log(`SKIPPED ${t.title}: ${t.message}`);
  for (const t of tests) {
    const shown = t.findings.filter((f) => f.severity === 'MUST' || showWarnings);
    if (!shown.length) continue;
    console.log(`\n${t.status.toUpperCase()} ${t.title}`);
    for (const f of shown) console.log(`  ${f.severity} [${f.requirements.join(', ')}] ${f.message}`);
  }
  const basePath = new URL(ref.baseUrl).pathname.replace(/\/+$/, '');
  const passive = judgeFiles([har], basePath, [], { ...claimsFromEnv(kitEnv), ...servedSeriesOf(run) }).tests.filter(
    (t) => t.status === 'failed' || (showWarnings && t.status === 'warned'),
  );
  console.log(`\npassive judge: ${passive.length} ${showWarnings ? 'failed or warned' : 'failed'}`);
  for (const t of passive.slice(0, 40)) console.log(`  ${t.title}: ${t.message}`);
} finally {
  await ref.close();
  rmSync(dir, { recursive: true, force: true });
}
