// Checks of the spec's Versioning rules and Change history, seen from outside: the served version
// shows only in the fields of a response (the spec names no header or meta field for it), so each
// check compares the fields a response carries with the fields the requested version has.
//
// Which field came with which version is not a table of this module: it is the `x-since` map of
// the JSON Schemas (schemas/, from the Change history), walked by `versionedFields`.
import { allOf, fail, isPlainObject, type CheckResult } from './check.ts';
import { versionServes } from '../util/version.ts';

export { versionServes };

/** A field a later version added, found in a schema's `x-since`. */
export interface VersionedField {
  /** Keys from the resource object down to the field, e.g. ['shipping', 'shipping_cost_enabled']. */
  path: readonly string[];
  /** The Change history's version, major.minor.patch. */
  since: string;
  /**
   * Whether the schema requires it (once its version is served). A field the spec shows only in
   * some answers (favorited: user requests; voted: authorized users) is never required present.
   */
  required: boolean;
}

/** What `versionedFields` needs of a schema document. */
export interface SchemaDocument {
  $id: string;
  'x-since'?: Record<string, string>;
  required?: string[];
  properties?: Record<string, unknown>;
  allOf?: unknown[];
}

/** The schema document of a full $id (the registry's `doc` with its base prefix). */
export type SchemaLookup = (fullId: string) => SchemaDocument;

/**
 * Every field of a resource schema (and of the objects its properties reference, e.g. Shop ->
 * shipping) that carries an `x-since`, with its path below the resource. Array items are not
 * followed: their version is that of the array's own field.
 */
export function versionedFields(fullId: string, lookup: SchemaLookup): VersionedField[] {
  const out: VersionedField[] = [];
  const walk = (id: string, prefix: readonly string[], seen: ReadonlySet<string>) => {
    if (seen.has(id) || prefix.length > 4) return;
    const inner = new Set([...seen, id]);
    // allOf parts share the object: their x-since, required and properties count as the doc's own.
    const parts = [lookup(id)];
    for (const part of parts[0]!.allOf ?? []) {
      const ref = isPlainObject(part) && typeof part['$ref'] === 'string' ? part['$ref'] : null;
      if (ref && !ref.includes('#') && !inner.has(new URL(ref, id).toString())) parts.push(lookup(new URL(ref, id).toString()));
    }
    const required = new Set(parts.flatMap((p) => p.required ?? []));
    const since = new Map<string, string>();
    for (const p of parts) for (const [field, v] of Object.entries(p['x-since'] ?? {})) if (!since.has(field)) since.set(field, v);
    for (const [field, v] of since) out.push({ path: [...prefix, field], since: v, required: required.has(field) });
    for (const p of parts) {
      for (const [field, schema] of Object.entries(p.properties ?? {})) {
        const ref = isPlainObject(schema) && typeof schema['$ref'] === 'string' ? schema['$ref'] : null;
        // Whole documents only: a fragment ($defs) holds no x-since of its own.
        if (ref && !ref.includes('#')) walk(new URL(ref, p.$id).toString(), [...prefix, field], inner);
      }
    }
  };
  walk(fullId, [], new Set());
  // One entry per path (a field declared twice keeps its first version).
  const byPath = new Map<string, VersionedField>();
  for (const f of out) if (!byPath.has(f.path.join('.'))) byPath.set(f.path.join('.'), f);
  return [...byPath.values()];
}

export type Presence = 'present' | 'absent' | 'either';

function series(version: string): [number, number] {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return [major, Number.isNaN(minor) ? 0 : minor];
}

/** The later of two major[.minor] versions (by major, then minor; 3.0, the latest fixes, is later than 3, the oldest). */
export function laterVersion(a: string, b: string): string {
  const [am, an] = series(a);
  const [bm, bn] = series(b);
  if (am !== bm) return am > bm ? a : b;
  if (an !== bn) return an > bn ? a : b;
  return a.includes('.') ? a : b;
}

/**
 * Whether a field the Change history dates `since` must be in the answer to `requested`
 * (Accept: version=major[.minor]):
 * - present: the requested series has it (rule 2: a minor gives the latest fixes of its series;
 *   rule 4: a major alone gives the oldest version, taken as M.0.0) and the schema requires it;
 * - absent: it came with a later series (a later minor or major) than the one requested; with a
 *   major alone, fields of that major's .0 patches may be either way (which 3.0.x is the oldest
 *   served is not stated);
 * - either otherwise. `orLater` (the latest version, whose number is not shown) never asks for absence.
 */
export function expectedPresence(requested: string, since: string, required: boolean, orLater = false): Presence {
  const [rm, rn] = series(requested);
  const [sm, sn] = series(since);
  if (!orLater && (sm > rm || (sm === rm && sn > rn))) return 'absent';
  return required && versionServes(requested, since) ? 'present' : 'either';
}

function has(object: Record<string, unknown>, path: readonly string[]): 'yes' | 'no' | 'no-parent' {
  let current: unknown = object;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(current)) return 'no-parent';
    current = current[key];
  }
  if (!isPlainObject(current)) return 'no-parent';
  return Object.prototype.hasOwnProperty.call(current, path[path.length - 1]!) ? 'yes' : 'no';
}

/** One object of an answer and where it was ("GET /categories/12: category"). */
export interface Located {
  where: string;
  value: unknown;
}

/** What was asked and what the answer must then show. */
export interface VersionExpectation {
  /** How the request named its version, for messages: "version=3", "no version parameter". */
  asked: string;
  /** The version whose fields the answer must show (major[.minor]). */
  version: string;
  /** The version is the latest, at least `version`: only presence is checked. */
  orLater?: boolean;
}

/**
 * Each versioned field of each object is present when its version is served and absent when it
 * came later (see expectedPresence). A field whose parent object is absent or null is not judged
 * (the parent's own entry or the schema says whether that is right).
 */
export function fieldsMatchVersion(objects: readonly Located[], fields: readonly VersionedField[], expectation: VersionExpectation): CheckResult {
  const { asked, version, orLater = false } = expectation;
  const results: CheckResult[] = [];
  for (const { where, value } of objects) {
    if (!isPlainObject(value)) continue;
    for (const field of fields) {
      const want = expectedPresence(version, field.since, field.required, orLater);
      if (want === 'either') continue;
      const found = has(value, field.path);
      if (found === 'no-parent') continue;
      const name = field.path.join('.');
      if (want === 'present' && found === 'no') {
        results.push(fail(`${where}: ${name} (Change history ${field.since}) is absent from the answer to ${asked}, which must serve ${orLater ? `the latest version (at least ${version})` : `version ${version}`}`));
      } else if (want === 'absent' && found === 'yes') {
        results.push(fail(`${where}: ${name} is present in the answer to ${asked}, although it came with ${field.since} (Change history), later than the ${version} series the answer must be`));
      }
    }
  }
  return allOf(results);
}

/** The versions the fields came with, oldest first. */
export function sinceVersions(fields: readonly VersionedField[]): string[] {
  const cmp = (a: string, b: string) => {
    const pa = a.split('.').map(Number);
    const pb = b.split('.').map(Number);
    for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
    return 0;
  };
  return [...new Set(fields.map((f) => f.since))].sort(cmp);
}

/** A requirement as changeHistoryRows reads it. */
export interface RowRequirement {
  id: string;
  section: string;
  level: string;
  quote: readonly string[];
}

/**
 * version -> requirement id of its Change history row, read from the catalogue's quotes
 * ("| 3.1.2 | 2016-11-24 | family_id on Category |" is CHG-4): no second table.
 */
export function changeHistoryRows(requirements: Iterable<RowRequirement>): Map<string, string> {
  const rows = new Map<string, string>();
  for (const r of requirements) {
    if (r.section !== 'Versioning > Change history' || r.level !== 'MUST') continue;
    const m = /^\|\s*(\d+\.\d+\.\d+)\s*\|/.exec(r.quote[0] ?? '');
    if (m && !rows.has(m[1]!)) rows.set(m[1]!, r.id);
  }
  return rows;
}

/**
 * The Versioning rule by which an Accept header's version parameter picks the version served,
 * given the versions the Change history lists (major.minor.patch): VER-7 (none sent), VER-8 (a
 * major only), VER-5 (a patch sent: ignored), VER-9 (a minor that exists), VER-10 (a minor that
 * does not: the previous one).
 */
export function versionRuleOf(accept: string | undefined, known: readonly string[]): string {
  const asked = /(?:^|;)\s*version\s*=\s*"?(\d+(?:\.\d+)*)/i.exec(accept ?? '')?.[1];
  if (asked === undefined) return 'VER-7';
  const parts = asked.split('.');
  if (parts.length === 1) return 'VER-8';
  if (parts.length > 2) return 'VER-5';
  const minor = `${parts[0]}.${parts[1]}`;
  return known.some((v) => v.split('.').slice(0, 2).join('.') === minor) ? 'VER-9' : 'VER-10';
}

/** The objects of an answer at `key` (an object, or each element of an array), located for messages. */
export function objectsAt(body: unknown, key: readonly string[], where: string): Located[] {
  let current: unknown = body;
  for (const k of key) {
    if (!isPlainObject(current)) return [];
    current = current[k];
  }
  const label = `${where}: ${key.join('.')}`;
  if (Array.isArray(current)) return current.map((value, i) => ({ where: `${label}[${i}]`, value }));
  return current === undefined ? [] : [{ where: label, value: current }];
}
