// Issue 37, point 3: the requirement is the unit of the verdict. On a faulty run, the terminal's
// FAILED REQUIREMENTS, results.json's verdict by requirement, junit.xml's broken requirements
// and report.html's requirement rows name the same failed requirements: those a finding names as
// broken, not every requirement a failing test cites.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, test } from 'vitest';
import { runAgainstReference, type CliRun } from '../testing/cli.ts';

/** A fault whose wrong value many tests see (the example: total_pages one too many). */
const FAULT = 'pagination-total-pages-off-by-one';

let run: CliRun;

beforeAll(async () => {
  ({ run } = await runAgainstReference(['categories', 'pagination', 'search'], { fault: FAULT }, {}, 300_000));
}, 360_000);

function fromTerminal(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => /^FAILED REQUIREMENTS \(\d+\):$/.test(l));
  if (start < 0) return [];
  const ids: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^ {2}(\S+) /.exec(line);
    if (!match) break;
    ids.push(match[1]!);
  }
  return ids;
}

function fromResultsJson(): string[] {
  const document = JSON.parse(readFileSync(join(run.reportDir, 'latest', 'results.json'), 'utf8')) as { requirements: Record<string, { status: string }> };
  return Object.entries(document.requirements)
    .filter(([, v]) => v.status === 'failed')
    .map(([id]) => id);
}

function fromJunit(): string[] {
  type Property = { '@_name': string; '@_value': string };
  type Case = { properties?: { property: Property[] }; failure?: unknown };
  const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) }).parse(run.junit!) as {
    testsuites: { testsuite: { testcase?: Case[] }[] };
  };
  const cases = parsed.testsuites.testsuite.flatMap((s) => s.testcase ?? []).filter((c) => c.failure !== undefined);
  return [...new Set(cases.flatMap((c) => (c.properties?.property ?? []).filter((p) => p['@_name'] === 'broken_requirement').map((p) => p['@_value'])))];
}

function fromHtml(): string[] {
  const html = readFileSync(join(run.reportDir, 'latest', 'report.html'), 'utf8');
  return [...html.matchAll(/<tr class="st-failed" id="r-([^"]+)">/g)].map((m) => m[1]!);
}

describe(`a faulty run (${FAULT}): the four reports name the same failed requirements`, () => {
  test('terminal, results.json, junit.xml and report.html agree, and name the statement the fault breaks', () => {
    expect(run.code, run.stdout).toBe(1);
    const terminal = fromTerminal(run.stdout).sort();
    expect(terminal).toContain('PAG-1');
    expect(fromResultsJson().sort(), 'results.json').toEqual(terminal);
    expect(fromJunit().sort(), 'junit.xml').toEqual(terminal);
    expect(fromHtml().sort(), 'report.html').toEqual(terminal);
  });

  test('a requirement a failing test cites but no finding names is not failed anywhere', () => {
    const failedTests = run.results!.tests.filter((t) => t.status === 'failed');
    const named = new Set(failedTests.flatMap((t) => t.findings.filter((f) => f.severity === 'MUST').flatMap((f) => f.requirements)));
    const merelyCited = [...new Set(failedTests.flatMap((t) => t.requirements))].filter((id) => !named.has(id));
    expect(merelyCited.length, 'the fault should leave some cited requirement unbroken, or this test proves nothing').toBeGreaterThan(0);
    for (const id of merelyCited) expect(fromHtml(), id).not.toContain(id);
  });
});
