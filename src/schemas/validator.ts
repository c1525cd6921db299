// Validates bodies against the JSON Schemas under schemas/ (draft 2020-12, ajv strict, allErrors).
// Fields that a later version added (change history) carry an `x-since` map in their schema; they
// are required only when the version served has them (VersionScope: the version asked, the patch
// level the deployment implements, the time of a recording). Schemas are compiled once per set of
// versions served and cached.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { documentedStatuses, endpointRequirements, expectationFor, loadEndpointIndex, type BodyExpectation, type EndpointIndex } from './endpoints.ts';
import { VersionScope } from '../rules/version-scope.ts';
import { missingConditionalFields, type ExchangeContext } from './presence.ts';

const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;

export const SCHEMAS_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));
export const SCHEMA_BASE = 'https://catalogue-conformance.invalid/schemas/';

export type { Violation } from './violation.ts';
import type { Violation } from './violation.ts';

/** What validateExchange found: the expectation endpoints.json gives, the schema used, the violations. */
export interface ExchangeVerdict {
  /** null when endpoints.json documents no such status for the endpoint (then one violation says so). */
  expectation: BodyExpectation | null;
  /** The schema the body was validated against, or null (empty body, any body, undocumented status). */
  schema: string | null;
  violations: Violation[];
  /**
   * The spec statements that document this status of the endpoint (endpoints.json's
   * `requirements`: the endpoint's row of the spec's tables, the Errors rows of the defaults);
   * for a status the endpoint does not document, its rows for the statuses it does.
   */
  requirements: string[];
}

const SHARED = Symbol.for('catalogue-conformance.schema-registry');

type SchemaDoc = Record<string, unknown> & { $id: string; 'x-since'?: Record<string, string>; 'x-requirements'?: string[] };

/** What a schema node is part of: the requirements in force there (innermost x-requirements) and its document. */
interface NodeOwner {
  requirements: string[] | undefined;
  doc: SchemaDoc;
}

/** A version asked for (major[.minor], as sent in Accept) or a full scope; a bare version assumes the newest patch level. */
export type VersionLike = string | VersionScope;

export function scopeOf(version: VersionLike): VersionScope {
  return typeof version === 'string' ? new VersionScope({ asked: version }) : version;
}

/** Does a field added in `since` (major.minor.patch) exist in the version served? */
export function sinceApplies(since: string, version: VersionLike): boolean {
  return scopeOf(version).serves(since);
}

export class SchemaRegistry {
  readonly #docs: SchemaDoc[];
  readonly #dir: string;
  readonly #byVersion = new Map<string, Ajv2020>();
  readonly #compiled = new Map<string, ValidateFunction>();
  /** Every node of the schemas compiled (per version: forVersion copies) -> its owner. */
  readonly #owners = new WeakMap<object, NodeOwner>();
  #index: EndpointIndex | undefined;

  constructor(docs: SchemaDoc[], dir: string = SCHEMAS_DIR) {
    this.#docs = docs;
    this.#dir = dir;
  }

  /**
   * The registry of schemas/ for this process, loaded on first use: every suite of a worker shares
   * it, so each schema is compiled once per API version and worker (kept on globalThis, since
   * vitest may evaluate the harness module once per test file in the same process).
   */
  static shared(): SchemaRegistry {
    const holder = globalThis as { [SHARED]?: SchemaRegistry };
    return (holder[SHARED] ??= SchemaRegistry.load());
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
    // Sorted by id: ids() and everything generated from them are the same on every machine.
    docs.sort((a, b) => (a.$id < b.$id ? -1 : a.$id > b.$id ? 1 : 0));
    return new SchemaRegistry(docs, dir);
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

  validate(id: string, data: unknown, version: VersionLike): Violation[] {
    const scope = scopeOf(version);
    const key = `${scope.key} ${id}`;
    let validateFn = this.#compiled.get(key);
    if (!validateFn) {
      const found = this.#ajv(scope).getSchema(SCHEMA_BASE + id);
      if (!found) throw new Error(`no schema ${id} under schemas/`);
      validateFn = found;
      this.#compiled.set(key, validateFn);
    }
    if (validateFn(data)) return [];
    return withoutEchoes(this.#closestAlternatives(scope, validateFn.errors ?? [], data), data).map((e) => this.#cited(e, describe(e, data)));
  }

  /**
   * Of a failed anyOf or oneOf, only the alternative the value meant speaks: among those that take
   * the value's type (no type error at the choice itself), the one with the fewest errors, when it
   * is one. The other alternatives' errors, and the failed choice that they and it echo, go: a flag
   * record under `flag` with an unknown reason is that reason's violation, not the bare record's
   * absent fields. Where no alternative stands out (a tie, a wrong type), every error stays.
   */
  #closestAlternatives(scope: VersionScope, errors: readonly ErrorObject[], data: unknown): ErrorObject[] {
    const key = (e: ErrorObject, at = '') => `${at}${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`;
    const dropped = new Set<string>();
    for (const choice of errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')) {
      const node = choice.parentSchema as Record<string, unknown> | undefined;
      const doc = node ? this.#owners.get(node)?.doc : undefined;
      const count = Array.isArray(node?.[choice.keyword]) ? (node[choice.keyword] as unknown[]).length : 0;
      if (!doc || !choice.schemaPath.startsWith('#/') || count < 2) continue;
      const value = valueAt(data, choice.instancePath);
      const branches: { keys: Set<string>; typed: boolean }[] = [];
      for (let i = 0; i < count; i++) {
        const branch = this.#branch(scope, `${doc.$id}${choice.schemaPath}/${i}`);
        if (!branch || branch(value)) break;
        const found = branch.errors ?? [];
        branches.push({ keys: new Set(found.map((e) => key(e, choice.instancePath))), typed: !found.some((e) => e.keyword === 'type' && e.instancePath === '') });
      }
      if (branches.length < count) continue;
      const meant = branches.filter((b) => b.typed);
      const fewest = Math.min(...meant.map((b) => b.keys.size));
      const closest = meant.filter((b) => b.keys.size === fewest);
      if (closest.length !== 1) continue;
      for (const b of branches) if (b !== closest[0]) for (const k of b.keys) if (!closest[0]!.keys.has(k)) dropped.add(k);
      dropped.add(key(choice));
    }
    return dropped.size ? errors.filter((e) => !dropped.has(key(e))) : [...errors];
  }

  /** The compiled alternative at `ref` (a schema id and the JSON pointer of a branch); undefined when it does not compile alone. */
  #branch(scope: VersionScope, ref: string): ValidateFunction | undefined {
    try {
      return this.#ajv(scope).getSchema(ref);
    } catch {
      return undefined;
    }
  }

  /** The violation with the requirements and version its schema node names. */
  #cited(error: ErrorObject, violation: Violation): Violation {
    const node = error.parentSchema;
    const owner = node ? this.#owners.get(node) : undefined;
    if (!owner) return violation;
    let requirements = owner.requirements;
    if (error.keyword === 'required') {
      const missing = String((error.params as Record<string, unknown>)['missingProperty']);
      // The absent field's own row, when its property node names one.
      const property = (node?.['properties'] as Record<string, unknown> | undefined)?.[missing];
      const own = property && typeof property === 'object' ? (property as SchemaDoc)['x-requirements'] : undefined;
      if (own?.length) requirements = own;
      const since = owner.doc['x-since']?.[missing];
      if (since) violation.since = since;
    }
    if (requirements?.length) violation.requirements = requirements;
    return violation;
  }

  /** schemas/endpoints.json of this registry's folder. */
  endpointIndex(): EndpointIndex {
    return (this.#index ??= loadEndpointIndex(this.#dir));
  }

  /**
   * Validates a response body (its raw text) by what schemas/endpoints.json documents for
   * `endpoint` (the spec's string, e.g. "GET /skus/:id/reviews") and `status`; the defaults give
   * 304, 403 and the other 4xx and 5xx. A status the index does not document is one violation.
   */
  /** The schema a JSON body of `status` of `endpoint` is documented by; null when none (empty, any, undocumented). */
  bodySchema(endpoint: string, status: number): string | null {
    return expectationFor(this.endpointIndex(), endpoint, status)?.expectation.schema ?? null;
  }

  /** The requirements that document `status` of `endpoint` (see ExchangeVerdict.requirements). */
  requirementsFor(endpoint: string, status: number): string[] {
    const index = this.endpointIndex();
    const found = expectationFor(index, endpoint, status);
    return found ? (found.expectation.requirements ?? []) : endpointRequirements(index, endpoint);
  }

  /**
   * `context` is what the exchange shows besides its body (the request's query, the kind of token
   * when known): the conditional presence rules of the index (`present`) apply where it shows
   * their condition holds.
   */
  validateExchange(endpoint: string, status: number, body: string, version: VersionLike, context: ExchangeContext = {}): ExchangeVerdict {
    const index = this.endpointIndex();
    const found = expectationFor(index, endpoint, status);
    if (!found) {
      const documented = documentedStatuses(index, endpoint).join(', ');
      return {
        expectation: null,
        schema: null,
        violations: [{ pointer: '(status)', expected: `a status documented for ${endpoint} (${documented})`, actual: `status ${status}`, nullValue: false, absent: false }],
        requirements: endpointRequirements(index, endpoint),
      };
    }
    const { expectation } = found;
    const schema = expectation.schema ?? null;
    const requirements = expectation.requirements ?? [];
    // The error format before the 3.1.0 normalization is not shown (CHG-6): an older version's
    // error body is not judged.
    if (status >= 400 && !scopeOf(version).has('normalized-errors')) return { expectation, schema: null, violations: [], requirements };
    const bodyViolation = (expected: string): ExchangeVerdict => ({
      expectation,
      schema,
      violations: [{ pointer: '/', expected, actual: brief(body.length > 60 ? `${body.slice(0, 60)}...` : body), nullValue: false, absent: false }],
      requirements,
    });
    const empty = body.trim() === '';
    if (expectation.body === 'any' || (expectation.body === 'empty' && empty) || (expectation.body === 'json-or-empty' && empty)) {
      return { expectation, schema: null, violations: [], requirements };
    }
    if (expectation.body === 'empty') return bodyViolation(`an empty body (status ${status})`);
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch {
      return bodyViolation(expectation.body === 'json-or-empty' ? 'a JSON body or none' : 'a JSON body');
    }
    if (!schema) throw new Error(`schemas/endpoints.json: ${endpoint} ${found.key} has body ${expectation.body} but no schema`);
    const scope = scopeOf(version);
    const violations = [...this.validate(schema, data, scope), ...missingConditionalFields(expectation.present ?? [], data, context, scope)];
    return { expectation, schema, violations, requirements };
  }

  #ajv(scope: VersionScope): Ajv2020 {
    let ajv = this.#byVersion.get(scope.key);
    if (!ajv) {
      // strictRequired is off: it cannot see properties a schema takes from another through allOf.
      // verbose: errors carry their schema node (parentSchema), which #owners maps to its requirements.
      ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, verbose: true });
      addFormats(ajv);
      ajv.addKeyword({ keyword: 'x-since', schemaType: 'object' });
      ajv.addKeyword({ keyword: 'x-requirements', schemaType: 'array' });
      for (const doc of this.#docs) {
        const copy = forVersion(doc, scope);
        ownNodes(this.#owners, copy, copy, undefined);
        ajv.addSchema(copy);
      }
      this.#byVersion.set(scope.key, ajv);
    }
    return ajv;
  }
}

/** The nodes of a schema document with the innermost x-requirements above them. */
function ownNodes(owners: WeakMap<object, NodeOwner>, node: unknown, doc: SchemaDoc, inherited: string[] | undefined): void {
  if (!node || typeof node !== 'object') return;
  const own = Array.isArray(node) ? undefined : (node as SchemaDoc)['x-requirements'];
  const requirements = own?.length ? own : inherited;
  owners.set(node, { requirements, doc });
  for (const [key, child] of Object.entries(node)) if (key !== 'x-requirements' && key !== 'x-since') ownNodes(owners, child, doc, requirements);
}

/** A copy of the schema whose `required` lists leave out fields the version served does not have. */
function forVersion(doc: SchemaDoc, scope: VersionScope): SchemaDoc {
  const since = doc['x-since'] ?? {};
  const newer = new Set(
    Object.entries(since)
      .filter(([, v]) => !scope.serves(v))
      .map(([field]) => field),
  );
  if (newer.size === 0) return doc;
  const prune = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(prune);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      // An `if`'s required list is a condition, not a demand: "format is unstructured" must not
      // hold of an answer without format (it came later than the version served).
      out[k] = k === 'if' ? v : k === 'required' && Array.isArray(v) ? v.filter((f) => !newer.has(f as string)) : prune(v);
    }
    return out;
  };
  return prune(doc) as SchemaDoc;
}

/** The value at a JSON pointer of `data` (undefined where there is none). */
export function valueAt(data: unknown, pointer: string): unknown {
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

/** The JSON type of a value, as a schema names it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** "a", "a or b", "a, b or c". */
function alternatives(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/**
 * Drops the errors that only echo others: a failed `if` (its `then` errors say what is wrong),
 * and a failed anyOf/oneOf whose branches failed on the type alone, of the value itself or of a
 * null below it (their type errors stay). Without this, a null that the kit reports as a GEN-8
 * warning would also fail through the echo: {category: {id, children_count: null}} failing the
 * choice between a category's fieldset alternatives.
 */
function withoutEchoes(errors: readonly ErrorObject[], data: unknown): ErrorObject[] {
  return errors.filter((e) => {
    if (e.keyword === 'if') return false;
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') {
      // The branches' own type errors stay, so a wrong non-null value still fails.
      const below = errors.filter((o) => o !== e && (o.instancePath === e.instancePath || o.instancePath.startsWith(`${e.instancePath}/`)));
      const typeAlone = (o: ErrorObject) => o.keyword === 'type' && (o.instancePath === e.instancePath || valueAt(data, o.instancePath) === null);
      if (below.length > 0 && below.every(typeAlone)) return false;
    }
    return true;
  });
}

/** What a schema keyword asks for, in words, from the error's params. */
const EXPECTED: Record<string, (params: Record<string, unknown>) => string> = {
  required: () => 'the field present (blank fields are null, never omitted)',
  type: (p) => alternatives(String(p['type']).split(',')),
  enum: (p) => `one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
  const: (p) => JSON.stringify(p['allowedValue']),
  pattern: (p) => `a string matching ${String(p['pattern'])}`,
  format: (p) => `format ${String(p['format'])}`,
  minimum: (p) => `a number ${String(p['comparison'])} ${String(p['limit'])}`,
  maximum: (p) => `a number ${String(p['comparison'])} ${String(p['limit'])}`,
  exclusiveMinimum: (p) => `a number ${String(p['comparison'])} ${String(p['limit'])}`,
  exclusiveMaximum: (p) => `a number ${String(p['comparison'])} ${String(p['limit'])}`,
  minItems: (p) => `at least ${String(p['limit'])} items`,
  maxItems: (p) => `at most ${String(p['limit'])} items`,
  minLength: (p) => `at least ${String(p['limit'])} characters`,
  maxLength: (p) => `at most ${String(p['limit'])} characters`,
  minProperties: (p) => `at least ${String(p['limit'])} fields`,
  maxProperties: (p) => `at most ${String(p['limit'])} fields`,
  contains: (p) => `at least ${String(p['minContains'])} item(s) of the kind the schema asks for (see the other errors at this place)`,
  propertyNames: (p) => `field names of the kind the schema asks for (${JSON.stringify(p['propertyName'])} is not)`,
  uniqueItems: (p) => `no duplicate items (items ${String(p['j'])} and ${String(p['i'])} are equal)`,
  multipleOf: (p) => `a multiple of ${String(p['multipleOf'])}`,
  dependentRequired: (p) => `the field ${String(p['missingProperty'])} present when ${String(p['property'])} is`,
  dependencies: (p) => `the field ${String(p['missingProperty'])} present when ${String(p['property'])} is`,
  additionalProperties: (p) => `no field ${String(p['additionalProperty'])}`,
  not: () => 'a value other than the one the schema excludes',
  anyOf: () => 'one of the alternatives the spec allows (see the other errors at this place)',
  oneOf: () => 'exactly one of the alternatives the spec allows (see the other errors at this place)',
  if: () => `what the schema requires when its condition holds (see the other errors at this place)`,
  'false schema': () => 'nothing here',
};

function describe(error: ErrorObject, data: unknown): Violation {
  const actualValue = valueAt(data, error.instancePath);
  const params = error.params as Record<string, unknown>;
  // A key of the body's top level is the answer's envelope (General conventions 1), not a blank field.
  const envelopeKey = error.keyword === 'required' && error.instancePath === '';
  const expected = envelopeKey
    ? `the key ${JSON.stringify(params['missingProperty'])} of the answer's envelope (keys: ${data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data).join(', ') || 'none' : jsonType(data)})`
    : Object.hasOwn(EXPECTED, error.keyword)
      ? EXPECTED[error.keyword]!(params)
      : (error.message ?? error.keyword);
  let pointer = error.instancePath;
  let actual = brief(actualValue);
  if (error.keyword === 'required') {
    pointer = `${error.instancePath}/${String(params['missingProperty']).replace(/~/g, '~0').replace(/\//g, '~1')}`;
    actual = envelopeKey ? 'key absent' : 'field absent';
  } else if (error.keyword === 'type') {
    // The value's own type, unless the value shows it already (null, true, false).
    if (actualValue !== null && typeof actualValue !== 'boolean') actual = `${actual} (${jsonType(actualValue)})`;
  } else if ((error.keyword === 'minItems' || error.keyword === 'maxItems') && Array.isArray(actualValue)) {
    actual = `${actualValue.length} items`;
  }
  const violation: Violation = {
    pointer: pointer || '/',
    expected,
    actual,
    nullValue: (error.keyword === 'type' || error.keyword === 'enum' || error.keyword === 'const') && actualValue === null,
    absent: error.keyword === 'required',
  };
  if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') violation.alternatives = true;
  return violation;
}

/** "/reviews/3/rating: expected integer, got "4" (string)"; with an endpoint, prefixed by it ("GET /skus/12/reviews: ..."). */
export function formatViolation(v: Violation, endpoint?: string): string {
  return `${endpoint ? `${endpoint}: ` : ''}${v.pointer}: expected ${v.expected}, got ${v.actual}`;
}
