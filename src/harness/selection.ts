// What the command line's filters pick (issue 20, point 9): a suite (its name or path), a test (its
// id, as results.json names it: <suite>/<the id its declaration gives>) or a requirement id (the
// tests that cite it). A filter that picks nothing is refused before any request, with the closest name.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requirements } from '../requirements/catalogue.ts';
import { closestName } from '../util/closest.ts';

/** Which tests of the suite files run: those of whole suites, those named, those citing a requirement. */
export interface TestSelection {
  suites: string[];
  tests: string[];
  requirements: string[];
}

export class SelectionError extends Error {
  override name = 'SelectionError';
}

/** A suite's name: its file name without .suite.ts ("favorites", "observed"). */
export const suiteNameOf = (rel: string): string => rel.replace(/^.*\//, '').replace(/\.suite\.ts$/, '');

/** Whether `filter` (a name or a path) picks the suite file `rel`. */
export function picks(filter: string, suitesDir: string, rel: string): boolean {
  return rel.includes(filter) || join(suitesDir, rel).endsWith(filter.replace(/^\.\//, ''));
}

const TEST_ID = /^([a-z0-9-]+)\/([a-z0-9-]+)$/;

/**
 * The suite files `filters` pick among `files` (relative to `suitesDir`), and, when a filter names
 * a test or a requirement, which of their tests run (null: all of them).
 */
export function selectionOf(suitesDir: string, files: readonly string[], filters: readonly string[]): { files: string[]; selection: TestSelection | null } {
  if (!filters.length) return { files: [...files], selection: null };
  const selection: TestSelection = { suites: [], tests: [], requirements: [] };
  const picked = new Set<string>();
  const catalogue = requirements();
  for (const filter of filters) {
    const bySuite = files.filter((rel) => picks(filter, suitesDir, rel));
    if (bySuite.length) {
      bySuite.forEach((rel) => picked.add(rel));
      selection.suites.push(...bySuite.map(suiteNameOf));
      continue;
    }
    if (catalogue.has(filter)) {
      // The suites whose source cites it (a test's requirements are string literals).
      const citing = files.filter((rel) => new RegExp(`['"\`]${filter}['"\`]`).test(readFileSync(join(suitesDir, rel), 'utf8')));
      if (!citing.length) throw new SelectionError(`no test cites requirement ${filter}`);
      citing.forEach((rel) => picked.add(rel));
      selection.requirements.push(filter);
      continue;
    }
    const test = TEST_ID.exec(filter);
    const suiteFile = test ? files.find((rel) => suiteNameOf(rel) === test[1]) : undefined;
    if (suiteFile) {
      picked.add(suiteFile);
      selection.tests.push(filter);
      continue;
    }
    const closest = closestName(filter, [...files.map(suiteNameOf), ...catalogue.keys()]);
    throw new SelectionError(
      `no suite, test id or requirement id matches ${JSON.stringify(filter)}${closest ? ` (did you mean ${closest}?)` : ''}; the suites are ${files.map(suiteNameOf).join(', ')}`,
    );
  }
  const chosen = files.filter((rel) => picked.has(rel));
  // Only whole suites: every test of them runs, as before.
  return { files: chosen, selection: selection.tests.length || selection.requirements.length ? selection : null };
}

/** Whether a test (its id, suite and requirement ids) is one the selection picks. */
export function isSelected(selection: TestSelection, test: { id: string; suite: string; requirements: readonly string[] }): boolean {
  return selection.suites.includes(test.suite) || selection.tests.includes(test.id) || test.requirements.some((id) => selection.requirements.includes(id));
}
