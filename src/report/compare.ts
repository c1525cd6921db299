// Two runs' results side by side (issue 20, point 8), for a maintainer before a version bump and
// for a server team before a release: which tests fail now that did not (a regression), which
// were fixed, which warn now or no more, which are no longer judged, and the requests and time.
// Tests are matched by id; the verdicts are the reports' own, never judged again here.

/** What compare reads of a results.json (src/report/write.ts). */
export interface ComparedResults {
  summary: Record<string, number>;
  tests: {
    id: string;
    title: string;
    suite?: string;
    requirements: string[];
    severity: string;
    status: string;
    message: string;
    findings?: { requirements: string[]; severity: string }[];
  }[];
  requests?: { total?: number; bySuite?: Record<string, number> };
  run?: {
    kit?: { version?: string; commit?: string | null };
    catalogue?: { sha256?: string };
    target?: string;
    startedAt?: string;
    durationMs?: number;
    exitCode?: number;
  };
}

type Test = ComparedResults['tests'][number];

export interface TestChange {
  id: string;
  title: string;
  before: string;
  after: string;
  /** The after run's message (before's for a fixed test). */
  message: string;
  /** The requirements its failure broke (its MUST findings'), else the test's. */
  requirements: string[];
}

export interface Comparison {
  /** Failed after, not before (passed, warned, skipped or absent before): a regression. */
  newFailures: TestChange[];
  /** Failed before, passed or warned after. */
  fixed: TestChange[];
  /** Failed in both. */
  stillFailing: TestChange[];
  /** Warned after, passed before; and the reverse. */
  newWarnings: TestChange[];
  warningsGone: TestChange[];
  /** Passed or warned before, skipped or absent after: no longer judged (not a regression, but a loss of coverage). */
  noLongerJudged: TestChange[];
  /** Judged after, absent or skipped before. */
  newlyJudged: TestChange[];
  /** Tests whose declared severity changed (MUST and WARN). */
  severityChanged: TestChange[];
  /** Requirement ids failing after and not before. */
  requirementsNewlyFailing: string[];
  requests: { before: number | null; after: number | null; bySuite: { suite: string; before: number; after: number }[] };
  durationMs: { before: number | null; after: number | null };
  /** What differs in how the verdicts were made (kit, catalogue, target): it may explain changes. */
  differences: string[];
}

/** Statuses of a test that ran to a verdict; `expected`: failed as the known deviations say (not a new failure). */
const JUDGED = new Set(['passed', 'warned', 'failed', 'expected']);

/** The requirements a failed test broke: those of its MUST findings, else (no findings recorded) the test's. */
function broken(test: Test): string[] {
  const ids = (test.findings ?? []).filter((f) => f.severity === 'MUST').flatMap((f) => f.requirements);
  return ids.length ? [...new Set(ids)] : test.requirements;
}

function change(id: string, before: Test | undefined, after: Test | undefined, message: string): TestChange {
  const failed = after?.status === 'failed' ? after : before?.status === 'failed' ? before : undefined;
  const any = (after ?? before)!;
  return { id, title: any.title, before: before?.status ?? 'absent', after: after?.status ?? 'absent', message, requirements: failed ? broken(failed) : any.requirements };
}

/** The tests' changes from `before` to `after`. */
export function compareResults(before: ComparedResults, after: ComparedResults): Comparison {
  const was = new Map(before.tests.map((t) => [t.id, t]));
  const now = new Map(after.tests.map((t) => [t.id, t]));
  const out: Comparison = {
    newFailures: [],
    fixed: [],
    stillFailing: [],
    newWarnings: [],
    warningsGone: [],
    noLongerJudged: [],
    newlyJudged: [],
    severityChanged: [],
    requirementsNewlyFailing: [],
    requests: { before: before.requests?.total ?? null, after: after.requests?.total ?? null, bySuite: [] },
    durationMs: { before: before.run?.durationMs ?? null, after: after.run?.durationMs ?? null },
    differences: [],
  };
  for (const id of new Set([...was.keys(), ...now.keys()])) {
    const b = was.get(id);
    const a = now.get(id);
    const bs = b?.status ?? 'absent';
    const as = a?.status ?? 'absent';
    if (as === 'failed') (bs === 'failed' ? out.stillFailing : out.newFailures).push(change(id, b, a, a!.message));
    else if (bs === 'failed' && (as === 'passed' || as === 'warned')) out.fixed.push(change(id, b, a, b!.message));
    else if (as === 'warned' && bs === 'passed') out.newWarnings.push(change(id, b, a, a!.message));
    else if (bs === 'warned' && as === 'passed') out.warningsGone.push(change(id, b, a, b!.message));
    if (JUDGED.has(bs) && bs !== 'failed' && !JUDGED.has(as)) out.noLongerJudged.push(change(id, b, a, a?.message ?? 'the test is not in the after run'));
    if (JUDGED.has(as) && !JUDGED.has(bs)) out.newlyJudged.push(change(id, b, a, a!.message));
    if (b && a && b.severity !== a.severity) out.severityChanged.push({ ...change(id, b, a, `${b.severity} before, ${a.severity} after`), before: b.severity, after: a.severity });
  }
  const failing = (r: ComparedResults) => new Set(r.tests.filter((t) => t.status === 'failed').flatMap(broken));
  const failedBefore = failing(before);
  out.requirementsNewlyFailing = [...failing(after)].filter((id) => !failedBefore.has(id)).sort();
  const suites = new Set([...Object.keys(before.requests?.bySuite ?? {}), ...Object.keys(after.requests?.bySuite ?? {})]);
  out.requests.bySuite = [...suites]
    .map((suite) => ({ suite, before: before.requests?.bySuite?.[suite] ?? 0, after: after.requests?.bySuite?.[suite] ?? 0 }))
    .filter((s) => s.before !== s.after)
    .sort((x, y) => Math.abs(y.after - y.before) - Math.abs(x.after - x.before) || x.suite.localeCompare(y.suite));
  const kit = (r: ComparedResults) => [r.run?.kit?.version, r.run?.kit?.commit?.slice(0, 12)].filter(Boolean).join(' ');
  if (kit(before) !== kit(after)) out.differences.push(`kit ${kit(before) || 'unknown'} before, ${kit(after) || 'unknown'} after`);
  if (before.run?.catalogue?.sha256 !== after.run?.catalogue?.sha256) out.differences.push('the requirement catalogue differs (its statements or their ids may have changed)');
  if (before.run?.target !== after.run?.target) out.differences.push(`target ${before.run?.target ?? 'unknown'} before, ${after.run?.target ?? 'unknown'} after`);
  return out;
}

/** Whether the after run regressed: a test fails that did not. */
export function isRegression(comparison: Comparison): boolean {
  return comparison.newFailures.length > 0;
}
