// Writes a run's results: results.json, junit.xml and report.html in a directory of the run's own under the report
// directory (reports/<started at>/, reports/latest the newest). Every byte written
// passes a last scrub of all secrets the run knows, whatever layer produced it.
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, symlinkSync, writeSync } from 'node:fs';
import { ensureDir } from '../util/fs.ts';
import { basename, join } from 'node:path';
import junitModule, { type Builder } from 'junit-report-builder';
import { formatExchange } from '../http/exchange.ts';
import { redactUrl, secrets } from '../http/redact.ts';
import { htmlReportChunks } from './html.ts';
import { provenance } from './provenance.ts';
import type { RunInfo } from './run-info.ts';
import { brokenRequirements, requirementVerdicts, type Finding, type Status } from '../results/model.ts';
import { requirements } from '../requirements/catalogue.ts';
import type { RunResults, TestRecord } from './results.ts';

// A CommonJS module whose default export is a builder: Node's ESM interop hands over
// module.exports, some loaders its `default`; take whichever holds the builder.
const junitFactory: Builder = ((junitModule as unknown as { default?: Builder }).default as Builder | undefined) ?? (junitModule as unknown as Builder);

export type { RunInfo } from './run-info.ts';

/** results.json in pieces (one per test), so a run of 200,000 tests never holds the whole text. */
export function* resultsJsonChunks(results: RunResults, run: RunInfo): Generator<string> {
  const { kit, catalogue } = provenance();
  const document = {
    summary: results.summary,
    // The verdict by requirement: what a certifier signs (the same rule as the terminal's and report.html's).
    requirements: requirementsByStatus(results),
    tests: TESTS_PLACEHOLDER,
    requests: run.requests,
    run: {
      kit,
      catalogue,
      target: redactUrl(run.target),
      authUrl: redactUrl(run.authUrl),
      referenceServer: run.referenceServer,
      apiVersion: run.apiVersion,
      ...(run.versions ? { versions: run.versions } : {}),
      ...(run.implements ? { implements: run.implements } : {}),
      ...(run.mediaType ? { mediaType: run.mediaType } : {}),
      profiles: run.profiles,
      ...(run.seed ? { seed: run.seed } : {}),
      ...(run.filters ? { filters: run.filters } : {}),
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      durationMs: Math.max(0, Date.parse(run.finishedAt) - Date.parse(run.startedAt)),
      exitCode: run.exitCode,
      ...(run.exitReason !== undefined ? { exitReason: run.exitReason } : {}),
      ...(run.stopped !== undefined ? { stopped: run.stopped } : {}),
      ...(run.interrupted ? { interrupted: true } : {}),
      notes: run.notes,
      ...(run.observed ? { observed: run.observed } : {}),
    },
    problems: results.problems,
  };
  // The document with its tests left out, split where they go: the same text as one
  // JSON.stringify(document, null, 2) of the whole, with tests at two levels of indentation.
  const [head, tail] = JSON.stringify(document, null, 2).split(JSON.stringify(TESTS_PLACEHOLDER)) as [string, string];
  if (!results.tests.length) {
    yield secrets.scrub(`${head}[]${tail}\n`);
    return;
  }
  yield secrets.scrub(`${head}[`);
  let separator = '\n    ';
  for (const t of results.tests) {
    const test = {
      id: t.id,
      title: t.title,
      requirements: t.requirements,
      ...(t.clauses ? { clauses: t.clauses } : {}),
      severity: t.severity,
      status: t.status,
      message: t.message,
      suite: t.suite,
      profile: t.profile,
      findings: [...t.failures, ...t.warnings].map((f) => ({
        requirements: f.requirements,
        severity: f.severity,
        message: f.message,
        ...(f.details?.length ? { details: f.details } : {}),
        ...(f.follows !== undefined ? { follows: f.follows } : {}),
      })),
      requests: t.requests,
      durationMs: t.durationMs,
      ...(t.judgedTally ? { judgedTally: t.judgedTally } : {}),
    };
    // JSON text holds no raw newline inside strings, so every line break is indentation.
    yield secrets.scrub(separator + JSON.stringify(test, null, 2).replace(/\n/g, '\n    '));
    separator = ',\n    ';
  }
  yield secrets.scrub(`\n  ]${tail}\n`);
}

const TESTS_PLACEHOLDER = '\u0000tests\u0000';

/**
 * results.json's verdict by requirement, in the catalogue's order: each requirement a test cites
 * or a finding names, with its status and the tests it rests on (requirementVerdicts).
 */
export function requirementsByStatus(results: RunResults): Record<string, { status: Status; tests: string[] }> {
  const block: Record<string, { status: Status; tests: string[] }> = {};
  for (const { id, status, tests } of requirementVerdicts(results.tests, [...requirements().keys()])) block[id] = { status, tests };
  return block;
}

export function resultsJson(results: RunResults, run: RunInfo): string {
  return [...resultsJsonChunks(results, run)].join('');
}

/** `authUrl`: where the replays' tokens come from (tokenStep). */
export function systemOut(test: TestRecord, authUrl?: string): string {
  const parts: string[] = [];
  const details = (f: Finding) => (f.details?.length ? `\n${f.details.map((d) => `  - ${d}`).join('\n')}` : '');
  const follows = (f: Finding) => (f.follows !== undefined ? `\n  follows from: ${f.follows}` : '');
  for (const f of test.failures) parts.push(`FAIL [${f.requirements.join(', ')}] ${f.message}${follows(f)}${details(f)}`);
  for (const f of test.warnings) parts.push(`WARN [${f.requirements.join(', ')}] ${f.message}${details(f)}`);
  if (test.status === 'skipped') parts.push(`SKIP ${test.message}`);
  if (test.status === 'expected') parts.unshift(`EXPECTED ${test.message.split('\n')[0]}`);
  // Exchanges go into the report for tests that did not simply pass: they show what broke.
  if (test.status === 'failed' || test.status === 'warned' || test.status === 'expected') {
    if (test.omittedExchanges) parts.push(`(${test.omittedExchanges} earlier exchanges not kept)`);
    for (const exchange of test.exchanges) parts.push(formatExchange(exchange, authUrl));
  }
  return parts.join('\n\n');
}

// Test cases per junit-report-builder tree: the builder holds a whole tree in memory before it
// writes a byte, which for 200,000 tests (a large HAR judged) passed a gigabyte.
const CASES_PER_CHUNK = 500;

function escapeAttribute(value: string): string {
  // As xmlbuilder escapes attribute values (the builder writes the rest of the file).
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\t/g, '&#x9;').replace(/\n/g, '&#xA;').replace(/\r/g, '&#xD;');
}

function openTag(name: string, attributes: Record<string, string | number>): string {
  return `<${name}${Object.entries(attributes)
    .map(([k, v]) => ` ${k}="${escapeAttribute(String(v))}"`)
    .join('')}>`;
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

const countsOf = (tests: readonly TestRecord[], errors = 0): Counts => ({
  tests: tests.length + errors,
  failures: tests.filter((t) => t.status === 'failed').length,
  errors,
  // An expected failure (a known deviation) is reported to CI as skipped, with its reason: it must not fail the build.
  skipped: tests.filter((t) => t.status === 'skipped' || t.status === 'expected').length,
});

/**
 * The <testcase> elements of one chunk, as junit-report-builder writes them at their depth in
 * the file: built inside a suite of their own, and cut out of it.
 */
function testCaseElements(suiteName: string, fill: (suite: ReturnType<Builder['testSuite']>) => void): string {
  const builder = junitFactory.newBuilder();
  const suite = builder.testSuite().name(suiteName);
  fill(suite);
  const lines = builder.build().split('\n');
  // <?xml?>, <testsuites>, <testsuite> ... </testsuite>, </testsuites>
  return lines.slice(3, lines.lastIndexOf('  </testsuite>')).join('\n');
}

function addTestCase(suite: ReturnType<Builder['testSuite']>, test: TestRecord, authUrl: string): void {
  const testCase = suite
    .testCase()
    .className(test.suite)
    .name(test.title)
    .time(test.durationMs / 1000);
  for (const id of test.requirements) testCase.property('requirement', id);
  testCase.property('severity', test.severity).property('profile', test.profile).property('status', test.status).property('id', test.id);
  // The failure's type and the broken_requirement properties: the requirements the test's findings
  // name as broken (requirementVerdicts), not every id a finding or the test cites.
  const broken = test.status === 'failed' || test.status === 'expected' ? brokenRequirements(test) : [];
  for (const id of broken) testCase.property('broken_requirement', id);
  if (test.status === 'failed') testCase.failure(test.message, broken.join(' '));
  if (test.status === 'skipped') testCase.skipped().property('skip_reason', test.message);
  if (test.status === 'expected') testCase.skipped().property('skip_reason', test.message.split('\n')[0]!);
  const out = systemOut(test, authUrl);
  if (out) testCase.standardOutput(out);
}

/** The properties of every <testsuite>: the target, the version, and what replays the run (the kit's version and commit, the seed). */
export function suiteProperties(run: RunInfo): [string, string][] {
  const { kit } = provenance();
  return [
    ['target', redactUrl(run.target)],
    ['api_version', run.apiVersion],
    ['kit_version', kit.version],
    ...(kit.commit ? ([['kit_commit', kit.commit]] as [string, string][]) : []),
    ...(run.seed ? ([['seed', String(run.seed.seed)]] as [string, string][]) : []),
  ];
}

/** junit.xml in pieces: the wrapper elements with their counts, then the test cases a chunk at a time. */
export function* junitXmlChunks(results: RunResults, run: RunInfo): Generator<string> {
  const suites = new Map<string, TestRecord[]>();
  for (const test of results.tests) {
    const list = suites.get(test.suite);
    if (list) list.push(test);
    else suites.set(test.suite, [test]);
  }
  const problems = results.problems.length;
  yield `<?xml version="1.0" encoding="UTF-8"?>\n${secrets.scrub(openTag('testsuites', { name: `catalogue-conformance ${redactUrl(run.target)}`, ...countsOf(results.tests, problems) }))}\n`;
  for (const [name, tests] of suites) {
    yield secrets.scrub(`  ${openTag('testsuite', { name, timestamp: run.startedAt, ...countsOf(tests) })}\n`);
    const properties = suiteProperties(run)
      .map(([name, value]) => `      <property name="${name}" value="${escapeAttribute(value)}"/>\n`)
      .join('');
    yield secrets.scrub(`    <properties>\n${properties}    </properties>\n`);
    for (let i = 0; i < tests.length; i += CASES_PER_CHUNK) {
      const chunk = tests.slice(i, i + CASES_PER_CHUNK);
      yield `${secrets.scrub(testCaseElements(name, (suite) => chunk.forEach((test) => addTestCase(suite, test, run.authUrl))))}\n`;
    }
    yield '  </testsuite>\n';
  }
  if (problems) {
    yield `  ${openTag('testsuite', { name: 'run', tests: problems, failures: 0, errors: problems, skipped: 0 })}\n`;
    yield `${secrets.scrub(testCaseElements('run', (suite) => results.problems.forEach((problem) => suite.testCase().className('run').name('run could be carried out').error(problem))))}\n`;
    yield '  </testsuite>\n';
  }
  yield '</testsuites>';
}

export function junitXml(results: RunResults, run: RunInfo): string {
  return [...junitXmlChunks(results, run)].join('');
}

/** Writes the pieces one after another: the whole text is never held. */
function writeChunks(path: string, chunks: Iterable<string>): void {
  const fd = openSync(path, 'w');
  try {
    for (const chunk of chunks) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

/** A run's reports directory name: when it started, to the second, with no character a file system refuses. */
function stampOf(startedAt: string): string {
  const time = Date.parse(startedAt);
  return (Number.isNaN(time) ? new Date() : new Date(time))
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
}

/** A directory of the run's own under `base`, never one another run wrote: <stamp>, else <stamp>-2, -3, ... */
export function newRunDir(base: string, startedAt: string): string {
  ensureDir(base);
  const stamp = stampOf(startedAt);
  for (let n = 1; ; n++) {
    const dir = join(base, n === 1 ? stamp : `${stamp}-${n}`);
    try {
      mkdirSync(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Points `base/latest` at `dir` (a relative symlink, swapped in at once); why not, when it cannot. */
export function pointLatest(base: string, dir: string): string | null {
  const latest = join(base, LATEST);
  try {
    if (existsSync(latest) && !lstatSync(latest).isSymbolicLink()) return `${latest} is not a link the kit made: left as it is`;
    const temporary = `${latest}.${process.pid}.tmp`;
    rmSync(temporary, { force: true });
    symlinkSync(basename(dir), temporary);
    renameSync(temporary, latest);
    return null;
  } catch (error) {
    return `${latest} could not point at ${basename(dir)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}

/** The link under the reports directory to the newest run's reports. */
export const LATEST = 'latest';

/**
 * Writes results.json, junit.xml and report.html into a directory of the run's own under `base`
 * (<started at>/, see newRunDir: no run's reports are overwritten), and points base/latest at it.
 */
export function writeReports(base: string, results: RunResults, run: RunInfo): { dir: string; junit: string; json: string; html: string; latestProblem: string | null } {
  const dir = newRunDir(base, run.startedAt);
  const junit = join(dir, 'junit.xml');
  const json = join(dir, 'results.json');
  const html = join(dir, 'report.html');
  writeChunks(junit, junitXmlChunks(results, run));
  writeChunks(json, resultsJsonChunks(results, run));
  writeChunks(html, htmlReportChunks(results, run));
  return { dir, junit, json, html, latestProblem: pointLatest(base, dir) };
}
