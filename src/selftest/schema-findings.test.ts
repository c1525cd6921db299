// Schema failures as a user reads them, end to end through the CLI (fixtures/harness-suites/
// schemas.suite.ts): one line with the endpoint, the JSON pointer, what was expected and what
// came; every violation in results.json and junit.xml.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../reference/server.ts';
import { runCli, type CliRun } from '../testing/cli.ts';

let ref: RunningReference;
let run: CliRun;

beforeAll(async () => {
  ref = await startReference({});
  run = await runCli([
    '--base-url',
    ref.baseUrl,
    '--auth-url',
    ref.authUrl,
    '--client-id',
    ref.client.id,
    '--client-secret',
    ref.client.secret,
    '--suites-dir',
    'fixtures/harness-suites',
    'schemas',
  ]);
});
afterAll(() => ref?.close());

const byTitle = (title: string) => run.results!.tests.find((t) => t.title === title)!;

test('a violated schema: one line per finding, naming the endpoint; the full list in the report', () => {
  expect(run.code, run.stdout + run.stderr).toBe(1);
  const broken = byTitle('a body that breaks its schema fails with a one-line message and lists every violation');
  expect(broken.status).toBe('failed');
  // One finding per statement broken: the absent field (CAT-4 and blank fields never omitted,
  // GEN-8) apart from the wrong type (CAT-4 alone); each one line, the others in its details.
  const musts = broken.findings.filter((f) => f.severity === 'MUST');
  expect(musts.map((f) => f.requirements)).toEqual(expect.arrayContaining([['CAT-4', 'GEN-8'], ['CAT-4']]));
  expect(musts).toHaveLength(2);
  for (const finding of musts) expect(finding.message).not.toContain('\n');
  const must = musts.find((f) => f.requirements.includes('GEN-8'))!;
  expect(must.message).toMatch(
    /^GET \/categories\/root: \/category\/name: expected the field present \(blank fields are null, never omitted\), got field absent \(responses\/category\.json\)$/,
  );
  const wrongType = musts.find((f) => !f.requirements.includes('GEN-8'))!;
  expect(wrongType.message).toMatch(/^GET \/categories\/root: \/category\/id: expected integer, got "\d+" \(string\) \(responses\/category\.json\)$/);
  const warning = broken.findings.find((f) => f.severity === 'WARN')!;
  // What the schema part names: parent_id has its own row (CAT-6), not the test's CAT-4.
  expect(warning.requirements).toEqual(['CAT-6', 'GEN-8']);
  expect(warning.message).toBe('null where the spec gives a non-null type: GET /categories/root: /category/parent_id: expected integer, got null (responses/category.json)');
  // junit carries every violation too, in the test case's output.
  expect(run.junit).toContain('GET /categories/root: /category/name: expected the field present');
  // The terminal shows the one line.
  expect(run.stdout).toContain(`- [CAT-4, GEN-8] ${must!.message}`);
});

test('t.response: the schema comes from endpoints.json by endpoint and status', () => {
  const picked = byTitle('t.response picks the schema by endpoint and status');
  expect(picked.findings.map((f) => f.message)).toEqual([
    'GET /categories/root: /categories: expected the key "categories" of the answer\'s envelope (keys: category), got key absent (responses/categories.json; 1 more in the report)',
  ]);
  expect(picked.findings[0]!.details).toEqual([
    'GET /categories/root: /categories: expected the key "categories" of the answer\'s envelope (keys: category), got key absent',
    'GET /categories/root: /meta: expected the key "meta" of the answer\'s envelope (keys: category), got key absent',
  ]);
});
