// Judges one recorded exchange (a HAR entry) passively with the kit's own rules: every rule of
// src/rules/exchange-rules.ts that applies (the body by endpoint, status and version, the content
// type, the error format, the rate-limit headers, pagination and Link, the rules of particular
// endpoints), as the live run judges its own exchanges, and the token endpoint's answers. This
// module only finds the entry's endpoint and version and turns the rules' findings into TestRecords.
import type { Finding } from '../results/model.ts';
import { recordExchange, type Exchange } from '../http/exchange.ts';
import { redactBodyText, redactUrl, secrets } from '../http/redact.ts';
import { slug, type Status, type TestRecord } from '../results/model.ts';
import { newestVersion } from '../rules/change-history.ts';
import { apiPathBelow, matchEndpoint } from '../rules/api-paths.ts';
import { askedVersion, EXCHANGE_RULES, judgeView, viewOf, type ExchangeView } from '../rules/exchange-rules.ts';
import { violationFindings, type ExchangeRule, type RuleFinding, type RuleOutcome } from '../rules/exchange-rule.ts';
import { namesMediaType, SPEC_MEDIA_TYPE } from '../rules/media-type.ts';
import { VersionScope } from '../rules/version-scope.ts';
import { SchemaRegistry } from '../schemas/validator.ts';
import type { HarExchange } from './read.ts';

/** The rules that judge exchanges outside the API too. */
const ANY_EXCHANGE_RULES = EXCHANGE_RULES.filter((r) => r.anyExchange);

export interface JudgeOptions {
  /** Path prefix of the API on its host, e.g. "/api"; default "" (the API at the root). */
  basePath?: string;
  /** The patch level the deployment implements (CATALOGUE_IMPLEMENTS, --implements); default the newest of the Change history. */
  implements?: string;
  /** The minor series the deployment serves (CATALOGUE_VERSIONS, --versions); absent: not known (VersionScope). */
  servedSeries?: readonly string[];
  /** Suite name of the records (the HAR file's name). */
  suite: string;
}

// ---------------------------------------------------------------------------------------------
// Which endpoint, which version

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
  try {
    return apiPathBelow(new URL(url).pathname, basePath);
  } catch {
    return null;
  }
}

/** The version an entry was served: what it asked, at the deployment's patch level, bounded by the time of the recording. */
export function entryScope(h: HarExchange, options: JudgeOptions): VersionScope {
  return new VersionScope({
    asked: askedVersion(h.requestHeaders),
    implements: options.implements ?? newestVersion(),
    recordedAt: Number.isNaN(h.startedMs) ? null : h.startedMs,
    servedSeries: options.servedSeries ?? 'unknown',
  });
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

/** A rule's outcome as a record's verdict. */
function verdictOf(outcome: RuleOutcome): Verdict {
  if (outcome.kind === 'passed') return { status: 'passed', message: '', failures: [], warnings: [] };
  if (outcome.kind === 'skipped') return skipped(outcome.reason);
  const toFinding = (f: RuleFinding): Finding => ({
    requirements: f.requirements,
    severity: f.severity,
    message: secrets.scrub(f.message),
    exchange: 0,
    ...(f.details ? { details: f.details.map((d) => secrets.scrub(d)) } : {}),
  });
  const failures = outcome.findings.filter((f) => f.severity === 'MUST').map(toFinding);
  const warnings = outcome.findings.filter((f) => f.severity === 'WARN').map(toFinding);
  const message = [...failures, ...warnings].map((f) => `[${f.requirements.join(', ')}] ${f.message}`).join('\n');
  return { status: failures.length ? 'failed' : 'warned', message, failures, warnings };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
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

type AddRecord = (rule: string | null, requirements: string[], severity: 'MUST' | 'WARN', verdict: Verdict) => void;

/**
 * The entry as the report shows it and the rules see it (the passive judge's and `verify`'s alike):
 * redacted, its body cut to an excerpt; status 0, HAR's "no response", is none (null), as in a live run.
 */
export function recordedExchange(h: HarExchange): Exchange {
  return recordExchange({
    method: h.method,
    url: h.url,
    requestHeaders: h.requestHeaders,
    ...(h.requestBody !== undefined ? { requestBody: h.requestBody } : {}),
    status: h.status === 0 ? null : h.status,
    responseHeaders: h.responseHeaders,
    ...(h.body !== undefined ? { responseBody: h.body } : {}),
    ...(h.error !== undefined ? { error: h.error } : {}),
    durationMs: h.timeMs,
  });
}

/** One record of the entry: a rule's verdict (rule null: the entry's own). */
function entryRecord(
  h: HarExchange,
  options: JudgeOptions,
  recorded: Exchange,
  rule: string | null,
  requirements: string[],
  severity: 'MUST' | 'WARN',
  verdict: Verdict,
): TestRecord {
  const name = `#${h.index} ${h.method} ${redactUrl(h.url)}`;
  return {
    id: `${options.suite}/${slug(`${h.index} ${rule ?? 'exchange'}`)}`,
    title: rule ? `${name} > ${rule}` : name,
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
  };
}

/** What the rules see of the entry: its base URL is the entry's origin and the base path; its version bounded by when it was recorded. */
function entryView(h: HarExchange, options: JudgeOptions, recorded: Exchange): ExchangeView {
  let origin = '';
  try {
    origin = new URL(h.url).origin;
  } catch {
    // an entry whose URL does not parse matches no endpoint
  }
  return viewOf({
    exchange: recorded,
    text: h.body === undefined ? undefined : redactBodyText(h.body),
    textNote: h.bodyNote ?? 'body not recorded',
    baseUrl: `${origin}${(options.basePath ?? '').replace(/\/+$/, '')}`,
    implements: options.implements ?? newestVersion(),
    servedSeries: options.servedSeries ?? 'unknown',
    atMs: h.startedMs + h.timeMs,
    bounded: true,
  });
}

function judgeEntry(h: HarExchange, options: JudgeOptions): TestRecord[] {
  learnSecrets(h);
  const recorded = recordedExchange(h);
  const records: TestRecord[] = [];
  const add: AddRecord = (rule, requirements, severity, verdict) => void records.push(entryRecord(h, options, recorded, rule, requirements, severity, verdict));
  // Every rule that one exchange shows, as the live run applies them to its own exchanges.
  const view = entryView(h, options, recorded);
  const judge = (rules?: readonly ExchangeRule[]): void => {
    for (const { rule, outcome } of judgeView(view, rules)) {
      // The record cites the rule's requirements and those its findings name.
      const cited = outcome.kind === 'findings' ? [...new Set([...rule.requirements, ...outcome.findings.flatMap((f) => f.requirements)])] : rule.requirements;
      add(rule.titleFor?.(view) ?? rule.title, cited, rule.severity, verdictOf(outcome));
    }
  };
  const apiPath = apiPathOf(h.url, options.basePath);
  if (apiPath !== null && matchEndpoint(h.method, apiPath) !== null) {
    judge();
    // No answer came (refused, reset, timed out): the rules of an answer had nothing to judge.
    if (!records.length && recorded.status === null) return [skippedExchange(h, options, `no answer was recorded (${h.error ?? 'status 0'}): ${redactUrl(h.url)}`)];
    return records;
  }
  // Rules of every exchange (a redirect's Location, HTTPS), then the token endpoint's body. What
  // they skip adds nothing to why the entry is not judged as the API's.
  judge(ANY_EXCHANGE_RULES);
  records.splice(0, records.length, ...records.filter((r) => r.status !== 'skipped'));
  return judgeOutsideApi(h, options, records, add);
}

/**
 * An entry outside the API: the authorization server's endpoints (any origin, any path prefix),
 * their bodies only, as the live run judges them (the API's rules, such as the rate-limit
 * headers, are not stated for them); anything else is not judged.
 */
function judgeOutsideApi(h: HarExchange, options: JudgeOptions, records: TestRecord[], add: AddRecord): TestRecord[] {
  const url = redactUrl(h.url);
  const auth = matchAuthEndpoint(h.method, h.url);
  if (auth !== 'POST {auth_url}/oauth2/token') {
    if (records.length) return records;
    return [skippedExchange(h, options, auth ? `the authorization step is judged live (its redirect and consent): ${url}` : `not an API v3 exchange: ${url}`)];
  }
  const grant = new URLSearchParams(h.requestBody ?? '').get('grant_type') ?? (parseJson(h.requestBody ?? '') as { grant_type?: unknown } | undefined)?.grant_type;
  // The refresh response's shape is not specified (AUTH-24): only the two documented grants are judged.
  const ids = grant === 'client_credentials' ? ['AUTH-7'] : grant === 'authorization_code' ? ['AUTH-19'] : null;
  if (ids === null) return [skippedExchange(h, options, `a token request with grant_type ${String(grant ?? '(none recorded)')}: its answer's shape is not specified`)];
  const rule = `token response as documented for grant_type=${String(grant)}`;
  if (h.body === undefined) add(rule, ids, 'MUST', skipped(h.bodyNote ?? 'body not recorded'));
  else {
    const verdict = SchemaRegistry.shared().validateExchange(auth, h.status, h.body, entryScope(h, options));
    const findings = violationFindings(verdict.schema ?? `${auth} ${h.status}`, verdict.violations, `${h.method} ${new URL(h.url).pathname}`, ids);
    add(rule, ids, 'MUST', verdictOf(findings.length ? { kind: 'findings', findings } : { kind: 'passed' }));
  }
  return records;
}
