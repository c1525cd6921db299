// Issue 20, point 11: the CI examples in docs/ci/ must keep working as the kit changes. Each
// command they run is one the kit accepts (its command, flags and CATALOGUE_* keys), the files they
// upload are where the kit writes them, and the deviations example is one the kit reads, naming
// requirements and tests that exist.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { COMMAND_NAMES, EXECUTABLE } from '../cli/commands.ts';
import { parseCommandLine } from '../config/config.ts';
import { CONFIG_KEYS } from '../config/keys.ts';
import { requirements } from '../requirements/catalogue.ts';
import { collectDeclaredTests } from '../requirements/coverage.ts';
import { parseExpectedFailures } from '../report/expected.ts';
import { LATEST } from '../report/write.ts';
import { PROJECT_ROOT, SUITES_DIR } from '../run.ts';

const DOCS = join(PROJECT_ROOT, 'docs', 'ci');
const EXAMPLES = ['github-actions.yml', 'gitlab-ci.yml'];

describe('the CI examples in docs/ci/', () => {
  test.each(EXAMPLES)('%s: installs the kit with npx and runs a command the kit accepts, with known keys and flags', (file) => {
    const text = readFileSync(join(DOCS, file), 'utf8');
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };
    expect(Object.keys(pkg.bin)).toContain(EXECUTABLE);
    expect(text).toContain(`KIT: ${pkg.name}@${pkg.version}`);
    const runs = [...text.matchAll(new RegExp(`npx --yes --package "\\$KIT" -- ${EXECUTABLE} (\\S+)(.*)$`, 'gm'))];
    expect(runs.length).toBeGreaterThan(0);
    for (const [, command, rest] of runs) {
      expect(COMMAND_NAMES).toContain(command);
      const parsed = parseCommandLine(rest!.trim().split(/\s+/));
      expect(parsed.values).toMatchObject({ CATALOGUE_EXPECTED_FAILURES: 'conformance/deviations.json', CATALOGUE_REPORT_DIR: 'reports' });
    }
    // Every CATALOGUE_* key it sets is one of the kit's.
    const known = new Set(CONFIG_KEYS.map((k) => k.env));
    for (const [key] of text.matchAll(/\bCATALOGUE_[A-Z_]+(?=:)/g)) expect(known.has(key), key).toBe(true);
    // What it uploads is where the kit writes: reports/<run>/ with reports/latest the newest.
    expect(text).toContain(`reports/${LATEST}/junit.xml`);
  });

  test('deviations.example.json is a file the kit reads, naming requirements and tests that exist', async () => {
    const ids = requirements();
    const entries = parseExpectedFailures(readFileSync(join(DOCS, 'deviations.example.json'), 'utf8'), 'deviations.example.json', (id) => (ids.has(id) ? null : `unknown ${id}`));
    expect(entries.length).toBeGreaterThan(0);
    const testIds = entries.filter((e) => e.test).map((e) => e.test!);
    const suites = [...new Set(testIds.map((id) => id.split('/')[0]!))];
    const declared = await collectDeclaredTests(
      SUITES_DIR,
      suites.map((s) => `**/${s}.suite.ts`),
    );
    const known = new Set(declared.map((t) => t.id));
    for (const id of testIds) expect(known.has(id), id).toBe(true);
  }, 60_000);
});
