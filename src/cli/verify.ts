// `catalogue-conformance verify <bundle>` (issue 20, point 6): checks an evidence bundle that a
// run made with --bundle (src/report/verify.ts), offline. Exit 0: it is as the run left it;
// 1: something differs (named); 2: not a bundle, or the arguments are wrong.
import { verifyBundle } from '../report/verify.ts';
import { pathsOrExit, type PathsIo } from './paths-args.ts';

export const VERIFY_USAGE = `usage: catalogue-conformance verify <bundle>

Checks an evidence bundle (a run's report directory made with \`run --bundle\`), offline, with
the kit alone: every file's SHA-256 against the bundle's manifest.json; that results.json's
summary counts its tests; and the verdicts of the rules one exchange shows, judged again from
the bundle's HAR, against the run's. <bundle> is the directory, its manifest.json, or a reports
directory (its latest run). Exit 0: verified; 1: something differs; 2: not a bundle.`;

export function verifyCommand(argv: readonly string[], io: PathsIo): number {
  const paths = pathsOrExit(argv, io, 'verify', VERIFY_USAGE, 1, 'one <bundle>');
  if (typeof paths === 'number') return paths;
  const outcome = verifyBundle(paths[0]!);
  if (outcome.exitCode === 2) {
    io.stderr(`catalogue-conformance verify: ${outcome.problems.join('; ')}\n`);
    return 2;
  }
  const out = [...outcome.lines, ...outcome.problems.map((p) => `DIFFERS ${p}`)];
  out.push(outcome.exitCode === 0 ? 'VERIFIED: the bundle is as the run left it' : `NOT VERIFIED: ${outcome.problems.length} thing(s) differ from what the run left`);
  io.stdout(`${out.join('\n')}\n`);
  return outcome.exitCode;
}
