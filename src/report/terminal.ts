// The readable summary a run prints: each failure with its requirement ids, what broke, the
// exchange and a curl line to replay it; warnings; skips grouped by reason; totals.
import { SPEC_MEDIA_TYPE } from '../rules/media-type.ts';
import { newestVersion } from '../rules/change-history.ts';
import { toCurl } from '../http/exchange.ts';
import { requirements } from '../requirements/catalogue.ts';
import { secrets } from '../http/redact.ts';
import type { Finding } from '../harness/run-context.ts';
import type { RunResults, TestRecord } from './results.ts';
import type { RunInfo } from './write.ts';

function findingBlock(test: TestRecord, finding: Finding, label: string): string[] {
  const lines = [`  ${label} [${finding.requirements.join(', ')}] ${finding.message}`];
  const known = requirements();
  for (const id of finding.requirements) {
    const requirement = known.get(id);
    if (requirement) lines.push(`       ${id} (${requirement.section}): "${requirement.quote[0]}"`);
  }
  const exchange = finding.exchange !== undefined ? test.exchanges[finding.exchange] : undefined;
  if (exchange) {
    lines.push(`       ${exchange.method} ${exchange.url} -> ${exchange.status ?? exchange.error ?? 'no response'}`);
    lines.push(`       replay: ${toCurl(exchange)}`);
  }
  return lines;
}

export function terminalSummary(results: RunResults, run: RunInfo, reportPaths: { junit: string; json: string; har?: string } | null): string {
  const out: string[] = [];
  const target = run.referenceServer ? `${run.target} (embedded reference server)` : run.target;
  // The patch level and media type only when they were set: the defaults are the spec's.
  const implemented = run.implements && run.implements !== newestVersion() ? `, implements ${run.implements}` : '';
  const mediaType = run.mediaType && run.mediaType !== SPEC_MEDIA_TYPE ? `, media type ${run.mediaType}` : '';
  out.push(`catalogue-conformance: ${target}, API version ${run.apiVersion}${implemented}${mediaType}, profiles ${run.profiles.join(',')}`, '');

  for (const test of results.tests.filter((t) => t.status === 'failed')) {
    out.push(`FAIL ${test.suite} > ${test.title}`);
    for (const finding of test.failures) out.push(...findingBlock(test, finding, '-'));
  }
  for (const test of results.tests.filter((t) => t.status === 'warned' || (t.status === 'failed' && t.warnings.length))) {
    out.push(`WARN ${test.suite} > ${test.title}`);
    for (const finding of test.warnings) out.push(...findingBlock(test, finding, '-'));
  }
  const skipped = results.tests.filter((t) => t.status === 'skipped');
  if (skipped.length) {
    const byReason = new Map<string, number>();
    for (const test of skipped) byReason.set(test.message, (byReason.get(test.message) ?? 0) + 1);
    out.push(`SKIP ${skipped.length} tests:`);
    for (const [reason, count] of byReason) out.push(`  ${count} x ${reason}`);
  }
  for (const problem of results.problems) out.push(`ERROR ${problem}`);
  for (const note of run.notes) out.push(`NOTE ${note}`);
  if (out[out.length - 1] !== '') out.push('');

  const s = results.summary;
  out.push(`Tests: ${s.passed} passed, ${s.failed} failed, ${s.warned} warned, ${s.skipped} skipped (${results.tests.length} in all)`);
  out.push(`Requests: ${run.requests.total} of a budget of ${run.requests.budget}`);
  if (reportPaths) out.push(`Reports: ${reportPaths.junit}, ${reportPaths.json}`);
  if (reportPaths?.har) out.push(`HAR: ${reportPaths.har}`);
  const verdict =
    run.exitCode === 0 ? 'PASS: no MUST requirement failed' : run.exitCode === 1 ? 'FAIL: MUST requirements failed' : 'ERROR: the run could not be carried out';
  out.push(verdict);
  return secrets.scrub(out.join('\n'));
}
