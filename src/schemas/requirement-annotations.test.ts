// The `x-requirements` annotations of the JSON Schemas. A body that breaks a schema is reported
// under the ids of the innermost annotated node at or above the keyword that failed, so every id
// there must be one a failure may cite: known to the catalogue and MUST-level (an OPEN point may
// only warn). Read from the files themselves, so this does not depend on ajv knowing the keyword.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { requirements } from '../requirements/catalogue.ts';
import { SCHEMAS_DIR } from './validator.ts';

const KEYWORD = 'x-requirements';

/**
 * Resource schemas that carry no annotation, and why. A schema belongs here only when no body
 * can fail it: the test below checks that it constrains nothing.
 */
const UNANNOTATED: Record<string, string> = {
  'resources/applied-filters.json': 'shape of meta.applied_filters: not shown (FILT-7, open); the schema constrains nothing, so no failure can cite it',
};
/** Keywords that describe a schema without constraining the value. */
const NON_CONSTRAINING = new Set(['$schema', '$id', '$comment', 'title', 'description', 'examples', 'x-since']);

interface Annotation {
  /** Path below schemas/, e.g. "resources/category.json". */
  file: string;
  /** JSON pointer of the annotated node in the file ("" for the root). */
  pointer: string;
  value: unknown;
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return jsonFiles(path);
    return entry.name.endsWith('.json') ? [path] : [];
  });
}

function read(file: string): unknown {
  return JSON.parse(readFileSync(join(SCHEMAS_DIR, file), 'utf8')) as unknown;
}

function annotationsIn(node: unknown, file: string, pointer = ''): Annotation[] {
  if (!node || typeof node !== 'object') return [];
  const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node);
  const own = !Array.isArray(node) && Object.hasOwn(node, KEYWORD) ? [{ file, pointer, value: (node as Record<string, unknown>)[KEYWORD] }] : [];
  const below = entries.flatMap(([key, value]) => annotationsIn(value, file, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  return [...own, ...below];
}

/** The ids annotated on the node at `pointer` of a schema file, or null when it has none. */
function idsAt(file: string, pointer: string): unknown {
  return all.find((a) => a.file === file && a.pointer === pointer)?.value ?? null;
}

const files = jsonFiles(SCHEMAS_DIR).map((path) => relative(SCHEMAS_DIR, path).split('\\').join('/'));
const all = files.flatMap((file) => annotationsIn(read(file), file));

describe('x-requirements in schemas/', () => {
  test('every annotation is a non-empty array of MUST-level ids of the catalogue', () => {
    const catalogue = requirements();
    const problems: string[] = [];
    for (const { file, pointer, value } of all) {
      const at = `${file}#${pointer}`;
      if (!Array.isArray(value) || value.length === 0) {
        problems.push(`${at}: ${JSON.stringify(value)} is not a non-empty array of ids`);
        continue;
      }
      if (new Set(value).size !== value.length) problems.push(`${at}: an id appears twice in ${JSON.stringify(value)}`);
      for (const id of value) {
        const found = typeof id === 'string' ? catalogue.get(id) : undefined;
        if (!found) problems.push(`${at}: ${JSON.stringify(id)} is not an id of src/requirements/catalogue.json`);
        else if (found.level !== 'MUST') problems.push(`${at}: ${id} is ${found.level}: a failure may cite MUST-level requirements only`);
      }
    }
    expect(problems).toEqual([]);
  });

  test('every resource schema is annotated somewhere, unless listed with a reason', () => {
    const resources = files.filter((f) => f.startsWith('resources/'));
    expect(resources.length).toBeGreaterThan(0);
    const annotated = new Set(all.map((a) => a.file));
    expect(resources.filter((f) => !annotated.has(f) && !(f in UNANNOTATED))).toEqual([]);
  });

  test('a schema left unannotated constrains nothing and still exists', () => {
    for (const file of Object.keys(UNANNOTATED)) {
      expect(files, `${file} is listed in UNANNOTATED but is not under schemas/`).toContain(file);
      const constraining = Object.keys(read(file) as Record<string, unknown>).filter((k) => !NON_CONSTRAINING.has(k));
      expect(constraining, `${file} now constrains its value: annotate it and drop it from UNANNOTATED`).toEqual([]);
    }
  });

  test.each([
    ['resources/category.json', '/properties/parent_id', 'CAT-6'],
    ['resources/category.json', '/properties/layout_mode', 'CAT-8'],
    ['resources/location.json', '/then', 'SHOP-13'],
    ['resources/review-form.json', '', 'REV-12'],
    ['resources/review-aggregation-item.json', '', 'REV-6'],
    ['resources/address.json', '', 'USER-9'],
    ['common/error.json', '', 'ERR-2'],
    ['common/rate-limit.json', '', 'ERR-7'],
    ['common/rate-limit.json', '', 'RATE-8'],
    ['common/pagination.json', '', 'PAG-1'],
    ['common/timestamp.json', '', 'GEN-9'],
  ])('%s#%s cites %s', (file, pointer, id) => {
    expect(idsAt(file, pointer)).toContain(id);
  });

  test('resources/sku-review.json cites REV-2 somewhere', () => {
    expect(all.filter((a) => a.file === 'resources/sku-review.json').flatMap((a) => (Array.isArray(a.value) ? a.value : []))).toContain('REV-2');
  });

  test('an OPEN-only field stays unannotated: category.json fashion (CAT-7) and sku.json unit_price (SKU-8)', () => {
    expect(idsAt('resources/category.json', '/properties/fashion')).toBeNull();
    expect(idsAt('resources/sku.json', '/properties/unit_price')).toBeNull();
  });
});
