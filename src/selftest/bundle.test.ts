// Issue 20, point 6 (acceptance): a run with --bundle leaves its report directory as an evidence
// bundle; `verify` passes on it, with a fault on the server too (the verdicts are failures then,
// and still the HAR's), and fails when one byte of the HAR or one verdict changes: by the hashes,
// and, with the manifest sealed again, by re-judging.
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { BUNDLE_HAR, digestOf, MANIFEST, type BundleManifest } from '../report/bundle.ts';
import { LATEST } from '../report/write.ts';
import { verifyBundle } from '../report/verify.ts';
import { startReference } from '../reference/server.ts';
import { runCli, SELFTEST_LIMITS, targetArgs, type CliRun } from '../testing/cli.ts';

/** A bundle's copy to tamper with. */
function copyOf(bundle: string): string {
  const copy = join(mkdtempSync(join(tmpdir(), 'cc-bundle-')), 'bundle');
  cpSync(bundle, copy, { recursive: true });
  return copy;
}

/** Writes the manifest again for the files as they are now: what someone hiding a change would do. */
function resealed(dir: string): string {
  const path = join(dir, MANIFEST);
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as BundleManifest;
  for (const name of Object.keys(manifest.files)) manifest.files[name] = digestOf(join(dir, name));
  writeFileSync(path, JSON.stringify(manifest, null, 2));
  return dir;
}

interface HarDoc {
  log: { entries: { _judgedLive?: boolean; request: { url: string }; response: { status: number; headers: { name: string; value: string }[] } }[] };
}

async function bundledRun(suites: string[], fault?: string): Promise<{ run: CliRun; bundle: string }> {
  const ref = await startReference({ limits: SELFTEST_LIMITS, ...(fault ? { fault } : {}) });
  try {
    const run = await runCli([...targetArgs(ref), '--bundle', ...suites], {}, 180_000);
    return { run, bundle: join(run.reportDir, LATEST) };
  } finally {
    await ref.close();
  }
}

describe('evidence bundle (--bundle) and verify', () => {
  let clean: { run: CliRun; bundle: string };
  let faulty: { run: CliRun; bundle: string };
  beforeAll(async () => {
    // `observed`: the observed rules' tests, whose verdicts the HAR re-judges (a run of some suites leaves them out unless named).
    [clean, faulty] = await Promise.all([bundledRun(['categories', 'pagination', 'observed']), bundledRun(['categories', 'observed'], 'ratelimit-reset-in-milliseconds')]);
  }, 240_000);

  test('a run with --bundle leaves reports, HAR and a manifest of SHA-256 in its directory; the summary says how to check it', () => {
    expect(clean.run.code, clean.run.stdout + clean.run.stderr).toBe(0);
    expect(readdirSync(clean.bundle).sort()).toEqual(['junit.xml', MANIFEST, 'report.html', 'results.json', BUNDLE_HAR].sort());
    const manifest = JSON.parse(readFileSync(join(clean.bundle, MANIFEST), 'utf8')) as BundleManifest;
    expect(Object.keys(manifest.files).sort()).toEqual(['junit.xml', 'report.html', 'results.json', BUNDLE_HAR]);
    for (const [name, digest] of Object.entries(manifest.files)) expect(digestOf(join(clean.bundle, name))).toEqual(digest);
    expect(clean.run.stdout).toMatch(/^Bundle: \S+ \(its manifest\.json holds every file's SHA-256; anyone with the kit checks it: catalogue-conformance verify \S+\)$/m);
    // The HAR written for the bundle alone was moved into it: nothing left beside the reports.
    expect(readdirSync(clean.run.reportDir).filter((name) => name.endsWith('.har'))).toEqual([]);
  });

  test('verify passes on the bundle: every hash, the summary, and every observed rule re-judged from the HAR', async () => {
    const outcome = verifyBundle(clean.bundle);
    expect(outcome.problems).toEqual([]);
    expect(outcome.exitCode).toBe(0);
    const text = outcome.lines.join('\n');
    expect(text).toMatch(/^hashes: 4 of 4 files match the manifest/m);
    const rejudged =
      /^re-judged (\d+) exchanges of the HAR's (\d+) \(those the run judged\) with every rule one exchange shows: (\d+) of (\d+) rules' tallies match the run's$/m.exec(text);
    expect(rejudged, text).not.toBeNull();
    expect(Number(rejudged![1])).toBeGreaterThan(20);
    expect(rejudged![3]).toBe(rejudged![4]);
    expect(text).toMatch(/^verdicts: [1-9]\d* observed-rule tests, each checked against its tally/m);
    // The command as a receiver runs it.
    const cli = await runCli(['verify', clean.bundle]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/^VERIFIED: the bundle is as the run left it$/m);
  });

  test("with a fault on the server the run fails, and its bundle still verifies: the failures are the HAR's", () => {
    expect(faulty.run.code).toBe(1);
    const failedObserved = faulty.run.results!.tests.filter((t) => t.id.startsWith('observed/') && t.status === 'failed');
    expect(failedObserved.length).toBeGreaterThan(0);
    const outcome = verifyBundle(faulty.bundle);
    expect(outcome.problems).toEqual([]);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.lines.join('\n')).toMatch(/verdicts: .*\d+ failed/);
  });

  test('one byte of the HAR changed: verify fails, naming the file', () => {
    const copy = copyOf(clean.bundle);
    const har = join(copy, BUNDLE_HAR);
    const bytes = readFileSync(har);
    const at = bytes.indexOf('"status":200');
    expect(at).toBeGreaterThan(0);
    bytes[at + '"status":20'.length] = '1'.charCodeAt(0);
    writeFileSync(har, bytes);
    const outcome = verifyBundle(copy);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.problems.join('\n')).toMatch(/^traffic\.har has changed since the run: its SHA-256 is [0-9a-f]{64}, the manifest's [0-9a-f]{64}/m);
  });

  test('one verdict changed: verify fails by the hash, and by the tally once the manifest is sealed again', () => {
    const copy = copyOf(faulty.bundle);
    const path = join(copy, 'results.json');
    const results = JSON.parse(readFileSync(path, 'utf8')) as { summary: Record<string, number>; tests: { id: string; status: string }[] };
    const failed = results.tests.find((t) => t.id.startsWith('observed/') && t.status === 'failed')!;
    failed.status = 'passed';
    // The summary made to agree, so that only the re-judging can tell.
    results.summary['failed']!--;
    results.summary['passed']!++;
    writeFileSync(path, JSON.stringify(results, null, 2));
    expect(verifyBundle(copy).problems.join('\n')).toMatch(/^results\.json has changed since the run/m);
    const outcome = verifyBundle(resealed(copy));
    expect(outcome.exitCode).toBe(1);
    expect(outcome.problems).toContain(
      `${failed.id}: reported passed, but its tally (${/\d+ judged, \d+ broke a MUST, \d+ warned/.exec(outcome.problems.join('\n'))![0]}) makes it failed`,
    );
  });

  test("the HAR made to show other answers, the manifest sealed again: the re-judged tallies are not the run's", () => {
    const copy = copyOf(clean.bundle);
    const path = join(copy, BUNDLE_HAR);
    const har = JSON.parse(readFileSync(path, 'utf8')) as HarDoc;
    // The rate-limit headers taken off one answer the run judged.
    const entry = har.log.entries.find((e) => e._judgedLive && e.response.status === 200 && e.response.headers.some((h) => /^x-ratelimit-limit$/i.test(h.name)))!;
    expect(entry).toBeDefined();
    entry.response.headers = entry.response.headers.filter((h) => !/^x-ratelimit-/i.test(h.name));
    writeFileSync(path, JSON.stringify(har));
    const outcome = verifyBundle(resealed(copy));
    expect(outcome.exitCode).toBe(1);
    expect(outcome.problems.join('\n')).toMatch(
      /^rule rate-limit-headers: the run's tally \(\d+ judged, 0 broke a MUST, 0 warned\) is not the HAR's \(\d+ judged, 1 broke a MUST, 0 warned\)$/m,
    );
  });

  test('a bundle of nonsense, sealed again, differs and says why: no crash', () => {
    for (const [file, text] of [
      ['results.json', 'null'],
      ['results.json', JSON.stringify({ summary: {}, tests: [null, { id: 'x', status: 'passed', judgedTally: { rule: 5 } }], run: { target: 'http://a' } })],
      [BUNDLE_HAR, '{"log": {"entries": [1, 2]}}'],
      [BUNDLE_HAR, '<html>'],
    ] as const) {
      const copy = copyOf(clean.bundle);
      writeFileSync(join(copy, file), text);
      const outcome = verifyBundle(resealed(copy));
      expect(outcome.exitCode, `${file}: ${text}`).toBe(1);
      expect(outcome.problems.length).toBeGreaterThan(0);
    }
  });

  test('not a bundle, or wrong arguments: exit 2 with one line; --help: the usage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-verify-'));
    expect(verifyBundle(dir)).toMatchObject({ exitCode: 2, problems: [expect.stringMatching(/is not a bundle: it has no manifest\.json \(a run makes one with --bundle\)$/)] });
    expect(verifyBundle(join(dir, 'nothing'))).toMatchObject({ exitCode: 2, problems: [expect.stringMatching(/nothing does not exist$/)] });
    writeFileSync(join(dir, MANIFEST), '{"format": "something else"}');
    expect(verifyBundle(dir).problems[0]).toContain('is not a bundle manifest this kit reads');
    const cli = await runCli(['verify', dir]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/^catalogue-conformance verify: .*is not a bundle manifest this kit reads/m);
    expect((await runCli(['verify'])).code).toBe(2);
    const help = await runCli(['verify', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: catalogue-conformance verify <bundle>/);
    expect(existsSync(join(dir, 'results.json'))).toBe(false);
  });
});
