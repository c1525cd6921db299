// Requirement coverage: which conformance tests cite which requirement. The suites are collected
// by vitest without running (no server is contacted), and each test's declaration is read from
// its metadata. `npm run coverage` writes docs/requirement-coverage.md from it; a test in
// `npm test` keeps that file current and fails when a requirement about an endpoint has no test.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';
import type { ConformanceMeta } from '../results/model.ts';
import { suiteName, testId } from '../results/model.ts';
import { VARIANT_NAMES, VARIANTS } from '../reference/variants.ts';
import { requirements, type Reading, type Requirement } from './catalogue.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const COVERAGE_DOC = fileURLToPath(new URL('../../docs/requirement-coverage.md', import.meta.url));
const AWAITING_FILE = new URL('./awaiting-tests.json', import.meta.url);
const AWAITING_CLAUSES_FILE = new URL('./awaiting-clauses.json', import.meta.url);

export interface DeclaredTest {
  /** The test's id as results.json and the filters name it: <suite>/<declared id>, e.g. "categories/root-is-root". */
  id: string;
  /** Suite file relative to the project, e.g. "suites/categories.suite.ts". */
  file: string;
  /** Full title, describe blocks included. */
  title: string;
  requirements: readonly string[];
  /** The readings it declares it accepts, expanded. */
  readings: readonly string[];
  /** The clauses it declares it checks. */
  clauses: readonly string[];
  severity: ConformanceMeta['severity'];
  profile: ConformanceMeta['profile'];
}

/** Every conformance test of the suites in `suitesDir` (those `include` names), in file and definition order. */
export async function collectDeclaredTests(
  suitesDir: string = fileURLToPath(new URL('../../suites/', import.meta.url)),
  include: string[] = ['**/*.suite.ts'],
): Promise<DeclaredTest[]> {
  const vitest = await createVitest('test', { watch: false, config: false, root: PROJECT_ROOT, dir: suitesDir, include, reporters: [], silent: true }, {}, {});
  try {
    const { testModules, unhandledErrors } = await vitest.collect();
    if (unhandledErrors.length > 0) throw new Error(`collecting the suites failed: ${String(unhandledErrors[0])}`);
    const out: DeclaredTest[] = [];
    for (const module of [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId))) {
      const errors = module.errors();
      if (errors.length > 0) throw new Error(`collecting ${module.relativeModuleId} failed: ${errors[0]!.message}`);
      for (const test of module.children.allTests()) {
        const meta = test.meta().conformance;
        if (!meta) continue;
        out.push({
          id: testId(suiteName(module.moduleId), meta.id),
          file: module.relativeModuleId,
          title: test.fullName,
          requirements: meta.requirements,
          readings: meta.readings ?? [],
          clauses: meta.clauses ?? [],
          severity: meta.severity,
          profile: meta.profile,
        });
      }
    }
    return out;
  } finally {
    await vitest.close();
  }
}

/** Requirement id -> the tests that cite it. */
export function coverageByRequirement(tests: readonly DeclaredTest[]): Map<string, DeclaredTest[]> {
  const map = new Map<string, DeclaredTest[]>();
  for (const test of tests) {
    for (const id of test.requirements) map.set(id, [...(map.get(id) ?? []), test]);
  }
  return map;
}

/** A MUST statement that an observation from outside could contradict: some test must cite it. */
export function needsATest(r: Requirement): boolean {
  return r.level === 'MUST' && r.testable;
}

/** Clauses no test checks yet, each with the check it awaits (issue 38: the split goes on, statement by statement). */
export function awaitingClauses(): Record<string, string> {
  return JSON.parse(readFileSync(AWAITING_CLAUSES_FILE, 'utf8')) as Record<string, string>;
}

/** Testable MUST statements no test cites yet, each with why (the issue that brings its test). */
export function awaitingTests(): Record<string, string> {
  const data = JSON.parse(readFileSync(AWAITING_FILE, 'utf8')) as { awaiting: Record<string, string> };
  return data.awaiting;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** Reading id -> the legal variants of the reference that serve it (VariantInfo.readings). */
export function variantsByReading(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const name of VARIANT_NAMES) for (const id of VARIANTS[name].readings ?? []) map.set(id, [...(map.get(id) ?? []), name]);
  return map;
}

/** How the self-tests show a reading is accepted: the reference's default, a variant, or why neither. */
function servedBy(reading: Reading, variants: ReadonlyMap<string, string[]>): string {
  const named = variants.get(reading.id);
  if (named?.length) return `variant ${named.map((v) => `\`${v}\``).join(', ')}${reading.default ? " (and the reference's default)" : ''}`;
  if (reading.default) return "the reference's default";
  return `no variant: ${reading.reason ?? ''}`;
}

/** The Markdown catalogue with, per requirement, its readings (and what serves each), and the tests that cover it. */
export function coverageDocument(tests: readonly DeclaredTest[]): string {
  const byId = coverageByRequirement(tests);
  const all = [...requirements().values()];
  const covered = all.filter((r) => byId.has(r.id)).length;
  const variants = variantsByReading();
  const readingCount = all.reduce((n, r) => n + (r.readings?.length ?? 0), 0);
  const lines = [
    '# Requirement coverage',
    '',
    "<!-- Generated by `npm run coverage` from src/requirements/catalogue.json, the suites and the reference's variants. Do not edit. -->",
    '',
    `${covered} of ${all.length} requirements are cited by at least one of the ${tests.length} conformance tests.`,
    'MUST requirements fail a run; OPEN ones (the spec leaves them open) may only warn.',
    `Each testable MUST statement lists its readings (${readingCount} in all): the server behaviours its words allow, the plain one first. Every test citing the statement accepts every reading (it declares them), and fails only what breaks all of them. Each reading says what proves it is accepted: the reference server's default behaviour, a legal variant of the reference (src/reference/variants/) that every suite runs against, or why no variant can serve it.`,
    "Each test is named by its id (`<suite>/<id>`: what results.json, the command line's filters and known deviations use), then its file and title.",
    '',
  ];
  let section = '';
  for (const r of all) {
    if (r.section !== section) {
      section = r.section;
      lines.push('', `## ${section}`, '', '| Id | Level | Requirement | Readings, each accepted | Tests |', '|---|---|---|---|---|');
    }
    const cited = byId.get(r.id) ?? [];
    const testsCell = cited.length > 0 ? cited.map((t) => `\`${t.id}\` (${t.file}): ${t.title}`).join('<br>') : r.testable ? '—' : `not testable: ${r.untestableReason ?? ''}`;
    const readingsCell = (r.readings ?? []).map((reading) => `**${reading.id}** ${reading.text} *(${servedBy(reading, variants)})*`).join('<br>');
    lines.push(`| ${r.id} | ${r.level} | ${cell(r.summary)} | ${cell(readingsCell)} | ${cell(testsCell)} |`);
  }
  return `${lines.join('\n')}\n`;
}
