// Judges one recorded exchange (a HAR entry) passively with the kit's own rules: the body against
// schemas/endpoints.json for its status and the version the request asked for, the rules observed
// on every exchange (src/checks/observed-rules.ts), the pagination checks and 304 without body.
// Every rule is the live suites' function; this module only picks the rules that apply, the
// requirement ids and the severities, and turns their results into TestRecords.
import type { CheckResult } from '../checks/check.ts';
import { isPlainObject } from '../checks/check.ts';
import { notModifiedHasNoBody } from '../checks/caching.ts';
import { OBSERVED_RULES, type ObservationScope } from '../checks/observed-rules.ts';
import { nextAndLastLinksWhileMorePages, paginationIsConsistent, paginationMetaIsWellFormed, readPagination } from '../checks/pagination.ts';
import type { Finding } from '../harness/run-context.ts';
import { recordExchange, type Exchange } from '../http/exchange.ts';
import { redactBodyText, redactUrl, secrets } from '../http/redact.ts';
import { slug, type Status, type TestRecord } from '../report/results.ts';
import { formatViolation, SchemaRegistry, type Violation } from '../schemas/validator.ts';
import type { HarExchange } from './read.ts';

export interface JudgeOptions {
  /** Path prefix of the API on its host, e.g. "/api"; default "" (the API at the root). */
  basePath?: string;
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

let latest: string | undefined;

/** The latest major.minor the schemas know (the highest x-since), what a request without version gets. */
export function latestSchemaVersion(): string {
  if (latest) return latest;
  const registry = SchemaRegistry.shared();
  const found: number[][] = [[3, 0]];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isPlainObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'x-since' && isPlainObject(value)) {
          for (const v of Object.values(value)) if (typeof v === 'string') found.push(v.split('.').map(Number));
        } else walk(value);
      }
    }
  };
  for (const id of registry.ids()) walk(registry.doc(id));
  found.sort((a, b) => (a[0]! - b[0]!) || ((a[1] ?? 0) - (b[1] ?? 0)));
  const top = found[found.length - 1]!;
  return (latest = `${top[0]}.${top[1] ?? 0}`);
}

/** The version= parameter of the Accept header, or the latest the schemas know. */
export function requestedVersion(headers: Record<string, string>): string {
  const accept = Object.entries(headers).find(([name]) => name.toLowerCase() === 'accept')?.[1] ?? '';
  return /(?:^|;)\s*version\s*=\s*"?(\d+(?:\.\d+)*)/i.exec(accept)?.[1]?.split('.').slice(0, 2).join('.') ?? latestSchemaVersion();
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

/** As ConformanceContext#violations: null where the schema types non-null warns (GEN-8), the rest is MUST (GEN-8 too when a field is absent). */
function fromViolations(schemaId: string, violations: Violation[], where: string, requirements: string[]): Verdict {
  const hard = violations.filter((v) => !v.nullValue);
  const nulls = violations.filter((v) => v.nullValue);
  const finding = (vs: Violation[], ids: string[], severity: 'MUST' | 'WARN', prefix = ''): Finding => {
    const lines = vs.map((v) => secrets.scrub(formatViolation(v, where)));
    const more = vs.length > 1 ? `; ${vs.length - 1} more in the report` : '';
    const f: Finding = { requirements: ids, severity, message: `${prefix}${lines[0]} (${schemaId}${more})`, exchange: 0 };
    if (vs.length > 1) f.details = lines;
    return f;
  };
  const warnings = nulls.length ? [finding(nulls, [...requirements, 'GEN-8'], 'WARN', 'null where the spec gives a non-null type: ')] : [];
  const failures = hard.length ? [finding(hard, hard.some((v) => v.absent) ? [...requirements, 'GEN-8'] : requirements, 'MUST')] : [];
  const lines = (fs: Finding[]) => fs.map((f) => `[${f.requirements.join(', ')}] ${f.message}`).join('\n');
  if (failures.length) return { status: 'failed', message: lines(failures), failures, warnings };
  if (warnings.length) return { status: 'warned', message: lines(warnings), failures, warnings };
  return { status: 'passed', message: '', failures, warnings };
}

/** The collection array of a paginated body: its one top-level array (besides meta); null when not exactly one. */
function collectionItems(body: Record<string, unknown>): unknown[] | null {
  const arrays = Object.entries(body).filter(([key, value]) => key !== 'meta' && Array.isArray(value));
  return arrays.length === 1 ? (arrays[0]![1] as unknown[]) : null;
}

function positiveInt(value: string | null): number | undefined {
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** Every record one HAR entry gives: one per rule that applies, or one skipped record. */
export function judgeExchange(h: HarExchange, options: JudgeOptions): TestRecord[] {
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
    add(null, [], 'MUST', skipped(`not an API v3 exchange: ${url}`));
    return records;
  }
  const version = requestedVersion(h.requestHeaders);
  const where = `${h.method} ${apiPath}`;
  const notRecorded = skipped('body not recorded');

  // 1. The body by status, for the version asked.
  const schemaIds = h.status >= 400 ? ['ERR-2'] : ['GEN-7'];
  if (h.body === undefined) {
    add(`body as documented for ${endpoint} ${h.status} (version ${version})`, schemaIds, 'MUST', notRecorded);
  } else {
    const verdict = SchemaRegistry.shared().validateExchange(endpoint, h.status, h.body, version);
    add(
      `body as documented for ${endpoint} ${h.status} (version ${version})`,
      schemaIds,
      'MUST',
      fromViolations(verdict.schema ?? `${endpoint} ${h.status}`, verdict.violations, where, schemaIds),
    );
  }

  // 2. The rules every answer of the API obeys.
  let origin: string;
  try {
    origin = new URL(h.url).origin;
  } catch {
    origin = '';
  }
  const scope: ObservationScope = { baseUrl: `${origin}${(options.basePath ?? '').replace(/\/+$/, '')}`, apiVersion: version };
  const checked: Exchange = { ...recorded, responseBody: h.body === undefined ? '' : redactBodyText(h.body) };
  const nowMs = h.startedMs + h.timeMs;
  for (const rule of OBSERVED_RULES) {
    if (!rule.applies(checked, scope)) continue;
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
        'meta.pagination agrees with itself, the request and the items',
        ['PAG-1'],
        'MUST',
        items === null ? skipped('the body has no single collection array to count') : fromCheck(paginationIsConsistent(p, items.length, asked), ['PAG-1']),
      );
      add('a Link header with rel=next and rel=last while other pages exist', ['PAG-5'], 'MUST', fromCheck(nextAndLastLinksWhileMorePages(recorded.responseHeaders, p), ['PAG-5']));
    }
  }

  // 4. 304 without a body.
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
