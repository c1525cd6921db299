// npm run validate-traffic -- <file.har> [more.har] [--base-path /api] [--report-dir DIR]
// Judges recorded traffic passively (no request is made) and writes the reports of a live run.
// Exit 0: no MUST failed; 1: a MUST failed; 2: the traffic could not be judged (arguments, a file
// that is not HAR).
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resultsOf, type RunResults, type TestRecord } from '../report/results.ts';
import { terminalSummary } from '../report/terminal.ts';
import { writeReports, type RunInfo } from '../report/write.ts';
import { judgeExchange, latestSchemaVersion } from './judge.ts';
import { HarError, readHar } from './read.ts';

export const USAGE = 'usage: npm run validate-traffic -- <file.har> [more.har] [--base-path /api] [--report-dir DIR]';

export interface TrafficArgs {
  files: string[];
  basePath: string;
  reportDir: string;
}

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): TrafficArgs {
  const files: string[] = [];
  let basePath = '';
  let reportDir = env['CATALOGUE_REPORT_DIR'] ?? 'reports';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) throw new HarError(`${arg} needs a value; ${USAGE}`);
      return next;
    };
    if (arg === '--base-path') basePath = value();
    else if (arg.startsWith('--base-path=')) basePath = arg.slice('--base-path='.length);
    else if (arg === '--report-dir') reportDir = value();
    else if (arg.startsWith('--report-dir=')) reportDir = arg.slice('--report-dir='.length);
    else if (arg.startsWith('--')) throw new HarError(`unknown option ${arg}; ${USAGE}`);
    else files.push(arg);
  }
  if (!files.length) throw new HarError(`no HAR file given; ${USAGE}`);
  if (basePath !== '' && !basePath.startsWith('/')) basePath = `/${basePath}`;
  return { files, basePath: basePath.replace(/\/+$/, ''), reportDir: resolve(cwd, reportDir) };
}

/** Judges every entry of the files; throws HarError when a file cannot be read as HAR. */
export function judgeFiles(files: readonly string[], basePath: string): RunResults {
  const tests: TestRecord[] = [];
  for (const file of files) {
    const suite = basename(file).replace(/\.har$/i, '');
    for (const entry of readHar(file)) tests.push(...judgeExchange(entry, { basePath, suite }));
  }
  return resultsOf(tests, []);
}

export function exitCodeOf(results: RunResults): number {
  return results.tests.some((t) => t.failures.some((f) => f.severity === 'MUST')) ? 1 : 0;
}

/** The command; returns the exit code. `print` receives the terminal summary and error lines. */
export function main(argv: readonly string[], print: (text: string) => void = (t) => process.stdout.write(`${t}\n`), env = process.env): number {
  const startedAt = new Date().toISOString();
  let args: TrafficArgs;
  let results: RunResults;
  try {
    args = parseArgs(argv, env);
    results = judgeFiles(args.files, args.basePath);
  } catch (error) {
    if (error instanceof HarError) {
      print(`validate-traffic: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const exitCode = exitCodeOf(results);
  const run: RunInfo = {
    target: `recorded traffic: ${args.files.join(', ')}`,
    authUrl: '',
    referenceServer: false,
    apiVersion: `as each request asked (none: ${latestSchemaVersion()})`,
    profiles: ['passive'],
    startedAt,
    finishedAt: new Date().toISOString(),
    requests: { total: 0, budget: 0 },
    exitCode,
    notes: args.basePath ? [`base path ${args.basePath}`] : [],
  };
  let paths: { junit: string; json: string };
  try {
    paths = writeReports(args.reportDir, results, run);
  } catch (error) {
    print(`validate-traffic: cannot write reports to ${args.reportDir}: ${(error as Error).message.split('\n')[0]}`);
    return 2;
  }
  print(terminalSummary(results, run, paths));
  return exitCode;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
