// The rules of an answer's body (src/rules/exchange-rules.ts holds them in its table): the body as
// documented for its endpoint, status and version (schemas, conditional presence), no field of a
// later version than the one asked, a JSON Content-Type for a JSON body, the {errors} format of
// 4xx and 5xx, and no body on a 304.
import { fail, isPlainObject, pass, type CheckResult } from '../checks/check.ts';
import { notModifiedHasNoBody } from '../checks/caching.ts';
import { EMPTY_ARRAY_NOT_FOUND, errorBodyIsWellFormed, isEmptyArrayNotFound } from '../checks/errors.ts';
import { bodyIsJson, REDIRECT_STATUSES } from '../checks/http.ts';
import { fieldsMatchVersion, objectsAt, sinceVersions, type Located } from '../checks/versioning.ts';
import type { Exchange } from '../http/exchange.ts';
import { schemaRequirements } from '../schemas/cited-requirements.ts';
import { asksFieldsets } from '../schemas/presence.ts';
import { SCHEMA_BASE, SchemaRegistry, valueAt } from '../schemas/validator.ts';
import type { Violation } from '../schemas/violation.ts';
import { versionedFieldsOf } from '../schemas/versioned-fields.ts';
import { changeRow } from './change-history.ts';
import { checkOutcome, outcome, PASSED, skip, violationFindings, where, withoutAbsence, type ExchangeRule, type RuleFinding, type RuleOutcome } from './exchange-rule.ts';
import type { ExchangeView } from './exchange-view.ts';

/** The resource objects of a response body, with the schema of each: the top-level keys (and meta) whose schema refers to a whole document. */
function resourcesOf(responseSchema: string, body: unknown, at: string): { schemaId: string; objects: Located[] }[] {
  const registry = SchemaRegistry.shared();
  const doc = registry.doc(responseSchema) as { $id: string; properties?: Record<string, unknown> };
  const out: { schemaId: string; objects: Located[] }[] = [];
  const refOf = (node: unknown): string | null => {
    if (!isPlainObject(node)) return null;
    const ref = typeof node['$ref'] === 'string' ? node['$ref'] : isPlainObject(node['items']) && typeof node['items']['$ref'] === 'string' ? node['items']['$ref'] : null;
    return ref && !ref.includes('#') ? new URL(ref, doc.$id).toString().slice(SCHEMA_BASE.length) : null;
  };
  for (const [key, node] of Object.entries(doc.properties ?? {})) {
    const ref = refOf(node);
    if (ref) out.push({ schemaId: ref, objects: objectsAt(body, [key], at) });
    else if (key === 'meta' && isPlainObject(node) && isPlainObject(node['properties'])) {
      for (const [metaKey, metaNode] of Object.entries(node['properties'])) {
        const metaRef = refOf(metaNode);
        if (metaRef) out.push({ schemaId: metaRef, objects: objectsAt(body, ['meta', metaKey], at) });
      }
    }
  }
  return out;
}

/**
 * LINK-2.b: the id array of embed_ids=<name> may be keyed <name> or <name>_id rather than
 * <name>_ids, so under such a request an array of integer ids there is the link's, not the
 * resource's field of that name (a Product's shop object, its shop_id).
 */
function isEmbedIdsArray(violation: Violation, query: URLSearchParams | undefined, body: unknown): boolean {
  if (!query) return false;
  const names = [...query.getAll('embed_ids'), ...query.getAll('embed_ids[]')].flatMap((x) => x.split(',')).map((x) => x.trim());
  const key = violation.pointer.split('/').pop() ?? '';
  if (!names.some((name) => name !== '' && (key === name || key === `${name}_id`))) return false;
  const value = valueAt(body, violation.pointer);
  return Array.isArray(value) && value.every((id) => Number.isInteger(id));
}

/** The body as schemas/endpoints.json documents it for the endpoint, status and version, with the conditional presence rules. */
function documentedBody(v: ExchangeView): RuleOutcome {
  if (v.text === undefined) return skip(v.textNote);
  // A redirect's body is not the resource's: the client follows Location (General rules 4), and
  // the redirect rules judge it.
  if (REDIRECT_STATUSES.has(v.exchange.status!)) return skip(`a ${v.exchange.status} redirect: its body is not the resource's`);
  // The spec's example of a missing record: the error-body rule warns about it (ERR-16), once.
  if (isEmptyArrayNotFound(v.exchange.status, v.body)) return skip(EMPTY_ARRAY_NOT_FOUND);
  const registry = SchemaRegistry.shared();
  const status = v.exchange.status!;
  const documented = registry.requirementsFor(v.endpoint!, status);
  const ids = documented.length ? documented : status >= 400 ? ['ERR-2'] : ['GEN-7'];
  const verdict = registry.validateExchange(v.endpoint!, status, v.text, v.scope, { query: v.query, token: v.token });
  // Sparse fieldsets leave documented fields out on purpose: an absent field is not judged then
  // (which fields stay is the fieldsets suite's, live).
  const judged = asksFieldsets(v.query) ? withoutAbsence(verdict.violations) : verdict.violations;
  const violations = judged.filter((violation) => !isEmbedIdsArray(violation, v.query, v.body));
  return outcome(violationFindings(verdict.schema ?? `${v.endpoint} ${status}`, violations, where(v), ids, v.scope.citedRule()));
}

/** Fields a later version than the one served added: each only warns (an addition may reach an earlier version, Versioning 1). */
function laterFields(v: ExchangeView): RuleOutcome {
  const schema = SchemaRegistry.shared().bodySchema(v.endpoint!, v.exchange.status!);
  if (!schema) return PASSED;
  const asked = `version=${v.scope.asked}`;
  const findings: RuleFinding[] = [];
  for (const { schemaId, objects } of resourcesOf(schema, v.body, where(v))) {
    // Absence is what is judged here: presence is the schema's (required from its version on).
    const fields = versionedFieldsOf(schemaId).map((f) => ({ ...f, required: false }));
    for (const since of sinceVersions(fields)) {
      const result = fieldsMatchVersion(
        objects,
        fields.filter((f) => f.since === since),
        { asked, scope: v.scope },
        'absent',
      );
      const row = changeRow(since)?.requirement;
      if (!result.ok) findings.push({ severity: 'WARN', requirements: [v.scope.rule, ...(row ? [row] : [])], message: result.message });
    }
  }
  return outcome(findings);
}

/**
 * ERR-2 on a 4xx/5xx: the {errors} format, save the rate limit's 403 {message}. A 404 with an
 * empty array, the spec's example of a missing category, is judged apart (ERR-16, a warning: see
 * isEmptyArrayNotFound).
 */
export function errorBodyOf(exchange: Exchange, body: unknown, text: string): CheckResult {
  const at = `${exchange.method} ${exchange.url} answered ${exchange.status}`;
  if (body === undefined) return fail(`${at} with a body that is not JSON: expected {errors: [{code, messages}]}${text ? '' : ' (it is empty)'}`);
  if (exchange.status === 403 && isPlainObject(body) && typeof body['message'] === 'string') return pass();
  const result = errorBodyIsWellFormed(body);
  return result.ok ? result : fail(`${at}: ${result.message}`);
}

export const DOCUMENTED_BODY: ExchangeRule = {
  id: 'documented-body',
  clauses: [
    'CAT-4#1-9',
    'CAT-5#1',
    'CAT-6#1',
    'CAT-8#1-2',
    'CAT-9#1-2',
    'CAT-10#1-2',
    'CAT-12#1-8',
    'CAT-14#1-2',
    'RATE-8#2',
    'PAG-1#1-3',
    'GEN-7#1-2',
    'GEN-8#1',
    'GEN-9#1',
    'ERR-2#1-3',
    'ERR-7#1-2',
    'HIST-1#1',
    'SKU-2#1-20',
    'SKU-3#1',
    'SKU-4#1',
    'SKU-5#1',
    'SKU-6#1-4',
    'SKU-7#1',
    'SKU-9#1',
    'PRD-2#1-11',
    'PRD-3#1',
    'PRD-4#1',
    'PRD-5#1-4',
    'PRD-7#1-2',
    'PRD-8#1-2',
    'PRD-9#1-5',
    'PRD-10#1-6',
    'MAN-1#1-4',
    'SPEC-1#1-2',
    'SPEC-2#1-2',
    'SPEC-3#1',
    'SPEC-4#1',
    'SPEC-5#1',
    'HIST-2#1-4',
    'SHOP-1#1-6',
    'SHOP-3#1',
    'SHOP-4#1-3',
    'SHOP-5#1-6',
    'SHOP-7#1-3',
    'SHOP-8#1-8',
    'SHOP-10#1-5',
    'SHOP-11#1-7',
    'SHOP-12#1',
    'SHOP-13#1-2',
    'FILT-1#1-9',
    'FILT-2#1',
    'SRCH-2#1',
    'SRCH-3#1',
    'SRCH-5#1-3',
    'SRCH-5#5',
    'SRCH-6#1-2',
    'SRCH-6#4-5',
    'FILT-3#1-2',
    'FILT-3#6',
    'FILT-5#1-4',
    'SRCH-7#1-3',
    'REV-2#1-7',
    'REV-3#1-2',
    'REV-4#1-2',
    'REV-5#2',
    'REV-6#1-5',
    'REV-7#1-4',
    'REV-8#1-2',
    'REV-9#1',
    'REV-9#3-4',
    'REV-10#1',
    'REV-11#1-5',
    'REV-12#1-6',
    'REV-14#1',
    'PERS-1#1-7',
    'NOTIF-1#1-13',
    'NOTIF-2#1-2',
    'NOTIF-3#1',
    'NOTIF-4#1',
    'NOTIF-5#1-2',
    'FAV-1#1-4',
    'FAV-3#1',
    'FAV-7#1-9',
    'USER-2#1-15',
    'USER-4#1',
    'USER-5#1',
    'USER-6#1-2',
    'USER-7#1-4',
    'USER-9#1-5',
    'USER-10#1-3',
    'USER-11#1-10',
    'EVT-2#1',
    'EVT-10#1-2',
    'EVT-11#1',
    'EVT-12#1-2',
    'CHG-1#9-10',
    'CHG-2#7-9',
    'CHG-2#12',
    'CHG-2#16',
    'CHG-3#1-2',
    'CHG-4#1',
    'CHG-5#3-4',
    'CHG-6#2',
    'CHG-6#4',
    'CHG-7#2-3',
    'CHG-7#5',
    'CHG-7#7',
    'CHG-7#9-12',
    'CHG-10#1',
    'CHG-11#1',
    'CHG-12#1',
    'CHG-13#2',
    'CHG-14#1',
    'CHG-16#1',
    'CHG-17#1',
    'CHG-18#1',
    'CHG-20#1-3',
    'CHG-21#1',
    'CHG-23#1',
    'CHG-25#1',
    'CHG-27#1',
    'CHG-30#2',
  ],
  title: 'the body is as the spec documents it for the endpoint, status and version (fields, types, blank fields null, fields shown under a condition where it holds)',
  requirements: ['GEN-7', 'GEN-8'],
  readings: ['GEN-7.a-e', 'GEN-8.a-h'],
  // And every statement the schemas encode: a violation cites its node's ids (violationRequirements).
  cites: schemaRequirements,
  severity: 'MUST',
  titleFor: (v) =>
    `body as documented for ${v.endpoint} ${v.exchange.status} (${v.scope.describe()}${asksFieldsets(v.query) ? '; fields left out by the sparse fieldsets asked not required' : ''})`,
  applies: (v) => v.isApi && v.endpoint !== null && v.exchange.method !== 'HEAD',
  check: documentedBody,
};

export const JSON_CONTENT_TYPE: ExchangeRule = {
  id: 'json-content-type',
  clauses: ['GEN-1#1', 'GEN-4#1-2'],
  title: 'a JSON body comes with a JSON Content-Type',
  // "a JSON API" (GEN-1) and "all data is sent and received as JSON" (GEN-4).
  requirements: ['GEN-4', 'GEN-1'],
  readings: ['GEN-4.a-f', 'GEN-1.a-e'],
  severity: 'MUST',
  applies: (v) => v.isApi && v.text !== undefined && v.text.trim() !== '' && v.exchange.status !== 304 && (v.exchange.status! < 300 || v.exchange.status! >= 400),
  check: (v) => checkOutcome(bodyIsJson({ status: v.exchange.status!, headers: v.exchange.responseHeaders, text: v.text! }), ['GEN-4', 'GEN-1'], 'MUST'),
};

export const NO_LATER_FIELDS: ExchangeRule = {
  id: 'no-later-fields',
  title: 'no field newer than the version asked (an addition of a later version only warns)',
  requirements: ['VER-9'],
  readings: ['VER-9.a-b'],
  severity: 'WARN',
  titleFor: (v) => `no field newer than the version asked (version=${v.scope.asked})`,
  applies: (v) => v.isApi && v.endpoint !== null && v.exchange.status! >= 200 && v.exchange.status! < 300 && v.scope.asked !== null && v.body !== undefined,
  check: laterFields,
};

export const ERROR_BODY: ExchangeRule = {
  id: 'error-body',
  clauses: ['ERR-2#1-3'],
  title: 'every 4xx and 5xx answer of the API has the body {errors: [{code, messages}]} (403 {message} for the rate limit)',
  requirements: ['ERR-2'],
  readings: ['ERR-2.a-h'],
  severity: 'MUST',
  applies: (v) => v.isApi && v.exchange.status! >= 400 && v.exchange.method !== 'HEAD' && v.scope.has('normalized-errors'),
  check: (v) => {
    if (v.text === undefined) return skip(v.textNote);
    if (isEmptyArrayNotFound(v.exchange.status, v.body)) return outcome([{ severity: 'WARN', requirements: ['ERR-16'], message: `${where(v)}: ${EMPTY_ARRAY_NOT_FOUND}` }]);
    return checkOutcome(errorBodyOf(v.exchange, v.body, v.text), ['ERR-2'], 'MUST');
  },
};

export const NOT_MODIFIED_NO_BODY: ExchangeRule = {
  id: 'not-modified-no-body',
  title: '304 Not Modified has no body',
  requirements: ['ERR-3'],
  readings: ['ERR-3.a-h'],
  severity: 'MUST',
  applies: (v) => v.isApi && v.exchange.status === 304,
  check: (v) =>
    v.text === undefined ? skip(v.textNote) : checkOutcome(notModifiedHasNoBody({ status: 304, headers: v.exchange.responseHeaders, text: v.text }, where(v)), ['ERR-3'], 'MUST'),
};
