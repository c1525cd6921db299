// Judges one recorded exchange (a HAR entry) passively with the kit's own rules: the body against
// schemas/endpoints.json for its status and the version the request asked for, the rules observed
// on every exchange (src/checks/observed-rules.ts), the pagination checks and 304 without body.
// Every rule is the live suites' function; this module only picks the rules that apply, the
// requirement ids and the severities, and turns their results into TestRecords.
import type { CheckResult } from '../checks/check.ts';
import { allOf, fail, isPlainObject, pass } from '../checks/check.ts';
import { isRateLimitStatus, notModifiedHasNoBody } from '../checks/caching.ts';
import { bodyIsJson } from '../checks/http.ts';
import { violationRequirements } from '../schemas/cited-requirements.ts';
import { fieldsMatchVersion, objectsAt, sinceVersions, type Located } from '../checks/versioning.ts';
import { changeRow, newestVersion } from '../rules/change-history.ts';
import { VersionScope } from '../rules/version-scope.ts';
import { namesMediaType, SPEC_MEDIA_TYPE } from '../rules/media-type.ts';
import { versionedFieldsOf } from '../schemas/versioned-fields.ts';
import { requirements as catalogue } from '../requirements/catalogue.ts';
import { OBSERVED_RULES, type ObservationScope } from '../checks/observed-rules.ts';
import { hasNoMatchCount, isRootCategory } from '../checks/categories.ts';
import { groupsIncluded, historyWithinSixMonths, reviewScoreRounded, specificationsNotPaginated } from '../checks/products.ts';
import { cachedPrivatelyFor300 } from '../checks/listings.ts';
import { defaultPageSizeIs25, linkTargets, nextAndLastLinksWhileMorePages, pageIsTheOneAsked, pagesAndItemsAgree, perIsTheOneAsked, paginationMetaIsWellFormed, queryDroppedBy, readPagination } from '../checks/pagination.ts';
import type { Finding } from '../harness/run-context.ts';
import { recordExchange, type Exchange } from '../http/exchange.ts';
import { redactBodyText, redactUrl, secrets } from '../http/redact.ts';
import { slug, type Status, type TestRecord } from '../report/results.ts';
import { formatViolation, SCHEMA_BASE, SchemaRegistry, type Violation } from '../schemas/validator.ts';
import type { HarExchange } from './read.ts';

export interface JudgeOptions {
  /** Path prefix of the API on its host, e.g. "/api"; default "" (the API at the root). */
  basePath?: string;
  /** The patch level the deployment implements (CATALOGUE_IMPLEMENTS, --implements); default the newest of the Change history. */
  implements?: string;
  /** Suite name of the records (the HAR file's name). */
  suite: string;
}

// ---------------------------------------------------------------------------------------------
// Which endpoint, which version

interface Template {
  endpoint: string;
  method: string;
  segments: string[];
}

let templates: Template[] | undefined;

function endpointTemplates(): Template[] {
  return (templates ??= Object.keys(SchemaRegistry.shared().endpointIndex().endpoints).map((endpoint) => {
    const [method = '', path = ''] = endpoint.split(' ');
    return { endpoint, method, segments: path.split('/').filter(Boolean) };
  }));
}

/** The endpoint of schemas/endpoints.json ("GET /skus/:id") a method and API path match; literal segments win over :params. */
export function matchEndpoint(method: string, apiPath: string): string | null {
  const segments = apiPath.split('/').filter(Boolean);
  let best: { endpoint: string; literals: number } | null = null;
  for (const t of endpointTemplates()) {
    if (t.method !== method || t.segments.length !== segments.length) continue;
    let literals = 0;
    const fits = t.segments.every((s, i) => {
      if (s.startsWith(':')) return segments[i] !== '';
      literals++;
      return s === segments[i];
    });
    if (fits && (!best || literals > best.literals)) best = { endpoint: t.endpoint, literals };
  }
  return best?.endpoint ?? null;
}

/** The authorization server's endpoint ("POST {auth_url}/oauth2/token") whose path the URL's path ends with, or null. */
export function matchAuthEndpoint(method: string, url: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return null;
  }
  for (const endpoint of Object.keys(SchemaRegistry.shared().endpointIndex().auth)) {
    const [m = '', path = ''] = endpoint.split(' ');
    if (m === method && path.startsWith('{auth_url}/') && pathname.endsWith(path.slice('{auth_url}'.length))) return endpoint;
  }
  return null;
}

/** The path below the base path, or null when the URL is not under it. */
export function apiPathOf(url: string, basePath = ''): string | null {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return null;
  }
  const prefix = basePath.replace(/\/+$/, '');
  if (prefix === '') return pathname;
  if (pathname === prefix) return '/';
  return pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : null;
}

/** The Accept header's version parameter as sent (major, major.minor or with a patch), or null when there is none. */
export function askedVersion(headers: Record<string, string>): string | null {
  const accept = Object.entries(headers).find(([name]) => name.toLowerCase() === 'accept')?.[1] ?? '';
  return /(?:^|;)\s*version\s*=\s*"?(\d+(?:\.\d+)*)/i.exec(accept)?.[1] ?? null;
}

/** The version an entry was served: what it asked, at the deployment's patch level, bounded by the time of the recording. */
export function entryScope(h: HarExchange, options: JudgeOptions): VersionScope {
  return new VersionScope({ asked: askedVersion(h.requestHeaders), implements: options.implements ?? newestVersion(), recordedAt: Number.isNaN(h.startedMs) ? null : h.startedMs });
}

// ---------------------------------------------------------------------------------------------
// Secrets: every token the HAR carries is registered before anything is recorded

const SECRET_FIELDS = /"(access_token|refresh_token|client_secret|oauth_token|id_token|password)"\s*:\s*"([^"]+)"/g;
const SECRET_PARAMS = /(?:^|[?&])(access_token|refresh_token|client_secret|oauth_token|code|password)=([^&#\s]+)/g;

function learnSecretsIn(text: string | undefined): void {
  if (!text) return;
  for (const m of text.matchAll(SECRET_FIELDS)) secrets.add(m[2]);
  for (const m of text.matchAll(SECRET_PARAMS)) {
    secrets.add(m[2]);
    try {
      secrets.add(decodeURIComponent(m[2]!));
    } catch {
      // not percent-encoded text: the raw value is registered
    }
  }
}

/** Adds the HAR entry's tokens (Authorization, oauth_token and the like in URLs and bodies) to the redaction registry. */
export function learnSecrets(h: HarExchange): void {
  for (const [name, value] of Object.entries(h.requestHeaders)) {
    if (name === 'authorization' || name === 'proxy-authorization') secrets.add(value.replace(/^\w+\s+/, ''));
    if (name === 'cookie') secrets.add(value);
  }
  learnSecretsIn(h.url);
  learnSecretsIn(h.requestBody);
  learnSecretsIn(h.body);
}

// ---------------------------------------------------------------------------------------------
// Fields of later versions

/** The resource objects of a response body, with the schema of each: the top-level keys (and meta) whose schema refers to a whole document. */
function resourcesOf(responseSchema: string, body: unknown, where: string): { schemaId: string; objects: Located[] }[] {
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
    if (ref) out.push({ schemaId: ref, objects: objectsAt(body, [key], where) });
    else if (key === 'meta' && isPlainObject(node) && isPlainObject(node['properties'])) {
      for (const [metaKey, metaNode] of Object.entries(node['properties'])) {
        const metaRef = refOf(metaNode);
        if (metaRef) out.push({ schemaId: metaRef, objects: objectsAt(body, ['meta', metaKey], where) });
      }
    }
  }
  return out;
}

/**
 * Fields a later version than the one served added (the schemas' x-since): WARN, one finding per
 * Change history row. A request without version asks for the latest: nothing is too new then.
 */
function laterFields(responseSchema: string, body: unknown, scope: VersionScope, asked: string, where: string): { result: CheckResult; ids: string[] }[] {
  const out: { result: CheckResult; ids: string[] }[] = [];
  for (const { schemaId, objects } of resourcesOf(responseSchema, body, where)) {
    // Absence is what is judged here: presence is the schema's (required from its version on).
    const fields = versionedFieldsOf(schemaId).map((f) => ({ ...f, required: false }));
    for (const since of sinceVersions(fields)) {
      const result = fieldsMatchVersion(objects, fields.filter((f) => f.since === since), { asked, scope });
      const row = changeRow(since)?.requirement;
      if (!result.ok) out.push({ result, ids: [scope.rule, ...(row ? [row] : [])] });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Records

interface Verdict {
  status: Status;
  message: string;
  failures: Finding[];
  warnings: Finding[];
}

const skipped = (reason: string): Verdict => ({ status: 'skipped', message: reason, failures: [], warnings: [] });

function fromCheck(result: CheckResult, requirements: string[], severity: 'MUST' | 'WARN' = 'MUST'): Verdict {
  if (result.ok) return { status: 'passed', message: '', failures: [], warnings: [] };
  const finding: Finding = { requirements, severity, message: secrets.scrub(result.message), exchange: 0 };
  return severity === 'MUST'
    ? { status: 'failed', message: `[${requirements.join(', ')}] ${finding.message}`, failures: [finding], warnings: [] }
    : { status: 'warned', message: `[${requirements.join(', ')}] ${finding.message}`, failures: [], warnings: [finding] };
}

/**
 * As ConformanceContext#violations: null where the schema types non-null warns (GEN-8), the rest is
 * MUST (GEN-8 too when a field is absent). Each finding cites `requirements` and what its
 * violations' schema parts name (violationRequirements); an absent field of a later version also
 * the Versioning rule that chose the version (`versionRule`).
 */
function fromViolations(schemaId: string, violations: Violation[], where: string, requirements: string[], versionRule?: string): Verdict {
  const hard = violations.filter((v) => !v.nullValue);
  const nulls = violations.filter((v) => v.nullValue);
  const cited = (vs: Violation[], extra: string[]): string[] => [
    ...new Set([...requirements, ...violationRequirements(vs), ...(versionRule && vs.some((v) => v.since) ? [versionRule] : []), ...extra]),
  ];
  const finding = (vs: Violation[], ids: string[], severity: 'MUST' | 'WARN', prefix = ''): Finding => {
    const lines = vs.map((v) => secrets.scrub(formatViolation(v, where)));
    const more = vs.length > 1 ? `; ${vs.length - 1} more in the report` : '';
    const f: Finding = { requirements: ids, severity, message: `${prefix}${lines[0]} (${schemaId}${more})`, exchange: 0 };
    if (vs.length > 1) f.details = lines;
    return f;
  };
  const warnings = nulls.length ? [finding(nulls, cited(nulls, ['GEN-8']), 'WARN', 'null where the spec gives a non-null type: ')] : [];
  const failures = hard.length ? [finding(hard, cited(hard, hard.some((v) => v.absent) ? ['GEN-8'] : []), 'MUST')] : [];
  const lines = (fs: Finding[]) => fs.map((f) => `[${f.requirements.join(', ')}] ${f.message}`).join('\n');
  if (failures.length) return { status: 'failed', message: lines(failures), failures, warnings };
  if (warnings.length) return { status: 'warned', message: lines(warnings), failures, warnings };
  return { status: 'passed', message: '', failures, warnings };
}

/** The violations left when absent fields are allowed: no absent field, and no failed choice of alternatives that only absent fields explain. */
function withoutAbsence(violations: readonly Violation[]): Violation[] {
  const explains = (v: Violation, o: Violation) => o !== v && (o.pointer === v.pointer || o.pointer.startsWith(`${v.pointer === '/' ? '' : v.pointer}/`));
  return violations.filter((v) => !v.absent && !(v.alternatives && !violations.some((o) => explains(v, o) && !o.absent && !o.alternatives)));
}

/** Whether the request asked for sparse fieldsets (General conventions 7). */
function hasFieldsets(url: string): boolean {
  try {
    return [...new URL(url).searchParams.keys()].some((k) => /^fields(_except)?\[/.test(k));
  } catch {
    return false;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The collection array of a paginated body: its one top-level array (besides meta); null when not exactly one. */
function collectionItems(body: Record<string, unknown>): unknown[] | null {
  const arrays = Object.entries(body).filter(([key, value]) => key !== 'meta' && Array.isArray(value));
  return arrays.length === 1 ? (arrays[0]![1] as unknown[]) : null;
}

function positiveInt(value: string | null): number | undefined {
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** Whether an entry shows itself as the API's: the API's media type asked or answered, or the rate-limit headers every answer carries. */
export function speaksApi(h: HarExchange, mediaType: string = SPEC_MEDIA_TYPE): boolean {
  return namesMediaType(h.requestHeaders['accept'], mediaType) || namesMediaType(h.responseHeaders['content-type'], mediaType) || 'x-ratelimit-limit' in h.responseHeaders;
}

/** The one record of an entry that is not judged, with the reason. */
export function skippedExchange(h: HarExchange, options: JudgeOptions, reason: string): TestRecord {
  learnSecrets(h);
  const url = redactUrl(h.url);
  return {
    id: `${options.suite}/${slug(`${h.index} exchange`)}`,
    title: `#${h.index} ${h.method} ${url}`,
    suite: options.suite,
    requirements: [],
    severity: 'MUST',
    profile: 'read',
    status: 'skipped',
    message: secrets.scrub(reason),
    failures: [],
    warnings: [],
    exchanges: [],
    omittedExchanges: 0,
    requests: 0,
    durationMs: 0,
  };
}

/** Every record one HAR entry gives: one per rule that applies, or one skipped record. */
export function judgeExchange(h: HarExchange, options: JudgeOptions): TestRecord[] {
  const records = judgeEntry(h, options);
  // Reports show the exchange of a failed or warned record only: the others need not keep the body.
  for (const r of records) if (r.status === 'passed' || r.status === 'skipped') r.exchanges = [];
  return records;
}

function judgeEntry(h: HarExchange, options: JudgeOptions): TestRecord[] {
  learnSecrets(h);
  const url = redactUrl(h.url);
  const name = `#${h.index} ${h.method} ${url}`;
  const recorded: Exchange = recordExchange({
    method: h.method,
    url: h.url,
    requestHeaders: h.requestHeaders,
    ...(h.requestBody !== undefined ? { requestBody: h.requestBody } : {}),
    status: h.status,
    responseHeaders: h.responseHeaders,
    ...(h.body !== undefined ? { responseBody: h.body } : {}),
    durationMs: h.timeMs,
  });
  const records: TestRecord[] = [];
  const add = (rule: string | null, requirements: string[], severity: 'MUST' | 'WARN', verdict: Verdict): void => {
    const title = rule ? `${name} > ${rule}` : name;
    records.push({
      id: `${options.suite}/${slug(`${h.index} ${rule ?? 'exchange'}`)}`,
      title,
      suite: options.suite,
      requirements,
      severity,
      profile: 'read',
      status: verdict.status,
      message: verdict.message,
      failures: verdict.failures,
      warnings: verdict.warnings,
      exchanges: [recorded],
      omittedExchanges: 0,
      requests: 0,
      durationMs: 0,
    });
  };

  const apiPath = apiPathOf(h.url, options.basePath);
  const endpoint = apiPath === null ? null : matchEndpoint(h.method, apiPath);
  if (apiPath === null || endpoint === null) {
    // The authorization server's endpoints (any origin, any path prefix): their bodies only, as the
    // live run judges them (the API's rules, such as the rate-limit headers, are not stated for them).
    const auth = matchAuthEndpoint(h.method, h.url);
    if (auth !== 'POST {auth_url}/oauth2/token') return [skippedExchange(h, options, auth ? `the authorization step is judged live (its redirect and consent): ${url}` : `not an API v3 exchange: ${url}`)];
    const grant = new URLSearchParams(h.requestBody ?? '').get('grant_type') ?? (parseJson(h.requestBody ?? '') as { grant_type?: unknown } | undefined)?.grant_type;
    // The refresh response's shape is not specified (AUTH-24): only the two documented grants are judged.
    const ids = grant === 'client_credentials' ? ['AUTH-7'] : grant === 'authorization_code' ? ['AUTH-19'] : null;
    if (ids === null) return [skippedExchange(h, options, `a token request with grant_type ${String(grant ?? '(none recorded)')}: its answer's shape is not specified`)];
    const rule = `token response as documented for grant_type=${String(grant)}`;
    if (h.body === undefined) add(rule, ids, 'MUST', skipped(h.bodyNote ?? 'body not recorded'));
    else {
      const verdict = SchemaRegistry.shared().validateExchange(auth, h.status, h.body, entryScope(h, options));
      add(rule, ids, 'MUST', fromViolations(verdict.schema ?? `${auth} ${h.status}`, verdict.violations, `${h.method} ${new URL(h.url).pathname}`, ids));
    }
    return records;
  }
  const scope = entryScope(h, options);
  const asked = scope.asked === null ? 'no version parameter' : `version=${scope.asked}`;
  const version = scope.describe();
  const where = `${h.method} ${apiPath}`;
  const notRecorded = skipped(h.bodyNote ?? 'body not recorded');

  // 1. The body by status, for the version asked.
  // Cited: the endpoint's row for the status (the Errors rows for the defaults), and what the broken schema parts name.
  const documented = SchemaRegistry.shared().requirementsFor(endpoint, h.status);
  const schemaIds = documented.length ? documented : h.status >= 400 ? ['ERR-2'] : ['GEN-7'];
  if (h.body === undefined) {
    add(`body as documented for ${endpoint} ${h.status} (version ${version})`, schemaIds, 'MUST', notRecorded);
  } else {
    const verdict = SchemaRegistry.shared().validateExchange(endpoint, h.status, h.body, scope);
    // Sparse fieldsets (fields[...], fields_except[...]) leave documented fields out on purpose:
    // an absent field is not judged then (which fields stay is the fieldsets suite's, live).
    const trimmed = hasFieldsets(h.url);
    const violations = trimmed ? withoutAbsence(verdict.violations) : verdict.violations;
    add(
      `body as documented for ${endpoint} ${h.status} (version ${version}${trimmed ? '; fields left out by the sparse fieldsets asked not required' : ''})`,
      schemaIds,
      'MUST',
      fromViolations(verdict.schema ?? `${endpoint} ${h.status}`, violations, where, schemaIds, scope.citedRule()),
    );
    // A JSON body comes with a JSON content type (documented empty bodies and redirects aside).
    if (h.body.trim() !== '' && h.status !== 304 && (h.status < 300 || h.status >= 400)) {
      add('a JSON body with a JSON Content-Type', ['GEN-4'], 'MUST', fromCheck(bodyIsJson({ status: h.status, headers: recorded.responseHeaders, text: h.body }), ['GEN-4']));
    }
    // Fields newer than the version asked: the spec does not say the answer must lack them, so WARN.
    const parsed = parseJson(h.body);
    if (verdict.schema && h.status >= 200 && h.status < 300 && scope.asked !== null && parsed !== undefined) {
      const found = laterFields(verdict.schema, parsed, scope, asked, where);
      const ids = found.length ? [...new Set(found.flatMap((f) => f.ids))] : [scope.rule];
      add(`no field newer than the version asked (${asked})`, ids, 'WARN', fromCheck(allOf(found.map((f) => f.result)), ids, 'WARN'));
    }
  }

  // 2. The rules every answer of the API obeys.
  let origin: string;
  try {
    origin = new URL(h.url).origin;
  } catch {
    origin = '';
  }
  const observation: ObservationScope = { baseUrl: `${origin}${(options.basePath ?? '').replace(/\/+$/, '')}`, version: scope };
  const checked: Exchange = { ...recorded, responseBody: h.body === undefined ? '' : redactBodyText(h.body) };
  const nowMs = h.startedMs + h.timeMs;
  for (const rule of OBSERVED_RULES) {
    if (!rule.applies(checked, observation)) continue;
    if (rule.id === 'error-body' && h.body === undefined) add(rule.title, rule.requirements, 'MUST', notRecorded);
    else if (rule.id === 'rate-limit-values' && Number.isNaN(nowMs)) add(rule.title, rule.requirements, 'MUST', skipped('no valid startedDateTime to judge X-RateLimit-Reset by'));
    else add(rule.title, rule.requirements, 'MUST', fromCheck(rule.check(checked, nowMs), rule.requirements));
  }

  // 3. Pagination: meta.pagination and the Link header.
  let body: unknown;
  try {
    body = h.body === undefined ? undefined : JSON.parse(h.body);
  } catch {
    body = undefined;
  }
  const meta = isPlainObject(body) ? body['meta'] : undefined;
  if (h.status === 200 && isPlainObject(body) && isPlainObject(meta) && meta['pagination'] !== undefined) {
    const p = readPagination(body);
    const items = collectionItems(body);
    if (!p) {
      add('meta.pagination is well formed', ['PAG-1'], 'MUST', fromCheck(paginationMetaIsWellFormed(body), ['PAG-1']));
    } else {
      const query = new URL(h.url).searchParams;
      const requested = { page: positiveInt(query.get('page')), per: positiveInt(query.get('per')) };
      const asked: { page?: number; per?: number } = {};
      if (requested.page !== undefined) asked.page = requested.page;
      if (requested.per !== undefined) asked.per = requested.per;
      add(
        'meta.pagination agrees with itself and the items',
        ['PAG-1'],
        'MUST',
        items === null ? skipped('the body has no single collection array to count') : fromCheck(pagesAndItemsAgree(p, items.length), ['PAG-1']),
      );
      add(`meta.pagination.page is the page asked (${asked.page ?? '1, the default'})`, ['PAG-3'], 'MUST', fromCheck(pageIsTheOneAsked(p, asked.page), ['PAG-3']));
      if (asked.per !== undefined) add(`meta.pagination.per is the per asked (${asked.per})`, ['PAG-4'], 'MUST', fromCheck(perIsTheOneAsked(p, asked.per), ['PAG-4']));
      add('a Link header with rel=next and rel=last while other pages exist', ['PAG-5'], 'MUST', fromCheck(nextAndLastLinksWhileMorePages(recorded.responseHeaders, p), ['PAG-5']));
      if (requested.per === undefined) add('25 items per page when no per is sent', ['PAG-2'], 'MUST', fromCheck(defaultPageSizeIs25(p), ['PAG-2']));
      // The Link URLs lead to pages of the same listing: a dropped per changes the pages (MUST);
      // another dropped parameter may change nothing, so it only warns.
      const targets = linkTargets(h.responseHeaders, h.url);
      if (targets?.size) {
        const dropped = [...targets].flatMap(([rel, target]) => queryDroppedBy(target, h.url).map((d) => `rel=${rel} lacks ${d}`));
        const perDropped = dropped.filter((d) => / lacks per=/.test(d));
        add('the Link URLs keep per', ['PAG-5'], 'MUST', fromCheck(perDropped.length ? fail(`the Link URLs do not carry the request's per: ${perDropped.join('; ')}`) : pass(), ['PAG-5']));
        const others = dropped.filter((d) => !perDropped.includes(d));
        if (others.length) add('the Link URLs keep the request\'s other parameters', ['PAG-5'], 'WARN', fromCheck(fail(`the Link URLs do not carry parameters of the request: ${others.join('; ')}`), ['PAG-5'], 'WARN'));
      }
    }
  }

  // 4. Rules of particular endpoints that one exchange shows.
  if (h.status === 200 && endpoint === 'GET /categories/:category_id/filter_groups') {
    add('Cache-Control: max-age=300, private', ['CAT-25'], 'MUST', fromCheck(cachedPrivatelyFor300(recorded.responseHeaders), ['CAT-25']));
  }
  if (h.status === 200 && endpoint !== 'GET /search' && isPlainObject(body)) {
    const categories = [...(isPlainObject(body['category']) ? [body['category']] : []), ...(Array.isArray(body['categories']) ? body['categories'].filter(isPlainObject) : [])];
    if (categories.length) add('no match_count on categories outside search', ['CAT-14'], 'MUST', fromCheck(allOf(categories.map(hasNoMatchCount)), ['CAT-14']));
  }

  if (h.status === 200 && isPlainObject(body)) {
    // What sparse fieldsets leave out is not judged here (the schema rule allows it; the fieldsets suite judges it live).
    const trimmed = hasFieldsets(h.url);
    if (endpoint === 'GET /categories/root' && isPlainObject(body['category']) && 'parent_id' in body['category']) {
      add('the root category has parent_id 0', ['CAT-18', 'CAT-6'], 'MUST', fromCheck(isRootCategory({ id: body['category']['id'], ...body['category'] }), ['CAT-18', 'CAT-6']));
    }
    if ((endpoint === 'GET /shops/:id' || endpoint === 'GET /shops/search') && scope.has('review-score-rounded')) {
      const shops = [...(isPlainObject(body['shop']) ? [body['shop']] : []), ...(Array.isArray(body['shops']) ? body['shops'].filter(isPlainObject) : [])];
      if (shops.length) add('review_score rounded to 1 decimal', ['SHOP-3', 'CHG-7'], 'MUST', fromCheck(allOf(shops.map(reviewScoreRounded)), ['SHOP-3', 'CHG-7']));
    }
    if (endpoint === 'GET /skus/:id/specifications') add('not paginated: no meta.pagination', ['SKU-14'], 'MUST', fromCheck(specificationsNotPaginated(body), ['SKU-14']));
    const include = new URL(h.url).searchParams.getAll('include').flatMap((v) => v.split(','));
    const specifications = Array.isArray(body['specifications']) ? body['specifications'] : [];
    if ((endpoint === 'GET /skus/:id/specifications' || endpoint === 'GET /categories/:id/specifications') && include.includes('group') && specifications.length && !trimmed) {
      add('include=group: a top-level groups array and a group_id on each specification', ['LINK-5', 'LINK-3'], 'MUST', fromCheck(groupsIncluded(body), ['LINK-5', 'LINK-3']));
    }
    const history = body['history'];
    if (endpoint === 'GET /skus/:id/price_history' && isPlainObject(history) && Array.isArray(history['average']) && !Number.isNaN(h.startedMs)) {
      // "The last 6 months" of the entry's own time (its startedDateTime), not of today.
      const points = history['average'].filter(isPlainObject);
      add('price history within the 6 months before the entry', ['HIST-3', 'HIST-6'], 'MUST', fromCheck(historyWithinSixMonths(points, new Date(h.startedMs)), ['HIST-3', 'HIST-6']));
    }
  }

  // 429 Too Many Requests is a rate-limit answer by its definition (RFC 6585): the spec's is 403.
  if (h.status === 429) add('over the rate limit the answer is 403', ['RATE-8', 'ERR-7'], 'MUST', fromCheck(isRateLimitStatus(h.status, where), ['RATE-8', 'ERR-7']));

  // 5. 304 without a body.
  if (h.status === 304) {
    add(
      '304 Not Modified has no body',
      ['ERR-3'],
      'MUST',
      h.body === undefined ? notRecorded : fromCheck(notModifiedHasNoBody({ status: h.status, headers: recorded.responseHeaders, text: h.body }, where), ['ERR-3']),
    );
  }
  return records;
}
