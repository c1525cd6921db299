// Issue 37, point 1: readings before checks. Every testable MUST requirement of the catalogue has
// its readings (the plain one first), each with its own id; each reading is served by the
// reference's default, by a legal variant that names it (the legal-variants test runs every
// suite against it), or says why none can. Every test and every rule of one exchange declares the
// readings it accepts, and accepts every reading of the requirements it cites: a reading added to
// the catalogue fails here until each check citing its requirement is looked at again.
import { beforeAll, describe, expect, test } from 'vitest';
import { collectDeclaredTests, needsATest, type DeclaredTest } from '../requirements/coverage.ts';
import { expandReadings, readingLetter, readings, readingsNotAccepted, requirements, type Reading } from '../requirements/catalogue.ts';
import { EXCHANGE_RULES } from '../rules/exchange-rules.ts';
import { VARIANT_NAMES, VARIANTS } from '../reference/variants.ts';

/** Reading id -> the variants that serve it. */
function servingVariants(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const name of VARIANT_NAMES) for (const id of VARIANTS[name].readings ?? []) map.set(id, [...(map.get(id) ?? []), name]);
  return map;
}

describe('readings of the catalogue', () => {
  test('every testable MUST requirement has its readings, the plain one first, with ids in order', () => {
    const problems: string[] = [];
    for (const r of requirements().values()) {
      const list = r.readings ?? [];
      if (needsATest(r) && !list.length) problems.push(`${r.id} has no reading (at least its plain one)`);
      list.forEach((reading, i) => {
        if (reading.id !== `${r.id}.${readingLetter(i)}`) problems.push(`${r.id}'s reading ${i + 1} has id ${reading.id}, expected ${r.id}.${readingLetter(i)}`);
        if (!/^\S.{8,}[.)]$/.test(reading.text)) problems.push(`${reading.id}: its text is not one sentence ending with a full stop`);
      });
      if (list.length && list[0]!.kind !== 'plain') problems.push(`${r.id}'s first reading is ${list[0]!.kind}, not the plain one`);
    }
    expect(problems).toEqual([]);
  });

  test('every reading is served by the reference, by a legal variant, or says why none can', () => {
    const served = servingVariants();
    const all = [...readings().values()];
    const unserved = all.filter((r: Reading) => !r.default && !served.has(r.id) && !r.reason?.trim()).map((r) => `${r.id}: ${r.text}`);
    expect(unserved, 'readings with no variant and no reason').toEqual([]);
    const unknown = [...served.keys()].filter((id) => !readings().has(id)).map((id) => `${id} (named by ${served.get(id)!.join(', ')})`);
    expect(unknown, 'variants naming readings the catalogue does not have').toEqual([]);
    const byDefault = all.filter((r) => r.default).length;
    const byVariant = all.filter((r) => !r.default && served.has(r.id)).length;
    // A reason that only says no variant is written yet is a debt, not a reason none can be: none is left.
    const awaitingIds = all.filter((r) => !r.default && !served.has(r.id) && /no variant is written yet/.test(r.reason ?? '')).map((r) => r.id);
    expect(awaitingIds, 'readings the kit accepts with no variant written yet: write one').toEqual([]);
    const awaiting = awaitingIds.length;
    console.log(
      `readings: ${all.length} (each with a variant or a reason): ${byDefault} served by the reference's default, ${byVariant} by a legal variant, ` +
        `${all.length - byDefault - byVariant - awaiting} with the reason none is needed or can be, ${awaiting} accepted by the kit with no variant written yet`,
    );
  });
});

describe('every check declares the readings it accepts: all of them', () => {
  let tests: DeclaredTest[];
  beforeAll(async () => {
    tests = await collectDeclaredTests();
  }, 60_000);

  test('every conformance test accepts every reading of the requirements it cites', () => {
    const problems = tests.flatMap((t) => {
      const missing = readingsNotAccepted(t.requirements, t.readings);
      return missing.length
        ? [`${t.id} (${t.file}) cites ${[...new Set(missing.map((id) => id.replace(/\.[a-z]+$/, '')))].join(', ')} but does not declare ${missing.join(', ')}`]
        : [];
    });
    expect(problems, 'judge whether the test accepts these readings, make it, then declare them').toEqual([]);
    const unknown = tests.flatMap((t) => t.readings.filter((id) => !readings().has(id)).map((id) => `${t.id}: ${id}`));
    expect(unknown, 'declared readings the catalogue does not have').toEqual([]);
  });

  test('every rule of one exchange accepts every reading of its requirements', () => {
    const problems = EXCHANGE_RULES.flatMap((rule) => {
      const missing = readingsNotAccepted(rule.requirements, rule.readings ?? []);
      return missing.length ? [`rule ${rule.id} does not declare ${missing.join(', ')}`] : [];
    });
    expect(problems).toEqual([]);
    const unknown = EXCHANGE_RULES.flatMap((rule) =>
      expandReadings(rule.readings ?? [])
        .filter((id) => !readings().has(id))
        .map((id) => `${rule.id}: ${id}`),
    );
    expect(unknown).toEqual([]);
  });
});
