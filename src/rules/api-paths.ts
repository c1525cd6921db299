// The API's paths, in one vocabulary: the endpoints of schemas/endpoints.json ("GET /skus/:id",
// typed ApiEndpoint by `npm run schemas`), the path a request to one of them takes (pathOf), and
// back, the path of a URL below the API's base path (apiPathUnder, apiPathBelow) and the
// endpoint it matches (matchEndpoint). Suites, the harness, the rule table and the HAR judge all
// compute paths here; URLs are made by joinUrl (src/http/client.ts), which never drops a base path.
import type { ApiEndpoint } from '../generated/api-types.ts';
import { SchemaRegistry } from '../schemas/validator.ts';

export type { ApiEndpoint };

/** The names of a path template's `:params` ("/skus/:id/reviews" -> "id"). */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}` ? Name | ParamNames<`/${Rest}`> : P extends `${string}:${infer Name}` ? Name : never;
/** The parameters a request to an endpoint fills in, by name. */
export type PathParams<E extends string> = { [K in ParamNames<E extends `${string} ${infer P}` ? P : never>]: string | number };
/** The names of a path template's `:params`, in order, repeats kept. */
type NameList<P extends string> = P extends `${string}:${infer Name}/${infer Rest}` ? [Name, ...NameList<`/${Rest}`>] : P extends `${string}:${infer Name}` ? [Name] : [];
type HasRepeat<T extends readonly string[]> = T extends readonly [infer Head, ...infer Tail extends string[]] ? (Head extends Tail[number] ? true : HasRepeat<Tail>) : false;
/** How pathOf takes an endpoint's values: by name or in order; in order only where two share a name (by name would fill both alike). */
export type PathArgument<E extends string> = HasRepeat<NameList<E extends `${string} ${infer P}` ? P : never>> extends true ? PathValues<E> : PathParams<E> | PathValues<E>;

/** One value per :param of an endpoint's path, in order: pathIn's array form, typed ("GET /skus/:id/reviews/:id/edit" -> two). */
export type PathValues<P extends string> = P extends `${string}:${string}/${infer Rest}`
  ? [string | number, ...PathValues<Rest>]
  : P extends `${string}:${string}`
    ? [string | number]
    : [];

/** The template path of an endpoint ("GET /skus/:id" -> "/skus/:id"). */
export const templateOf = (endpoint: string): string => endpoint.slice(endpoint.indexOf(' ') + 1);

/**
 * The path of a request to an endpoint, its parameters filled in (URL-encoded):
 * pathOf('GET /skus/:id/reviews', { id: 7 }) is "/skus/7/reviews". By name, or in order of
 * the path (for a template that names two parameters alike: "GET /skus/:id/reviews/:id/edit").
 * A parameter missing or left over throws: a suite's slip, not the deployment's.
 */
export function pathOf<E extends ApiEndpoint>(endpoint: E, ...params: keyof PathParams<E> extends never ? [] : [PathArgument<E>]): string {
  return pathIn(endpoint, params[0] ?? []);
}

/** pathOf for an endpoint known only as an ApiEndpoint (a table's row): the values are checked when it runs. */
export function pathIn(endpoint: ApiEndpoint, params: Readonly<Record<string, string | number>> | readonly (string | number)[]): string {
  const positional = Array.isArray(params) ? [...(params as readonly (string | number)[])] : null;
  const named: Record<string, string | number> = positional ? {} : { ...(params as Record<string, string | number>) };
  const names = [...templateOf(endpoint).matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  if (!positional && new Set(names).size < names.length) throw new Error(`pathOf(${endpoint}): its parameters share a name: give the values in order`);
  const used = new Set<string>();
  let place = 0;
  const path = templateOf(endpoint).replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = positional ? positional[place++] : named[name];
    if (value === undefined || value === '') throw new Error(`pathOf(${endpoint}): no value for :${name}`);
    used.add(name);
    return encodeURIComponent(String(value));
  });
  const extra = positional ? (positional.length > place ? [`${positional.length - place} value(s)`] : []) : Object.keys(named).filter((name) => !used.has(name));
  if (extra.length) throw new Error(`pathOf(${endpoint}): ${extra.join(', ')} is no parameter of it`);
  return path;
}

/** The path below a path prefix ("/api"), "/" for the prefix itself; null when the path is not under it. */
export function apiPathBelow(pathname: string, prefix: string): string | null {
  const base = prefix.replace(/\/+$/, '');
  if (base === '') return pathname;
  if (pathname === base) return '/';
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : null;
}

/** The path below the base URL's path on its origin, or null when the URL is elsewhere. */
export function apiPathUnder(url: string, baseUrl: string): string | null {
  try {
    const target = new URL(url);
    const base = new URL(baseUrl);
    return target.origin === base.origin ? apiPathBelow(target.pathname, base.pathname) : null;
  } catch {
    return null;
  }
}

interface Template {
  endpoint: string;
  method: string;
  segments: string[];
}

let templates: Template[] | undefined;

/** The endpoint of schemas/endpoints.json ("GET /skus/:id") a method and API path match; literal segments win over :params. */
export function matchEndpoint(method: string, apiPath: string): string | null {
  templates ??= Object.keys(SchemaRegistry.shared().endpointIndex().endpoints).map((endpoint) => {
    const [m = '', path = ''] = endpoint.split(' ');
    return { endpoint, method: m, segments: path.split('/').filter(Boolean) };
  });
  const segments = apiPath.split('/').filter(Boolean);
  let best: { endpoint: string; literals: number } | null = null;
  for (const t of templates) {
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
