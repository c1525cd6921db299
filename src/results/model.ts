// The result model, at the bottom of the layers (docs/architecture.md): what a test declares, what
// it finds, and the record a report keeps of it. The harness fills it in, the HAR judge makes it
// from recorded traffic, the reports, `compare` and `verify` read it; it imports nothing of theirs.
import { basename } from 'node:path';

/** MUST: a failure fails the run. WARN: what the spec leaves open; a failure only warns. */
export type Severity = 'MUST' | 'WARN';

export const PROFILES = ['read', 'write', 'destructive'] as const;
/** What a test may do to the deployment: read only, change the user's data, or end the client's tokens. */
export type Profile = (typeof PROFILES)[number];

/** One HTTP exchange as the report shows it: already redacted, body cut to an excerpt (src/http/exchange.ts makes it). */
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  /** null when no response came (connection refused, timeout, ...). */
  status: number | null;
  responseHeaders: Record<string, string>;
  responseBody?: string;
  /** Why no (complete) response came. */
  error?: string;
  durationMs: number;
  /** The kind of token the request carried, when the run knows it ('own': one the test obtained for itself): the replay says how to get one. */
  token?: 'app' | 'user' | 'own';
}

/** Declared with the test; present even for tests that never ran. */
export interface ConformanceMeta {
  /** The declared id, unique in its suite file: the test's id is <suite>/<this> (testId), whatever its title says. */
  id: string;
  requirements: string[];
  /** The readings of those requirements the test accepts, expanded (TestDeclaration.readings). */
  readings?: string[];
  /** The clauses of those requirements the test checks (TestDeclaration.clauses). */
  clauses?: string[];
  severity: Severity;
  profile: Profile;
  /** Estimated requests, reserved from the budget before the test starts. */
  requests: number;
}

export interface Finding {
  requirements: string[];
  severity: Severity;
  message: string;
  /** Every item when the message shows only the first (e.g. all schema violations), one per line. */
  details?: string[];
  /** Index into Outcome.exchanges of the exchange the finding is about. */
  exchange?: number;
  /**
   * The finding this one follows from (its root, on the same answer): "[PAG-1] total_pages is 3,
   * but ...". A consequence is shown under its root and names no requirement as broken: one bug,
   * one verdict (brokenRequirements).
   */
  follows?: string;
}

/** A rule's tally in numbers: what a report keeps of it, and what `verify` re-judges from a HAR (src/report/verify.ts). */
export interface RuleCounts {
  checked: number;
  violations: number;
  warnings: number;
}

/** Filled in while the test runs. */
export interface Outcome {
  failures: Finding[];
  warnings: Finding[];
  exchanges: Exchange[];
  /** Exchanges left out of `exchanges` to keep the report small. */
  omittedExchanges: number;
  requests: number;
  skipReason?: string;
  /** Whether an answer the test read may show what another run of the same client writes (src/harness/reuse.ts, mayShowUserWrites). */
  readsUserWrites?: boolean;
  /** An observed rule's test (suites/last/observed.suite.ts): the rule and the tally its verdict rests on. */
  judgedTally?: { rule: string } & RuleCounts;
}

/** `expected`: failed as the known deviations say (src/report/expected.ts): reported, not counted as a failure. */
export type Status = 'passed' | 'failed' | 'warned' | 'skipped' | 'expected';

export interface TestRecord {
  id: string;
  title: string;
  suite: string;
  requirements: string[];
  /** The clauses of those requirements it checks (issue 38); absent when it names none. */
  clauses?: string[];
  severity: Severity;
  profile: Profile;
  status: Status;
  /** Failed: what broke; warned: the warnings; skipped: the reason; passed: empty. */
  message: string;
  failures: Finding[];
  warnings: Finding[];
  exchanges: Exchange[];
  omittedExchanges: number;
  requests: number;
  durationMs: number;
  /** An observed rule's test: the rule and the tally its verdict rests on (Outcome.judgedTally). */
  judgedTally?: Outcome['judgedTally'];
}

export interface RunResults {
  summary: Record<Status, number>;
  tests: TestRecord[];
  /** Why (part of) the run could not be carried out: suites that did not load, and the like. */
  problems: string[];
}

/** A test's id as results.json, the filters, `compare` and known deviations name it: <suite>/<the id it declares>. */
export function testId(suite: string, declaredId: string): string {
  return `${suite}/${declaredId}`;
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A suite's name: its file's name without .suite.ts. */
export function suiteName(moduleId: string): string {
  return basename(moduleId)
    .replace(/\.suite\.ts$/, '')
    .replace(/\.ts$/, '');
}

/** Run results from test records (a live run's or a HAR's): ids made unique, statuses counted. */
export function resultsOf(tests: TestRecord[], problems: string[]): RunResults {
  const ids = new Set<string>();
  for (const test of tests) {
    // Records with one id (a HAR's, or tests without a declared id): keep ids unique and stable.
    let id = test.id;
    for (let n = 2; ids.has(id); n++) id = `${test.id}-${n}`;
    test.id = id;
    ids.add(id);
  }
  const summary: Record<Status, number> = { passed: 0, failed: 0, warned: 0, skipped: 0, expected: 0 };
  for (const test of tests) summary[test.status]++;
  return { summary, tests, problems };
}

/**
 * The requirements a finding names as broken: a MUST finding's own, none for a warning or a
 * consequence of another finding (Finding.follows).
 */
export function brokenBy(finding: Finding): string[] {
  return finding.severity === 'MUST' && finding.follows === undefined ? finding.requirements : [];
}

/** The requirements a test's findings name as broken, each once, in the order first named. */
export function brokenRequirements(test: Pick<TestRecord, 'failures'>): string[] {
  return [...new Set(test.failures.flatMap(brokenBy))];
}

/**
 * A requirement's verdict in a run: failed where a finding of a failed test names it as broken
 * (not where a failing test merely cites it), expected where only excused tests do, warned where
 * only a warning names it, passed where a test that cites it passed, else not judged (skipped).
 */
export interface RequirementVerdict {
  id: string;
  status: Status;
  /** The tests the status rests on: those whose findings name it (failed, expected, warned), else those that cite it. */
  tests: string[];
}

/** Statuses of a requirement, the strongest first. */
const REQUIREMENT_STATUS_ORDER: readonly Status[] = ['failed', 'expected', 'warned', 'passed', 'skipped'];

/**
 * Every requirement that a test cites or a finding names, with its verdict: the one rule the
 * terminal, results.json, junit.xml and report.html all read (one bug fails the statement it
 * breaks, once). In first-seen order; `order` (the catalogue's ids) sorts them when given.
 */
export function requirementVerdicts(tests: readonly TestRecord[], order: readonly string[] = []): RequirementVerdict[] {
  const byId = new Map<string, Map<Status, string[]>>();
  const add = (id: string, status: Status, test: string) => {
    const statuses = byId.get(id) ?? new Map<Status, string[]>();
    byId.set(id, statuses);
    const list = statuses.get(status) ?? [];
    statuses.set(status, list);
    if (!list.includes(test)) list.push(test);
  };
  for (const test of tests) {
    if (test.status === 'failed' || test.status === 'expected') for (const id of brokenRequirements(test)) add(id, test.status, test.id);
    for (const finding of test.warnings) for (const id of finding.requirements) add(id, 'warned', test.id);
    const judged: Status = test.status === 'passed' || test.status === 'warned' ? 'passed' : 'skipped';
    for (const id of test.requirements) add(id, judged, test.id);
  }
  const position = new Map(order.map((id, i) => [id, i]));
  const ids = [...byId.keys()];
  if (order.length) ids.sort((a, b) => (position.get(a) ?? order.length) - (position.get(b) ?? order.length));
  return ids.map((id) => {
    const statuses = byId.get(id)!;
    const status = REQUIREMENT_STATUS_ORDER.find((s) => statuses.has(s))!;
    return { id, status, tests: statuses.get(status)! };
  });
}
