// `--list`: the suites a run would load (those the suite names pick), each test with its
// severity and requirement ids, read by collecting the suite files: nothing is contacted.
import { collectDeclaredTests } from '../requirements/coverage.ts';
import { suitesPicked } from '../run.ts';

const nameOf = (file: string): string => file.replace(/^.*\//, '').replace(/\.suite\.ts$/, '');

export async function listText(suitesDir: string, filters: readonly string[]): Promise<string> {
  const picked = new Set(suitesPicked(suitesDir, filters));
  // Only the picked suites' files are collected (each takes its time to load).
  const include = [...picked].map((name) => `**/${name}.suite.ts`);
  const tests = (await collectDeclaredTests(suitesDir, include)).filter((t) => picked.has(nameOf(t.file)));
  const lines: string[] = [];
  let file = '';
  for (const test of tests) {
    if (test.file !== file) {
      file = test.file;
      lines.push(`${nameOf(file)} (${file})`);
    }
    lines.push(`  ${test.severity.padEnd(4)} ${test.title} [${test.requirements.join(', ')}]`);
  }
  lines.push(`${tests.length} tests in ${picked.size} suites`);
  return lines.join('\n');
}
