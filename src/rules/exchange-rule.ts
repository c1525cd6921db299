// What a rule of one exchange is and what it finds (the table is src/rules/exchange-rules.ts): a
// rule's findings and outcome, a check's result or schema violations as findings, and the helpers
// the rules of each area share to read an ExchangeView (src/rules/exchange-view.ts).
import { isPlainObject, type CheckResult } from '../checks/check.ts';
import { violationRequirements } from '../schemas/cited-requirements.ts';
import { formatViolation, type Violation } from '../schemas/validator.ts';
import type { ExchangeView } from './exchange-view.ts';

// ---------------------------------------------------------------------------------------------
// What a rule finds

export interface RuleFinding {
  severity: 'MUST' | 'WARN';
  requirements: string[];
  message: string;
  /** Every item when the message shows only the first. */
  details?: string[];
}

export type RuleOutcome = { kind: 'passed' } | { kind: 'skipped'; reason: string } | { kind: 'findings'; findings: RuleFinding[] };

/** Nothing found; `skip`: not judged, and why. */
export const PASSED: RuleOutcome = { kind: 'passed' };
export const skip = (reason: string): RuleOutcome => ({ kind: 'skipped', reason });

/** A check's result as findings: a blank (a null where a value is typed) only warns, citing GEN-8. */
export function checkOutcome(result: CheckResult, requirements: readonly string[], severity: 'MUST' | 'WARN'): RuleOutcome {
  if (result.ok) return PASSED;
  if (result.blank)
    return {
      kind: 'findings',
      findings: [{ severity: 'WARN', requirements: [...new Set([...requirements, 'GEN-8'])], message: `null where the spec gives a non-null type: ${result.message}` }],
    };
  return { kind: 'findings', findings: [{ severity, requirements: [...requirements], message: result.message }] };
}

/**
 * Schema violations as findings: a null where the schema types non-null warns (GEN-8), the rest is
 * MUST (GEN-8 too when a field is absent: blank fields are never omitted). Each violation cites
 * the statement its schema node names (its x-requirements; a field a later version added, that
 * version's Change history row and the Versioning rule that chose the version, `versionRule`:
 * given one, such a field absent cites these and its own, not GEN-8, and a failed choice of alternatives that
 * only such fields explain is left out), and only where the node names none the `requirements`
 * of the body as a whole (the endpoint's row): one wrong field fails its own statement, not every
 * statement of the endpoint. Violations citing the same statements make one finding, its message
 * the first, its details all. The live suites (ConformanceContext) and the judge share it.
 */
export function violationFindings(
  schemaId: string,
  violations: readonly Violation[],
  where: string | undefined,
  requirements: readonly string[],
  versionRule?: string,
): RuleFinding[] {
  const citedBy = (v: Violation): string[] => {
    const own = violationRequirements([v]);
    // A field a later version added, absent where the version chosen has it: the answer lacks the
    // field its own row states (its x-requirements) and its version's field (the Change history
    // row), or is of an earlier version (the rule that chose it). A blank omitted (GEN-8) it
    // does not show: the field may not be of this version's answer at all.
    if (versionRule && v.since && v.absent) return [...new Set([...(own.length ? own : requirements), versionRule])];
    // A key of the body's top level absent: the envelope is wrong ({category: [...]} for
    // {categories: [...]}), which General conventions 1 states (GEN-7); a blank omitted from a
    // resource (GEN-8) it does not show.
    if (v.absent && /^\/[^/]+$/.test(v.pointer)) return [...new Set([...(own.length ? own : requirements), 'GEN-7'])];
    return [...new Set([...(own.length ? own : requirements), ...(versionRule && v.since ? [versionRule] : []), ...(v.absent || v.nullValue ? ['GEN-8'] : [])])];
  };
  // A failed choice of alternatives that only such fields explain says nothing more than they do.
  const byVersion = (v: Violation): boolean => {
    const below = violations.filter((o) => explains(v, o) && !o.alternatives);
    return versionRule !== undefined && v.alternatives === true && below.length > 0 && below.every((o) => o.absent && o.since);
  };
  const groups = new Map<string, { ids: string[]; severity: 'MUST' | 'WARN'; violations: Violation[] }>();
  for (const v of violations.filter((x) => !byVersion(x))) {
    const ids = citedBy(v);
    const severity = v.nullValue ? 'WARN' : 'MUST';
    const key = `${severity} ${ids.join(' ')}`;
    const group = groups.get(key) ?? { ids, severity, violations: [] };
    group.violations.push(v);
    groups.set(key, group);
  }
  // MUST findings first, as before: the first violation of a body leads its report.
  return [...groups.values()]
    .sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'MUST' ? -1 : 1))
    .map(({ ids, severity, violations: vs }) => {
      const lines = vs.map((v) => formatViolation(v, where));
      const more = vs.length > 1 ? `; ${vs.length - 1} more in the report` : '';
      const prefix = severity === 'WARN' ? 'null where the spec gives a non-null type: ' : '';
      return { severity, requirements: ids, message: `${prefix}${lines[0]} (${schemaId}${more})`, ...(vs.length > 1 ? { details: lines } : {}) };
    });
}

/** Findings as an outcome: passed when there are none. */
export const outcome = (findings: RuleFinding[]): RuleOutcome => (findings.length ? { kind: 'findings', findings } : PASSED);

/** Whether `o` is at or below the place of `v` (another violation): one that may explain a failed choice of alternatives there. */
const explains = (v: Violation, o: Violation): boolean => o !== v && (o.pointer === v.pointer || o.pointer.startsWith(`${v.pointer === '/' ? '' : v.pointer}/`));

/** The violations left when absent fields are allowed: no absent field, and no failed choice of alternatives that only absent fields explain. */
export function withoutAbsence(violations: readonly Violation[]): Violation[] {
  // A failed choice of alternatives that only absent fields and nulls (a blank: a warning of its own) explain is no failure either.
  return violations.filter((v) => !v.absent && !(v.alternatives && !violations.some((o) => explains(v, o) && !o.absent && !o.alternatives && !o.nullValue)));
}

// ---------------------------------------------------------------------------------------------
// What a rule is

export interface ExchangeRule {
  id: string;
  /** What holds, as a test title; may name the view's particulars. */
  title: string;
  requirements: string[];
  /**
   * Further statements the rule checks, named by its findings (the schemas' ids): the live run's
   * test of the rule cites them too (requirement coverage), while a record of one exchange keeps
   * the short list above.
   */
  cites?: () => readonly string[];
  /** The readings of `requirements` the rule accepts ("PAG-5.a-c"): every one (src/selftest/readings.test.ts). */
  readings?: readonly string[];
  /** The clauses of `requirements` (and of what `cites` names) the rule judges ("CAT-10#1"), as a test declares them. */
  clauses?: readonly string[];
  severity: 'MUST' | 'WARN';
  /** The title with what the view shows (the endpoint, status, version), for a record of one exchange. */
  titleFor?(view: ExchangeView): string;
  /** Judges exchanges outside the API too (a moved base URL's, the OAuth endpoints'): a redirect is one wherever it is. */
  anyExchange?: boolean;
  applies(view: ExchangeView): boolean;
  check(view: ExchangeView): RuleOutcome;
}

// ---------------------------------------------------------------------------------------------
// Reading a view

/** The request as messages name it: method and API path (the URL outside the API). */
export const where = (v: ExchangeView): string => `${v.exchange.method} ${v.apiPath ?? v.exchange.url}`;
/** The request with its URL and status. */
export const described = (v: ExchangeView): string => `${v.exchange.method} ${v.exchange.url} (${v.exchange.status})`;
/** An answer of the API (not a redirect, 304 included). */
export const isAnswer = (v: ExchangeView): boolean => v.isApi && (v.exchange.status! < 300 || v.exchange.status! >= 400 || v.exchange.status === 304);
/** A 200 of the API whose body is a JSON object. */
export const ok200 = (v: ExchangeView): boolean => v.isApi && v.exchange.status === 200 && isPlainObject(v.body);

/** The body of a view ok200 accepted. */
export const json = (v: ExchangeView): Record<string, unknown> => v.body as Record<string, unknown>;
