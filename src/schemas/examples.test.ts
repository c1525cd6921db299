// The schemas' self-tests: every example under fixtures/schemas/<folder>/<name>/{valid,invalid}/
// runs against schemas/<folder>/<name>.json. Valid examples must pass; invalid ones must fail,
// with messages a reader understands. Every schema has examples: at least one valid; resources
// at least three invalid, responses at least one. A schema without them fails here by name.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../run.ts';
import { formatViolation, SchemaRegistry } from './validator.ts';

const EXAMPLES_DIR = join(PROJECT_ROOT, 'fixtures/schemas');
const DEFAULT_VERSION = '3.2';
const KINDS = ['valid', 'invalid'] as const;
type Kind = (typeof KINDS)[number];

/** Examples each schema needs at least, by folder. */
const MINIMUM: Record<string, Record<Kind, number>> = {
  common: { valid: 1, invalid: 0 },
  resources: { valid: 1, invalid: 3 },
  responses: { valid: 1, invalid: 1 },
};

/**
 * Schemas that accept every JSON value on purpose, so no example can fail them: exempt from the
 * invalid-example minimum (a test below checks that each does accept anything).
 */
const UNCONSTRAINED: Record<string, string> = {
  'resources/applied-filters.json': 'shape of meta.applied_filters: not shown (FILT-7); not even its type is constrained',
};
const PROBES: unknown[] = [null, true, 0, 1.5, '', 'text', [], [1, 'a'], {}, { a: 1 }];

interface Example {
  schema: string;
  kind: Kind;
  /** Path below fixtures/schemas, for messages. */
  file: string;
  why: string;
  version: string;
  instance: unknown;
  /** What is wrong with the file itself, if anything. */
  problem?: string;
}

const registry = SchemaRegistry.load();
const schemaIds = new Set(registry.ids());

function readExample(path: string, schema: string, kind: Kind): Example {
  const file = relative(EXAMPLES_DIR, path);
  const base = { schema, kind, file, why: '', version: DEFAULT_VERSION, instance: undefined };
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return { ...base, problem: `not JSON: ${(error as Error).message}` };
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { ...base, problem: 'not an object {why, version?, instance}' };
  const { why, version, instance, ...rest } = doc as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof why !== 'string' || why.trim() === '') problems.push('"why" must say in one line what the example shows');
  if (version !== undefined && (typeof version !== 'string' || !/^3(\.[0-9]+)?$/.test(version)))
    problems.push(`"version" must be a version such as "3.0" (got ${JSON.stringify(version)})`);
  if (!('instance' in (doc as object))) problems.push('"instance" is missing');
  if (Object.keys(rest).length) problems.push(`unknown keys ${Object.keys(rest).join(', ')} (allowed: why, version, instance)`);
  return {
    ...base,
    why: typeof why === 'string' ? why : '',
    version: typeof version === 'string' ? version : DEFAULT_VERSION,
    instance,
    ...(problems.length ? { problem: problems.join('; ') } : {}),
  };
}

/** Every example file, and the folders that name no schema. */
function collect(): { examples: Example[]; strays: string[] } {
  const examples: Example[] = [];
  const strays: string[] = [];
  if (!existsSync(EXAMPLES_DIR)) return { examples, strays };
  for (const folder of readdirSync(EXAMPLES_DIR).sort()) {
    const folderPath = join(EXAMPLES_DIR, folder);
    if (!statSync(folderPath).isDirectory()) {
      strays.push(folder);
      continue;
    }
    for (const name of readdirSync(folderPath).sort()) {
      const schema = `${folder}/${name}.json`;
      const schemaPath = join(folderPath, name);
      if (!statSync(schemaPath).isDirectory() || !schemaIds.has(schema)) {
        strays.push(`${folder}/${name} (no schema ${schema})`);
        continue;
      }
      for (const entry of readdirSync(schemaPath).sort()) {
        const kind = KINDS.find((k) => k === entry);
        if (!kind) {
          strays.push(`${folder}/${name}/${entry} (only valid/ and invalid/ are read)`);
          continue;
        }
        for (const file of readdirSync(join(schemaPath, kind)).sort()) {
          if (file.endsWith('.json')) examples.push(readExample(join(schemaPath, kind, file), schema, kind));
          else strays.push(`${folder}/${name}/${kind}/${file} (not a .json file)`);
        }
      }
    }
  }
  return { examples, strays };
}

const { examples, strays } = collect();

/** A message a reader can act on: "<pointer>: expected <what>, got <what>", nothing left as a raw ajv phrase. */
function readable(line: string): boolean {
  return /^(\/\S*|\(status\)): expected \S.*, got \S/.test(line) && !/undefined|\[object Object\]|\bmust\b/.test(line);
}

describe('schema examples (fixtures/schemas)', () => {
  test('every example folder names a schema and holds only valid/ and invalid/ .json files', () => {
    expect(strays).toEqual([]);
  });

  test('every schema has its examples: one valid at least; resources three invalid, responses one', () => {
    const count = (schema: string, kind: Kind) => examples.filter((e) => e.schema === schema && e.kind === kind).length;
    const missing: string[] = [];
    for (const id of [...schemaIds].sort()) {
      const minimum = MINIMUM[id.split('/')[0]!];
      if (!minimum) {
        missing.push(`${id}: a schema outside common/, resources/, responses/`);
        continue;
      }
      for (const kind of KINDS) {
        const have = count(id, kind);
        if (kind === 'invalid' && UNCONSTRAINED[id]) continue;
        if (have < minimum[kind]) missing.push(`${id}: ${have} ${kind} example(s), needs ${minimum[kind]} under fixtures/schemas/${id.replace(/\.json$/, '')}/${kind}/`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('the schemas exempt from invalid examples do accept every value', () => {
    for (const id of Object.keys(UNCONSTRAINED)) {
      expect(schemaIds.has(id), `${id} is listed in UNCONSTRAINED but is not under schemas/`).toBe(true);
      const rejected = PROBES.filter((probe) => registry.validate(id, probe, DEFAULT_VERSION).length > 0);
      expect(rejected, `${id} rejects some values: it needs invalid examples and no place in UNCONSTRAINED`).toEqual([]);
    }
  });

  describe.each([...new Set(examples.map((e) => e.schema))])('%s', (schema) => {
    test.each(examples.filter((e) => e.schema === schema).map((e) => [`${e.kind}/${e.file.split('/').pop()}: ${e.why}`, e] as const))('%s', (_title, example) => {
      expect(example.problem, example.file).toBeUndefined();
      const violations = registry.validate(example.schema, example.instance, example.version);
      const lines = violations.map((v) => formatViolation(v));
      if (example.kind === 'valid') {
        expect(lines, `${example.file} (version ${example.version}) should pass ${schema}`).toEqual([]);
      } else {
        expect(violations.length, `${example.file} (version ${example.version}) should fail ${schema}: ${example.why}`).toBeGreaterThan(0);
        expect(
          lines.filter((l) => !readable(l)),
          `${example.file}: messages a reader cannot act on`,
        ).toEqual([]);
      }
    });
  });
});
