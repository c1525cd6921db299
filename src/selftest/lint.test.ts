// The tree stays clean under the project's ESLint configuration (eslint.config.mjs: typescript-
// eslint's recommended rules): `npm run lint` lints the same files, and this test makes `npm test`
// fail on a problem, naming its file, line and rule.
import { ESLint } from 'eslint';
import { expect, test } from 'vitest';
import { PROJECT_ROOT } from '../run.ts';

/** What `npm run lint` lints (package.json). */
const LINTED = ['src', 'suites', 'fixtures', 'bin', 'vitest.config.ts', 'eslint.config.mjs'];

test('ESLint finds no problem in the kit, its suites and its tests', { timeout: 120_000 }, async () => {
  const eslint = new ESLint({ cwd: PROJECT_ROOT });
  const results = await eslint.lintFiles(LINTED);
  expect(results.length).toBeGreaterThan(300);
  const problems = results.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(PROJECT_ROOT.length)}:${m.line}:${m.column} ${m.ruleId ?? 'parse'}: ${m.message}`));
  expect(problems).toEqual([]);
});
