// Checks of sparse fieldsets and linked resources (spec "Resources and their fields", General
// conventions 5-7): what fields[<target>] / fields_except[<target>] keep of an object, what
// embed / embed_ids / include add to a parent and to the body. Each compares the answer to a
// request with the answer to the same request without the parameter under test (the "full"
// answer), so no check knows any data set; the suite decides the requirement ids and severities.
//
// Readings (the spec does not state them, so any of them passes):
// - embed_ids=<name> "embeds an array of ids": under any key the parameter adds to the parent
//   (<name>_ids, <name>, ...), as long as it holds an array.
// - include=<name> "puts ids in each parent": under any key it adds to the parent, a bare id or
//   an array of ids; "a separate top-level array keyed by the name": any top-level key it adds
//   to the body (<name>, its plural, ...) holding an array.
import { allOf, blank, fail, inContext, isPlainObject, pass, show, type CheckResult } from './check.ts';

export type Json = Record<string, unknown>;

/** The fields[t] / fields_except[t] of a request for one target; absent = not sent. */
export interface Fieldset {
  only?: readonly string[];
  except?: readonly string[];
}

/** Which rule of General conventions 7 a fieldset exercises. */
export type FieldsetRule = 'inclusion' | 'exclusion' | 'both';

export function ruleOf(set: Fieldset): FieldsetRule | null {
  if (set.only && set.except) return 'both';
  if (set.only) return 'inclusion';
  if (set.except) return 'exclusion';
  return null;
}

/** The query parameters of a fieldset: fields[t]=a,b and fields_except[t]=c (comma-separated, as the spec writes them). */
export function fieldsetQuery(target: string, set: Fieldset): Record<string, string> {
  const query: Record<string, string> = {};
  if (set.only) query[`fields[${target}]`] = set.only.join(',');
  if (set.except) query[`fields_except[${target}]`] = set.except.join(',');
  return query;
}

/** Whether a field stays under a fieldset: in the inclusion (when there is one), then not in the exclusion. */
export function keeps(set: Fieldset, field: string): boolean {
  return (set.only === undefined || set.only.includes(field)) && !(set.except ?? []).includes(field);
}

/** "fields[t]=a,b&fields_except[t]=c" for a message. */
export function describeFieldset(target: string, set: Fieldset): string {
  return Object.entries(fieldsetQuery(target, set))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** Why a field should (not) be there, in the words of the rule. */
function because(target: string, set: Fieldset, field: string, kept: boolean): string {
  const f = `fields[${target}]`;
  const x = `fields_except[${target}]`;
  if (kept) {
    if (set.only) return `${f} lists it${set.except ? ` and ${x} does not` : ''}`;
    return `${x} does not list it`;
  }
  if (set.only && !set.only.includes(field)) return `${f} does not list it`;
  if (set.only) return `${f} lists it, but ${x} lists it too and the exclusion is applied after the inclusion`;
  return `${x} lists it`;
}

export interface FieldsetProblems {
  /** Documented fields the fieldset should have kept and did not, or should have removed and did not. */
  broken: string[];
  /**
   * What the rules do not decide: the deployment's own fields (beyond the documented ones), kept
   * or removed against the fieldset, and fields the answer without the fieldset did not have.
   */
  noted: string[];
}

/**
 * An object answered under a fieldset against the same object answered without it: each field of
 * the full object is there exactly when the fieldset keeps it. Fields in `ignore` (keys that
 * embed / embed_ids / include add, which the rules of the linked parameters govern) are left
 * out. A field the full object lacks is not expected, whatever the fieldset lists (the spec
 * requires no field beyond what the resource serves). The suite decides how much each kind of
 * problem weighs.
 */
export function fieldsetProblems(got: Json, full: Json, target: string, set: Fieldset, documented: ReadonlySet<string>, ignore: ReadonlySet<string> = new Set()): FieldsetProblems {
  const problems: FieldsetProblems = { broken: [], noted: [] };
  for (const field of Object.keys(full)) {
    if (ignore.has(field)) continue;
    const kept = keeps(set, field);
    if (kept === field in got) continue;
    const own = documented.has(field) ? '' : ' (a field the spec does not document)';
    problems[documented.has(field) ? 'broken' : 'noted'].push(
      kept ? `${field} is missing (${because(target, set, field, true)})${own}` : `${field} is still there (${because(target, set, field, false)})${own}`,
    );
  }
  for (const field of Object.keys(got)) {
    if (ignore.has(field) || field in full) continue;
    problems.noted.push(`${field} appeared, though the answer without the fieldset has no such field`);
  }
  return problems;
}

/** The fields an object of a linked resource lost against the same object answered without fieldsets ("stay complete"). */
export function missingFields(got: Json, full: Json): string[] {
  return Object.keys(full).filter((k) => !(k in got));
}

/**
 * One result for the problems of several objects: objects with the same problems are named
 * together ("location 1, location 2: format is still there (...)"). Passes when none has any.
 */
export function byObject(entries: readonly { label: string; problems: readonly string[] }[], prefix = ''): CheckResult {
  const groups = new Map<string, string[]>();
  for (const { label, problems } of entries) {
    if (problems.length === 0) continue;
    const key = problems.join('; ');
    groups.set(key, [...(groups.get(key) ?? []), label]);
  }
  if (groups.size === 0) return pass();
  const name = (labels: string[]) => (labels.length > 3 ? `${labels.slice(0, 3).join(', ')} and ${labels.length - 3} more` : labels.join(', '));
  return fail(prefix + [...groups].map(([problems, labels]) => `${name(labels)}: ${problems}`).join('; '));
}

/** Keys of `withLink` that `without` lacks (what a linked-resource parameter added to an object). */
export function addedKeys(withLink: Json, without: Json): string[] {
  return Object.keys(withLink).filter((k) => !(k in without));
}

/** The objects a linked value holds: one object, or an array of objects; null when it holds none. */
export function linkedObjects(value: unknown): Json[] | null {
  if (isPlainObject(value)) return [value];
  if (Array.isArray(value) && value.every(isPlainObject)) return value;
  return null;
}

const isId = (v: unknown): v is number => Number.isInteger(v);

/**
 * embed_ids=<name> adds to the parent an array of ids (LINK-2): some key the parameter added
 * holds an array, of integers (or nulls, for a linked record that has no id, such as the address
 * of an unstructured location). With `expected` (the ids of the objects embed=<name> embeds),
 * the array holds exactly those ids.
 */
export function embedIdsIsArrayOfIds(got: Json, without: Json, name: string, expected: readonly (number | null)[] | null, label: string): CheckResult {
  const added = addedKeys(got, without);
  if (name in got && !added.includes(name)) added.push(name);
  if (added.length === 0) return fail(`embed_ids=${name}: ${label} has no key the parameter added (its keys are those of the answer without it)`);
  const arrays = added.filter((k) => Array.isArray(got[k]));
  if (arrays.length === 0) {
    const message = `embed_ids=${name}: ${label} has ${added.map((k) => `${k}: ${show(got[k])}`).join(', ')}, not an array of ids`;
    // Only nulls where the array should be: a blank (GEN-8), which only warns.
    return added.every((k) => got[k] === null) ? blank(message) : fail(message);
  }
  const wanted = (expected ?? []).filter(isId).sort((a, b) => a - b);
  const verdicts = arrays.map((k): CheckResult => {
    const values = got[k] as unknown[];
    if (!values.every((v) => isId(v) || v === null)) return fail(`embed_ids=${name}: ${label} has ${k}: ${show(values)}, not an array of ids`);
    if (expected === null) return pass();
    const ids = values.filter(isId).sort((a, b) => a - b);
    return JSON.stringify(ids) === JSON.stringify(wanted)
      ? pass()
      : fail(`embed_ids=${name}: ${label} has ${k}: ${show(values)}, while embed=${name} embeds ${wanted.length ? `id ${wanted.join(', ')}` : 'no object with an id'}`);
  });
  return verdicts.some((v) => v.ok) ? pass() : verdicts.find((v) => !v.ok)!;
}

/** The ids a parent holds under the keys include added: bare ids and arrays of ids (nulls left out). */
export function parentIds(parent: Json, keys: readonly string[]): number[] {
  return keys.flatMap((k) => {
    const v = parent[k];
    if (isId(v)) return [v];
    if (Array.isArray(v)) return v.filter(isId);
    return [];
  });
}

/** Top-level keys include added to the body that hold arrays (meta aside). */
export function includedArrayKeys(body: Json, without: Json): string[] {
  return addedKeys(body, without).filter((k) => k !== 'meta' && Array.isArray(body[k]));
}

/**
 * include=<name> on a collection (LINK-3): each parent carries ids under some key the parameter
 * added, and a top-level array the parameter added holds an object for every id of every parent.
 * `parentKeys` are the keys judged as the parents' ids (those include adds without fieldsets).
 * When `resolveById` is false (a fieldset removed the members' id), only the presence of the
 * ids and the array is judged.
 */
export function includeResolves(
  body: Json,
  without: Json,
  parents: readonly Json[],
  parentKeys: readonly string[],
  name: string,
  resolveById: boolean,
  labelOf: (index: number) => string,
): CheckResult {
  const arrays = includedArrayKeys(body, without);
  if (arrays.length === 0) {
    const message = `include=${name}: the body has no top-level array the parameter added (its keys: ${Object.keys(body).join(', ')})`;
    // A top-level key the parameter added holding null where the array should be is a blank (GEN-8).
    const nulls = addedKeys(body, without).filter((k) => k !== 'meta' && body[k] === null);
    return nulls.length ? blank(`${message}; ${nulls.join(', ')} ${nulls.length > 1 ? 'are' : 'is'} null`) : fail(message);
  }
  const members = arrays.flatMap((k) => (body[k] as unknown[]).filter(isPlainObject));
  const results: CheckResult[] = [];
  parents.forEach((parent, i) => {
    const keys = parentKeys.filter((k) => k in parent);
    if (keys.length === 0) {
      results.push(fail(`${labelOf(i)} carries no id of the linked resource (no key the parameter added)`));
      return;
    }
    if (!resolveById) return;
    // An included object whose id is null (a blank, GEN-8) may be the one: then the id is not judged.
    const blankId = members.some((m) => m['id'] === null);
    for (const id of parentIds(parent, keys)) {
      if (members.some((m) => m['id'] === id)) continue;
      const message = `${labelOf(i)} has ${keys.join('/')} ${id}, which no object of the top-level ${arrays.join('/')} array has`;
      results.push(blankId ? blank(`${message} (one of them has id null)`) : fail(message));
    }
  });
  return inContext(`include=${name}`, allOf(results));
}

/** Pairs each object of `got` with the object of `full` of the same id, else of the same position. */
export function pairById(got: readonly Json[], full: readonly Json[]): [Json, Json | undefined][] {
  return got.map((g, i) => {
    const byId = 'id' in g ? full.find((f) => f['id'] === g['id']) : undefined;
    return [g, byId ?? full[i]];
  });
}
