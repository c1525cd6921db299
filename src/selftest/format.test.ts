// The code keeps Prettier's layout (.prettierrc.json: the house's single quotes and 180 columns):
// `npm run format` writes it, `npm run format:check` and this test, run by `npm test`, name any
// file that has drifted from it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { expect, test } from 'vitest';
import { PROJECT_ROOT } from '../run.ts';
import { sourceFiles } from '../testing/source-files.ts';

/** What `npm run format` formats (package.json): the TypeScript of src/, suites/ and fixtures/, tests included, and these. */
const FORMATTED = [
  ...['src/', 'suites/', 'fixtures/'].flatMap((dir) => sourceFiles(dir, { tests: true })),
  'bin/catalogue-conformance.mjs',
  'vitest.config.ts',
  'eslint.config.mjs',
];

test('every file of the kit, its suites and its tests is laid out as Prettier lays it out', { timeout: 120_000 }, async () => {
  const drifted: string[] = [];
  expect(FORMATTED.length).toBeGreaterThan(300);
  for (const file of FORMATTED) {
    const path = join(PROJECT_ROOT, file);
    if ((await prettier.getFileInfo(path, { ignorePath: join(PROJECT_ROOT, '.prettierignore') })).ignored) continue;
    const options = await prettier.resolveConfig(path);
    if (!(await prettier.check(readFileSync(path, 'utf8'), { ...options, filepath: path }))) drifted.push(file);
  }
  expect(drifted, 'run: npm run format').toEqual([]);
});
