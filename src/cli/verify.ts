// `catalogue-conformance verify <bundle>` (issue 20, point 6): checks an evidence bundle that a
// run made with --bundle (src/report/verify.ts), offline. Exit 0: it is as the run left it;
// 1: something differs (named); 2: not a bundle, or the arguments are wrong.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { verifyBundle } from '../report/verify.ts';

export const VERIFY_USAGE = `usage: catalogue-conformance verify <bundle>

Checks an evidence bundle (a run's report directory made with \`run --bundle\`), offline, with
the kit alone: every file's SHA-256 against the bundle's manifest.json; that results.json's
summary counts its tests; and the verdicts of the rules one exchange shows, judged again from
the bundle's HAR, against the run's. <bundle> is the directory, its manifest.json, or a reports
directory (its latest run). Exit 0: verified; 1: something differs; 2: not a bundle.`;

export function verifyCommand(argv: readonly string[], io: { cwd: string; stdout: (text: string) => void; stderr: (text: string) => void }): number {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr(`catalogue-conformance verify: ${(error as Error).message}\n${VERIFY_USAGE}\n`);
    return 2;
  }
  if (parsed.values.help) {
    io.stdout(`${VERIFY_USAGE}\n`);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    io.stderr(`catalogue-conformance verify: expected one <bundle>, got ${parsed.positionals.length} path(s)\n${VERIFY_USAGE}\n`);
    return 2;
  }
  const outcome = verifyBundle(resolve(io.cwd, parsed.positionals[0]!));
  if (outcome.exitCode === 2) {
    io.stderr(`catalogue-conformance verify: ${outcome.problems.join('; ')}\n`);
    return 2;
  }
  const out = [...outcome.lines, ...outcome.problems.map((p) => `DIFFERS ${p}`)];
  out.push(outcome.exitCode === 0 ? 'VERIFIED: the bundle is as the run left it' : `NOT VERIFIED: ${outcome.problems.length} thing(s) differ from what the run left`);
  io.stdout(`${out.join('\n')}\n`);
  return outcome.exitCode;
}
