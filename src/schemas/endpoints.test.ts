// schemas/endpoints.json, the index from endpoint and status to the body's schema, covers the
// spec's Endpoints section exactly (src/schemas/spec-endpoints.ts), and every schema it names
// exists and compiles for every API version the kit runs.
import { changeRow } from '../rules/change-history.ts';
import { describe, expect, test } from 'vitest';
import { BODY_KINDS, type StatusMap } from './endpoints.ts';
import { SPEC_ENDPOINTS } from './spec-endpoints.ts';
import { SchemaRegistry } from './validator.ts';
import { requirements } from '../requirements/catalogue.ts';

const VERSIONS = ['3', '3.0', '3.1', '3.2'];
const registry = SchemaRegistry.load();
const index = registry.endpointIndex();

/** Problems of one status map: status keys, body kinds, and a schema exactly where the body is JSON. */
function statusProblems(where: string, statuses: StatusMap): string[] {
  const problems: string[] = [];
  for (const [status, expectation] of Object.entries(statuses)) {
    const at = `${where} ${status}`;
    if (!/^[1-5]([0-9]{2}|xx)$/.test(status)) problems.push(`${at}: not a status ("200") or class ("4xx")`);
    if (!BODY_KINDS.includes(expectation.body)) problems.push(`${at}: body ${String(expectation.body)} is none of ${BODY_KINDS.join(', ')}`);
    const wantsSchema = expectation.body === 'json' || expectation.body === 'json-or-empty';
    if (wantsSchema && !expectation.schema) problems.push(`${at}: body ${expectation.body} without a schema`);
    if (!wantsSchema && expectation.schema) problems.push(`${at}: a schema for body ${expectation.body}`);
    const unknownKeys = Object.keys(expectation).filter((k) => !['body', 'schema', 'requirements', 'present'].includes(k));
    for (const [i, rule] of (expectation.present ?? []).entries()) {
      const where = `${at} present[${i}]`;
      if (!rule.at.length || rule.at.some((p) => p !== '' && !/^(\/[^/]+)+$/.test(p))) problems.push(`${where}: at must list JSON pointers ("" or /a/*/b)`);
      if (!rule.fields.length) problems.push(`${where}: no field`);
      if (!rule.because) problems.push(`${where}: no because (the spec's words that state the condition)`);
      const when = rule.when ?? {};
      for (const key of Object.keys(when)) if (!['token', 'query', 'since', 'tokenScope'].includes(key)) problems.push(`${where}: unknown condition ${key}`);
      if (when.token !== undefined && when.token !== 'user') problems.push(`${where}: token must be user`);
      if (when.tokenScope !== undefined && (when.token !== 'user' || !['public', 'favorites', 'notifications', 'publish_sku_review_actions'].includes(when.tokenScope)))
        problems.push(`${where}: tokenScope must be a user token's scope`);
      if (when.since !== undefined && !changeRow(when.since)) problems.push(`${where}: since ${when.since} is not a version of the Change history`);
      for (const id of rule.requirements) {
        const known = requirements().get(id);
        if (!known) problems.push(`${where}: requirement ${id} is not in the catalogue`);
        else if (known.level !== 'MUST') problems.push(`${where}: requirement ${id} is ${known.level}, not MUST`);
      }
    }
    for (const id of expectation.requirements ?? []) {
      const known = requirements().get(id);
      // A body that breaks the entry fails the run: only MUST statements may be cited.
      if (!known) problems.push(`${at}: requirement ${id} is not in the catalogue`);
      else if (known.level !== 'MUST') problems.push(`${at}: requirement ${id} is ${known.level}, not MUST`);
    }
    if (unknownKeys.length) problems.push(`${at}: unknown keys ${unknownKeys.join(', ')}`);
  }
  return problems;
}

describe('schemas/endpoints.json', () => {
  test('lists exactly the endpoints of the spec', () => {
    const listed = Object.keys(index.endpoints);
    expect(
      SPEC_ENDPOINTS.filter((e) => !listed.includes(e)),
      'endpoints of the spec missing from endpoints.json',
    ).toEqual([]);
    expect(
      listed.filter((e) => !(SPEC_ENDPOINTS as readonly string[]).includes(e)),
      'endpoints.json entries that are not endpoints of the spec',
    ).toEqual([]);
    expect(Object.keys(index.auth).sort()).toEqual(['GET {auth_url}/oauth2/authorizations/new', 'POST {auth_url}/oauth2/token']);
  });

  test('has the defaults: 304, 403 (rate limit), 4xx and 5xx (errors)', () => {
    expect(Object.keys(index.defaults).sort()).toEqual(['304', '403', '4xx', '5xx']);
    expect(index.defaults['403']?.schema).toBe('common/forbidden.json');
    expect(index.defaults['4xx']?.schema).toBe('common/error.json');
  });

  test('every endpoint documents a success status, and every entry is well formed', () => {
    const problems = [
      ...statusProblems('defaults', index.defaults),
      ...Object.entries({ ...index.endpoints, ...index.auth }).flatMap(([endpoint, statuses]) => [
        ...statusProblems(endpoint, statuses),
        ...(Object.keys(statuses).some((s) => /^[23]/.test(s)) ? [] : [`${endpoint}: no 2xx or 3xx status`]),
      ]),
    ];
    expect(problems).toEqual([]);
  });

  test("every API endpoint's statuses cite its row of the spec's Endpoints tables, the defaults the Errors rows", () => {
    const rowsOf = (endpoint: string): string[] => {
      const [method, path] = endpoint.split(' ') as [string, string];
      const row = new RegExp(`\\|\\s*${method}\\s*\\|\\s*\`?${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`?\\s*\\|`);
      return [...requirements().values()].filter((r) => r.level === 'MUST' && r.quote.some((q) => row.test(q))).map((r) => r.id);
    };
    const problems: string[] = [];
    for (const [endpoint, statuses] of Object.entries(index.endpoints)) {
      const rows = rowsOf(endpoint);
      if (!rows.length) problems.push(`${endpoint}: no row of the catalogue quotes it`);
      for (const [status, expectation] of Object.entries(statuses)) {
        const cited = expectation.requirements ?? [];
        if (status.startsWith('2') && rows.some((id) => !cited.includes(id)))
          problems.push(`${endpoint} ${status} cites ${cited.join(', ') || 'nothing'}, not its rows ${rows.join(', ')}`);
        if (/^[45]/.test(status) && !cited.includes('ERR-2')) problems.push(`${endpoint} ${status}: an error body, but ERR-2 is not cited`);
      }
    }
    expect(problems).toEqual([]);
    expect(index.defaults['403']?.requirements).toEqual(['ERR-7', 'ERR-2']);
    expect(index.defaults['4xx']?.requirements).toEqual(['ERR-2']);
  });

  test('every schema it names exists and compiles for every version', () => {
    const named = new Set(
      [index.defaults, ...Object.values(index.endpoints), ...Object.values(index.auth)].flatMap((statuses) => Object.values(statuses).flatMap((e) => (e.schema ? [e.schema] : []))),
    );
    const present = new Set(registry.ids());
    expect([...named].filter((id) => !present.has(id)).sort(), 'schemas endpoints.json names that are not under schemas/').toEqual([]);
    const failures: string[] = [];
    for (const id of [...named].sort()) {
      for (const version of VERSIONS) {
        try {
          registry.validate(id, null, version);
        } catch (error) {
          failures.push(`${id} (${version}): ${(error as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  test('every response schema under schemas/responses/ answers some endpoint', () => {
    const named = new Set([...Object.values(index.endpoints), ...Object.values(index.auth)].flatMap((s) => Object.values(s).map((e) => e.schema)));
    expect(registry.ids().filter((id) => id.startsWith('responses/') && !named.has(id))).toEqual([]);
  });

  test('every schema under schemas/ compiles for every version (ajv strict)', () => {
    const failures: string[] = [];
    for (const id of registry.ids()) {
      for (const version of VERSIONS) {
        try {
          registry.validate(id, null, version);
        } catch (error) {
          failures.push(`${id} (${version}): ${(error as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
