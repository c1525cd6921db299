import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { SUITES_DIR } from '../run.ts';
import { isSelected, SelectionError, selectionOf } from './selection.ts';

const FILES = readdirSync(SUITES_DIR, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.suite.ts'))
  .sort();

describe('what the filters pick', () => {
  test('no filter: every file, every test', () => {
    expect(selectionOf(SUITES_DIR, FILES, [])).toEqual({ files: FILES, selection: null });
  });

  test('suites alone: their files, all their tests', () => {
    expect(selectionOf(SUITES_DIR, FILES, ['categories', 'last/observed'])).toEqual({ files: ['categories.suite.ts', 'last/observed.suite.ts'], selection: null });
  });

  test('a requirement id: the files whose tests cite it; a test id: its suite file; only those tests then run', () => {
    const { files, selection } = selectionOf(SUITES_DIR, FILES, ['FAV-29', 'categories/some-test', 'search']);
    expect(files).toEqual(['categories.suite.ts', 'favorites-model.suite.ts', 'favorites.suite.ts', 'search.suite.ts']);
    expect(selection).toEqual({ suites: ['search'], tests: ['categories/some-test'], requirements: ['FAV-29'] });
    expect(isSelected(selection!, { id: 'search/anything', suite: 'search', requirements: [] })).toBe(true);
    expect(isSelected(selection!, { id: 'categories/some-test', suite: 'categories', requirements: [] })).toBe(true);
    expect(isSelected(selection!, { id: 'categories/other', suite: 'categories', requirements: ['CAT-6'] })).toBe(false);
    expect(isSelected(selection!, { id: 'favorites/x', suite: 'favorites', requirements: ['FAV-29', 'ERR-9'] })).toBe(true);
  });

  test('a filter that picks nothing is refused with the closest name', () => {
    expect(() => selectionOf(SUITES_DIR, FILES, ['favorits'])).toThrow(SelectionError);
    expect(() => selectionOf(SUITES_DIR, FILES, ['favorits'])).toThrow(/no suite, test id or requirement id matches "favorits" \(did you mean favorites\?\)/);
    expect(() => selectionOf(SUITES_DIR, FILES, ['nosuite/some-test'])).toThrow(/matches "nosuite\/some-test"/);
  });
});
