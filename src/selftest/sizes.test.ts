// Sizes a newcomer can read (issue 21): no source file over 500 lines (generated code aside), no
// function of src/ over 80. The files and functions over them today are listed with their size:
// they may shrink, never grow, and one that falls under the limit must leave the list.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../run.ts';
import { sourceFiles } from '../testing/source-files.ts';

const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 80;

/** Over the limit today, with the lines they have: to be split (issue 21), never to grow. */
const LONG_FILES: Record<string, number> = {};
/** Functions of src/ over the limit today (file:line of their start may move; named by file and name). */
const LONG_FUNCTIONS: Record<string, number> = {
  // The byte scanner's hot loop: one function keeps its state in locals (src/har/scan.ts).
  'src/har/scan.ts feed': 111,
};

const lineCount = (file: string): number => readFileSync(join(PROJECT_ROOT, file), 'utf8').split('\n').length - 1;

/** Every function of a file longer than the limit: "file name" -> lines. */
function longFunctions(file: string): Map<string, number> {
  const source = ts.createSourceFile(file, readFileSync(join(PROJECT_ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isConstructorDeclaration(node)) {
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      const name = (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name ? node.name.getText(source) : '(anonymous)';
      const key = `${file} ${name}`;
      if (lines > MAX_FUNCTION_LINES) found.set(key, Math.max(lines, found.get(key) ?? 0));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('sizes (issue 21)', () => {
  test(`no source file over ${MAX_FILE_LINES} lines but those listed, none of them longer than listed`, () => {
    const problems: string[] = [];
    for (const file of [...sourceFiles('src/'), ...sourceFiles('suites/')].filter((f) => !f.startsWith('src/generated/'))) {
      const lines = lineCount(file);
      const known = LONG_FILES[file];
      if (known === undefined && lines > MAX_FILE_LINES) problems.push(`${file} has ${lines} lines: split it`);
      if (known !== undefined && lines > known) problems.push(`${file} has ${lines} lines, ${known} when listed: split it, it may not grow`);
      if (known !== undefined && lines <= MAX_FILE_LINES) problems.push(`${file} has ${lines} lines now: take it off LONG_FILES`);
    }
    expect(problems).toEqual([]);
  });

  test(`no function of src/ over ${MAX_FUNCTION_LINES} lines but those listed, none of them longer than listed`, () => {
    const problems: string[] = [];
    const found = new Map<string, number>();
    for (const file of sourceFiles('src/').filter((f) => !f.startsWith('src/generated/'))) for (const [key, lines] of longFunctions(file)) found.set(key, Math.max(lines, found.get(key) ?? 0));
    for (const [key, lines] of found) {
      const known = LONG_FUNCTIONS[key];
      if (known === undefined) problems.push(`${key} has ${lines} lines: split it`);
      else if (lines > known) problems.push(`${key} has ${lines} lines, ${known} when listed: it may not grow`);
    }
    for (const key of Object.keys(LONG_FUNCTIONS)) if (!found.has(key)) problems.push(`${key} is no longer over ${MAX_FUNCTION_LINES} lines: take it off LONG_FUNCTIONS`);
    expect(problems).toEqual([]);
  });
});
