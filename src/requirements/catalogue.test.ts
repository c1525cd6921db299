// The catalogue is data the whole kit leans on: ids stable and well-formed, quotes verbatim from
// the spec, and every id a suite or a fault names present in it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FAULTS } from '../reference/faults.ts';
import { PROJECT_ROOT } from '../run.ts';
import { CLAUSE_KINDS, clauses, READING_KINDS, requirementOfClause, requirements } from './catalogue.ts';

const all = [...requirements().values()];

describe('requirement catalogue', () => {
  test('ids are PREFIX-N, unique, numbered 1..n within each prefix', () => {
    const byPrefix = new Map<string, number[]>();
    for (const r of all) {
      expect(r.id).toMatch(/^[A-Z]+-[1-9][0-9]*$/);
      const [prefix, n] = r.id.split('-') as [string, string];
      byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), Number(n)]);
    }
    expect(requirements().size).toBe(all.length);
    for (const [prefix, numbers] of byPrefix) {
      expect(
        numbers.sort((a, b) => a - b),
        prefix,
      ).toEqual(numbers.map((_, i) => i + 1));
    }
  });

  test('each entry has a section, a level, a quote, a summary; untestable ones say why', () => {
    for (const r of all) {
      expect(r.section.length, r.id).toBeGreaterThan(0);
      expect(['MUST', 'OPEN'], r.id).toContain(r.level);
      expect(r.quote.length, r.id).toBeGreaterThan(0);
      expect(r.summary.length, r.id).toBeGreaterThan(10);
      if (!r.testable) expect(r.untestableReason?.length ?? 0, r.id).toBeGreaterThan(10);
      // Readings: each a sentence of its own, of a known kind (their ids, order and sources: src/selftest/readings.test.ts).
      for (const reading of r.readings ?? []) {
        expect(reading.text, reading.id).toMatch(/^\S.{8,}[.)]$/);
        expect(READING_KINDS, reading.id).toContain(reading.kind);
      }
    }
  });

  test('clauses (issue 38): numbered <requirement>#1, #2, ... of a testable MUST statement, of a known kind, each a few words; an untestable one says why', () => {
    for (const r of all.filter((x) => x.clauses)) {
      expect(r.level === 'MUST' && r.testable, `${r.id}: only a testable MUST statement is split into clauses`).toBe(true);
      expect(
        r.clauses!.map((c) => c.id),
        r.id,
      ).toEqual(r.clauses!.map((_, i) => `${r.id}#${i + 1}`));
      for (const clause of r.clauses!) {
        expect(CLAUSE_KINDS, clause.id).toContain(clause.kind);
        expect(clause.text, clause.id).toMatch(/^\S.{8,}$/);
        if (clause.untestable !== undefined) expect(clause.untestable.length, clause.id).toBeGreaterThan(10);
      }
    }
  });

  test('a fault names at most one clause, of its own requirement', () => {
    for (const [name, fault] of Object.entries(FAULTS)) {
      if (fault.clause === undefined) continue;
      expect(clauses().has(fault.clause), `${name}: clause ${fault.clause} is not in the catalogue`).toBe(true);
      expect(requirementOfClause(fault.clause), name).toBe(fault.requirement);
    }
  });

  test('every requirement id named in a suite or by a reference fault is in the catalogue', () => {
    const suitesDir = join(PROJECT_ROOT, 'suites');
    const cited = new Set<string>();
    for (const file of readdirSync(suitesDir).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(suitesDir, file), 'utf8');
      for (const match of text.matchAll(/'([A-Z]+-\d+)'/g)) cited.add(match[1]!);
    }
    for (const fault of Object.values(FAULTS)) cited.add(fault.requirement);
    expect(cited.size).toBeGreaterThan(10);
    const unknown = [...cited].filter((id) => !requirements().has(id));
    expect(unknown).toEqual([]);
  });

  // The spec is not part of this repository; where it is found (CI has it beside the clone),
  // every quote must be in it to the letter.
  const specPath = process.env['CATALOGUE_SPEC'] ?? resolve(PROJECT_ROOT, '../shared/spec/catalogue-api-v3.md');
  test('every quote stands verbatim on one line of the spec', (ctx) => {
    if (!existsSync(specPath)) ctx.skip(`spec not found at ${specPath} (set CATALOGUE_SPEC to check the quotes)`);
    const lines = readFileSync(specPath, 'utf8').split('\n');
    const missing = all.flatMap((r) => r.quote.filter((q) => !lines.some((line) => line.includes(q))).map((q) => `${r.id}: ${q}`));
    expect(missing).toEqual([]);
  });
});
