// Validates bodies against the JSON Schemas under schemas/ (draft 2020-12, ajv strict, allErrors).
// Fields that a later version added (change history) carry an `x-since` map in their schema; they
// are required only when the run asked for that version or a later one. Schemas are compiled once
// per version and cached.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';

const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;

export const SCHEMAS_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));
export const SCHEMA_BASE = 'https://catalogue-conformance.invalid/schemas/';

export interface Violation {
  /** JSON pointer into the validated body. */
  pointer: string;
  expected: string;
  actual: string;
  /** The value is null where the schema's type does not allow null. */
  nullValue: boolean;
  /** A required field is absent. */
  absent: boolean;
}

type SchemaDoc = Record<string, unknown> & { $id: string; 'x-since'?: Record<string, string> };

/** Does a field added in `since` (major.minor.patch) exist in the requested version (major[.minor])? */
export function sinceApplies(since: string, requested: string): boolean {
  const [sM = 0, sm = 0, sp = 0] = since.split('.').map(Number);
  const [rM = 0, rm] = requested.split('.').map(Number);
  if (sM !== rM) return sM < rM;
  // major only: the oldest version of the major (Versioning rule 4), taken as M.0.0.
  if (rm === undefined) return sm === 0 && sp === 0;
  // major.minor: the latest fixes of that minor series (Versioning rule 2), so any patch counts.
  return sm <= rm;
}

export class SchemaRegistry {
  readonly #docs: SchemaDoc[];
  readonly #byVersion = new Map<string, Ajv2020>();
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(docs: SchemaDoc[]) {
    this.#docs = docs;
  }

  static load(dir: string = SCHEMAS_DIR): SchemaRegistry {
    const docs: SchemaDoc[] = [];
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) walk(path);
        // Files at the top of schemas/ are indexes (endpoints.json, openapi.json), not schemas.
        else if (entry.name.endsWith('.json') && folder !== dir) {
          const doc = JSON.parse(readFileSync(path, 'utf8')) as SchemaDoc;
          if (typeof doc.$id !== 'string' || !doc.$id.startsWith(SCHEMA_BASE)) {
            throw new Error(`schema ${relative(dir, path)} lacks an $id under ${SCHEMA_BASE}`);
          }
          docs.push(doc);
        }
      }
    };
    walk(dir);
    return new SchemaRegistry(docs);
  }

  /** Short ids: the path below schemas/, e.g. "responses/category.json". */
  ids(): string[] {
    return this.#docs.map((d) => d.$id.slice(SCHEMA_BASE.length));
  }

  doc(id: string): SchemaDoc {
    const doc = this.#docs.find((d) => d.$id === SCHEMA_BASE + id);
    if (!doc) throw new Error(`no schema ${id} under schemas/`);
    return doc;
  }

  /** Property names a resource schema documents (following allOf references). */
  documentedFields(id: string): string[] {
    const doc = this.doc(id);
    const own = Object.keys((doc['properties'] as Record<string, unknown> | undefined) ?? {});
    const inherited = ((doc['allOf'] as { $ref?: string }[] | undefined) ?? []).flatMap((part) =>
      part.$ref ? this.documentedFields(new URL(part.$ref, doc.$id).toString().slice(SCHEMA_BASE.length)) : [],
    );
    return [...new Set([...own, ...inherited])];
  }

  validate(id: string, data: unknown, version: string): Violation[] {
    const key = `${version} ${id}`;
    let validateFn = this.#compiled.get(key);
    if (!validateFn) {
      const found = this.#ajv(version).getSchema(SCHEMA_BASE + id);
      if (!found) throw new Error(`no schema ${id} under schemas/`);
      validateFn = found;
      this.#compiled.set(key, validateFn);
    }
    if (validateFn(data)) return [];
    return (validateFn.errors ?? []).map((e) => describe(e, data));
  }

  #ajv(version: string): Ajv2020 {
    let ajv = this.#byVersion.get(version);
    if (!ajv) {
      // strictRequired is off: it cannot see properties a schema takes from another through allOf.
      ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
      addFormats(ajv);
      ajv.addKeyword({ keyword: 'x-since', schemaType: 'object' });
      for (const doc of this.#docs) ajv.addSchema(forVersion(doc, version));
      this.#byVersion.set(version, ajv);
    }
    return ajv;
  }
}

/** A copy of the schema whose `required` lists leave out fields newer than the version. */
function forVersion(doc: SchemaDoc, version: string): SchemaDoc {
  const since = doc['x-since'] ?? {};
  const newer = new Set(Object.entries(since).filter(([, v]) => !sinceApplies(v, version)).map(([field]) => field));
  if (newer.size === 0) return doc;
  const prune = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(prune);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      out[k] = k === 'required' && Array.isArray(v) ? v.filter((f) => !newer.has(f as string)) : prune(v);
    }
    return out;
  };
  return prune(doc) as SchemaDoc;
}

function valueAt(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  let current: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function brief(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

function describe(error: ErrorObject, data: unknown): Violation {
  const actualValue = valueAt(data, error.instancePath);
  const params = error.params as Record<string, unknown>;
  let pointer = error.instancePath;
  let expected: string;
  let actual = brief(actualValue);
  switch (error.keyword) {
    case 'required':
      pointer = `${error.instancePath}/${String(params['missingProperty'])}`;
      expected = 'the field present (blank fields are null, never omitted)';
      actual = 'field absent';
      break;
    case 'type':
      expected = `type ${String(params['type'])}`;
      break;
    case 'enum':
      expected = `one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
      break;
    case 'pattern':
      expected = `a string matching ${String(params['pattern'])}`;
      break;
    case 'format':
      expected = `format ${String(params['format'])}`;
      break;
    case 'anyOf':
      expected = 'one of the alternatives the spec allows (see the errors above)';
      break;
    default:
      expected = error.message ?? error.keyword;
  }
  return { pointer: pointer || '/', expected, actual, nullValue: error.keyword === 'type' && actualValue === null, absent: error.keyword === 'required' };
}

export function formatViolation(v: Violation): string {
  return `${v.pointer}: expected ${v.expected}, got ${v.actual}`;
}
