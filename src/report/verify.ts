// `catalogue-conformance verify <bundle>` (issue 20, point 6): whether an evidence bundle
// (src/report/bundle.ts) is as the run left it, checked with the kit alone, offline:
//   1. every file's SHA-256 is the manifest's;
//   2. results.json agrees with itself (its summary counts its tests);
//   3. the rules one exchange shows (src/rules/exchange-rules.ts), applied again to the HAR's
//      exchanges the run judged (marked `_judgedLive`), give the run's tally of every rule, and
//      each observed-rule test's verdict is the one its tally gives.
// A verdict is trusted only as far as these reach: the other tests' verdicts rest on sequences of
// requests (a write, then a read) that the HAR shows but no single-exchange rule re-judges; the
// hashes keep them as the run wrote them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { countsOf, ExchangeObserver, type RuleCounts } from '../rules/observations.ts';
import { recordedExchange } from '../har/judge.ts';
import { HarError, harExchanges } from '../har/read.ts';
import { newestVersion } from '../rules/change-history.ts';
import { BUNDLE_FORMAT, BUNDLE_HAR, digestOf, MANIFEST, type BundleManifest } from './bundle.ts';
import { provenance } from './provenance.ts';
import { requirementVerdicts, type TestRecord } from '../results/model.ts';
import type { Status } from './results.ts';
import { LATEST } from './write.ts';

export const VERIFY_EXIT = { VERIFIED: 0, DIFFERS: 1, NOT_A_BUNDLE: 2 } as const;

export interface VerifyOutcome {
  exitCode: (typeof VERIFY_EXIT)[keyof typeof VERIFY_EXIT];
  /** What was checked, with its figures. */
  lines: string[];
  /** What differs from the run's (exit 1), or why the bundle cannot be checked (exit 2). */
  problems: string[];
}

/** What verify reads of results.json (src/report/write.ts). */
interface BundledResults {
  summary: Record<string, number>;
  tests: {
    id: string;
    title: string;
    status: string;
    requirements?: string[];
    findings?: { requirements: string[]; severity: string; message: string; follows?: string }[];
    judgedTally?: { rule: string } & RuleCounts;
  }[];
  requirements?: Record<string, { status: string; tests: string[] }>;
  run: { target: string; authUrl?: string; implements?: string; versions?: string[]; stopped?: string; observed?: Record<string, RuleCounts> };
}

class NotABundle extends Error {}

/** The verdict an observed rule's test gives for its tally (suites/last/observed.suite.ts). */
export function verdictOfTally(tally: RuleCounts): Status {
  if (tally.violations > 0) return 'failed';
  if (tally.warnings > 0) return 'warned';
  return tally.checked > 0 ? 'passed' : 'skipped';
}

const sameCounts = (a: RuleCounts, b: RuleCounts): boolean => a.checked === b.checked && a.violations === b.violations && a.warnings === b.warnings;
const countsText = (c: RuleCounts): string => `${c.checked} judged, ${c.violations} broke a MUST, ${c.warnings} warned`;

function readJson<T>(path: string, what: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    throw new NotABundle(`${what} cannot be read: ${error instanceof SyntaxError ? 'not JSON' : ((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`);
  }
}

/** The bundle's directory: the one given, the one holding a given manifest.json, or a reports directory's latest run. */
function bundleDir(path: string): string {
  if (!existsSync(path)) throw new NotABundle(`${path} does not exist`);
  const dir = statSync(path).isDirectory() ? path : dirname(path);
  if (existsSync(join(dir, MANIFEST))) return dir;
  if (existsSync(join(dir, LATEST, MANIFEST))) return join(dir, LATEST);
  throw new NotABundle(`${dir} is not a bundle: it has no ${MANIFEST} (a run makes one with --bundle)`);
}

function readManifest(dir: string): BundleManifest {
  const manifest = readJson<Partial<BundleManifest>>(join(dir, MANIFEST), MANIFEST);
  if (manifest.format !== BUNDLE_FORMAT)
    throw new NotABundle(`${MANIFEST} is not a bundle manifest this kit reads (format ${JSON.stringify(manifest.format)}, expected ${BUNDLE_FORMAT})`);
  if (!manifest.files || typeof manifest.files !== 'object') throw new NotABundle(`${MANIFEST} lists no files`);
  return manifest as BundleManifest;
}

/** 1. The hashes; the names of the files that match. */
function checkHashes(dir: string, manifest: BundleManifest, problems: string[], lines: string[]): void {
  const listed = Object.entries(manifest.files);
  let matching = 0;
  for (const [name, expected] of listed) {
    const path = join(dir, name);
    if (typeof expected?.sha256 !== 'string') problems.push(`${MANIFEST} gives no SHA-256 for ${name}`);
    else if (basename(name) !== name) problems.push(`${MANIFEST} names ${JSON.stringify(name)}, not a file of the bundle's own directory`);
    else if (!existsSync(path)) problems.push(`${name} is missing (the manifest lists it)`);
    else {
      const actual = digestOf(path);
      if (actual.sha256 !== expected.sha256)
        problems.push(`${name} has changed since the run: its SHA-256 is ${actual.sha256}, the manifest's ${expected.sha256} (${actual.bytes} bytes, then ${expected.bytes})`);
      else matching++;
    }
  }
  lines.push(`hashes: ${matching} of ${listed.length} files match the manifest (${listed.map(([name]) => name).join(', ')})`);
  const unlisted = readdirSync(dir).filter((name) => name !== MANIFEST && !(name in manifest.files));
  if (unlisted.length) lines.push(`not in the manifest, so not part of the evidence: ${unlisted.join(', ')}`);
}

/** 2. The summary counts the tests. */
function checkSummary(results: BundledResults, problems: string[], lines: string[]): void {
  const counted: Record<string, number> = {};
  for (const test of results.tests) counted[String(test?.status)] = (counted[String(test?.status)] ?? 0) + 1;
  const statuses = new Set([...Object.keys(counted), ...Object.keys(results.summary ?? {})]);
  const differing = [...statuses].filter((s) => (counted[s] ?? 0) !== (results.summary?.[s] ?? 0));
  if (differing.length)
    problems.push(`results.json: its summary does not count its tests (${differing.map((s) => `${s} ${results.summary?.[s] ?? 0}, counted ${counted[s] ?? 0}`).join('; ')})`);
  else lines.push(`results.json: the summary counts its ${results.tests.length} tests`);
  checkRequirementVerdicts(results, problems, lines);
}

/** 2b. The verdict by requirement is the one its tests' findings give (requirementVerdicts). */
function checkRequirementVerdicts(results: BundledResults, problems: string[], lines: string[]): void {
  if (!results.requirements) return;
  const records = results.tests.map((t) => {
    const findings = (Array.isArray(t.findings) ? t.findings : []).map((f) => ({ ...f, severity: f.severity === 'MUST' ? ('MUST' as const) : ('WARN' as const) }));
    // results.json keeps a test's findings in one list: a failed (or excused) test's MUST findings are its failures.
    const failing = t.status === 'failed' || t.status === 'expected';
    return {
      id: String(t.id),
      status: t.status as Status,
      requirements: Array.isArray(t.requirements) ? t.requirements : [],
      failures: findings.filter((f) => failing && f.severity === 'MUST'),
      warnings: findings.filter((f) => !(failing && f.severity === 'MUST')),
    };
  });
  const recomputed = new Map(requirementVerdicts(records as unknown as TestRecord[]).map((v) => [v.id, v.status]));
  const written = Object.entries(results.requirements);
  const differing = written.filter(([id, v]) => recomputed.get(id) !== v?.status).map(([id, v]) => `${id} ${v?.status}, its tests give ${recomputed.get(id) ?? 'none'}`);
  const unwritten = [...recomputed.keys()].filter((id) => !(id in results.requirements!));
  if (differing.length || unwritten.length)
    problems.push(`results.json: its verdict by requirement is not the one its tests give (${[...differing, ...unwritten.map((id) => `${id} missing`)].slice(0, 10).join('; ')})`);
  else lines.push(`results.json: the verdict of its ${written.length} requirements is the one its tests give (${written.filter(([, v]) => v.status === 'failed').length} failed)`);
}

/** The tally of every rule over the HAR's exchanges the run judged, as the run's observer made it. */
function rejudge(harPath: string, run: BundledResults['run']): { tallies: Record<string, RuleCounts>; judged: number; entries: number } {
  const observer = new ExchangeObserver({
    baseUrl: run.target,
    ...(run.authUrl ? { authUrl: run.authUrl } : {}),
    implements: run.implements ?? newestVersion(),
    servedSeries: run.versions ?? 'unknown',
  });
  let judged = 0;
  let entries = 0;
  for (const h of harExchanges(harPath)) {
    entries++;
    if (!h.judgedLive) continue;
    judged++;
    const exchange = recordedExchange(h);
    observer.see(exchange, `HAR entry #${h.index}`, h.error === undefined ? h.body : undefined, h.startedMs + h.timeMs);
  }
  const tallies = Object.fromEntries(Object.entries(observer.take()).map(([rule, tally]) => [rule, countsOf(tally)]));
  return { tallies, judged, entries };
}

/** 3. The HAR re-judged against the run's tallies, and each observed-rule test's verdict against its tally. */
function checkVerdicts(dir: string, manifest: BundleManifest, results: BundledResults, problems: string[], lines: string[]): void {
  if (!(BUNDLE_HAR in manifest.files)) {
    problems.push(`the bundle has no ${BUNDLE_HAR}: no verdict can be re-judged`);
    return;
  }
  let rejudged: ReturnType<typeof rejudge>;
  try {
    rejudged = rejudge(join(dir, BUNDLE_HAR), results.run);
  } catch (error) {
    problems.push(`${BUNDLE_HAR} cannot be re-judged: ${error instanceof HarError ? error.message : (error as Error).message}`);
    return;
  }
  const { tallies, judged, entries } = rejudged;
  const zero: RuleCounts = { checked: 0, violations: 0, warnings: 0 };
  // The run's tally at its end (every pass's exchanges): the HAR's must be the same.
  const runTallies = results.run.observed;
  let rulesMatching = 0;
  if (runTallies) {
    const rules = [...new Set([...Object.keys(runTallies), ...Object.keys(tallies)])].sort();
    for (const rule of rules) {
      const run = runTallies[rule] ?? zero;
      const har = tallies[rule] ?? zero;
      if (sameCounts(run, har)) rulesMatching++;
      else problems.push(`rule ${rule}: the run's tally (${countsText(run)}) is not the HAR's (${countsText(har)})`);
    }
    lines.push(
      `re-judged ${judged} exchanges of the HAR's ${entries} (those the run judged) with every rule one exchange shows: ${rulesMatching} of ${rules.length} rules' tallies match the run's`,
    );
  } else lines.push(`re-judged ${judged} exchanges of the HAR's ${entries} (those the run judged); results.json keeps no run-wide tally to match`);

  // Each observed-rule test: its verdict is its tally's, and its tally is within the run's (a later
  // pass may add exchanges after the test judged, never take any away).
  const verdicts: Record<string, number> = {};
  for (const test of results.tests) {
    const tally = test?.judgedTally;
    if (!tally) continue;
    if (typeof tally.rule !== 'string' || ![tally.checked, tally.violations, tally.warnings].every(Number.isInteger)) {
      problems.push(`${String(test.id)}: its judgedTally is not a tally (rule, checked, violations, warnings)`);
      continue;
    }
    const status = test.status === 'expected' ? 'failed' : test.status;
    const stoppedEarly = status === 'skipped' && results.run.stopped !== undefined;
    const expected = verdictOfTally(tally);
    if (status !== expected && !stoppedEarly) problems.push(`${test.id}: reported ${test.status}, but its tally (${countsText(tally)}) makes it ${expected}`);
    const whole = runTallies ? (runTallies[tally.rule] ?? zero) : (tallies[tally.rule] ?? zero);
    if (tally.checked > whole.checked || tally.violations > whole.violations || tally.warnings > whole.warnings) {
      problems.push(`${test.id}: its tally (${countsText(tally)}) is more than the ${runTallies ? "run's" : "HAR's"} (${countsText(whole)})`);
    } else if (!runTallies && !sameCounts(tally, whole)) {
      problems.push(`${test.id}: its tally (${countsText(tally)}) is not the HAR's (${countsText(whole)})`);
    }
    verdicts[test.status] = (verdicts[test.status] ?? 0) + 1;
  }
  const judgedTests = Object.values(verdicts).reduce((a, b) => a + b, 0);
  lines.push(
    `verdicts: ${judgedTests} observed-rule tests, each checked against its tally (${
      Object.entries(verdicts)
        .map(([s, n]) => `${n} ${s}`)
        .join(', ') || 'none in the report'
    })`,
  );
}

/** Checks the bundle at `path` (its directory, or its manifest.json). */
export function verifyBundle(path: string): VerifyOutcome {
  const lines: string[] = [];
  const problems: string[] = [];
  try {
    const dir = bundleDir(path);
    const manifest = readManifest(dir);
    const made = manifest.kit ? `${manifest.kit.name} ${manifest.kit.version}${manifest.kit.commit ? ` at ${manifest.kit.commit.slice(0, 12)}` : ''}` : 'an unknown kit';
    lines.push(`bundle ${dir}: made ${manifest.createdAt} by ${made}`);
    checkHashes(dir, manifest, problems, lines);
    if (!('results.json' in manifest.files)) throw new NotABundle(`${MANIFEST} does not list results.json: there is no verdict to check`);
    let results: BundledResults | null = null;
    // results.json may hold anything, null included: each use below checks its shape.
    try {
      results = readJson<BundledResults>(join(dir, 'results.json'), 'results.json');
    } catch (error) {
      problems.push((error as Error).message);
    }
    if (results === null && problems.some((p) => p.startsWith('results.json cannot be read'))) {
      // said above
    } else if (results === null || typeof results !== 'object' || !Array.isArray(results.tests) || !results.run || typeof results.run.target !== 'string') {
      problems.push('results.json is not a results file of the kit (no tests, or no run.target)');
    } else {
      checkSummary(results, problems, lines);
      checkVerdicts(dir, manifest, results, problems, lines);
    }
    const kit = provenance().kit;
    if (problems.length && manifest.kit && (manifest.kit.version !== kit.version || manifest.kit.commit !== kit.commit)) {
      lines.push(
        `note: this is ${kit.name} ${kit.version}${kit.commit ? ` at ${kit.commit.slice(0, 12)}` : ''}, not the kit that made the bundle: a rule changed between the two would also make a tally differ`,
      );
    }
    return { exitCode: problems.length ? VERIFY_EXIT.DIFFERS : VERIFY_EXIT.VERIFIED, lines, problems };
  } catch (error) {
    if (error instanceof NotABundle) return { exitCode: VERIFY_EXIT.NOT_A_BUNDLE, lines, problems: [error.message] };
    throw error;
  }
}
