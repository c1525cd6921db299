import { describe, expect, test } from 'vitest';
import { recordExchange } from '../http/exchange.ts';
import { redactUrl, secrets } from '../http/redact.ts';
import { brokenRequirements } from '../results/model.ts';
import type { RunResults, TestRecord } from './results.ts';
import { recordFor } from './results.ts';
import type { TestCase } from 'vitest/node';
import type { ConformanceMeta } from '../harness/run-context.ts';
import { testRecord } from '../testing/records.ts';
import { failedRequirements, failureShape, groupedByShape, repeatedFailures, terminalSummary } from './terminal.ts';
import junitModule, { type Builder } from 'junit-report-builder';
import { junitXml, LATEST, resultsJson, suiteProperties, systemOut as systemOutOf, writeReports, type RunInfo } from './write.ts';
import { gitCommit, provenance } from './provenance.ts';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const TOKEN = 'planted-access-token-0123456789';
secrets.add(TOKEN);

const exchange = recordExchange({
  method: 'GET',
  url: `http://127.0.0.1:9/api/categories/root?oauth_token=${TOKEN}`,
  requestHeaders: { accept: 'application/vnd.service+json; version=3.2', authorization: `Bearer ${TOKEN}` },
  status: 200,
  responseHeaders: { 'content-type': 'application/json' },
  responseBody: JSON.stringify({ category: { id: 1, parent_id: null, echoed: TOKEN } }),
  durationMs: 3,
});

const record = (overrides: Partial<TestRecord>): TestRecord => testRecord(overrides);

const failing = record({
  id: 'categories/failing',
  status: 'failed',
  message: `[CAT-6] root category 1 has parent_id null, expected 0 (token ${TOKEN})`,
  failures: [{ requirements: ['CAT-6'], severity: 'MUST', message: `root category 1 has parent_id null, expected 0 (token ${TOKEN})`, exchange: 0 }],
  exchanges: [exchange],
});
const warned = record({
  id: 'categories/warned',
  status: 'warned',
  message: '[CAT-7] no fashion field',
  warnings: [{ requirements: ['CAT-7'], severity: 'WARN', message: 'no fashion field', exchange: 0 }],
  exchanges: [exchange],
});
const skipped = record({ id: 'categories/skipped', status: 'skipped', message: 'request budget: needs about 2 requests, 0 left of CATALOGUE_MAX_REQUESTS=5' });
const results: RunResults = { summary: { passed: 1, failed: 1, warned: 1, skipped: 1, expected: 0 }, tests: [record({}), failing, warned, skipped], problems: [] };
const run: RunInfo = {
  target: 'http://127.0.0.1:9/api',
  authUrl: 'http://127.0.0.1:9',
  referenceServer: false,
  apiVersion: '3.2',
  profiles: ['read'],
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  requests: { total: 4, budget: 5 },
  exitCode: 1,
  notes: [],
};

// The file as one junit-report-builder tree writes it: the oracle for the chunked writer.
function junitInOneTree(res: RunResults, info: RunInfo): string {
  const factory: Builder = ((junitModule as unknown as { default?: Builder }).default as Builder | undefined) ?? (junitModule as unknown as Builder);
  const builder = factory.newBuilder();
  builder.name(`catalogue-conformance ${redactUrl(info.target)}`);
  const suites = new Map<string, ReturnType<typeof builder.testSuite>>();
  for (const test of res.tests) {
    let suite = suites.get(test.suite);
    if (!suite) {
      suite = builder.testSuite().name(test.suite).timestamp(info.startedAt);
      for (const [name, value] of suiteProperties(info)) suite.property(name, value);
      suites.set(test.suite, suite);
    }
    const testCase = suite
      .testCase()
      .className(test.suite)
      .name(test.title)
      .time(test.durationMs / 1000);
    for (const id of test.requirements) testCase.property('requirement', id);
    testCase.property('severity', test.severity).property('profile', test.profile).property('status', test.status).property('id', test.id);
    const broken = test.status === 'failed' || test.status === 'expected' ? brokenRequirements(test) : [];
    for (const id of broken) testCase.property('broken_requirement', id);
    if (test.status === 'failed') testCase.failure(test.message, broken.join(' '));
    if (test.status === 'skipped') testCase.skipped().property('skip_reason', test.message);
    const out = systemOutOf(test, info.authUrl);
    if (out) testCase.standardOutput(out);
  }
  if (res.problems.length) {
    const suite = builder.testSuite().name('run');
    for (const problem of res.problems) suite.testCase().className('run').name('run could be carried out').error(problem);
  }
  return secrets.scrub(builder.build());
}

describe('report outputs', () => {
  test('results.json has the documented shape and no secret', () => {
    const text = resultsJson(results, run);
    expect(text).not.toContain(TOKEN);
    const doc = JSON.parse(text);
    expect(doc.summary).toEqual({ passed: 1, failed: 1, warned: 1, skipped: 1, expected: 0 });
    expect(doc.requests).toEqual({ total: 4, budget: 5 });
    expect(doc.tests[1]).toMatchObject({ id: 'categories/failing', title: failing.title, requirements: ['CAT-18', 'CAT-6'], severity: 'MUST', status: 'failed' });
    expect(doc.tests[1].message).toContain('[REDACTED]');
    expect(doc.tests[3].message).toMatch(/request budget/);
  });

  test('junit.xml: requirement properties, a failure, a skip with its reason, the exchange with a replay line, no secret', () => {
    const xml = junitXml(results, run);
    expect(xml).not.toContain(TOKEN);
    expect(xml).toMatch(/<testsuites [^>]*tests="4" failures="1" errors="0" skipped="1"/);
    expect(xml.match(/<property name="requirement" value="CAT-6"\/>/g)).toHaveLength(4);
    expect(xml).toMatch(/<failure message="\[CAT-6\] root category 1 has parent_id null/);
    expect(xml).toMatch(/<property name="skip_reason" value="request budget: needs about 2 requests/);
    expect(xml).toContain('replay: curl -i');
    expect(xml).toContain('Bearer [REDACTED]');
    // The passing test carries no exchange: reports stay small.
    const passingCase = xml.match(/<testcase [^>]*name="GET \/categories\/root > is the root"[\s\S]*?<\/testcase>/g)![0];
    expect(passingCase).not.toContain('system-out');
  });

  test('the terminal summary shows each failure with its spec quote and a replayable request, and the totals', () => {
    const text = terminalSummary(results, run, { junit: 'reports/junit.xml', json: 'reports/results.json' });
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('FAIL categories > GET /categories/root > is the root');
    expect(text).toContain('CAT-6 (Resources and their fields > Category): "| parent_id | integer | 0 for the root category |"');
    expect(text).toContain(`replay: curl -i 'http://127.0.0.1:9/api/categories/root?oauth_token='"$ACCESS_TOKEN"`);
    expect(text).toContain('WARN categories > GET /categories/root > is the root');
    expect(text).toContain('1 x request budget: needs about 2 requests');
    expect(text).toContain('Tests: 1 passed, 1 failed, 1 warned, 1 skipped (4 in all)');
    expect(text).toContain('Requests: 4 of a budget of 5');
    expect(text.trimEnd().split('\n').at(-1)).toBe('FAIL: MUST requirements failed');
  });

  test('skips that differ only in their numbers are one line with a count and the ranges', () => {
    expect(
      groupedByShape([
        'request budget: needs about 2 requests, 0 left of CATALOGUE_MAX_REQUESTS=40',
        'profile destructive is not enabled',
        'request budget: needs about 102 requests, 3 left of CATALOGUE_MAX_REQUESTS=40',
        'request budget: needs about 1 requests, 0 left of CATALOGUE_MAX_REQUESTS=40',
      ]),
    ).toEqual([
      { text: 'request budget: needs about 1 to 102 requests, 0 to 3 left of CATALOGUE_MAX_REQUESTS=40', count: 3 },
      { text: 'profile destructive is not enabled', count: 1 },
    ]);
    expect(groupedByShape([])).toEqual([]);
  });

  test('a failure repeated across the run (every call 500) is said once, with its count and requirements', () => {
    expect(failureShape('GET /categories/2022956398/skus: status 500, expected 404')).toBe('GET <path>: status 500, expected 404');
    const failedWith = (id: string, requirement: string, message: string): TestRecord =>
      record({ id, status: 'failed', failures: [{ requirements: [requirement], severity: 'MUST', message }] });
    const tests = [1, 2, 3, 4, 5].map((n) => failedWith(`t/${n}`, `CAT-${n}`, `GET /categories/${n}: status 500, expected 200`));
    const lines = repeatedFailures([...tests, failedWith('t/6', 'CAT-6', 'root category 1 has parent_id null')]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^REPEATED in 5 tests \[CAT-1, CAT-2, CAT-3, CAT-4, CAT-5\]: GET \/categories\/1: status 500, expected 200 \(first: categories > /);
    // Under five tests, no roll-up: the blocks say it.
    expect(repeatedFailures(tests.slice(0, 4))).toEqual([]);
    expect(terminalSummary({ ...results, tests: [...results.tests, ...tests] }, run, null)).toMatch(/^REPEATED in 5 tests[^\n]*\n\nFAIL /m);
  });

  describe("a test's id", () => {
    const meta: ConformanceMeta = { id: 'root-is-root', requirements: ['CAT-18'], severity: 'MUST', profile: 'read', requests: 1 };
    // As much of vitest's TestCase as recordFor reads.
    const passedCase = (fullName: string, conformance?: ConformanceMeta) =>
      ({ fullName, meta: () => (conformance ? { conformance } : {}), result: () => ({ state: 'passed', errors: [] }), diagnostic: () => undefined }) as unknown as TestCase;

    test('is its suite and declared id: rewording the title keeps it', () => {
      const before = recordFor(passedCase('GET /categories/root > is the root: parent_id 0', meta), 'categories');
      const after = recordFor(passedCase('GET /categories/root > the root category has parent_id 0 and a path of its own id', meta), 'categories');
      expect(before.id).toBe('categories/root-is-root');
      expect(after.id).toBe(before.id);
      expect(after.title).not.toBe(before.title);
    });

    test('of a test declared without conformanceTest (no declared id) is the slug of its title', () => {
      expect(recordFor(passedCase('GET /categories/:id > answers {category}'), 'categories').id).toBe('categories/get-categories-id-answers-category');
    });
  });

  describe('written in pieces, the same text as written whole', () => {
    const many: RunResults = {
      summary: { passed: 0, failed: 0, warned: 0, skipped: 0, expected: 0 },
      tests: Array.from({ length: 1700 }, (_, i) =>
        i % 97 === 0
          ? { ...failing, id: `s${i % 3}/f${i}`, suite: `suite "${i % 3}" & <co>` }
          : i % 89 === 0
            ? { ...skipped, id: `s${i % 3}/s${i}`, suite: `suite "${i % 3}" & <co>` }
            : record({ id: `s${i % 3}/t${i}`, suite: `suite "${i % 3}" & <co>`, title: `GET /x/${i}\tnew\nline` }),
      ),
      problems: [`suite x could not run: token ${TOKEN}`, 'a <second> & "problem"'],
    };
    const odd: RunInfo = { ...run, target: 'http://h/api?a=1&b="2"\n<x>' };

    test('junit.xml: chunks of test cases under hand-written wrappers equal one junit-report-builder tree', () => {
      expect(junitXml(results, run)).toBe(junitInOneTree(results, run));
      expect(junitXml(many, odd)).toBe(junitInOneTree(many, odd));
      expect(junitXml(many, odd)).not.toContain(TOKEN);
    });

    test('results.json: one test at a time, the text of JSON.stringify(document, null, 2)', () => {
      const cases: [RunResults, RunInfo][] = [
        [results, run],
        [many, odd],
        [{ ...results, tests: [] }, run],
      ];
      for (const [res, info] of cases) {
        const text = resultsJson(res, info);
        expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
        expect(JSON.parse(text).tests).toHaveLength(res.tests.length);
        expect(text).not.toContain(TOKEN);
      }
    });
  });
});

describe('where a run writes its reports, and what says how it was made', () => {
  test('each run a directory of its own (its start, to the second; -2 for a second run in that second), and latest points at the newest', () => {
    const base = mkdtempSync(join(tmpdir(), 'cc-reports-'));
    const first = writeReports(base, results, run);
    const second = writeReports(base, results, run);
    const third = writeReports(base, results, { ...run, startedAt: '2026-01-01T00:00:05.250Z' });
    expect([first.dir, second.dir, third.dir].map((d) => relative(base, d))).toEqual(['2026-01-01T00-00-00Z', '2026-01-01T00-00-00Z-2', '2026-01-01T00-00-05Z']);
    expect(first.json).toBe(join(first.dir, 'results.json'));
    for (const written of [first, second, third]) expect(existsSync(written.junit) && existsSync(written.json)).toBe(true);
    expect(readlinkSync(join(base, LATEST))).toBe('2026-01-01T00-00-05Z');
    expect(third.latestProblem).toBeNull();
    expect(readdirSync(base).sort()).toEqual(['2026-01-01T00-00-00Z', '2026-01-01T00-00-00Z-2', '2026-01-01T00-00-05Z', LATEST]);
  });

  test("a latest that is not the kit's link is left as it is, and said so", () => {
    const base = mkdtempSync(join(tmpdir(), 'cc-reports-'));
    mkdirSync(join(base, LATEST));
    const written = writeReports(base, results, run);
    expect(written.latestProblem).toMatch(/is not a link the kit made: left as it is/);
    expect(existsSync(written.json)).toBe(true);
  });

  test('results.json names the kit, the catalogue, the seed, the filters, the duration and why it ended; a password in the target is redacted', () => {
    const info: RunInfo = {
      ...run,
      target: 'https://user:s3cret-pass@api.example/api',
      versions: ['3.2', '3.1'],
      seed: { seed: 42, given: false },
      filters: ['favorites'],
      exitReason: 'FAIL: MUST requirements failed',
    };
    const document = JSON.parse(resultsJson(results, info)) as { run: Record<string, unknown> };
    const { kit, catalogue } = provenance();
    expect(document.run).toMatchObject({
      kit,
      catalogue,
      versions: ['3.2', '3.1'],
      seed: { seed: 42, given: false },
      filters: ['favorites'],
      durationMs: 1000,
      exitReason: 'FAIL: MUST requirements failed',
    });
    expect(kit.name).toBe('catalogue-conformance');
    expect(catalogue.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(catalogue.requirements).toBeGreaterThan(100);
    expect(String(document.run['target'])).not.toContain('s3cret-pass');
  });

  test('the commit of a checkout is read from .git: a branch, packed refs, a detached HEAD; none outside a checkout', () => {
    const root = mkdtempSync(join(tmpdir(), 'cc-git-'));
    expect(gitCommit(root)).toBeNull();
    const hash = 'a'.repeat(40);
    mkdirSync(join(root, '.git', 'refs', 'heads'), { recursive: true });
    writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(root, '.git', 'refs', 'heads', 'main'), `${hash}\n`);
    expect(gitCommit(root)).toBe(hash);
    rmSync(join(root, '.git', 'refs', 'heads', 'main'));
    writeFileSync(join(root, '.git', 'packed-refs'), `# pack-refs with: peeled\n${'b'.repeat(40)} refs/heads/main\n`);
    expect(gitCommit(root)).toBe('b'.repeat(40));
    writeFileSync(join(root, '.git', 'HEAD'), `${'c'.repeat(40)}\n`);
    expect(gitCommit(root)).toBe('c'.repeat(40));
  });
});

describe('failures by requirement', () => {
  test('each broken requirement once: its section and quote, how many tests and findings, the first exchange that showed it', () => {
    const second = record({
      id: 'categories/second',
      title: 'GET /categories > lists the root',
      status: 'failed',
      failures: [
        { requirements: ['CAT-6'], severity: 'MUST', message: 'again', exchange: 0 },
        { requirements: ['CAT-7'], severity: 'WARN', message: 'only a warning' },
      ],
      exchanges: [exchange],
    });
    const lines = failedRequirements([failing, second]);
    expect(lines[0]).toBe('FAILED REQUIREMENTS (1):');
    expect(lines[1]).toMatch(
      /^ {2}CAT-6 \([^)]+\): "[^"]+": 2 test\(s\), 2 finding\(s\); first: GET http:\/\/127\.0\.0\.1:9\/api\/categories\/root\?oauth_token=\[REDACTED\] -> 200 \(in categories > GET \/categories\/root > is the root\)$/,
    );
    expect(lines).toHaveLength(2);
    expect(failedRequirements([])).toEqual([]);
    // In the summary, after the failures and notes, before the counts.
    expect(terminalSummary(results, run, null)).toMatch(/\nFAILED REQUIREMENTS \(1\):\n {2}CAT-6 [^\n]+\n\nTests: /);
  });
});
