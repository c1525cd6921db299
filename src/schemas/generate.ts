// `npm run schemas`: generates, from the single source (the JSON Schemas under schemas/ and the
// endpoint index schemas/endpoints.json),
//   - schemas/openapi.json: OpenAPI 3.1 (JSON Schema 2020-12 is its native dialect, so the schemas
//     are embedded as they are under components.schemas, their $refs rewritten);
//   - src/generated/api-types.ts: one TypeScript type per schema.
// The output is deterministic (sorted, fixed formatting); src/schemas/generate.test.ts fails when
// the committed files are not what this script writes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BODY_KINDS, type BodyExpectation, type EndpointIndex, type StatusMap } from './endpoints.ts';
import { componentNames, pascal, resolveRef, type Json, type JsonObject } from './schema-names.ts';
import { typesModule } from './types-module.ts';
import { SCHEMAS_DIR, SchemaRegistry } from './validator.ts';

export { componentNames } from './schema-names.ts';

export const OPENAPI_PATH = join(SCHEMAS_DIR, 'openapi.json');
export const TYPES_PATH = fileURLToPath(new URL('../generated/api-types.ts', import.meta.url));

// ---------------------------------------------------------------------------------------------
// OpenAPI 3.1

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'No Content',
  '302': 'Found: a redirect',
  '304': 'Not Modified (conditional request)',
  '400': 'Bad Request: a required parameter is missing or incorrect',
  '401': 'Unauthorized: no, invalid or expired credentials',
  '403': 'Forbidden: rate limit exceeded',
  '404': 'Not Found: the resource does not exist',
  '422': 'Unprocessable Entity: creation, update or search failed validation',
  '4xx': 'Client error',
  '5xx': 'Server error',
};

const RATE_LIMIT_HEADERS: Record<string, string> = {
  'X-RateLimit-Limit': 'maximum requests permitted per minute',
  'X-RateLimit-Remaining': 'requests left in the current window',
  'X-RateLimit-Reset': 'when the window resets, in UTC epoch seconds',
};

/** Default statuses: endpoints.json key -> OpenAPI response key and component name. */
const DEFAULT_RESPONSES: Record<string, { key: string; name: string }> = {
  '304': { key: '304', name: 'NotModified' },
  '403': { key: '403', name: 'RateLimited' },
  '4xx': { key: '4XX', name: 'ClientError' },
  '5xx': { key: '5XX', name: 'ServerError' },
};

const SCOPES: Record<string, string> = {
  public: 'public resources; the only scope allowed in an application token',
  favorites: 'all favorites endpoints and /categories/:id/favorites',
  notifications: 'all notification endpoints',
  publish_sku_review_actions: 'voting and flagging SKU reviews',
};

/** The scope an endpoint needs (Authentication > Permissions); [] where the spec does not say. */
function scopesOf(endpoint: string): string[] {
  const path = endpoint.split(' ')[1]!;
  if (/^\/(favorites|favorite_lists)\b/.test(path) || /^\/categories\/:[a-z_]+\/favorites$/.test(path)) return ['favorites'];
  if (path.startsWith('/notifications')) return ['notifications'];
  if (/\/reviews\/:[a-z_]+\/(votes|flags)$/.test(path)) return ['publish_sku_review_actions'];
  // Authentication > Gaps: the permissions of /user, /user/*, /personalization and SKU review
  // create, update and delete are not shown.
  if (/^\/(user|personalization)\b/.test(path)) return [];
  if (/^(POST|PUT|DELETE) \/skus\/:[a-z_]+\/reviews/.test(endpoint) || /\/reviews\/(new|:[a-z_]+\/edit)$/.test(path)) return [];
  return ['public'];
}

function singular(word: string): string {
  return word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.replace(/s$/, '');
}

/**
 * "GET /skus/:id/reviews/:id/edit" -> path "/skus/{id}/reviews/{review_id}/edit" (a name may appear
 * once in an OpenAPI path, so a repeated one takes the singular of the segment before it).
 */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const segments = path.split('/').map((segment, i, all) => {
    if (!segment.startsWith(':')) return segment;
    let name = segment.slice(1);
    if (params.includes(name)) name = `${singular(all[i - 1] ?? 'item')}_${name}`;
    if (params.includes(name)) throw new Error(`${path}: cannot name placeholder ${segment} uniquely`);
    params.push(name);
    return `{${name}}`;
  });
  return { path: segments.join('/'), params };
}

function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + pascal(words.join(' '));
}

function rewriteRefs(node: Json, fromId: string, names: Map<string, string>): Json {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, fromId, names));
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      const { id, pointer } = resolveRef(value, fromId);
      const name = names.get(id);
      if (!name) throw new Error(`${fromId}: $ref ${value} names no schema under schemas/ (${id})`);
      out[key] = `#/components/schemas/${name}${pointer}`;
    } else {
      out[key] = rewriteRefs(value, fromId, names);
    }
  }
  return out;
}

function sortedObject<T>(entries: [string, T][]): Record<string, T> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function rateLimitHeaders(): JsonObject {
  return Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }]));
}

function responseObject(status: string, expectation: BodyExpectation, names: Map<string, string>, registry: SchemaRegistry, api: boolean): JsonObject {
  if (!BODY_KINDS.includes(expectation.body)) throw new Error(`endpoints.json: unknown body kind ${expectation.body}`);
  const text = STATUS_TEXT[status] ?? `Status ${status}`;
  const schemaTitle = expectation.schema ? String(registry.doc(expectation.schema)['title'] ?? expectation.schema) : '';
  const description = {
    json: `${text}: ${schemaTitle}`,
    empty: `${text}: empty body`,
    'json-or-empty': `${text}: ${schemaTitle}, or an empty body (the spec leaves it open)`,
    any: `${text}: the body is not specified`,
  }[expectation.body];
  const response: JsonObject = { description };
  if (api) response['headers'] = rateLimitHeaders();
  if (expectation.body === 'json' || expectation.body === 'json-or-empty') {
    const name = names.get(expectation.schema ?? '');
    if (!name) throw new Error(`endpoints.json names schema ${String(expectation.schema)}, which is not under schemas/`);
    response['content'] = { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } };
  }
  return response;
}

function operation(endpoint: string, statuses: StatusMap, names: Map<string, string>, registry: SchemaRegistry, api: boolean): { path: string; method: string; op: JsonObject } {
  const [method, rawPath] = endpoint.split(' ') as [string, string];
  const specPath = rawPath.replace(/^\{auth_url\}/, '');
  const { path, params } = openApiPath(specPath);
  const responses: [string, Json][] = Object.entries(statuses).map(([status, expectation]) => [
    status.replace(/^([45])xx$/, '$1XX'),
    responseObject(status, expectation, names, registry, api),
  ]);
  if (api) {
    for (const [status, { key, name }] of Object.entries(DEFAULT_RESPONSES)) {
      if (!(status in statuses) && !(key in statuses)) responses.push([key, { $ref: `#/components/responses/${name}` }]);
    }
  }
  const op: JsonObject = {
    operationId: operationId(method, specPath),
    summary: endpoint,
    tags: [specPath.split('/')[1] ?? ''],
  };
  if (params.length) {
    op['parameters'] = params.map((name) => ({ name, in: 'path', required: true, description: 'Path placeholders are integers (Endpoints).', schema: { type: 'integer' } }));
  }
  op['responses'] = sortedObject(responses);
  if (api) {
    const scopes = scopesOf(endpoint);
    op['security'] = [{ oauth2: scopes }, { oauth_token: [] }];
    if (scopes.length === 0) op['description'] = 'The permission this endpoint needs is not shown (Authentication > Gaps): any valid token.';
  } else {
    op['security'] = [];
  }
  return { path, method: method.toLowerCase(), op };
}

const VERSIONING = [
  'The version is chosen in the Accept header: `Accept: application/vnd.service+json; version=<major[.minor]>` (Versioning; Endpoints > General rules 1).',
  'Patch numbers are not sent; a major alone gives the oldest version of that major, no version the latest.',
  'A field a later version added carries its version in the `x-since` map of its schema (field -> version): it is required only from that version on.',
].join(' ');

/** OAuth 2.0 as the spec describes it (Authentication): the token in the header or as oauth_token. */
const SECURITY_SCHEMES: JsonObject = {
  oauth2: {
    type: 'oauth2',
    description:
      'OAuth 2.0 (Authentication). Token and authorization URLs are on the authorization server, {auth_url} (CATALOGUE_AUTH_URL), which the spec keeps apart from {base_url}: the URLs below show its paths on a placeholder host. Send the token as `Authorization: Bearer <token>` or as oauth_token, never both.',
    flows: {
      clientCredentials: {
        tokenUrl: 'https://auth.catalogue.example.invalid/oauth2/token',
        scopes: { public: SCOPES['public']! },
      },
      authorizationCode: {
        authorizationUrl: 'https://auth.catalogue.example.invalid/oauth2/authorizations/new',
        tokenUrl: 'https://auth.catalogue.example.invalid/oauth2/token',
        refreshUrl: 'https://auth.catalogue.example.invalid/oauth2/token',
        scopes: SCOPES,
      },
    },
  },
  oauth_token: {
    type: 'apiKey',
    in: 'query',
    name: 'oauth_token',
    description: 'The access token as a query parameter (Sending the token 2); not together with the Authorization header.',
  },
};

/** Every endpoint as an OpenAPI operation under its path, checked: no two operations on one path and method, no two paths differing only in placeholder names, operationIds unique. */
function operationPaths(registry: SchemaRegistry, index: EndpointIndex, names: Map<string, string>): Map<string, Map<string, JsonObject>> {
  const paths = new Map<string, Map<string, JsonObject>>();
  const add = (endpoint: string, statuses: StatusMap, api: boolean) => {
    const { path, method, op } = operation(endpoint, statuses, names, registry, api);
    const methods = paths.get(path) ?? new Map<string, JsonObject>();
    if (methods.has(method)) throw new Error(`two endpoints map to ${method.toUpperCase()} ${path}`);
    methods.set(method, op);
    paths.set(path, methods);
  };
  for (const [endpoint, statuses] of Object.entries(index.endpoints)) add(endpoint, statuses, true);
  for (const [endpoint, statuses] of Object.entries(index.auth)) add(endpoint, statuses, false);

  // OpenAPI: paths equal but for their placeholder names are the same path and must not both exist.
  const shapes = new Map<string, string>();
  for (const path of paths.keys()) {
    const shape = path.replace(/\{[^}]+\}/g, '{}');
    const other = shapes.get(shape);
    if (other) throw new Error(`paths ${other} and ${path} differ only in placeholder names`);
    shapes.set(shape, path);
  }
  const operationIds = [...paths.values()].flatMap((m) => [...m.values()].map((op) => String(op['operationId'])));
  const duplicate = operationIds.find((id, i) => operationIds.indexOf(id) !== i);
  if (duplicate) throw new Error(`operationId ${duplicate} is not unique`);
  return paths;
}

export function openApiDocument(registry: SchemaRegistry, index: EndpointIndex): JsonObject {
  const ids = registry.ids();
  const names = componentNames(ids);
  const schemas: [string, Json][] = ids.map((id) => {
    const { $schema: _dialect, $id: _id, ...rest } = registry.doc(id) as JsonObject;
    return [names.get(id)!, rewriteRefs(rest, id, names)];
  });

  const paths = operationPaths(registry, index, names);

  const authServer: JsonObject = {
    url: '{auth_url}',
    description: 'The authorization server (CATALOGUE_AUTH_URL); the spec keeps it apart from {base_url}.',
    variables: { auth_url: { default: 'https://auth.catalogue.example.invalid', description: 'base URL of the authorization server' } },
  };
  const pathItems: [string, Json][] = [...paths].map(([path, methods]) => {
    const item: JsonObject = sortedObject([...methods]);
    if (path.startsWith('/oauth2/')) item['servers'] = [authServer];
    return [path, item];
  });

  const defaultResponse = (status: string): JsonObject => {
    const expectation = index.defaults[status];
    if (!expectation) throw new Error(`endpoints.json has no default for ${status}`);
    return responseObject(status, expectation, names, registry, true);
  };

  return {
    openapi: '3.1.0',
    info: {
      title: 'Price-Comparison Catalogue API',
      version: '3.2.1',
      description: [
        'Generated by catalogue-conformance (`npm run schemas`) from its JSON Schemas (schemas/) and endpoint index (schemas/endpoints.json); do not edit.',
        VERSIONING,
        'Blank fields are present with value null; they are never omitted. Responses may carry fields the spec does not document: no schema forbids them.',
      ].join('\n\n'),
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [
      {
        url: '{base_url}',
        description: 'The API (CATALOGUE_BASE_URL); paths are relative to it.',
        variables: { base_url: { default: 'https://catalogue.example.invalid', description: 'base URL of the API, any path prefix included' } },
      },
    ],
    'x-versioning': {
      header: 'Accept',
      format: 'application/vnd.service+json; version=<major[.minor]>',
      versions: ['3.0', '3.1', '3.2'],
      description: VERSIONING,
    },
    security: [{ oauth2: [] }, { oauth_token: [] }],
    tags: [...new Set(pathItems.flatMap(([, item]) => Object.values(item as JsonObject).flatMap((op) => ((op as JsonObject)['tags'] as string[] | undefined) ?? [])))]
      .sort()
      .map((name) => ({ name })),
    paths: sortedObject(pathItems),
    components: {
      schemas: sortedObject(schemas),
      responses: sortedObject(Object.entries(DEFAULT_RESPONSES).map(([status, { name }]) => [name, defaultResponse(status)])),
      headers: sortedObject(Object.entries(RATE_LIMIT_HEADERS).map(([name, description]) => [name, { description, schema: { type: 'integer' } }])),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

// ---------------------------------------------------------------------------------------------

export interface Generated {
  openapi: string;
  types: string;
}

export function generate(registry: SchemaRegistry = SchemaRegistry.load()): Generated {
  return {
    openapi: `${JSON.stringify(openApiDocument(registry, registry.endpointIndex()), null, 2)}\n`,
    types: typesModule(registry),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { openapi, types } = generate();
  writeFileSync(OPENAPI_PATH, openapi);
  mkdirSync(dirname(TYPES_PATH), { recursive: true });
  writeFileSync(TYPES_PATH, types);
  process.stdout.write(`wrote ${OPENAPI_PATH} and ${TYPES_PATH}\n`);
}
