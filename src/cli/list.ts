// `--list`: the suites a run would load (those the suite names pick), each test with its
// severity and requirement ids, read by collecting the suite files: nothing is contacted.
import { collectDeclaredTests } from '../requirements/coverage.ts';
import { pickedSuiteFiles, suiteNameOf } from '../run.ts';

export async function listText(suitesDir: string, filters: readonly string[]): Promise<string> {
  const files = pickedSuiteFiles(suitesDir, filters);
  const picked = new Set(files.map(suiteNameOf));
  // Only the picked suites' files are collected (each takes its time to load).
  const tests = (await collectDeclaredTests(suitesDir, files)).filter((t) => picked.has(suiteNameOf(t.file)));
  const lines: string[] = [];
  let file = '';
  for (const test of tests) {
    if (test.file !== file) {
      file = test.file;
      lines.push(`${suiteNameOf(file)} (${file})`);
    }
    lines.push(`  ${test.severity.padEnd(4)} ${test.title} [${test.requirements.join(', ')}]`);
  }
  lines.push(`${tests.length} tests in ${picked.size} suites`);
  return lines.join('\n');
}
