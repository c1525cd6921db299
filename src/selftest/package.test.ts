// Issue 20, point 1 (acceptance): the kit installs as a tool. `npm pack` makes the tarball a user
// would install; installed in an empty directory, `npx catalogue-conformance run` runs the
// embedded reference and exits 0, writing reports/<started at>/ with results.json, junit.xml and
// report.html.
// Its other commands answer there too. Dependencies come from npm's cache (after `npm ci` it
// holds them all) or, failing that, the registry.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../run.ts';

const exec = promisify(execFile);
let app = '';

/** A command in the app directory: its exit code and output (never throws on a non-zero exit). */
async function inApp(command: string, args: string[], timeout = 120_000): Promise<{ code: number; stdout: string; stderr: string }> {
  // The app's environment: none of this project's CATALOGUE_* keys or its .env.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('CATALOGUE_') && !key.startsWith('npm_')));
  try {
    const { stdout, stderr } = await exec(command, args, { cwd: app, env: { ...env, CI: 'true' }, timeout, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number | string; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: `${e.stderr ?? ''}${typeof e.code === 'string' ? ` (${e.code})` : ''}` };
  }
}

describe('the packed kit, installed in an empty directory', () => {
  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'cc-pack-'));
    const packed = await exec('npm', ['pack', '--silent', '--pack-destination', root], { cwd: PROJECT_ROOT, timeout: 120_000 });
    const tarball = join(root, packed.stdout.trim().split('\n').pop()!);
    app = join(root, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'uses-the-kit', version: '1.0.0', private: true }));
    const installed = await inApp('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], 300_000);
    expect(installed.code, installed.stderr).toBe(0);
  }, 420_000);

  test("the tarball holds the tool, not the project's own tests", () => {
    const kit = join(app, 'node_modules', 'catalogue-conformance');
    for (const path of ['bin/catalogue-conformance.mjs', 'src/cli/main.ts', 'suites/categories.suite.ts', 'schemas', 'fixtures/reference', 'README.md'])
      expect(existsSync(join(kit, path)), path).toBe(true);
    for (const path of ['src/selftest', 'src/testing', 'src/bench', 'src/report/report.test.ts', '.ci']) expect(existsSync(join(kit, path)), path).toBe(false);
  });

  test('npx catalogue-conformance run: the embedded reference, exit 0, reports in reports/<started at>/ and reports/latest', { timeout: 180_000 }, async () => {
    const run = await inApp('npx', ['--no-install', 'catalogue-conformance', 'run'], 170_000);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/^PASS: no MUST requirement failed$/m);
    const reports = join(app, 'reports');
    const runs = readdirSync(reports).filter((name) => name !== 'latest');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
    expect(readlinkSync(join(reports, 'latest'))).toBe(runs[0]);
    for (const file of ['results.json', 'junit.xml', 'report.html']) expect(existsSync(join(reports, runs[0]!, file)), file).toBe(true);
    const results = JSON.parse(readFileSync(join(reports, runs[0]!, 'results.json'), 'utf8')) as {
      summary: { failed: number; passed: number };
      run: { kit: { name: string; commit: string | null } };
    };
    expect(results.summary.failed).toBe(0);
    expect(results.summary.passed).toBeGreaterThan(100);
    // An installed package is no git checkout: no commit to name.
    expect(results.run.kit).toMatchObject({ name: 'catalogue-conformance', commit: null });
  });

  test('its other commands: list, compare, verify, validate-traffic --help, reference --help, --help', { timeout: 180_000 }, async () => {
    const list = await inApp('npx', ['--no-install', 'catalogue-conformance', 'list', 'categories']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^categories \(suites\/categories\.suite\.ts\)$/m);
    const help = await inApp('npx', ['--no-install', 'catalogue-conformance', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/compare <before> <after>/);
    const traffic = await inApp('npx', ['--no-install', 'catalogue-conformance', 'validate-traffic', '--help']);
    expect(traffic.code).toBe(0);
    const reference = await inApp('npx', ['--no-install', 'catalogue-conformance', 'reference', '--help']);
    expect(reference.code, reference.stderr).toBe(0);
    expect(reference.stdout).toMatch(/--port/);
    const compare = await inApp('npx', ['--no-install', 'catalogue-conformance', 'compare', 'nothing', 'else']);
    expect(compare.code).toBe(2);
    expect(compare.stderr).toMatch(/^catalogue-conformance compare: \S+nothing does not exist$/m);
    // A certifier's bundle, checked by the installed kit alone.
    const bundled = await inApp('npx', ['--no-install', 'catalogue-conformance', 'run', '--bundle', '-q', 'categories', 'observed'], 170_000);
    expect(bundled.code, `${bundled.stdout}\n${bundled.stderr}`).toBe(0);
    const verify = await inApp('npx', ['--no-install', 'catalogue-conformance', 'verify', 'reports']);
    expect(verify.code, `${verify.stdout}\n${verify.stderr}`).toBe(0);
    expect(verify.stdout).toMatch(/^VERIFIED: the bundle is as the run left it$/m);
  });
});
