// The code keeps Prettier's layout (.prettierrc.json: the house's single quotes and 180 columns):
// `npm run format` writes it, `npm run format:check` and this test, run by `npm test`, name any
// file that has drifted from it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { expect, test } from 'vitest';
import { PROJECT_ROOT } from '../run.ts';

/** What `npm run format` formats (package.json): the TypeScript and the ES modules of these places. */
export const FORMATTED = ['src', 'suites', 'fixtures', 'bin', 'vitest.config.ts', 'eslint.config.mjs'];

function codeFiles(path: string): string[] {
  const full = join(PROJECT_ROOT, path);
  if (/\.(ts|mjs)$/.test(path)) return [path];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() || /\.(ts|mjs)$/.test(entry.name) ? codeFiles(`${path}/${entry.name}`) : []));
}

test('every file of the kit, its suites and its tests is laid out as Prettier lays it out', { timeout: 120_000 }, async () => {
  const drifted: string[] = [];
  const files = FORMATTED.flatMap(codeFiles);
  expect(files.length).toBeGreaterThan(300);
  for (const file of files) {
    const path = join(PROJECT_ROOT, file);
    if ((await prettier.getFileInfo(path, { ignorePath: join(PROJECT_ROOT, '.prettierignore') })).ignored) continue;
    const options = await prettier.resolveConfig(path);
    if (!(await prettier.check(readFileSync(path, 'utf8'), { ...options, filepath: path }))) drifted.push(file);
  }
  expect(drifted, 'run: npm run format').toEqual([]);
});
