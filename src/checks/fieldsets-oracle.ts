// The oracle of the fieldsets suite's root property (suites/fieldsets.suite.ts, run by
// src/engines/fieldsets.ts): what an answer under fields[root] / fields_except[root] must look
// like against the answer to the same request without them, and the verdict one answer of a
// property gives (MUST findings fail the run, WARN ones are noted). Pure: no request, no context.
import { fail, isPlainObject, type CheckResult } from './check.ts';
import { byObject, describeFieldset, fieldsetProblems, keeps, missingFields, pairById, ruleOf, type Fieldset, type FieldsetRule, type Json } from './fieldsets.ts';
import type { HttpResponse } from '../http/client.ts';
import type { ApiEndpoint } from '../rules/api-paths.ts';

/** One broken rule of an answer and the requirement ids it stands for. */
export interface PropertyFinding {
  result: CheckResult;
  ids: string[];
}

/** What one answer of a property broke: MUST findings fail the run, WARN ones are noted. */
export interface Verdict {
  must: PropertyFinding[];
  warn: PropertyFinding[];
}

export const noFinding = (): Verdict => ({ must: [], warn: [] });

export function add(list: PropertyFinding[], result: CheckResult, ids: string[]): void {
  if (!result.ok) list.push({ result, ids });
}

/** A blank finding (a null where the spec types a value, GEN-8): a warning, even among the MUST findings. */
export const isBlank = (f: PropertyFinding): boolean => !f.result.ok && f.result.blank === true;

export const messagesOf = (findings: PropertyFinding[]): string =>
  findings
    .map((f) => (f.result.ok ? '' : f.result.message))
    .filter((m) => m !== '')
    .join('; ');
export const idsOf = (findings: PropertyFinding[]): string[] => [...new Set(findings.flatMap((f) => f.ids))];

/** One GET of a property. */
export interface Request {
  path: string;
  query: Record<string, string>;
  /** The run's user token for the user's own resources; else the application token. */
  auth?: 'user';
}

/** "a=b&c=d": a query as the spec writes it, for messages. */
export const describeQuery = (query: Record<string, string>): string =>
  Object.entries(query)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');

export interface Resource {
  /** The spec's endpoint: the path is made from it (src/engines/fieldsets-rows.ts), and messages name it. */
  endpoint: ApiEndpoint;
  /** The values of the endpoint's :params in the path, in order: what a row below it starts from (DERIVED_ROWS). */
  params?: readonly (string | number)[];
  path: string;
  /** Singular key of a single resource, plural key of a collection. */
  key: string;
  single: boolean;
  /** What one item is called in messages. */
  noun: string;
  /** Schema of one item (schemas/resources/). */
  schema: string;
  /** 'user' for the user's own resources. */
  auth?: 'user';
  /** Query every request of the row carries (a search's q). */
  query?: Record<string, string>;
  /**
   * Other tests of the run may add or remove its items meanwhile (the user's favorites, lists,
   * addresses, notifications): items are paired by id only, a different number of items is not
   * judged, id is never drawn out of a fieldset, and a single resource gone meanwhile (404) is not
   * judged.
   */
  shared?: true;
  /**
   * The user's own single resources (the review and address forms, the personalization, a
   * favorite, a notification): the run's other tests write the user's data, so another test's
   * answer of them is seldom still fresh to reuse. Their fields are drawn from those the spec
   * requires, and their answer without fieldsets is asked only when an answer with fieldsets
   * does not show exactly the fields that must stay (issue 17: a request fewer each).
   */
  lazy?: true;
}

/** A row of the root property, with what its fields are drawn from. */
export interface Served extends Resource {
  /** The items without fieldsets; null for a lazy row until they are needed. */
  full: Json[] | null;
  fields: string[];
  documented: Set<string>;
}

/** One case of the root property: a row (its index) and the fieldset asked of it. */
export interface RootCase {
  r: number;
  set: Fieldset;
}

/** The body and items of a usable answer. */
export interface Answer {
  body: Json;
  items: Json[];
}

/** The items of an answer: the object under the singular key, or the array under the plural one; null when the envelope is not there. */
export function itemsOf(body: unknown, r: Resource): Json[] | null {
  if (!isPlainObject(body)) return null;
  const value = body[r.key];
  if (r.single) return isPlainObject(value) ? [value] : null;
  return Array.isArray(value) && value.every(isPlainObject) ? value : null;
}

export const labelOf = (r: Resource, item: Json, index: number): string =>
  r.single ? r.noun : Number.isInteger(item['id']) ? `${r.noun} ${String(item['id'])}` : `${r.noun} #${index + 1}`;

/** The body and items of an answer, or why they are not usable. */
export function readAnswer(response: HttpResponse, r: Resource): Answer | string {
  if (response.status !== 200) return `answered ${response.status}, not 200`;
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return 'answered a body that is not JSON';
  }
  const items = itemsOf(body, r);
  if (!items) return `answered no ${r.single ? 'object' : 'array'} under "${r.key}"`;
  return { body: body as Json, items };
}

/** Documented fields the items serve, in the schema's order (what the properties draw from). */
export function servedFields(items: readonly Json[], documented: ReadonlySet<string>): string[] {
  const served = new Set(items.flatMap((i) => Object.keys(i)));
  return [...documented].filter((f) => served.has(f));
}

/** Whether every item has exactly these keys. */
export const showsExactly = (items: readonly Json[], fields: readonly string[]): boolean =>
  items.length > 0 && items.every((item) => Object.keys(item).length === fields.length && fields.every((f) => f in item));

export const idOf = (value: unknown): number | null => (Number.isInteger(value) ? (value as number) : null);

export const firstId = (items: readonly Json[]): number | null => items.map((i) => idOf(i['id'])).find((id) => id !== null) ?? null;

const fieldsetIds = (rule: FieldsetRule): string[] => (rule === 'inclusion' ? ['FIELDS-1'] : rule === 'exclusion' ? ['FIELDS-2'] : ['FIELDS-4', 'FIELDS-1', 'FIELDS-2']);

/** The fieldset's own ids, first the one its rule stands for (FIELDS-4 when both parameters apply). */
export const idsForSet = (set: Fieldset, extra: string[] = []): string[] => [...fieldsetIds(ruleOf(set) ?? 'inclusion'), ...extra];

/** Judges the items of an answer under a fieldset against the items without it. */
export function judgeFieldset(
  verdict: Verdict,
  r: Resource,
  got: readonly Json[],
  full: readonly Json[],
  target: string,
  set: Fieldset,
  documented: ReadonlySet<string>,
  ids: string[],
  ignore: ReadonlySet<string> = new Set(),
): void {
  if (!r.shared && got.length !== full.length) {
    add(verdict.must, fail(`${describeFieldset(target, set)}: ${got.length} ${r.noun}(s), ${full.length} without the fieldset`), ids);
    return;
  }
  // Items of a shared row may come and go meanwhile: only those of the same id in both answers are compared.
  const pairs: [Json, Json | undefined][] = r.shared ? got.map((g) => [g, 'id' in g ? full.find((f) => f['id'] === g['id']) : undefined]) : pairById(got, full);
  const objects = pairs.flatMap(([g, f], i) => (f ? [{ label: labelOf(r, g, i), got: g, full: f }] : []));
  addByClause(verdict.must, objects, target, set, documented, ignore);
  const entries = objects.map((o) => ({ label: o.label, problems: fieldsetProblems(o.got, o.full, target, set, documented, ignore).noted }));
  add(verdict.warn, byObject(entries), ids);
}

/**
 * The statement a field's fate under a fieldset judges: a field both parameters list, the
 * exclusion after the inclusion (FIELDS-4); else, when fields[t] is sent, the inclusion, which
 * keeps the fields it lists and only those (FIELDS-1); else the exclusion (FIELDS-2).
 */
export function clauseOf(set: Fieldset, field: string): 'FIELDS-1' | 'FIELDS-2' | 'FIELDS-4' {
  if (set.only?.includes(field) && set.except?.includes(field)) return 'FIELDS-4';
  return set.only ? 'FIELDS-1' : 'FIELDS-2';
}

/** An object under a fieldset paired with the same object without it, labelled for messages. */
export interface FieldsetPair {
  label: string;
  got: Json;
  full: Json;
}

/**
 * The documented fields the fieldset kept or removed wrongly, one finding per statement their
 * fate judges (clauseOf), each citing that statement (and `extra`) only: a field both lists that
 * stays breaks the order of the two (FIELDS-4), not the inclusion or the exclusion alone.
 */
export function addByClause(
  list: PropertyFinding[],
  objects: readonly FieldsetPair[],
  target: string,
  set: Fieldset,
  documented: ReadonlySet<string>,
  ignore: ReadonlySet<string>,
  extra: string[] = [],
): void {
  for (const clause of ['FIELDS-4', 'FIELDS-1', 'FIELDS-2'] as const) {
    const entries = objects.map(({ label, got, full }) => {
      const others = [...Object.keys(full), ...Object.keys(got)].filter((k) => clauseOf(set, k) !== clause);
      return { label, problems: fieldsetProblems(got, full, target, set, documented, new Set([...ignore, ...others])).broken };
    });
    add(list, byObject(entries), [clause, ...extra]);
  }
}

/** A single shared row answered 404: another test of the run deleted it meanwhile, not judged. */
export const goneMeanwhile = (s: Resource, response: HttpResponse): boolean => s.shared === true && s.single && response.status === 404;

/**
 * A lazy row's answer that shows exactly the fields that must stay (all required, so served):
 * nothing the answer without fieldsets could add, so it is not asked.
 */
export const showsWhatStays = (s: Served, set: Fieldset, answer: Answer | string): boolean =>
  typeof answer !== 'string' &&
  showsExactly(
    answer.items,
    s.fields.filter((f) => keeps(set, f)),
  );

/** The verdict of a root case's answer, against the row's items without fieldsets. */
export function judgeRootAnswer(s: Served, full: readonly Json[], set: Fieldset, answer: Answer | string): Verdict {
  const verdict = noFinding();
  const ids = idsForSet(set);
  if (typeof answer === 'string') {
    add(verdict.must, fail(`${describeFieldset('root', set)} ${answer}`), ids);
    return verdict;
  }
  judgeFieldset(verdict, s, answer.items, full, 'root', set, s.documented, ids);
  return verdict;
}

/** The fields both parameters name: asked with fields_except alone, they tell an exclusion not applied (FIELDS-2) from one applied first (FIELDS-4). */
export function namedByBoth(set: Fieldset): string[] {
  return set.only && set.except ? set.only.filter((f) => set.except!.includes(f)) : [];
}

/**
 * A verdict's FIELDS-4 findings (fields both parameters name, still there), judged again by the
 * verdict of the same row under fields_except alone of those fields (`asked`): when that leaves
 * them too, the exclusion is not applied at all (FIELDS-2), and the order of the two is not seen.
 */
export function exclusionOrOrder(verdict: Verdict, alone: Verdict, asked: string): Verdict {
  if (!alone.must.some((f) => f.ids.includes('FIELDS-2') && !isBlank(f))) return verdict;
  const must = verdict.must.map((f): PropertyFinding => {
    if (f.result.ok || f.ids[0] !== 'FIELDS-4') return f;
    return { result: { ...f.result, message: `${f.result.message}; ${asked} alone leaves them too: the exclusion is not applied` }, ids: ['FIELDS-2'] };
  });
  return { ...verdict, must };
}

/** Per item, the fields it lost against the same item answered without the fieldset (one that must be ignored), for byObject. */
export function lostFields(r: Resource, got: readonly Json[], full: readonly Json[]): { label: string; problems: string[] }[] {
  return pairById(got, full).map(([g, f], i) => {
    const missing = f ? missingFields(g, f) : [];
    return { label: labelOf(r, g, i), problems: missing.length ? [`lacks ${missing.join(', ')}, which it has without fieldsets`] : [] };
  });
}
