// The generated files (schemas/openapi.json, src/generated/api-types.ts) are current, and
// openapi.json holds together: OpenAPI 3.1, every $ref resolves, every endpoint is there, and its
// embedded schemas judge the examples as the schemas themselves do.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../run.ts';
import { componentNames, generate, openApiPath, OPENAPI_PATH, TYPES_PATH } from './generate.ts';
import { SchemaRegistry } from './validator.ts';

const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;
const STALE = 'is not what the schemas give: run npm run schemas (and commit the result)';

const registry = SchemaRegistry.load();
const generated = generate(registry);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function pointerValue(doc: Json, pointer: string): Json | undefined {
  let current: Json | undefined = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = Array.isArray(current) ? current[Number(part)] : current[part];
  }
  return current;
}

function refs(node: Json, at = '#'): { at: string; ref: string }[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => refs(n, `${at}/${i}`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => (key === '$ref' && typeof value === 'string' ? [{ at, ref: value }] : refs(value, `${at}/${key}`)));
}

describe('generated files', () => {
  test('schemas/openapi.json is current', () => {
    expect(existsSync(OPENAPI_PATH), `schemas/openapi.json is missing: run npm run schemas`).toBe(true);
    expect(readFileSync(OPENAPI_PATH, 'utf8') === generated.openapi, `schemas/openapi.json ${STALE}`).toBe(true);
  });

  test('src/generated/api-types.ts is current', () => {
    expect(existsSync(TYPES_PATH), `src/generated/api-types.ts is missing: run npm run schemas`).toBe(true);
    expect(readFileSync(TYPES_PATH, 'utf8') === generated.types, `src/generated/api-types.ts ${STALE}`).toBe(true);
  });

  test('generation is deterministic', () => {
    expect(generate(SchemaRegistry.load())).toEqual(generated);
  });

  test('every schema has a type of its own name', () => {
    const names = componentNames(registry.ids());
    const missing = [...names].filter(([, name]) => !generated.types.includes(`export type ${name} = `)).map(([id]) => id);
    expect(missing).toEqual([]);
  });

  test('paths take OpenAPI templates, a repeated placeholder renamed', () => {
    expect(openApiPath('/skus/:id/reviews/:id/edit')).toEqual({ path: '/skus/{id}/reviews/{review_id}/edit', params: ['id', 'review_id'] });
    expect(openApiPath('/categories/:category_id/skus')).toEqual({ path: '/categories/{category_id}/skus', params: ['category_id'] });
  });
});

describe('schemas/openapi.json', () => {
  const doc = JSON.parse(generated.openapi) as JsonObject;
  const components = doc['components'] as JsonObject;

  test('is OpenAPI 3.1 with the base URL as a server variable', () => {
    expect(doc['openapi']).toMatch(/^3\.1\.\d+$/);
    expect(doc['jsonSchemaDialect']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc['servers']).toMatchObject([{ url: '{base_url}', variables: { base_url: { default: expect.any(String) } } }]);
  });

  test('every $ref resolves inside the document', () => {
    const unresolved = refs(doc).filter(({ ref }) => !ref.startsWith('#/') || pointerValue(doc, ref.slice(1)) === undefined);
    expect(unresolved).toEqual([]);
  });

  test('operations have what OpenAPI 3.1 requires: status keys, response descriptions, path parameters, component names', () => {
    const problems: string[] = [];
    for (const [kind, entries] of Object.entries(components)) {
      for (const name of Object.keys(entries as JsonObject)) if (!/^[a-zA-Z0-9._-]+$/.test(name)) problems.push(`components.${kind}.${name}: not a valid component name`);
    }
    for (const [path, item] of Object.entries(doc['paths'] as JsonObject)) {
      if (!path.startsWith('/')) problems.push(`${path}: a path must start with /`);
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      for (const [method, raw] of Object.entries(item as JsonObject)) {
        if (method === 'servers') continue;
        if (!['get', 'put', 'post', 'delete', 'patch'].includes(method)) problems.push(`${path}: unexpected key ${method}`);
        const op = raw as JsonObject;
        const params = ((op['parameters'] as JsonObject[] | undefined) ?? []).filter((p) => p['in'] === 'path');
        if (JSON.stringify(params.map((p) => p['name'])) !== JSON.stringify(templated))
          problems.push(`${method} ${path}: path parameters ${JSON.stringify(params.map((p) => p['name']))}`);
        for (const p of params) if (p['required'] !== true) problems.push(`${method} ${path}: path parameter ${String(p['name'])} not required`);
        for (const [status, response] of Object.entries(op['responses'] as JsonObject)) {
          if (!/^[1-5](?:[0-9][0-9]|XX)$/.test(status)) problems.push(`${method} ${path}: response key ${status}`);
          const r = response as JsonObject;
          if (!('$ref' in r) && typeof r['description'] !== 'string') problems.push(`${method} ${path} ${status}: no description`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('every endpoint of endpoints.json is an operation, with each documented status', () => {
    const index = registry.endpointIndex();
    const operations = new Map<string, JsonObject>();
    for (const item of Object.values(doc['paths'] as JsonObject)) {
      for (const [method, op] of Object.entries(item as JsonObject)) {
        if (method !== 'servers') operations.set(String((op as JsonObject)['summary']), op as JsonObject);
      }
    }
    const problems: string[] = [];
    for (const [endpoint, statuses] of Object.entries({ ...index.endpoints, ...index.auth })) {
      const op = operations.get(endpoint);
      if (!op) {
        problems.push(`${endpoint}: no operation`);
        continue;
      }
      const responses = op['responses'] as JsonObject;
      for (const status of Object.keys(statuses)) if (!(status.replace(/xx$/, 'XX') in responses)) problems.push(`${endpoint}: no response ${status}`);
      if (endpoint in index.endpoints) for (const status of ['304', '403', '4XX', '5XX']) if (!(status in responses)) problems.push(`${endpoint}: no response ${status}`);
    }
    expect(problems).toEqual([]);
    expect(operations.size).toBe(Object.keys(index.endpoints).length + Object.keys(index.auth).length);
  });

  test('security: OAuth 2.0 client credentials and authorization code with the four scopes, and the oauth_token query parameter', () => {
    const schemes = components['securitySchemes'] as JsonObject;
    expect(schemes['oauth2']).toMatchObject({
      type: 'oauth2',
      flows: { clientCredentials: { scopes: { public: expect.any(String) } }, authorizationCode: { scopes: expect.any(Object) } },
    });
    const flows = (schemes['oauth2'] as JsonObject)['flows'] as JsonObject;
    expect(Object.keys((flows['authorizationCode'] as JsonObject)['scopes'] as JsonObject).sort()).toEqual(['favorites', 'notifications', 'public', 'publish_sku_review_actions']);
    expect(schemes['oauth_token']).toEqual(expect.objectContaining({ type: 'apiKey', in: 'query', name: 'oauth_token' }));
  });

  test('documents the Accept versioning header and keeps x-since', () => {
    expect(doc['x-versioning']).toMatchObject({ header: 'Accept', format: 'application/vnd.service+json; version=<major[.minor]>' });
    expect(String((doc['info'] as JsonObject)['description'])).toContain('Accept: application/vnd.service+json; version=<major[.minor]>');
    const withSince = Object.values(components['schemas'] as JsonObject).filter((s) => s && typeof s === 'object' && 'x-since' in s);
    expect(withSince.length).toBeGreaterThan(0);
  });

  test('its embedded schemas judge the examples (version 3.2) as the schema files do', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: 'https://openapi.invalid/doc' });
    const names = componentNames(registry.ids());
    const examplesDir = join(PROJECT_ROOT, 'fixtures/schemas');
    const disagreements: string[] = [];
    let checked = 0;
    for (const [id, name] of names) {
      const validate = ajv.getSchema(`https://openapi.invalid/doc#/components/schemas/${name}`);
      if (!validate) throw new Error(`component ${name} does not compile`);
      const dir = join(examplesDir, id.replace(/\.json$/, ''));
      for (const kind of ['valid', 'invalid']) {
        const folder = join(dir, kind);
        if (!existsSync(folder)) continue;
        for (const file of readdirSync(folder).filter((f) => f.endsWith('.json'))) {
          const example = JSON.parse(readFileSync(join(folder, file), 'utf8')) as { version?: string; instance: unknown };
          // Earlier versions need the x-since pruning only the kit's validator does.
          if ((example.version ?? '3.2') !== '3.2') continue;
          checked++;
          const fromFiles = registry.validate(id, example.instance, '3.2').length === 0;
          if (validate(example.instance) !== fromFiles) disagreements.push(`${id} ${kind}/${file}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });
});
