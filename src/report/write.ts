// Writes a run's results: results.json and junit.xml in the report directory. Every byte written
// passes a last scrub of all secrets the run knows, whatever layer produced it.
import { writeFileSync } from 'node:fs';
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
  profiles: string[];
  startedAt: string;
  finishedAt: string;
  requests: { total: number; budget: number };
  exitCode: number;
  /** Hints that did not fit, pacing waits and the like. */
  notes: string[];
}

export function resultsJson(results: RunResults, run: RunInfo): string {
  const document = {
    summary: results.summary,
    tests: results.tests.map((t) => ({
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
    })),
    requests: run.requests,
    run: {
      target: run.target,
      authUrl: run.authUrl,
      referenceServer: run.referenceServer,
      apiVersion: run.apiVersion,
      profiles: run.profiles,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      exitCode: run.exitCode,
      notes: run.notes,
    },
    problems: results.problems,
  };
  return secrets.scrub(`${JSON.stringify(document, null, 2)}\n`);
}

function systemOut(test: TestRecord): string {
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

export function junitXml(results: RunResults, run: RunInfo): string {
  const builder = junitFactory.newBuilder();
  builder.name(`catalogue-conformance ${run.target}`);
  const suites = new Map<string, ReturnType<typeof builder.testSuite>>();
  for (const test of results.tests) {
    let suite = suites.get(test.suite);
    if (!suite) {
      suite = builder.testSuite().name(test.suite).timestamp(run.startedAt);
      suite.property('target', run.target).property('api_version', run.apiVersion);
      suites.set(test.suite, suite);
    }
    const testCase = suite.testCase().className(test.suite).name(test.title).time(test.durationMs / 1000);
    for (const id of test.requirements) testCase.property('requirement', id);
    testCase.property('severity', test.severity).property('profile', test.profile).property('status', test.status).property('id', test.id);
    if (test.status === 'failed') testCase.failure(test.message, test.failures.flatMap((f) => f.requirements).join(' '));
    if (test.status === 'skipped') testCase.skipped().property('skip_reason', test.message);
    const out = systemOut(test);
    if (out) testCase.standardOutput(out);
  }
  if (results.problems.length) {
    const suite = builder.testSuite().name('run');
    for (const problem of results.problems) suite.testCase().className('run').name('run could be carried out').error(problem);
  }
  return secrets.scrub(builder.build());
}

export function writeReports(dir: string, results: RunResults, run: RunInfo): { junit: string; json: string } {
  ensureDir(dir);
  const junit = join(dir, 'junit.xml');
  const json = join(dir, 'results.json');
  writeFileSync(junit, junitXml(results, run));
  writeFileSync(json, resultsJson(results, run));
  return { junit, json };
}
