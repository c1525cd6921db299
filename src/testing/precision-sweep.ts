// For the kit's developers: requirement precision (issue 37, point 4) over several seeds. The
// mutation self-test (src/selftest/mutation.test.ts) runs each fault once, with a fresh seed, so a
// random sequence of the favorites model or a property of the fieldsets suite may reach a check
// that blames a statement that holds in one run and not in the next. This runs the faults (all,
// or those named) with the mutation bundle on, once per seed, and prints each fault that failed a
// requirement beyond its own and its declared consequences, with the finding and the seed, and
// each fault no MUST finding names, and each fault whose clause no failed test names.
//   npx tsx src/testing/precision-sweep.ts --seeds 1,2,3 [--suites favorites-model,fieldsets] [fault ...]
import { FAULT_NAMES, FAULTS, type FaultName } from '../reference/faults.ts';
import { startReference, type RunningReference } from '../reference/server.ts';
import { kitEnvOf, mutationBundle } from '../reference/variants.ts';
import { FAULT_SETUP } from '../selftest/fault-coverage.ts';
import { runCliMany, scaledMinuteOf, targetArgs } from './cli.ts';

function option(name: string): string | null {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv.splice(at, 2)[1] ?? null) : null;
}

const seeds = (option('--seeds') ?? '1,2,3').split(',').filter(Boolean);
const suiteFilter = (option('--suites') ?? '').split(',').filter(Boolean);
const named = process.argv.slice(2);
const unknown = named.filter((f) => !(FAULT_NAMES as readonly string[]).includes(f));
if (unknown.length) {
  console.error(`precision-sweep: no such fault: ${unknown.join(', ')}`);
  process.exit(2);
}
const faults: FaultName[] = named.length ? (named as FaultName[]) : [...FAULT_NAMES];
const variants = mutationBundle();
const limits = { perMinute: 1_000_000, perDay: 1_000_000, windowMs: 1_000 };

let imprecise = 0;
for (const seed of seeds) {
  const refs: RunningReference[] = [];
  try {
    const targets: Parameters<typeof runCliMany>[0][number][] = [];
    for (const fault of faults) {
      const setup = FAULT_SETUP[fault] ?? {};
      const ref = await startReference({ limits, basePath: '/api', authOrigin: 'separate', variants, ...setup.options, fault });
      refs.push(ref);
      // A fault's own setup names the suites it is judged by (a moved base URL, say): as the mutation test runs it.
      const suites = setup.suites ?? suiteFilter;
      const env = { CATALOGUE_EXPIRED_TOKEN: ref.expiredToken(), CATALOGUE_SEED: seed, ...kitEnvOf(variants), ...setup.env };
      targets.push({ id: fault, args: [...targetArgs(ref, setup.movedBase), ...suites.map((name) => `${name}.suite`)], env, scaledMinuteMs: scaledMinuteOf(ref) });
    }
    const started = Date.now();
    const done = await runCliMany(targets, 3_600_000);
    console.log(`seed ${seed}: ${faults.length} faults in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    for (const fault of faults) {
      const run = done.get(fault)!;
      const allowed = new Set([FAULTS[fault]!.requirement, ...(FAULTS[fault]!.consequences ?? [])]);
      const beyond = (run.results?.tests ?? [])
        .filter((t) => t.status === 'failed')
        .flatMap((t) =>
          t.findings.filter((f) => f.severity === 'MUST' && f.follows === undefined && f.requirements.some((id) => !allowed.has(id))).map((f) => ({ test: t.title, f })),
        );
      if (!run.results) console.log(`  ${fault}: no results (exit ${run.code}) ${run.stdout.slice(0, 400)}`);
      const named = (run.results?.tests ?? []).some(
        (t) => t.status === 'failed' && t.findings.some((f) => f.severity === 'MUST' && f.follows === undefined && f.requirements.includes(FAULTS[fault]!.requirement)),
      );
      if (run.results && !named) console.log(`  ${fault}: not caught (no MUST finding names ${FAULTS[fault]!.requirement}; exit ${run.code})`);
      const clause = FAULTS[fault]!.clause;
      if (run.results && clause !== undefined && !run.results.tests.some((t) => t.status === 'failed' && t.clauses?.includes(clause))) {
        imprecise++;
        console.log(`  ${fault}: breaks ${clause}, but no failed test names that clause`);
      }
      if (!beyond.length) continue;
      imprecise++;
      console.log(`  ${fault} [${[...allowed].join(', ')}] seed ${seed}:`);
      for (const { test, f } of beyond) console.log(`    ${test}\n      [${f.requirements.join(', ')}] ${f.message.slice(0, 600)}`);
    }
  } finally {
    await Promise.all(refs.map((ref) => ref.close()));
  }
}
console.log(`imprecise: ${imprecise} (fault, seed) pairs`);
process.exit(imprecise ? 1 : 0);
