// The rules one exchange shows, each written once with its requirement ids and severity: the body
// as documented for its endpoint, status and version (schemas, conditional presence), a JSON
// Content-Type, the error format, the rate-limit headers, pagination and Link, and the rules of
// particular endpoints. Three users, one table:
//   - the live run judges every exchange it makes with every rule (src/rules/observations.ts,
//     reported per rule by suites/last/observed.suite.ts);
//   - a suite applies a rule to an answer it judges (ConformanceContext#rules);
//   - the passive judge applies every rule to every entry of recorded traffic (src/har/judge.ts).
// A rule sees an ExchangeView (src/rules/exchange-view.ts): exchange, endpoint, body, query, version, token kind.
import { allOf, fail, isPlainObject, pass, type CheckResult } from '../checks/check.ts';
import { isRateLimitStatus, notModifiedHasNoBody, rateLimitHeadersPresent, rateLimitValuesAreWellFormed, resetIsEpochSecondsWithinAMinute } from '../checks/caching.ts';
import { hasNoMatchCount, isRootCategory } from '../checks/categories.ts';
import { errorBodyIsWellFormed } from '../checks/errors.ts';
import { bodyIsJson, isLoopbackHost, redirectHasLocation, REDIRECT_STATUSES, staysOnHttps } from '../checks/http.ts';
import { cachedPrivatelyFor300 } from '../checks/listings.ts';
import {
  defaultPageSizeIs25,
  linkQueryDropped,
  linkTargets,
  nextAndLastLinksWhileMorePages,
  pageIsTheOneAsked,
  pagesAndItemsAgree,
  paginationMetaIsWellFormed,
  perIsTheOneAsked,
  readPagination,
  type Pagination,
} from '../checks/pagination.ts';
import { groupsIncluded, historyWithinSixMonths, reviewScoreRounded, specificationsNotPaginated } from '../checks/products.ts';
import { fieldsMatchVersion, objectsAt, sinceVersions, type Located } from '../checks/versioning.ts';
import type { Exchange } from '../http/exchange.ts';
import { schemaRequirements, violationRequirements } from '../schemas/cited-requirements.ts';
import { asksFieldsets } from '../schemas/presence.ts';
import { formatViolation, SCHEMA_BASE, SchemaRegistry, type Violation } from '../schemas/validator.ts';
import { versionedFieldsOf } from '../schemas/versioned-fields.ts';
import { changeRow } from './change-history.ts';
import { isOAuthUrl, type ExchangeView } from './exchange-view.ts';

export { askedVersion, isOAuthUrl, viewOf, type ExchangeView, type ViewInput } from './exchange-view.ts';

// ---------------------------------------------------------------------------------------------
// What a rule finds

export interface RuleFinding {
  severity: 'MUST' | 'WARN';
  requirements: string[];
  message: string;
  /** Every item when the message shows only the first. */
  details?: string[];
}

export type RuleOutcome = { kind: 'passed' } | { kind: 'skipped'; reason: string } | { kind: 'findings'; findings: RuleFinding[] };

const PASSED: RuleOutcome = { kind: 'passed' };
const skip = (reason: string): RuleOutcome => ({ kind: 'skipped', reason });

/** A check's result as findings: a blank (a null where a value is typed) only warns, citing GEN-8. */
export function checkOutcome(result: CheckResult, requirements: readonly string[], severity: 'MUST' | 'WARN'): RuleOutcome {
  if (result.ok) return PASSED;
  if (result.blank) return { kind: 'findings', findings: [{ severity: 'WARN', requirements: [...new Set([...requirements, 'GEN-8'])], message: `null where the spec gives a non-null type: ${result.message}` }] };
  return { kind: 'findings', findings: [{ severity, requirements: [...requirements], message: result.message }] };
}

/**
 * Schema violations as findings: a null where the schema types non-null warns (GEN-8), the rest is
 * MUST (GEN-8 too when a field is absent). Each finding cites `requirements` and what its
 * violations' schema parts name; an absent field of a later version also the Versioning rule that
 * chose the version (`versionRule`). The live suites (ConformanceContext) and the judge share it.
 */
export function violationFindings(schemaId: string, violations: readonly Violation[], where: string | undefined, requirements: readonly string[], versionRule?: string): RuleFinding[] {
  const hard = violations.filter((v) => !v.nullValue);
  const nulls = violations.filter((v) => v.nullValue);
  const cited = (vs: Violation[], extra: string[]): string[] => [
    ...new Set([...requirements, ...violationRequirements(vs), ...(versionRule && vs.some((v) => v.since) ? [versionRule] : []), ...extra]),
  ];
  const finding = (vs: Violation[], ids: string[], severity: 'MUST' | 'WARN', prefix = ''): RuleFinding => {
    const lines = vs.map((v) => formatViolation(v, where));
    const more = vs.length > 1 ? `; ${vs.length - 1} more in the report` : '';
    return { severity, requirements: ids, message: `${prefix}${lines[0]} (${schemaId}${more})`, ...(vs.length > 1 ? { details: lines } : {}) };
  };
  return [
    ...(hard.length ? [finding(hard, cited(hard, hard.some((v) => v.absent) ? ['GEN-8'] : []), 'MUST')] : []),
    ...(nulls.length ? [finding(nulls, cited(nulls, ['GEN-8']), 'WARN', 'null where the spec gives a non-null type: ')] : []),
  ];
}

const outcome = (findings: RuleFinding[]): RuleOutcome => (findings.length ? { kind: 'findings', findings } : PASSED);

/** The violations left when absent fields are allowed: no absent field, and no failed choice of alternatives that only absent fields explain. */
export function withoutAbsence(violations: readonly Violation[]): Violation[] {
  const explains = (v: Violation, o: Violation) => o !== v && (o.pointer === v.pointer || o.pointer.startsWith(`${v.pointer === '/' ? '' : v.pointer}/`));
  return violations.filter((v) => !v.absent && !(v.alternatives && !violations.some((o) => explains(v, o) && !o.absent && !o.alternatives)));
}

// ---------------------------------------------------------------------------------------------
// The rules

export interface ExchangeRule {
  id: string;
  /** What holds, as a test title; may name the view's particulars. */
  title: string;
  requirements: string[];
  /**
   * Further statements the rule checks, named by its findings (the schemas' ids): the live run's
   * test of the rule cites them too (requirement coverage), while a record of one exchange keeps
   * the short list above.
   */
  cites?: () => readonly string[];
  severity: 'MUST' | 'WARN';
  /** The title with what the view shows (the endpoint, status, version), for a record of one exchange. */
  titleFor?(view: ExchangeView): string;
  /** Judges exchanges outside the API too (a moved base URL's, the OAuth endpoints'): a redirect is one wherever it is. */
  anyExchange?: boolean;
  applies(view: ExchangeView): boolean;
  check(view: ExchangeView): RuleOutcome;
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
};
const where = (v: ExchangeView): string => `${v.exchange.method} ${v.apiPath ?? v.exchange.url}`;
const described = (v: ExchangeView): string => `${v.exchange.method} ${v.exchange.url} (${v.exchange.status})`;
const isAnswer = (v: ExchangeView): boolean => v.isApi && (v.exchange.status! < 300 || v.exchange.status! >= 400 || v.exchange.status === 304);
const ok200 = (v: ExchangeView): boolean => v.isApi && v.exchange.status === 200 && isPlainObject(v.body);

/** Endpoints whose answers give shops whole: the shop resources, and products (a shop embedded with embed=shop). */
const SHOWS_SHOPS = ['GET /shops/:id', 'GET /shops/search', 'GET /skus/:id/products', 'GET /products/:id', 'GET /shops/:shop_id/products/search'];

/** The shops an answer gives whole: {shop}, {shops: [...]}, and the shop embedded in {product} or each of {products}. */
function shopsIn(body: Record<string, unknown>): Record<string, unknown>[] {
  const products = [...(isPlainObject(body['product']) ? [body['product']] : []), ...(Array.isArray(body['products']) ? body['products'].filter(isPlainObject) : [])];
  return [
    ...(isPlainObject(body['shop']) ? [body['shop']] : []),
    ...(Array.isArray(body['shops']) ? body['shops'].filter(isPlainObject) : []),
    ...products.map((p) => p['shop']).filter(isPlainObject),
  ];
}

/** The body of a view ok200 accepted. */
const json = (v: ExchangeView): Record<string, unknown> => v.body as Record<string, unknown>;

function positiveInt(value: string | null): number | undefined {
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** meta.pagination of a 200, when the body has one. */
function paginationOf(v: ExchangeView): Pagination | null {
  if (!ok200(v)) return null;
  const meta = json(v)['meta'];
  return isPlainObject(meta) && meta['pagination'] !== undefined ? readPagination(v.body) : null;
}

/** The collection array of a paginated body: its one top-level array (besides meta); null when not exactly one. */
function collectionItems(body: Record<string, unknown>): unknown[] | null {
  const arrays = Object.entries(body).filter(([key, value]) => key !== 'meta' && Array.isArray(value));
  return arrays.length === 1 ? (arrays[0]![1] as unknown[]) : null;
}

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

/** The body as schemas/endpoints.json documents it for the endpoint, status and version, with the conditional presence rules. */
function documentedBody(v: ExchangeView): RuleOutcome {
  if (v.text === undefined) return skip(v.textNote);
  const registry = SchemaRegistry.shared();
  const status = v.exchange.status!;
  const documented = registry.requirementsFor(v.endpoint!, status);
  const ids = documented.length ? documented : status >= 400 ? ['ERR-2'] : ['GEN-7'];
  const verdict = registry.validateExchange(v.endpoint!, status, v.text, v.scope, { query: v.query, token: v.token });
  // Sparse fieldsets leave documented fields out on purpose: an absent field is not judged then
  // (which fields stay is the fieldsets suite's, live).
  const violations = asksFieldsets(v.query) ? withoutAbsence(verdict.violations) : verdict.violations;
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
      const result = fieldsMatchVersion(objects, fields.filter((f) => f.since === since), { asked, scope: v.scope }, 'absent');
      const row = changeRow(since)?.requirement;
      if (!result.ok) findings.push({ severity: 'WARN', requirements: [v.scope.rule, ...(row ? [row] : [])], message: result.message });
    }
  }
  return outcome(findings);
}

/** ERR-2 on a 4xx/5xx: the {errors} format, save the rate limit's 403 {message} and the documented 404 [] of a category. */
export function errorBodyOf(exchange: Exchange, body: unknown, text: string): CheckResult {
  const at = `${exchange.method} ${exchange.url} answered ${exchange.status}`;
  if (body === undefined) return fail(`${at} with a body that is not JSON: expected {errors: [{code, messages}]}${text ? '' : ' (it is empty)'}`);
  if (exchange.status === 403 && isPlainObject(body) && typeof body['message'] === 'string') return pass();
  if (exchange.status === 404 && Array.isArray(body) && body.length === 0 && /\/categories\//.test(exchange.url)) return pass();
  const result = errorBodyIsWellFormed(body);
  return result.ok ? result : fail(`${at}: ${result.message}`);
}

const CATEGORY_KEYS = ['category', 'categories'] as const;

export const EXCHANGE_RULES: readonly ExchangeRule[] = [
  {
    id: 'documented-body',
    title: 'the body is as the spec documents it for the endpoint, status and version (fields, types, blank fields null, fields shown under a condition where it holds)',
    requirements: ['GEN-7', 'GEN-8'],
    // And every statement the schemas encode: a violation cites its node's ids (violationRequirements).
    cites: schemaRequirements,
    severity: 'MUST',
    titleFor: (v) => `body as documented for ${v.endpoint} ${v.exchange.status} (${v.scope.describe()}${asksFieldsets(v.query) ? '; fields left out by the sparse fieldsets asked not required' : ''})`,
    applies: (v) => v.isApi && v.endpoint !== null && v.exchange.method !== 'HEAD',
    check: documentedBody,
  },
  {
    id: 'json-content-type',
    title: 'a JSON body comes with a JSON Content-Type',
    // "a JSON API" (GEN-1) and "all data is sent and received as JSON" (GEN-4).
    requirements: ['GEN-4', 'GEN-1'],
    severity: 'MUST',
    applies: (v) => v.isApi && v.text !== undefined && v.text.trim() !== '' && v.exchange.status !== 304 && (v.exchange.status! < 300 || v.exchange.status! >= 400),
    check: (v) => checkOutcome(bodyIsJson({ status: v.exchange.status!, headers: v.exchange.responseHeaders, text: v.text! }), ['GEN-4', 'GEN-1'], 'MUST'),
  },
  {
    id: 'redirect-location',
    title: 'a redirect (301, 302, 303, 307, 308) names its target in the Location header',
    requirements: ['RED-3'],
    severity: 'MUST',
    // Any redirect the run meets, the API's, a moved base URL's or the OAuth consent step's.
    anyExchange: true,
    applies: (v) => v.exchange.status !== null && REDIRECT_STATUSES.has(v.exchange.status),
    check: (v) => checkOutcome(redirectHasLocation(v.exchange.status!, v.exchange.responseHeaders, v.exchange.url, `${v.exchange.method} ${v.exchange.url}`), ['RED-3'], 'MUST'),
  },
  {
    id: 'https',
    title: 'all access is over HTTPS: no answer over HTTPS points to http (a deployment reached over http is noted)',
    requirements: ['GEN-3'],
    severity: 'MUST',
    // The service's exchanges, the API's, the OAuth endpoints' and redirects, but those with the
    // machine itself: a deployment under test there is not the service.
    anyExchange: true,
    applies: (v) => v.exchange.status !== null && (v.isApi || isOAuthUrl(v.exchange.url) || REDIRECT_STATUSES.has(v.exchange.status)),
    check: (v) => {
      if (isLoopbackHost(hostOf(v.exchange.url))) return skip('the deployment is on this machine (a loopback address): not the service HTTPS is required of');
      const { downgrade, plainHttp } = staysOnHttps(v.exchange.url, v.exchange.responseHeaders);
      if (!downgrade.ok) return checkOutcome(downgrade, ['GEN-3'], 'MUST');
      return checkOutcome(plainHttp, ['GEN-3'], 'WARN');
    },
  },
  {
    id: 'no-later-fields',
    title: 'no field newer than the version asked (an addition of a later version only warns)',
    requirements: ['VER-9'],
    severity: 'WARN',
    titleFor: (v) => `no field newer than the version asked (version=${v.scope.asked})`,
    applies: (v) => v.isApi && v.endpoint !== null && v.exchange.status! >= 200 && v.exchange.status! < 300 && v.scope.asked !== null && v.body !== undefined,
    check: laterFields,
  },
  {
    id: 'error-body',
    title: 'every 4xx and 5xx answer of the API has the body {errors: [{code, messages}]} (403 {message} for the rate limit)',
    requirements: ['ERR-2'],
    severity: 'MUST',
    applies: (v) => v.isApi && v.exchange.status! >= 400 && v.exchange.method !== 'HEAD' && v.scope.has('normalized-errors'),
    check: (v) => (v.text === undefined ? skip(v.textNote) : checkOutcome(errorBodyOf(v.exchange, v.body, v.text), ['ERR-2'], 'MUST')),
  },
  {
    id: 'rate-limit-headers',
    title: 'every answer of the API, 2xx, 304 and 4xx alike, carries X-RateLimit-Limit, -Remaining and -Reset',
    requirements: ['RATE-4'],
    severity: 'MUST',
    applies: isAnswer,
    check: (v) => checkOutcome(rateLimitHeadersPresent(v.exchange.responseHeaders, described(v)), ['RATE-4'], 'MUST'),
  },
  {
    id: 'rate-limit-values',
    title: 'X-RateLimit-Limit and -Remaining are whole numbers (Remaining at most Limit) and -Reset is UTC epoch seconds within the coming minute',
    requirements: ['RATE-5', 'RATE-6', 'RATE-7'],
    severity: 'MUST',
    applies: (v) => isAnswer(v) && rateLimitHeadersPresent(v.exchange.responseHeaders).ok,
    check: (v) => {
      const values = rateLimitValuesAreWellFormed(v.exchange.responseHeaders, described(v));
      if (!values.ok) return checkOutcome(values, ['RATE-5', 'RATE-6', 'RATE-7'], 'MUST');
      if (Number.isNaN(v.atMs) && !('date' in v.exchange.responseHeaders)) return skip('no time to judge X-RateLimit-Reset by (no Date header, no time of the exchange)');
      return checkOutcome(resetIsEpochSecondsWithinAMinute(v.exchange.responseHeaders, v.atMs, described(v)), ['RATE-5', 'RATE-6', 'RATE-7'], 'MUST');
    },
  },
  {
    id: 'rate-limit-status',
    title: 'over the rate limit the answer is 403: no answer is 429',
    requirements: ['RATE-8', 'ERR-7'],
    severity: 'MUST',
    // 429 Too Many Requests is a rate-limit answer by its definition (RFC 6585): the spec's is 403.
    applies: isAnswer,
    check: (v) => checkOutcome(v.exchange.status === 429 ? isRateLimitStatus(429, where(v)) : pass(), ['RATE-8', 'ERR-7'], 'MUST'),
  },
  {
    id: 'not-modified-no-body',
    title: '304 Not Modified has no body',
    requirements: ['ERR-3'],
    severity: 'MUST',
    applies: (v) => v.isApi && v.exchange.status === 304,
    check: (v) => (v.text === undefined ? skip(v.textNote) : checkOutcome(notModifiedHasNoBody({ status: 304, headers: v.exchange.responseHeaders, text: v.text }, where(v)), ['ERR-3'], 'MUST')),
  },
  {
    id: 'pagination-meta',
    title: 'meta.pagination is well formed',
    requirements: ['PAG-1'],
    severity: 'MUST',
    applies: (v) => ok200(v) && isPlainObject(json(v)['meta']) && (json(v)['meta'] as Record<string, unknown>)['pagination'] !== undefined,
    check: (v) => checkOutcome(paginationMetaIsWellFormed(v.body), ['PAG-1'], 'MUST'),
  },
  {
    id: 'pagination-arithmetic',
    title: 'meta.pagination agrees with itself and the items',
    requirements: ['PAG-1'],
    severity: 'MUST',
    applies: (v) => paginationOf(v) !== null,
    check: (v) => {
      const items = collectionItems(v.body as Record<string, unknown>);
      return items === null ? skip('the body has no single collection array to count') : checkOutcome(pagesAndItemsAgree(paginationOf(v)!, items.length), ['PAG-1'], 'MUST');
    },
  },
  {
    id: 'pagination-page',
    title: 'meta.pagination.page is the page asked (1 by default)',
    requirements: ['PAG-3'],
    severity: 'MUST',
    applies: (v) => paginationOf(v) !== null,
    check: (v) => checkOutcome(pageIsTheOneAsked(paginationOf(v)!, positiveInt(v.query.get('page'))), ['PAG-3'], 'MUST'),
  },
  {
    id: 'pagination-per',
    title: 'meta.pagination.per is the per asked (above 25, a cap of the deployment\'s is accepted)',
    requirements: ['PAG-4'],
    severity: 'MUST',
    applies: (v) => paginationOf(v) !== null && positiveInt(v.query.get('per')) !== undefined,
    check: (v) => checkOutcome(perIsTheOneAsked(paginationOf(v)!, positiveInt(v.query.get('per'))), ['PAG-4'], 'MUST'),
  },
  {
    id: 'default-per',
    title: '25 items per page when no per is sent',
    requirements: ['PAG-2'],
    severity: 'MUST',
    applies: (v) => paginationOf(v) !== null && v.query.get('per') === null,
    check: (v) => checkOutcome(defaultPageSizeIs25(paginationOf(v)!), ['PAG-2'], 'MUST'),
  },
  {
    id: 'link-while-more-pages',
    title: 'a Link header with rel=next and rel=last while other pages exist',
    requirements: ['PAG-5'],
    severity: 'MUST',
    applies: (v) => paginationOf(v) !== null,
    check: (v) => checkOutcome(nextAndLastLinksWhileMorePages(v.exchange.responseHeaders, paginationOf(v)!), ['PAG-5'], 'MUST'),
  },
  {
    id: 'link-keeps-per',
    title: 'the Link URLs keep per (the size asked, the size a cap gave, or a default 25 left out)',
    requirements: ['PAG-5'],
    severity: 'MUST',
    applies: (v) => paginationOf(v) !== null && !!linkTargets(v.exchange.responseHeaders, v.exchange.url)?.size,
    check: (v) => {
      const p = paginationOf(v)!;
      const dropped = [...linkTargets(v.exchange.responseHeaders, v.exchange.url)!].flatMap(([rel, target]) =>
        linkQueryDropped(target, v.exchange.url, p.per)
          .filter((d) => d.startsWith('per='))
          .map((d) => `rel=${rel} lacks ${d}`),
      );
      return checkOutcome(dropped.length ? fail(`the Link URLs do not carry the request's per: ${dropped.join('; ')}`) : pass(), ['PAG-5'], 'MUST');
    },
  },
  {
    id: 'link-keeps-query',
    title: "the Link URLs keep the request's other parameters",
    requirements: ['PAG-5'],
    severity: 'WARN',
    applies: (v) => paginationOf(v) !== null && !!linkTargets(v.exchange.responseHeaders, v.exchange.url)?.size,
    check: (v) => {
      // Another dropped parameter may change nothing (a default value), so it only warns.
      const dropped = [...linkTargets(v.exchange.responseHeaders, v.exchange.url)!].flatMap(([rel, target]) =>
        linkQueryDropped(target, v.exchange.url, paginationOf(v)!.per)
          .filter((d) => !d.startsWith('per='))
          .map((d) => `rel=${rel} lacks ${d}`),
      );
      return checkOutcome(dropped.length ? fail(`the Link URLs do not carry parameters of the request: ${dropped.join('; ')}`) : pass(), ['PAG-5'], 'WARN');
    },
  },
  {
    id: 'filter-groups-cache',
    title: 'filter groups carry Cache-Control: max-age=300, private',
    requirements: ['CAT-25', 'CHG-28'],
    severity: 'MUST',
    applies: (v) => v.isApi && v.exchange.status === 200 && v.endpoint === 'GET /categories/:category_id/filter_groups' && v.scope.has('filter-groups-cached'),
    check: (v) => checkOutcome(cachedPrivatelyFor300(v.exchange.responseHeaders), ['CAT-25', 'CHG-28'], 'MUST'),
  },
  {
    id: 'match-count-only-in-search',
    title: 'no match_count on categories outside search (only warns: the spec shows it on search results)',
    requirements: ['CAT-14'],
    severity: 'WARN',
    applies: (v) => ok200(v) && v.endpoint !== 'GET /search' && CATEGORY_KEYS.some((k) => k in json(v)),
    check: (v) => {
      const body = json(v);
      const categories = [...(isPlainObject(body['category']) ? [body['category']] : []), ...(Array.isArray(body['categories']) ? body['categories'].filter(isPlainObject) : [])];
      return checkOutcome(allOf(categories.map(hasNoMatchCount)), ['CAT-14'], 'WARN');
    },
  },
  {
    id: 'root-parent-id',
    title: 'the root category has parent_id 0',
    requirements: ['CAT-18', 'CAT-6'],
    severity: 'MUST',
    applies: (v) => ok200(v) && v.endpoint === 'GET /categories/root' && isPlainObject(json(v)['category']) && 'parent_id' in (json(v)['category'] as Record<string, unknown>),
    check: (v) => {
      const root = json(v)['category'] as Record<string, unknown>;
      return checkOutcome(isRootCategory({ id: root['id'], ...root }), ['CAT-18', 'CAT-6'], 'MUST');
    },
  },
  {
    id: 'review-score-rounded',
    title: 'review_score rounded to 1 decimal',
    requirements: ['SHOP-3', 'CHG-7'],
    severity: 'MUST',
    // A shop anywhere it is given whole: GET /shops/:id and /shops/search, and embedded in products (embed=shop).
    applies: (v) => ok200(v) && SHOWS_SHOPS.includes(v.endpoint ?? '') && v.scope.has('review-score-rounded') && shopsIn(json(v)).length > 0,
    check: (v) => checkOutcome(allOf(shopsIn(json(v)).map(reviewScoreRounded)), ['SHOP-3', 'CHG-7'], 'MUST'),
  },
  {
    id: 'specifications-not-paginated',
    title: 'SKU specifications are not paginated: no meta.pagination',
    requirements: ['SKU-14'],
    severity: 'MUST',
    applies: (v) => ok200(v) && v.endpoint === 'GET /skus/:id/specifications',
    check: (v) => checkOutcome(specificationsNotPaginated(v.body), ['SKU-14'], 'MUST'),
  },
  {
    id: 'include-group',
    title: 'include=group: a top-level groups array and a group_id on each specification',
    requirements: ['LINK-5', 'LINK-3'],
    severity: 'MUST',
    applies: (v) =>
      ok200(v) &&
      (v.endpoint === 'GET /skus/:id/specifications' || v.endpoint === 'GET /categories/:id/specifications') &&
      v.query.getAll('include').flatMap((x) => x.split(',')).includes('group') &&
      !asksFieldsets(v.query) &&
      Array.isArray(json(v)['specifications']) &&
      (json(v)['specifications'] as unknown[]).length > 0,
    check: (v) => checkOutcome(groupsIncluded(v.body), ['LINK-5', 'LINK-3'], 'MUST'),
  },
  {
    id: 'price-history-window',
    title: 'price history lies within the 6 months before the answer',
    requirements: ['HIST-3', 'HIST-6'],
    severity: 'MUST',
    applies: (v) => ok200(v) && v.endpoint === 'GET /skus/:id/price_history' && isPlainObject(json(v)['history']) && Array.isArray((json(v)['history'] as Record<string, unknown>)['average']) && !Number.isNaN(v.atMs),
    check: (v) => {
      // "The last 6 months" of the exchange's own time, not of today (a recording may be old).
      const points = ((json(v)['history'] as Record<string, unknown>)['average'] as unknown[]).filter(isPlainObject);
      return checkOutcome(historyWithinSixMonths(points, new Date(v.atMs)), ['HIST-3', 'HIST-6'], 'MUST');
    },
  },
];

/** The rule of an id; throws on an id the table does not have (a suite's typo). */
export function exchangeRule(id: string): ExchangeRule {
  const rule = EXCHANGE_RULES.find((r) => r.id === id);
  if (!rule) throw new Error(`no exchange rule "${id}" (src/rules/exchange-rules.ts has ${EXCHANGE_RULES.map((r) => r.id).join(', ')})`);
  return rule;
}

/** Every rule that applies to the view, with what it found. */
export function judgeView(view: ExchangeView, rules: readonly ExchangeRule[] = EXCHANGE_RULES): { rule: ExchangeRule; outcome: RuleOutcome }[] {
  return rules.filter((rule) => rule.applies(view)).map((rule) => ({ rule, outcome: rule.check(view) }));
}
