// `catalogue-conformance compare <before> <after>` (issue 20, point 8): two runs' results side by
// side (src/report/compare.ts). Each side is a results.json, or a directory holding one (a run's
// reports directory, or a reports directory whose `latest` points at one). Exit 1 when a test
// fails that did not (a regression), 0 otherwise, 2 when an input cannot be read.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compareResults, isRegression, type Comparison, type ComparedResults, type TestChange } from '../report/compare.ts';
import { LATEST } from '../report/write.ts';
import { pathsOrExit, type PathsIo } from './paths-args.ts';

export const COMPARE_USAGE = `usage: catalogue-conformance compare <before> <after>

Compares two runs' results: the tests that fail now and did not (a regression: exit 1), those
fixed, the new and gone warnings, the tests no longer judged, and the requests and time.
<before> and <after> are each a results.json, a run's reports directory, or a reports directory
(its latest run). Exit 0: no regression; 1: a regression; 2: an input cannot be read.`;

class InputError extends Error {}

/** The results.json a path names (a file, a run's directory, or a reports directory's latest). */
export function resultsFileOf(path: string): string {
  if (!existsSync(path)) throw new InputError(`${path} does not exist`);
  if (statSync(path).isFile()) return path;
  for (const candidate of [join(path, 'results.json'), join(path, LATEST, 'results.json')]) if (existsSync(candidate)) return candidate;
  throw new InputError(`${path} holds no results.json (nor ${LATEST}/results.json)`);
}

function readResults(path: string): ComparedResults {
  const file = resultsFileOf(path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InputError(`${file} is not JSON (${(error as Error).message})`);
  }
  const tests = (parsed as { tests?: unknown })?.tests;
  if (!Array.isArray(tests) || tests.some((t) => typeof t?.id !== 'string' || typeof t?.status !== 'string')) {
    throw new InputError(`${file} is not a results.json of the kit (no tests array of {id, status})`);
  }
  return parsed as ComparedResults;
}

const firstLine = (text: string) => text.split('\n')[0]!.slice(0, 200);
/** A finding's line without its leading [requirement ids] (they are shown apart). */
const withoutIds = (text: string) => firstLine(text).replace(/^\[[^\]]*\]\s*/, '');

function block(title: string, changes: readonly TestChange[], line: (c: TestChange) => string, limit = 30): string[] {
  if (!changes.length) return [];
  const out = [`${title} (${changes.length}):`];
  for (const c of changes.slice(0, limit)) out.push(`  ${line(c)}`);
  if (changes.length > limit) out.push(`  ... and ${changes.length - limit} more`);
  return out;
}

const seconds = (ms: number | null) => (ms === null ? '?' : `${(ms / 1000).toFixed(1)} s`);
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** The comparison as a person reads it; the last line is the verdict. */
export function comparisonText(c: Comparison, before: string, after: string): string {
  const out = [`compare: ${before} -> ${after}`];
  for (const difference of c.differences) out.push(`NOTE ${difference}`);
  out.push(
    ...block('NEW FAILURES', c.newFailures, (t) => `${t.id} (${t.before} before) [${t.requirements.join(', ')}]: ${withoutIds(t.message)}`),
    ...block('FIXED', c.fixed, (t) => `${t.id} (${t.after} now)`),
    ...block('STILL FAILING', c.stillFailing, (t) => t.id, 10),
    ...block('NEW WARNINGS', c.newWarnings, (t) => `${t.id}: ${firstLine(t.message)}`),
    ...block('WARNINGS GONE', c.warningsGone, (t) => t.id, 10),
    ...block('SEVERITY CHANGED', c.severityChanged, (t) => `${t.id}: ${t.before} -> ${t.after}`),
    ...block('NO LONGER JUDGED', c.noLongerJudged, (t) => `${t.id} (${t.before} before, ${t.after} now): ${firstLine(t.message)}`),
    ...block('NEWLY JUDGED', c.newlyJudged, (t) => `${t.id} (${t.after})`, 10),
  );
  if (c.requirementsNewlyFailing.length) out.push(`Requirements failing now and not before: ${c.requirementsNewlyFailing.join(', ')}`);
  const { before: rb, after: ra } = c.requests;
  const bySuite = c.requests.bySuite.slice(0, 8).map((s) => `${s.suite} ${signed(s.after - s.before)}`);
  out.push(`Requests: ${rb ?? '?'} -> ${ra ?? '?'}${rb !== null && ra !== null ? ` (${signed(ra - rb)})` : ''}${bySuite.length ? `; by suite: ${bySuite.join(', ')}` : ''}`);
  out.push(`Time: ${seconds(c.durationMs.before)} -> ${seconds(c.durationMs.after)}`);
  out.push(isRegression(c) ? `REGRESSION: ${c.newFailures.length} test(s) fail that did not` : 'NO REGRESSION: no test fails that did not');
  return out.join('\n');
}

/** The compare command: its exit code. */
export function compareCommand(argv: readonly string[], io: PathsIo): number {
  const paths = pathsOrExit(argv, io, 'compare', COMPARE_USAGE, 2, '<before> and <after>');
  if (typeof paths === 'number') return paths;
  const [beforePath, afterPath] = paths as [string, string];
  try {
    const comparison = compareResults(readResults(beforePath), readResults(afterPath));
    io.stdout(`${comparisonText(comparison, resultsFileOf(beforePath), resultsFileOf(afterPath))}\n`);
    return isRegression(comparison) ? 1 : 0;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    io.stderr(`catalogue-conformance compare: ${error.message}\n`);
    return 2;
  }
}
