// Sizes a newcomer can read (issue 21): no source file of src/, suites/ or fixtures/ over 500 lines,
// tests included (generated code aside), no function of src/ over 80. Split by meaning when one grows past them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../run.ts';
import { sourceFiles } from '../testing/source-files.ts';

const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 80;

const lineCount = (file: string): number => readFileSync(join(PROJECT_ROOT, file), 'utf8').split('\n').length - 1;

/** Every function of a file longer than the limit: "file name" -> lines. */
function longFunctions(file: string, text = readFileSync(join(PROJECT_ROOT, file), 'utf8')): Map<string, number> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
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
  test(`no source file over ${MAX_FILE_LINES} lines`, () => {
    const problems: string[] = [];
    const all = ['src/', 'suites/', 'fixtures/'].flatMap((dir) => sourceFiles(dir, { tests: true }));
    for (const file of all.filter((f) => !f.startsWith('src/generated/'))) {
      const lines = lineCount(file);
      if (lines > MAX_FILE_LINES) problems.push(`${file} has ${lines} lines: split it`);
    }
    expect(problems).toEqual([]);
  });

  test(`no function of src/ over ${MAX_FUNCTION_LINES} lines`, () => {
    const problems: string[] = [];
    for (const file of sourceFiles('src/').filter((f) => !f.startsWith('src/generated/')))
      for (const [key, lines] of longFunctions(file)) problems.push(`${key} has ${lines} lines: split it`);
    expect(problems).toEqual([]);
  });

  test('the check itself: a function over the limit is found, with its name and length', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const a${i} = ${i};`).join('\n');
    const text = `export function tooLong(): void {\n${body(MAX_FUNCTION_LINES - 1)}\n}\nfunction fits(): void {\n${body(MAX_FUNCTION_LINES - 2)}\n}\n`;
    expect(Object.fromEntries(longFunctions('x.ts', text))).toEqual({ 'x.ts tooLong': MAX_FUNCTION_LINES + 1 });
  });
});
