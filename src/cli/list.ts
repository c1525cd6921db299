// `list` (`--list`): the suites a run would load (those the filters pick: suites, test ids,
// requirement ids), each test with its id, severity, profile and requirement ids, read by
// collecting the suite files: nothing is contacted.
import { collectDeclaredTests } from '../requirements/coverage.ts';
import { isSelected, suiteNameOf } from '../harness/selection.ts';
import { pickedSelection } from '../run.ts';

export async function listText(suitesDir: string, filters: readonly string[]): Promise<string> {
  const { files, selection } = pickedSelection(suitesDir, filters);
  const picked = new Set(files.map(suiteNameOf));
  // Only the picked suites' files are collected (each takes its time to load).
  const tests = (await collectDeclaredTests(suitesDir, files))
    .filter((t) => picked.has(suiteNameOf(t.file)))
    .map((t) => ({ ...t, suite: suiteNameOf(t.file) }))
    .filter((t) => !selection || isSelected(selection, t));
  const lines: string[] = [];
  let file = '';
  for (const test of tests) {
    if (test.file !== file) {
      file = test.file;
      lines.push(`${test.suite} (${file})`);
    }
    lines.push(`  ${test.severity.padEnd(4)} ${test.profile.padEnd(11)} ${test.title} [${test.requirements.join(', ')}]`);
    lines.push(`       id ${test.id}`);
  }
  lines.push(`${tests.length} tests in ${new Set(tests.map((t) => t.suite)).size} suites`);
  return lines.join('\n');
}
