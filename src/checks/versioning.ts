// Checks of the spec's Versioning rules and Change history, seen from outside: the served version
// shows only in the fields of a response (the spec names no header or meta field for it), so each
// check compares the fields a response carries with the fields the requested version has.
//
// Which field came with which version is not a table of this module: it is the `x-since` map of
// the JSON Schemas (schemas/, from the Change history), walked by `versionedFields`.
import { allOf, fail, isPlainObject, type CheckResult } from './check.ts';
import type { VersionScope } from '../rules/version-scope.ts';

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

/** The earlier of two major[.minor] versions. */
export function earlierVersion(a: string, b: string): string {
  return laterVersion(a, b) === a ? b : a;
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
  /** The version served (the Versioning rules applied to what was asked, at the deployment's patch level). */
  scope: VersionScope;
}

/**
 * Each versioned field of each object is present when its version is served and absent when it
 * came later (VersionScope#presence). A field whose parent object is absent or null is not judged
 * (the parent's own entry or the schema says whether that is right). `only` judges one half.
 */
export function fieldsMatchVersion(objects: readonly Located[], fields: readonly VersionedField[], expectation: VersionExpectation, only?: 'present' | 'absent'): CheckResult {
  const { asked, scope } = expectation;
  const results: CheckResult[] = [];
  for (const { where, value } of objects) {
    if (!isPlainObject(value)) continue;
    for (const field of fields) {
      const want = scope.presence(field.since, field.required);
      if (want === 'either' || (only && want !== only)) continue;
      const found = has(value, field.path);
      if (found === 'no-parent') continue;
      const name = field.path.join('.');
      if (want === 'present' && found === 'no') {
        results.push(fail(`${where}: ${name} (Change history ${field.since}) is absent from the answer to ${asked} (${scope.describe()})`));
      } else if (want === 'absent' && found === 'yes') {
        results.push(
          fail(
            `${where}: ${name} is present in the answer to ${asked}, although it came with ${field.since} (Change history), later than the ${scope.atMost} series the answer can be (${scope.describe()})`,
          ),
        );
      }
    }
  }
  return allOf(results);
}

/** The fields of one resource schema an answer showed, and where. */
export interface JudgedObjects {
  objects: readonly Located[];
  fields: readonly VersionedField[];
}

/** "3.1" of "3.1.2". */
export function seriesOf(version: string): string {
  return version.split('.').slice(0, 2).join('.');
}

/**
 * Whether the answers show a later minor series whole: every field that series requires, of every
 * resource judged, is on every object, and there are two such fields or more. One field of a later
 * version proves little (minor versions are for incompatible changes, Versioning 1: an addition may
 * reach an earlier version); a whole series shows that version was served.
 */
export function seriesShownWhole(judged: readonly JudgedObjects[], series: string): boolean {
  let count = 0;
  for (const { objects, fields } of judged) {
    for (const field of fields.filter((f) => f.required && seriesOf(f.since) === series)) {
      const values = objects.filter((o) => isPlainObject(o.value) && has(o.value as Record<string, unknown>, field.path) !== 'no-parent');
      if (!values.length) continue;
      if (values.some((o) => has(o.value as Record<string, unknown>, field.path) !== 'yes')) return false;
      count++;
    }
  }
  return count >= 2;
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
