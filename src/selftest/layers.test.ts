// The layers of docs/architecture.md, held by a test: every import of src/ and suites/ (tests
// aside) points to its own layer or a lower one, the reference server and the test support stay
// apart, and no cycle joins two modules. Imports are read with the TypeScript parser (static,
// type-only and dynamic ones), not by a regular expression.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../run.ts';
import { sourceFiles } from '../testing/source-files.ts';

/** Bottom to top: a module may import its own layer and those below. The longest matching prefix places a file. */
export const LAYERS: readonly { name: string; holds: readonly string[] }[] = [
  { name: 'foundation', holds: ['src/util/', 'src/generated/'] },
  { name: 'results', holds: ['src/results/'] },
  { name: 'rules', holds: ['src/requirements/', 'src/rules/', 'src/checks/', 'src/schemas/', 'src/http/', 'src/har/'] },
  { name: 'report', holds: ['src/report/'] },
  { name: 'run', holds: ['src/budget/', 'src/auth/', 'src/config/', 'src/coordinator/', 'src/discovery/', 'src/harness/', 'src/engines/'] },
  { name: 'suites', holds: ['suites/'] },
  { name: 'entry', holds: ['src/run.ts', 'src/runner/', 'src/cli/', 'src/har/main.ts', 'src/requirements/coverage.ts', 'src/requirements/write-coverage.ts'] },
];
/** Apart from the layers: the reference server imports nothing of the kit, and only the entry points and the test support start it. */
const REFERENCE = 'src/reference/';
/** The kit's own tests and tools: they may import anything; nothing of the kit imports them. */
const TEST_SUPPORT = ['src/testing/', 'src/selftest/', 'src/bench/'];

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** Every relative import of a file: import and export declarations (type-only ones marked) and import() calls. */
function importsOf(file: string): Edge[] {
  const source = ts.createSourceFile(file, readFileSync(join(PROJECT_ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const edges: Edge[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) return;
    edges.push({ from: file, to: relative(PROJECT_ROOT, resolve(PROJECT_ROOT, dirname(file), specifier)), typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

const longest = (file: string, prefixes: readonly string[]) => Math.max(-1, ...prefixes.filter((p) => file === p || file.startsWith(p)).map((p) => p.length));

/** The layer index of a file, 'reference', 'support', or null when no rule places it. */
export function placeOf(file: string): number | 'reference' | 'support' | null {
  let best: { length: number; place: number | 'reference' | 'support' } | null = null;
  const consider = (length: number, place: number | 'reference' | 'support') => {
    if (length >= 0 && (best === null || length > best.length)) best = { length, place };
  };
  LAYERS.forEach((layer, i) => consider(longest(file, layer.holds), i));
  consider(longest(file, [REFERENCE]), 'reference');
  consider(longest(file, TEST_SUPPORT), 'support');
  return best === null ? null : (best as { place: number | 'reference' | 'support' }).place;
}

const nameOf = (place: number | 'reference' | 'support' | null) => (typeof place === 'number' ? LAYERS[place]!.name : String(place));

/** Why an import may not be, or null. */
export function wrongWay(from: string, to: string): string | null {
  const a = placeOf(from);
  const b = placeOf(to);
  if (a === null) return `${from} is in no layer: add it to LAYERS (src/selftest/layers.test.ts) and docs/architecture.md`;
  if (a === 'support') return null;
  if (b === 'support') return `${from} (${nameOf(a)}) imports the kit's test support ${to}`;
  if (a === 'reference') return b === 'reference' ? null : `the reference server's ${from} imports ${to} (${nameOf(b)}): it stays apart from the kit`;
  if (b === 'reference') return a === LAYERS.length - 1 ? null : `${from} (${nameOf(a)}) imports the reference server's ${to}: only the entry points start it`;
  if (b === null) return `${to}, which ${from} imports, is in no layer`;
  return b > a ? `${from} (${nameOf(a)}) imports ${to} (${nameOf(b)}), a higher layer` : null;
}

/** The strongly connected components of more than one file (Tarjan). */
export function cycles(edges: readonly Edge[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const e of edges) graph.set(e.from, [...(graph.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

describe('the layers (docs/architecture.md)', () => {
  const files = [...sourceFiles('src/'), ...sourceFiles('suites/')];
  const edges = files.flatMap(importsOf);

  test('every import points to its own layer or a lower one; the reference server and the test support stay apart', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(edges.length).toBeGreaterThan(500);
    const problems = [...new Set(files.map((f) => wrongWay(f, f)).filter((p) => p !== null))];
    for (const edge of edges) {
      const problem = wrongWay(edge.from, edge.to);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
  });

  test('no cycle joins two modules of the kit, nor two of the reference server', () => {
    const kit = edges.filter((e) => !e.from.startsWith(REFERENCE));
    expect(cycles(kit)).toEqual([]);
    const reference = edges.filter((e) => e.from.startsWith(REFERENCE));
    expect(cycles(reference)).toEqual([]);
  });

  test('the check itself: an upward import, an import of the test support and a cycle are found', () => {
    expect(wrongWay('src/report/write.ts', 'src/harness/run-context.ts')).toMatch(/\(report\) imports src\/harness\/run-context\.ts \(run\), a higher layer$/);
    expect(wrongWay('src/harness/conformance.ts', 'src/report/results.ts')).toBeNull();
    expect(wrongWay('src/harness/api.ts', 'src/results/model.ts')).toBeNull();
    expect(wrongWay('src/har/judge.ts', 'src/report/results.ts')).toMatch(/a higher layer/);
    expect(wrongWay('src/har/main.ts', 'src/report/results.ts')).toBeNull();
    expect(wrongWay('src/rules/exchange-rules.ts', 'src/testing/cli.ts')).toMatch(/test support/);
    expect(wrongWay('src/reference/app.ts', 'src/http/client.ts')).toMatch(/stays apart/);
    expect(wrongWay('src/harness/api.ts', 'src/reference/server.ts')).toMatch(/only the entry points start it/);
    expect(wrongWay('src/run.ts', 'src/reference/server.ts')).toBeNull();
    expect(
      cycles([
        { from: 'a', to: 'b', typeOnly: false },
        { from: 'b', to: 'c', typeOnly: true },
        { from: 'c', to: 'a', typeOnly: false },
        { from: 'c', to: 'd', typeOnly: false },
      ]),
    ).toEqual([['a', 'b', 'c']]);
  });
});
