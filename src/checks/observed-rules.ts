// Rules the spec states for every response of a kind, checked on every exchange of the run rather
// than on one sample (the suites provoke errors and fetch every endpoint; these rules watch all of
// it). Each rule says which exchanges it applies to and checks one exchange with a pure function;
// suites/last/observed.suite.ts reports, per rule, the exchanges that broke it.
import type { Exchange } from '../http/exchange.ts';
import { versionServes } from '../util/version.ts';
import { fail, isPlainObject, pass, type CheckResult } from './check.ts';
import { errorBodyIsWellFormed } from './errors.ts';

/** What a rule needs to know of the run besides the exchange. */
export interface ObservationScope {
  /** The API's base URL: rules about "the API" leave the auth server's exchanges alone. */
  baseUrl: string;
  apiVersion: string;
}

export interface ObservedRule {
  id: string;
  /** What holds, for the test title. */
  title: string;
  requirements: string[];
  applies(exchange: Exchange, scope: ObservationScope): boolean;
  check(exchange: Exchange): CheckResult;
}

/** Whether the exchange is a request to the API (under the base URL), answered. */
export function isApiExchange(exchange: Exchange, baseUrl: string): boolean {
  if (exchange.status === null) return false;
  try {
    const url = new URL(exchange.url);
    const base = new URL(baseUrl);
    const prefix = base.pathname.replace(/\/+$/, '');
    return url.origin === base.origin && (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`));
  } catch {
    return false;
  }
}

/** "GET /skus/:id/products": the path below the base URL with numeric segments as :id. */
export function endpointOf(exchange: Exchange, baseUrl: string): string {
  try {
    const prefix = new URL(baseUrl).pathname.replace(/\/+$/, '');
    const path = new URL(exchange.url).pathname.slice(prefix.length) || '/';
    return `${exchange.method} ${path.replace(/\/-?\d+(?=\/|$)/g, '/:id')}`;
  } catch {
    return `${exchange.method} ${exchange.url}`;
  }
}

function parseBody(exchange: Exchange): { ok: true; value: unknown } | { ok: false } {
  const text = exchange.responseBody ?? '';
  // The exchange keeps an excerpt of long bodies; a cut body cannot be judged here.
  if (/\.\.\. \[\d+ more characters\]$/.test(text)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: true, value: undefined };
  }
}

/**
 * ERR-2: "For 4xx and 5xx the body holds more detail, in this format for the whole API:
 * {errors: [{code (string), messages (array of strings)}]}" (normalized in 3.1.0). Not judged:
 * a 403 `{message}` (the rate-limit body), a 404 with an empty array on a category path (the
 * documented example, ERR-16), a body the exchange record cut short.
 */
export function errorBodyOf(exchange: Exchange): CheckResult {
  const body = parseBody(exchange);
  if (!body.ok) return pass();
  const where = `${exchange.method} ${exchange.url} answered ${exchange.status}`;
  if (body.value === undefined) return fail(`${where} with a body that is not JSON: expected {errors: [{code, messages}]}`);
  if (exchange.status === 403 && isPlainObject(body.value) && typeof body.value['message'] === 'string') return pass();
  if (exchange.status === 404 && Array.isArray(body.value) && body.value.length === 0 && /\/categories\//.test(exchange.url)) return pass();
  const result = errorBodyIsWellFormed(body.value);
  return result.ok ? result : fail(`${where}: ${result.message}`);
}

export const OBSERVED_RULES: readonly ObservedRule[] = [
  {
    id: 'error-body',
    title: 'every 4xx and 5xx answer of the API has the body {errors: [{code, messages}]} (403 {message} for the rate limit)',
    requirements: ['ERR-2'],
    applies: (exchange, scope) =>
      isApiExchange(exchange, scope.baseUrl) && exchange.status! >= 400 && exchange.method !== 'HEAD' && versionServes(scope.apiVersion, '3.1.0'),
    check: errorBodyOf,
  },
];
