// The TypeScript types of src/generated/api-types.ts (`npm run schemas`, generate.ts): a small
// converter for the subset of JSON Schema the kit uses. Constraints (pattern, format, bounds,
// if/then, not) do not narrow the types: they widen to what holds in every case. A keyword it does
// not know stops the generation rather than being ignored.
import { componentNames, pascal, resolveRef, type Json, type JsonObject } from './schema-names.ts';
import type { SchemaRegistry } from './validator.ts';

/** Keywords that give the shape; the converter reads them. */
const SHAPE_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'items',
  'prefixItems',
  'enum',
  'const',
  '$ref',
  'oneOf',
  'anyOf',
  'allOf',
  'additionalProperties',
  'patternProperties',
  '$defs',
]);
/** Keywords that only constrain or annotate: the types widen over them. */
const WIDENED_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'x-since',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'dependentRequired',
  'not',
  'if',
  'then',
  'else',
  'contentMediaType',
  'contentEncoding',
  'unevaluatedProperties',
]);

const UNKNOWN = 'unknown';

function comment(text: string, indent: string): string {
  const clean = text.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim();
  return clean ? `${indent}/** ${clean} */\n` : '';
}

function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.includes(UNKNOWN)) return UNKNOWN;
  return unique.length === 0 ? 'never' : unique.join(' | ');
}

/** Does a type expression hold a union or an intersection outside any brackets? */
function compound(type: string): boolean {
  let depth = 0;
  for (const c of type) {
    if ('{[(<'.includes(c)) depth++;
    else if ('}])>'.includes(c)) depth--;
    else if (depth === 0 && (c === '|' || c === '&')) return true;
  }
  return false;
}

function intersection(parts: string[]): string {
  const known = [...new Set(parts.filter((p) => p !== UNKNOWN))];
  if (known.length === 0) return UNKNOWN;
  if (known.length === 1) return known[0]!;
  return known.map((p) => (compound(p) ? `(${p})` : p)).join(' & ');
}

/** The $refs among allOf parts. */
function allOfRefs(allOf: Json[]): string[] {
  return allOf.flatMap((part) => (part && typeof part === 'object' && !Array.isArray(part) && typeof part['$ref'] === 'string' ? [part['$ref']] : []));
}

class TypeWriter {
  readonly #registry: SchemaRegistry;
  readonly #names: Map<string, string>;

  constructor(registry: SchemaRegistry, names: Map<string, string>) {
    this.#registry = registry;
    this.#names = names;
  }

  /** The TypeScript name of a $ref target: a schema, or one of its $defs. */
  refName(ref: string, fromId: string): string {
    const { id, pointer } = resolveRef(ref, fromId);
    const name = this.#names.get(id);
    if (!name) throw new Error(`${fromId}: $ref ${ref} names no schema under schemas/`);
    if (pointer === '') return name;
    const def = /^\/\$defs\/([^/]+)$/.exec(pointer);
    if (!def) throw new Error(`${fromId}: $ref ${ref}: only whole schemas and their $defs are supported`);
    return name + pascal(def[1]!);
  }

  /** The type of a schema node; `where` names it in errors. */
  type(node: Json, id: string, where: string, indent: string): string {
    if (node === true) return UNKNOWN;
    if (node === false) return 'never';
    if (node === null || typeof node !== 'object' || Array.isArray(node)) throw new Error(`${id} ${where}: not a schema`);
    for (const key of Object.keys(node)) {
      if (!SHAPE_KEYWORDS.has(key) && !WIDENED_KEYWORDS.has(key) && !key.startsWith('x-')) {
        throw new Error(`${id} ${where}: src/schemas/generate.ts does not know the keyword ${key}; teach it`);
      }
    }
    if ('const' in node) return JSON.stringify(node['const']);
    if (Array.isArray(node['enum'])) return union(node['enum'].map((v) => JSON.stringify(v)));

    const parts: string[] = [];
    if (typeof node['$ref'] === 'string') parts.push(this.refName(node['$ref'], id));
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = node[key];
      if (Array.isArray(options)) parts.push(union(options.map((o, i) => this.type(o, id, `${where}/${key}/${i}`, indent))));
    }
    const allOf = Array.isArray(node['allOf']) ? node['allOf'] : [];
    parts.push(...allOf.map((o, i) => this.type(o, id, `${where}/allOf/${i}`, indent)));

    const types = node['type'] === undefined ? [] : Array.isArray(node['type']) ? (node['type'] as string[]) : [String(node['type'])];
    const objectLike = 'properties' in node || 'additionalProperties' in node || 'patternProperties' in node;
    const typed = types.length ? types : objectLike ? ['object'] : [];
    const shapedElsewhere = parts.some((p) => p !== UNKNOWN);
    if (typed.length) {
      parts.push(union(typed.map((t) => this.#simple(t, node, id, where, indent, shapedElsewhere, allOf))));
    } else if (Array.isArray(node['required']) && allOf.length) {
      const required = this.#requiredFromAllOf(node, id, allOf);
      if (required) parts.push(required);
    }
    return intersection(parts);
  }

  #simple(t: string, node: JsonObject, id: string, where: string, indent: string, shapedElsewhere: boolean, allOf: Json[]): string {
    switch (t) {
      case 'string':
        return 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array': {
        if (Array.isArray(node['prefixItems'])) {
          const head = node['prefixItems'].map((o, i) => this.type(o, id, `${where}/prefixItems/${i}`, indent));
          return `[${head.join(', ')}${node['items'] === false ? '' : ', ...unknown[]'}]`;
        }
        const item = node['items'] === undefined ? UNKNOWN : this.type(node['items'], id, `${where}/items`, indent);
        return compound(item) ? `(${item})[]` : `${item}[]`;
      }
      case 'object':
        return this.#object(node, id, where, indent, shapedElsewhere, allOf);
      default:
        throw new Error(`${id} ${where}: unknown type ${t}`);
    }
  }

  /** `required` names that only an allOf part documents: Required<Pick<Part, ...>>. */
  #requiredFromAllOf(node: JsonObject, id: string, allOf: Json[], deferred: ReadonlySet<string> = new Set()): string | null {
    const own = new Set(Object.keys((node['properties'] as JsonObject | undefined) ?? {}).filter((name) => !deferred.has(name)));
    const since = new Set(Object.keys((node['x-since'] as JsonObject | undefined) ?? {}));
    const missing = ((node['required'] as string[] | undefined) ?? []).filter((f) => !own.has(f) && !since.has(f));
    if (missing.length === 0) return null;
    const refs = allOfRefs(allOf);
    const documented = new Set(refs.flatMap((ref) => this.#registry.documentedFields(resolveRef(ref, id).id)));
    const picked = missing.filter((f) => documented.has(f)).sort();
    const bare = missing.filter((f) => !documented.has(f)).sort();
    const out: string[] = [];
    if (picked.length) out.push(`Required<Pick<${refs.map((r) => this.refName(r, id)).join(' & ')}, ${picked.map((f) => JSON.stringify(f)).join(' | ')}>>`);
    if (bare.length) out.push(`{ ${bare.map((f) => `${propertyKey(f)}: unknown`).join('; ')} }`);
    return out.join(' & ');
  }

  #object(node: JsonObject, id: string, where: string, indent: string, shapedElsewhere: boolean, allOf: Json[]): string {
    const properties = (node['properties'] as JsonObject | undefined) ?? {};
    const since = (node['x-since'] as Record<string, string> | undefined) ?? {};
    const required = new Set((node['required'] as string[] | undefined) ?? []);
    const parts: string[] = [];
    // A property that only annotates a field an allOf part types ({"description": ...}) takes
    // that part's type: left out here, and made required through Required<Pick<...>> if need be.
    const inherited = new Set(allOfRefs(allOf).flatMap((ref) => this.#registry.documentedFields(resolveRef(ref, id).id)));
    const deferred = new Set(Object.keys(properties).filter((name) => inherited.has(name) && this.type(properties[name]!, id, `${where}/properties/${name}`, indent) === UNKNOWN));
    const names = Object.keys(properties).filter((name) => !deferred.has(name));
    if (names.length) {
      const inner = `${indent}  `;
      const lines = names.map((name) => {
        const schema = properties[name]!;
        const notes: string[] = [];
        if (schema && typeof schema === 'object' && !Array.isArray(schema) && typeof schema['description'] === 'string') notes.push(schema['description']);
        if (since[name]) notes.push(`since ${since[name]}`);
        // A field a later version added is absent in earlier ones: optional, whatever `required` says.
        const optional = !required.has(name) || since[name] !== undefined;
        const type = this.type(schema, id, `${where}/properties/${name}`, inner);
        return `${comment(notes.join('; '), inner)}${inner}${propertyKey(name)}${optional ? '?' : ''}: ${type};\n`;
      });
      parts.push(`{\n${lines.join('')}${indent}}`);
    }
    const extra: string[] = [];
    const additional = node['additionalProperties'];
    if (additional !== undefined && additional !== false) extra.push(this.type(additional, id, `${where}/additionalProperties`, indent));
    const patterns = (node['patternProperties'] as JsonObject | undefined) ?? {};
    for (const [pattern, schema] of Object.entries(patterns)) extra.push(this.type(schema, id, `${where}/patternProperties/${pattern}`, indent));
    if (extra.length) parts.push(`Record<string, ${union(extra)}>`);
    const fromAllOf = allOf.length ? this.#requiredFromAllOf(node, id, allOf, deferred) : null;
    if (fromAllOf) parts.push(fromAllOf);
    if (parts.length === 0) return shapedElsewhere ? UNKNOWN : 'Record<string, unknown>';
    return intersection(parts);
  }
}

export function typesModule(registry: SchemaRegistry): string {
  const ids = registry.ids();
  const names = componentNames(ids);
  const writer = new TypeWriter(registry, names);
  const blocks: string[] = [];
  const seen = new Map<string, string>();
  const emit = (name: string, where: string, doc: JsonObject, id: string, path: string, heading: string) => {
    const other = seen.get(name);
    if (other) throw new Error(`${where} and ${other} would both be typed ${name}`);
    seen.set(name, where);
    blocks.push(`${comment(heading, '')}export type ${name} = ${writer.type(doc, id, path, '')};\n`);
  };
  for (const id of ids) {
    const doc = registry.doc(id) as JsonObject;
    const name = names.get(id)!;
    const title = typeof doc['title'] === 'string' ? doc['title'] : id;
    emit(name, id, doc, id, '#', `${title} (schemas/${id})`);
    const defs = (doc['$defs'] as JsonObject | undefined) ?? {};
    for (const def of Object.keys(defs).sort()) {
      const schema = defs[def] as JsonObject;
      const defTitle = typeof schema['title'] === 'string' ? schema['title'] : def;
      emit(name + pascal(def), `${id}#/$defs/${def}`, schema, id, `#/$defs/${def}`, `${defTitle} (schemas/${id}#/$defs/${def})`);
    }
  }
  const endpointUnion = (keys: string[]): string => keys.map((k) => `\n  | ${JSON.stringify(k)}`).join('');
  const index = registry.endpointIndex();
  blocks.push(
    `/** Every endpoint of the API, "METHOD /path" as the spec writes it (schemas/endpoints.json): the vocabulary of pathOf (src/rules/api-paths.ts). */\nexport type ApiEndpoint =${endpointUnion(Object.keys(index.endpoints))};\n`,
  );
  blocks.push(`/** The OAuth endpoints, on the authorization server (schemas/endpoints.json). */\nexport type AuthEndpoint =${endpointUnion(Object.keys(index.auth))};\n`);
  return [
    '// Generated by `npm run schemas` (src/schemas/generate.ts) from the JSON Schemas under schemas/: do not edit.',
    '// One type per schema. Fields a later API version added (x-since) are optional; constraints the',
    '// types cannot express (patterns, formats, bounds, conditions on other fields) are left to the schemas.',
    '',
    blocks.join('\n'),
  ].join('\n');
}
