// npm run validate-traffic -- <file.har> [more.har] [--base-url URL | --host HOST --base-path /api] [--report-dir DIR]
// (also `npm run conformance -- validate-traffic ...`). Judges recorded traffic passively (no
// request is made) and writes the reports of a live run.
// Which entries are the API's: those of the hosts named (--host, --base-url); when none is named,
// those of every host that shows itself as the API in some entry (the spec's media type asked or
// answered, or X-RateLimit-* headers); an authorization server on another origin is judged only
// when named. Entries of other hosts are skipped with the reason.
// Exit 0: no MUST failed; 1: a MUST failed; 2: the traffic could not be judged (arguments, a file
// that is not HAR).
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs as parseNodeArgs } from 'node:util';
import { resultsOf, type RunResults, type TestRecord } from '../results/model.ts';
import { terminalSummary } from '../report/terminal.ts';
import { writeReports, type RunInfo } from '../report/write.ts';
import { newestVersion, changeHistory } from '../rules/change-history.ts';
import { SPEC_MEDIA_TYPE } from '../rules/media-type.ts';
import { matchEndpoint } from '../rules/api-paths.ts';
import { apiPathOf, judgeExchange, matchAuthEndpoint, skippedExchange, speaksApi, type JudgeOptions } from './judge.ts';
import { findBasePath } from './base-path.ts';
import { HarError, harExchanges, type HarExchange } from './read.ts';

export const USAGE =
  'usage: npm run validate-traffic -- <file.har> [more.har] [--base-url https://host/api | --host host[:port] ... --base-path /api] [--auth-url https://auth.host] [--implements 3.x.y] [--versions 3.0,3.2] [--media-type application/vnd.x+json] [--report-dir DIR]';

export interface TrafficArgs {
  files: string[];
  basePath: string;
  /** Whether --base-url or --base-path gave the base path (else it is read off the traffic: src/har/base-path.ts). */
  basePathGiven: boolean;
  reportDir: string;
  /** host[:port] of the API, lower case; empty: inferred from the traffic. */
  hosts: string[];
  /** --implements, CATALOGUE_IMPLEMENTS: the patch level the deployment implements. */
  implements: string;
  /** --media-type, CATALOGUE_MEDIA_TYPE: the API's vendor media type. */
  mediaType: string;
  /** --versions, CATALOGUE_VERSIONS: the minor series the deployment serves; absent: not known. */
  servedSeries?: string[];
}

/** The options validate-traffic takes: each a value, and any of them may be given again. */
const TRAFFIC_OPTIONS = {
  'base-path': { type: 'string', multiple: true },
  'auth-url': { type: 'string', multiple: true },
  host: { type: 'string', multiple: true },
  'base-url': { type: 'string', multiple: true },
  implements: { type: 'string', multiple: true },
  versions: { type: 'string', multiple: true },
  'media-type': { type: 'string', multiple: true },
  'report-dir': { type: 'string', multiple: true },
} as const;

/** The arguments as options (name, value) and files, in their order (util.parseArgs); HarError with the usage for an unknown option or a missing value. */
type TrafficToken = { kind: 'positional'; value: string } | { kind: 'option'; name: string; value: string };

function traffic(argv: readonly string[]): TrafficToken[] {
  let tokens;
  try {
    tokens = parseNodeArgs({ args: [...argv], options: TRAFFIC_OPTIONS, allowPositionals: true, strict: true, tokens: true }).tokens;
  } catch (error) {
    const option = /'(-[^' ]+)/.exec((error as Error).message)?.[1] ?? '';
    const code = (error as NodeJS.ErrnoException).code;
    throw new HarError(
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? `unknown option ${option}; ${USAGE}`
        : code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
          ? `${option} needs a value; ${USAGE}`
          : `${(error as Error).message.split('\n')[0]}; ${USAGE}`,
    );
  }
  return tokens.flatMap((t): TrafficToken[] =>
    t.kind === 'positional' ? [{ kind: 'positional', value: t.value }] : t.kind === 'option' ? [{ kind: 'option', name: t.name, value: t.value ?? '' }] : [],
  );
}

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): TrafficArgs {
  const files: string[] = [];
  const hosts: string[] = [];
  let basePath = '';
  let basePathGiven = false;
  const baseUrl = (text: string): void => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new HarError(`--base-url ${text} is not a URL; ${USAGE}`);
    }
    hosts.push(url.host.toLowerCase());
    basePath = url.pathname;
    basePathGiven = true;
  };
  // The auth server's host: its token endpoint's entries are judged too, though not on the API's host.
  const authUrl = (text: string): void => {
    try {
      hosts.push(new URL(text).host.toLowerCase());
    } catch {
      throw new HarError(`--auth-url ${text} is not a URL; ${USAGE}`);
    }
  };
  let reportDir = env['CATALOGUE_REPORT_DIR'] ?? 'reports';
  let implementsVersion = env['CATALOGUE_IMPLEMENTS'] ?? newestVersion();
  let mediaType = env['CATALOGUE_MEDIA_TYPE'] ?? SPEC_MEDIA_TYPE;
  let versions = env['CATALOGUE_VERSIONS'];
  // Options in the order given (a later --base-path wins over an earlier --base-url's path).
  for (const token of traffic(argv)) {
    if (token.kind === 'positional') files.push(token.value);
    else if (token.name === 'base-path') [basePath, basePathGiven] = [token.value, true];
    else if (token.name === 'auth-url') authUrl(token.value);
    else if (token.name === 'host') hosts.push(token.value.toLowerCase());
    else if (token.name === 'base-url') baseUrl(token.value);
    else if (token.name === 'implements') implementsVersion = token.value;
    else if (token.name === 'media-type') mediaType = token.value;
    else if (token.name === 'versions') versions = token.value;
    else if (token.name === 'report-dir') reportDir = token.value;
  }
  if (!files.length) throw new HarError(`no HAR file given; ${USAGE}`);
  if (basePath !== '' && !basePath.startsWith('/')) basePath = `/${basePath}`;
  const known = ['3.0.0', ...changeHistory().map((r) => r.version)];
  if (!known.includes(implementsVersion))
    throw new HarError(`--implements (CATALOGUE_IMPLEMENTS) must be a version of the spec's Change history, e.g. 3.1.1, got ${JSON.stringify(implementsVersion)}; ${USAGE}`);
  mediaType = mediaType.trim().toLowerCase();
  if (!/^application\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(mediaType))
    throw new HarError(`--media-type (CATALOGUE_MEDIA_TYPE) must be a media type such as application/vnd.example+json, got ${JSON.stringify(mediaType)}; ${USAGE}`);
  const servedSeries = versions === undefined ? undefined : seriesList(versions);
  return {
    files,
    basePath: basePath.replace(/\/+$/, ''),
    basePathGiven,
    reportDir: resolve(cwd, reportDir),
    hosts,
    implements: implementsVersion,
    mediaType,
    ...(servedSeries ? { servedSeries } : {}),
  };
}

/** "3.0, 3.2" as ['3.0', '3.2']; HarError for anything but major.minor versions. */
export function seriesList(text: string): string[] {
  const series = [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
  const wrong = series.find((s) => !/^3\.\d+$/.test(s));
  if (wrong !== undefined || !series.length)
    throw new HarError(`--versions (CATALOGUE_VERSIONS) must list the minor versions the deployment serves, e.g. 3.0,3.2, got ${JSON.stringify(text)}; ${USAGE}`);
  return series;
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
};

/** What the judge is told of the deployment: its patch level and media type (defaults: the spec's newest, the spec's). */
export interface DeploymentClaims {
  implements?: string;
  mediaType?: string;
  /** The minor series served; absent: not known. */
  servedSeries?: readonly string[];
}

/** The claims a live run's configuration makes (CATALOGUE_IMPLEMENTS, CATALOGUE_MEDIA_TYPE), for judging its HAR alike. */
export function claimsFromEnv(env: Readonly<Record<string, string | undefined>>): DeploymentClaims {
  const claims: DeploymentClaims = {};
  if (env['CATALOGUE_IMPLEMENTS']) claims.implements = env['CATALOGUE_IMPLEMENTS'];
  if (env['CATALOGUE_MEDIA_TYPE']) claims.mediaType = env['CATALOGUE_MEDIA_TYPE'];
  if (env['CATALOGUE_VERSIONS']) claims.servedSeries = seriesList(env['CATALOGUE_VERSIONS']);
  return claims;
}

/** The versions a kit run found served (or was told), from its results, as --versions gives them to the judge. */
export function servedSeriesOf(run: { results: { run?: { versions?: string[] } } | null }): Pick<DeploymentClaims, 'servedSeries'> {
  const versions = run.results?.run?.versions;
  return versions?.length ? { servedSeries: versions } : {};
}

/** Judges every entry of the files, in their order; throws HarError when a file cannot be read as HAR. */
export function judgeFiles(files: readonly string[], basePath: string, hosts: readonly string[] = [], claims: DeploymentClaims = {}): RunResults {
  const mediaType = claims.mediaType ?? SPEC_MEDIA_TYPE;
  const judgeOptions = (suite: string): JudgeOptions => ({
    basePath,
    suite,
    ...(claims.implements ? { implements: claims.implements } : {}),
    ...(claims.servedSeries ? { servedSeries: claims.servedSeries } : {}),
  });
  const named = new Set(hosts);
  const speaking = new Set<string>();
  // Entries of a host not yet seen speaking as the API that match an endpoint: judged once it does, else skipped at the end.
  const waiting = new Map<string, { entry: HarExchange; suite: string; slot: TestRecord[] }[]>();
  const slots: TestRecord[][] = [];
  for (const file of files) {
    const suite = basename(file).replace(/\.har$/i, '');
    for (const entry of harExchanges(file)) {
      const slot: TestRecord[] = [];
      slots.push(slot);
      const host = hostOf(entry.url);
      if (named.size) {
        if (named.has(host)) slot.push(...judgeExchange(entry, judgeOptions(suite)));
        else slot.push(skippedExchange(entry, judgeOptions(suite), `another host (${host || 'no host'}) than the API's (${[...named].join(', ')})`));
        continue;
      }
      if (!speaking.has(host) && speaksApi(entry, mediaType)) {
        speaking.add(host);
        for (const w of waiting.get(host) ?? []) w.slot.push(...judgeExchange(w.entry, judgeOptions(w.suite)));
        waiting.delete(host);
      }
      // An API path, or a token endpoint (a third party's sign-in must not be judged as the API's), waits for its host.
      const apiPath = apiPathOf(entry.url, basePath);
      const endpointLike = (apiPath !== null && matchEndpoint(entry.method, apiPath) !== null) || matchAuthEndpoint(entry.method, entry.url) !== null;
      if (speaking.has(host) || !endpointLike) slot.push(...judgeExchange(entry, judgeOptions(suite)));
      else {
        const list = waiting.get(host) ?? [];
        list.push({ entry, suite, slot });
        waiting.set(host, list);
      }
    }
  }
  for (const [host, entries] of waiting) {
    for (const w of entries) {
      w.slot.push(
        skippedExchange(
          w.entry,
          judgeOptions(w.suite),
          `not judged: no entry of ${host || 'its host'} shows it is the API (the media type ${mediaType} or X-RateLimit-* headers); name the API's host with --host or --base-url, or its media type with --media-type, to judge it`,
        ),
      );
    }
  }
  return resultsOf(slots.flat(), []);
}

export function exitCodeOf(results: RunResults): number {
  return results.tests.some((t) => t.failures.some((f) => f.severity === 'MUST')) ? 1 : 0;
}

/** The command; returns the exit code. `print` receives the terminal summary and error lines. */
export function main(argv: readonly string[], print: (text: string) => void = (t) => process.stdout.write(`${t}\n`), env = process.env): number {
  const startedAt = new Date().toISOString();
  if (argv.includes('--help') || argv.includes('-h')) {
    print(USAGE);
    return 0;
  }
  let args: TrafficArgs;
  let results: RunResults;
  let basePathNote: string | null = null;
  try {
    args = parseArgs(argv, env);
    if (!args.basePathGiven) {
      const found = findBasePath(args.files, args.hosts, args.mediaType);
      args.basePath = found?.basePath ?? '';
      basePathNote = found
        ? `base path ${found.basePath === '' ? '(none)' : found.basePath} read off the traffic: ${found.matched} of ${found.of} API entries looked at are an endpoint under it (--base-url or --base-path to say otherwise)`
        : 'no base path could be read off the traffic: no API entry is an endpoint of the spec under any prefix (give --base-url)';
    }
    results = judgeFiles(args.files, args.basePath, args.hosts, {
      implements: args.implements,
      mediaType: args.mediaType,
      ...(args.servedSeries ? { servedSeries: args.servedSeries } : {}),
    });
  } catch (error) {
    if (error instanceof HarError) {
      print(`validate-traffic: ${error.message}`);
      return 2;
    }
    throw error;
  }
  // A HAR with no entry judged as the API's certifies nothing: not a pass.
  const judged = results.tests.filter((t) => t.status !== 'skipped').length;
  if (judged === 0)
    results.problems.push(
      `no entry of ${args.files.join(', ')} was judged as the API's (${results.tests.length} skipped${results.tests[0] ? `, e.g. ${results.tests[0].message}` : ''}): name the API with --base-url`,
    );
  const exitCode = judged === 0 ? 2 : exitCodeOf(results);
  const run: RunInfo = {
    target: `recorded traffic: ${args.files.join(', ')}`,
    authUrl: '',
    referenceServer: false,
    apiVersion: `as each request asked (none: the latest, ${args.implements})`,
    implements: args.implements,
    mediaType: args.mediaType,
    profiles: ['passive'],
    startedAt,
    finishedAt: new Date().toISOString(),
    requests: { total: 0, budget: 0 },
    exitCode,
    notes: [
      ...(basePathNote ? [basePathNote] : args.basePath ? [`base path ${args.basePath}`] : []),
      args.hosts.length ? `API host(s): ${args.hosts.join(', ')}` : 'API host(s) inferred from the traffic (the media type or X-RateLimit-* headers)',
    ],
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
