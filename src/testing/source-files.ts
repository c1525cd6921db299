// The kit's own source files, for the tests that read the code itself (layers, sizes): every .ts
// under a directory of the project, tests (*.test.ts) and declarations left out.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../run.ts';

/** Paths relative to the project, `dir` ending with '/'; with `tests`, the *.test.ts files too. */
export function sourceFiles(dir: string, options: { tests?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(`${path}/`, options));
    else if (path.endsWith('.ts') && (options.tests || !path.endsWith('.test.ts')) && !path.endsWith('.d.ts')) out.push(path);
  }
  return out;
}
