// Writes a run's results: results.json and junit.xml in the report directory. Every byte written
// passes a last scrub of all secrets the run knows, whatever layer produced it.
import { closeSync, openSync, writeSync } from 'node:fs';
import { ensureDir } from '../util/fs.ts';
import { join } from 'node:path';
import junitModule, { type Builder } from 'junit-report-builder';
import { formatExchange } from '../http/exchange.ts';
import { secrets } from '../http/redact.ts';
import type { Finding } from '../harness/run-context.ts';
import type { RunResults, TestRecord } from './results.ts';

// A CommonJS module whose default export is a builder: Node's ESM interop hands over
// module.exports, some loaders its `default`; take whichever holds the builder.
const junitFactory: Builder =
  ((junitModule as unknown as { default?: Builder }).default as Builder | undefined) ?? (junitModule as unknown as Builder);

export interface RunInfo {
  target: string;
  authUrl: string;
  referenceServer: boolean;
  apiVersion: string;
  /** CATALOGUE_IMPLEMENTS: the patch level the deployment was judged at. */
  implements?: string;
  /** CATALOGUE_MEDIA_TYPE. */
  mediaType?: string;
  profiles: string[];
  startedAt: string;
  finishedAt: string;
  /**
   * Requests made, the budget, and the requests by suite (most first); `(run)` is what no test
   * made: token requests and discovery, shared by every suite.
   */
  requests: { total: number; budget: number; bySuite?: Record<string, number> };
  exitCode: number;
  /** Why the run stopped before its end (deadline, a target that stopped answering); absent when it ran to its end. */
  stopped?: string;
  /** The user interrupted the run (SIGINT, SIGTERM): `stopped` says by which. */
  interrupted?: boolean;
  /** Hints that did not fit, pacing waits and the like. */
  notes: string[];
}

/** results.json in pieces (one per test), so a run of 200,000 tests never holds the whole text. */
export function* resultsJsonChunks(results: RunResults, run: RunInfo): Generator<string> {
  const document = {
    summary: results.summary,
    tests: TESTS_PLACEHOLDER,
    requests: run.requests,
    run: {
      target: run.target,
      authUrl: run.authUrl,
      referenceServer: run.referenceServer,
      apiVersion: run.apiVersion,
      ...(run.implements ? { implements: run.implements } : {}),
      ...(run.mediaType ? { mediaType: run.mediaType } : {}),
      profiles: run.profiles,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      exitCode: run.exitCode,
      ...(run.stopped !== undefined ? { stopped: run.stopped } : {}),
      ...(run.interrupted ? { interrupted: true } : {}),
      notes: run.notes,
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
      })),
      requests: t.requests,
      durationMs: t.durationMs,
    };
    // JSON text holds no raw newline inside strings, so every line break is indentation.
    yield secrets.scrub(separator + JSON.stringify(test, null, 2).replace(/\n/g, '\n    '));
    separator = ',\n    ';
  }
  yield secrets.scrub(`\n  ]${tail}\n`);
}

const TESTS_PLACEHOLDER = '\u0000tests\u0000';

export function resultsJson(results: RunResults, run: RunInfo): string {
  return [...resultsJsonChunks(results, run)].join('');
}

export function systemOut(test: TestRecord): string {
  const parts: string[] = [];
  const details = (f: Finding) => (f.details?.length ? `\n${f.details.map((d) => `  - ${d}`).join('\n')}` : '');
  for (const f of test.failures) parts.push(`FAIL [${f.requirements.join(', ')}] ${f.message}${details(f)}`);
  for (const f of test.warnings) parts.push(`WARN [${f.requirements.join(', ')}] ${f.message}${details(f)}`);
  if (test.status === 'skipped') parts.push(`SKIP ${test.message}`);
  // Exchanges go into the report for tests that did not simply pass: they show what broke.
  if (test.status === 'failed' || test.status === 'warned') {
    if (test.omittedExchanges) parts.push(`(${test.omittedExchanges} earlier exchanges not kept)`);
    for (const exchange of test.exchanges) parts.push(formatExchange(exchange));
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
  return `<${name}${Object.entries(attributes).map(([k, v]) => ` ${k}="${escapeAttribute(String(v))}"`).join('')}>`;
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
  skipped: tests.filter((t) => t.status === 'skipped').length,
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

function addTestCase(suite: ReturnType<Builder['testSuite']>, test: TestRecord): void {
  const testCase = suite.testCase().className(test.suite).name(test.title).time(test.durationMs / 1000);
  for (const id of test.requirements) testCase.property('requirement', id);
  testCase.property('severity', test.severity).property('profile', test.profile).property('status', test.status).property('id', test.id);
  if (test.status === 'failed') testCase.failure(test.message, test.failures.flatMap((f) => f.requirements).join(' '));
  if (test.status === 'skipped') testCase.skipped().property('skip_reason', test.message);
  const out = systemOut(test);
  if (out) testCase.standardOutput(out);
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
  yield `<?xml version="1.0" encoding="UTF-8"?>\n${secrets.scrub(openTag('testsuites', { name: `catalogue-conformance ${run.target}`, ...countsOf(results.tests, problems) }))}\n`;
  for (const [name, tests] of suites) {
    yield secrets.scrub(`  ${openTag('testsuite', { name, timestamp: run.startedAt, ...countsOf(tests) })}\n`);
    yield secrets.scrub(
      `    <properties>\n      <property name="target" value="${escapeAttribute(run.target)}"/>\n      <property name="api_version" value="${escapeAttribute(run.apiVersion)}"/>\n    </properties>\n`,
    );
    for (let i = 0; i < tests.length; i += CASES_PER_CHUNK) {
      const chunk = tests.slice(i, i + CASES_PER_CHUNK);
      yield `${secrets.scrub(testCaseElements(name, (suite) => chunk.forEach((test) => addTestCase(suite, test))))}\n`;
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

export function writeReports(dir: string, results: RunResults, run: RunInfo): { junit: string; json: string } {
  ensureDir(dir);
  const junit = join(dir, 'junit.xml');
  const json = join(dir, 'results.json');
  writeChunks(junit, junitXmlChunks(results, run));
  writeChunks(json, resultsJsonChunks(results, run));
  return { junit, json };
}
