// The readable summary a run prints: each failure with its requirement ids, what broke, the
// exchange and a curl line to replay it; warnings; skips grouped by reason; totals.
import { SPEC_MEDIA_TYPE } from '../rules/media-type.ts';
import { newestVersion } from '../rules/change-history.ts';
import { tokenStep, toCurl } from '../http/exchange.ts';
import { requirements } from '../requirements/catalogue.ts';
import { redactUrl, secrets } from '../http/redact.ts';
import { brokenBy, requirementVerdicts, type Finding } from '../results/model.ts';
import type { RunResults, TestRecord } from './results.ts';
import type { RunInfo } from './write.ts';

function findingBlock(test: TestRecord, finding: Finding, label: string, authUrl: string): string[] {
  const lines = [`  ${label} [${finding.requirements.join(', ')}] ${finding.message}`];
  // A consequence of another finding (one bug, one verdict): said, and its quote left to the root's.
  if (finding.follows !== undefined) return [...lines, `       follows from: ${finding.follows}`];
  const known = requirements();
  for (const id of finding.requirements) {
    const requirement = known.get(id);
    if (requirement) lines.push(`       ${id} (${requirement.section}): "${requirement.quote[0]}"`);
  }
  const exchange = finding.exchange !== undefined ? test.exchanges[finding.exchange] : undefined;
  if (exchange) {
    lines.push(`       ${exchange.method} ${exchange.url} -> ${exchange.status ?? exchange.error ?? 'no response'}`);
    const step = tokenStep(exchange, authUrl);
    if (step) lines.push(`       token:  ${step}`);
    lines.push(`       replay: ${toCurl(exchange)}`);
  }
  return lines;
}

/**
 * Messages that differ only in their numbers, as one line each with a count: each number that
 * varies shown as its range ("needs about 1 to 102 requests, 0 to 3 left"), in first-seen order.
 */
export function groupedByShape(messages: readonly string[]): { text: string; count: number }[] {
  const groups = new Map<string, { parts: string[]; numbers: number[][]; count: number }>();
  for (const message of messages) {
    const parts = message.split(/\d+/);
    const numbers = (message.match(/\d+/g) ?? []).map(Number);
    const key = parts.join('#');
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { parts, numbers: numbers.map((n) => [n, n]), count: 1 });
      continue;
    }
    group.count++;
    numbers.forEach((n, i) => {
      const range = group.numbers[i]!;
      range[0] = Math.min(range[0]!, n);
      range[1] = Math.max(range[1]!, n);
    });
  }
  return [...groups.values()].map(({ parts, numbers, count }) => ({
    text: parts.map((part, i) => (i < numbers.length ? `${part}${numbers[i]![0] === numbers[i]![1] ? numbers[i]![0] : `${numbers[i]![0]} to ${numbers[i]![1]}`}` : part)).join(''),
    count,
  }));
}

/**
 * The shape of a failure, for telling one cause repeated across the run (every call 500): its
 * message with URLs, paths and numbers other than a status code left out. Not its requirement
 * ids: the same 500 breaks each endpoint's own statement.
 */
export function failureShape(message: string): string {
  return message
    .replace(/https?:\/\/\S+/g, '<url>')
    .replace(/\/[\w\-./%[\]]+(\?\S*)?/g, '<path>')
    .replace(/\b(?![1-5]\d\d\b)\d+/g, '#');
}

/** A failure that repeats in this many tests or more is reported once at the top too. */
const REPEATED_IN = 5;

/** Failures whose shape repeats across REPEATED_IN tests or more: the count, and the first one. */
export function repeatedFailures(failed: readonly TestRecord[]): string[] {
  const byShape = new Map<string, { tests: Set<string>; requirements: Set<string>; first: { test: TestRecord; finding: Finding } }>();
  for (const test of failed) {
    for (const finding of test.failures) {
      const shape = failureShape(finding.message);
      const entry = byShape.get(shape) ?? { tests: new Set<string>(), requirements: new Set<string>(), first: { test, finding } };
      entry.tests.add(test.id);
      for (const id of finding.requirements) entry.requirements.add(id);
      byShape.set(shape, entry);
    }
  }
  const listed = (ids: Set<string>): string => {
    const all = [...ids];
    return all.length <= 6 ? all.join(', ') : `${all.slice(0, 6).join(', ')} and ${all.length - 6} more`;
  };
  return [...byShape.values()]
    .filter((e) => e.tests.size >= REPEATED_IN)
    .sort((a, b) => b.tests.size - a.tests.size)
    .map(
      (e) =>
        `REPEATED in ${e.tests.size} tests [${listed(e.requirements)}]: ${e.first.finding.message} (first: ${e.first.test.suite} > ${e.first.test.title}; each is listed below)`,
    );
}

export function terminalSummary(
  results: RunResults,
  run: RunInfo,
  reportPaths: { junit: string; json: string; html?: string; har?: string; latestProblem?: string | null; bundle?: string } | null,
): string {
  const out: string[] = [];
  const target = run.referenceServer ? `${run.target} (embedded reference server)` : redactUrl(run.target);
  // The patch level and media type only when they were set: the defaults are the spec's.
  const implemented = run.implements && run.implements !== newestVersion() ? `, implements ${run.implements}` : '';
  const mediaType = run.mediaType && run.mediaType !== SPEC_MEDIA_TYPE ? `, media type ${run.mediaType}` : '';
  out.push(`catalogue-conformance: ${target}, API version ${run.apiVersion}${implemented}${mediaType}, profiles ${run.profiles.join(',')}`, '');

  // A run that stopped early says so first: its verdicts are those of the tests it got to.
  if (run.stopped !== undefined) out.push(`STOPPED ${run.stopped}`, '');
  const failed = results.tests.filter((t) => t.status === 'failed');
  // One cause behind many failures (every call 500, every body not JSON) is said once, first.
  const repeated = repeatedFailures(failed);
  if (repeated.length) out.push(...repeated, '');
  for (const test of failed) {
    out.push(`FAIL ${test.suite} > ${test.title}`);
    for (const finding of test.failures) out.push(...findingBlock(test, finding, '-', run.authUrl));
  }
  for (const test of results.tests.filter((t) => t.status === 'warned' || (t.status === 'failed' && t.warnings.length))) {
    out.push(`WARN ${test.suite} > ${test.title}`);
    for (const finding of test.warnings) out.push(...findingBlock(test, finding, '-', run.authUrl));
  }
  for (const test of results.tests.filter((t) => t.status === 'expected'))
    out.push(`EXPECTED ${test.suite} > ${test.title}: ${test.message.split('\n')[0]!.replace(/\): .*$/, ')')}`);
  const skipped = results.tests.filter((t) => t.status === 'skipped');
  if (skipped.length) {
    out.push(`SKIP ${skipped.length} tests:`);
    for (const { text, count } of groupedByShape(skipped.map((t) => t.message))) out.push(`  ${count} x ${text}`);
  }
  for (const problem of results.problems) out.push(`ERROR ${problem}`);
  for (const note of run.notes) out.push(`NOTE ${note}`);
  if (out[out.length - 1] !== '') out.push('');
  // The same failures by the statement they broke: what a server team fixes.
  const rollup = failedRequirements(failed);
  if (rollup.length) out.push(...rollup, '');

  const s = results.summary;
  out.push(
    `Tests: ${s.passed} passed, ${s.failed} failed, ${s.warned} warned, ${s.skipped} skipped${s.expected ? `, ${s.expected} expected failures` : ''} (${results.tests.length} in all)`,
  );
  out.push(`Requests: ${run.requests.total} of a budget of ${run.requests.budget}`);
  if (reportPaths) out.push(`Reports: ${[reportPaths.junit, reportPaths.json, ...(reportPaths.html ? [reportPaths.html] : [])].join(', ')}`);
  if (reportPaths?.latestProblem) out.push(`NOTE ${reportPaths.latestProblem}`);
  if (reportPaths?.har) out.push(`HAR: ${reportPaths.har}`);
  if (reportPaths?.bundle)
    out.push(`Bundle: ${reportPaths.bundle} (its manifest.json holds every file's SHA-256; anyone with the kit checks it: catalogue-conformance verify ${reportPaths.bundle})`);
  const verdict = verdictLine(run);
  out.push(verdict);
  return secrets.scrub(out.join('\n'));
}

/** The summary's last line: the run's verdict and why (results.json's run.exitReason). */
export function verdictLine(run: Pick<RunInfo, 'interrupted' | 'stopped' | 'exitCode'>): string {
  if (run.interrupted) return `INTERRUPTED (${run.stopped ?? 'by a signal'}): the verdicts above are those of the tests that ran`;
  if (run.stopped !== undefined) return `ERROR: the run stopped before its end (${run.stopped})`;
  if (run.exitCode === 0) return 'PASS: no MUST requirement failed';
  if (run.exitCode === 1) return 'FAIL: MUST requirements failed';
  return 'ERROR: the run could not be carried out';
}

/**
 * The requirements the run failed (requirementVerdicts: a finding of a failed test names it as
 * broken), the catalogue's order: its section and the start of its quote, how many tests and
 * findings broke it, and the first exchange that showed it (the others are in the reports).
 */
export function failedRequirements(failed: readonly TestRecord[]): string[] {
  const catalogue = requirements();
  const ids = requirementVerdicts(failed, [...catalogue.keys()])
    .filter((v) => v.status === 'failed')
    .map((v) => v.id);
  if (!ids.length) return [];
  const out = [`FAILED REQUIREMENTS (${ids.length}):`];
  for (const id of ids) {
    const breaking = failed.flatMap((test) => test.failures.filter((f) => brokenBy(f).includes(id)).map((finding) => ({ test, finding })));
    const first = breaking[0]!;
    const tests = new Set(breaking.map((b) => b.test.id));
    const r = catalogue.get(id);
    const quote = r ? ` (${r.section}): "${r.quote[0]!.length > 90 ? `${r.quote[0]!.slice(0, 87)}...` : r.quote[0]}"` : '';
    const exchange = first.finding.exchange !== undefined ? first.test.exchanges[first.finding.exchange] : undefined;
    const shown = exchange ? `; first: ${exchange.method} ${exchange.url} -> ${exchange.status ?? 'no answer'}` : '';
    out.push(`  ${id}${quote}: ${tests.size} test(s), ${breaking.length} finding(s)${shown} (in ${first.test.suite} > ${first.test.title})`);
  }
  return out;
}
