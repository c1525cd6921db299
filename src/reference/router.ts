// A small router: routes are (method, pattern, handler); patterns are '/'-separated literal
// segments and ':name' parameters. A literal segment wins over a parameter at the same place
// (so GET /categories/root is matched before GET /categories/:id). HEAD is served by GET routes.

import type { TokenRecord } from './auth-records.ts';
import type { Dataset } from './data.ts';
import type { FaultName } from './faults.ts';
import type { Variants } from './variants.ts';
import type { ApiResult } from './http.ts';
import type { ApiVersion } from './versioning.ts';

/** Everything a handler may use about the request and the server. */
export interface ApiContext {
  readonly method: string;
  /** Path relative to the base path, e.g. '/categories/12'. */
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Parsed request body (JSON object or bracket-keyed form); null when there is none. */
  readonly body: Record<string, unknown> | null;
  /** Absolute public URL of the request, base path and query included (for links). */
  readonly url: URL;
  readonly version: ApiVersion;
  readonly token: TokenRecord;
  /** The user of a user token (authorization code); null for an application token. */
  readonly userId: number | null;
  readonly data: Dataset;
  readonly fault: FaultName | null;
  /** The legal variants the server runs with (see variants.ts). */
  readonly variants: Variants;
  readonly now: () => number;
  /** DELETE /user/logout: ends this request's access token, or all of the user's (a server option). */
  readonly logout: () => void;
}

export type Handler = (ctx: ApiContext) => ApiResult | Promise<ApiResult>;

export interface RouteOptions {
  /** Scope the token must include; default 'public'. null: any valid token. */
  scope?: string | null;
  /** The route needs a user token (authorization code); an application token gets 401. */
  user?: boolean;
  /**
   * First version with this endpoint ("major.minor.patch", from the Change history); an older
   * requested version gets 404 NotFound, as for an unknown route.
   */
  since?: string;
}

export interface Route {
  readonly method: string;
  readonly pattern: string;
  readonly segments: readonly string[];
  readonly handler: Handler;
  readonly scope: string | null;
  readonly user: boolean;
  readonly since: string | null;
}

export type RouteMatch = { kind: 'found'; route: Route; params: Record<string, string> } | { kind: 'not-found' } | { kind: 'method-not-allowed'; allow: string[] };

/** A route module registers its routes (some only under a variant); server.ts lists the modules. */
export type RouteModule = (router: Router, variants: Variants) => void;

export function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler, opts: RouteOptions = {}): this {
    this.routes.push({
      method: method.toUpperCase(),
      pattern,
      segments: splitPath(pattern),
      handler,
      scope: opts.scope === undefined ? 'public' : opts.scope,
      user: opts.user ?? false,
      since: opts.since ?? null,
    });
    return this;
  }

  get(pattern: string, handler: Handler, opts?: RouteOptions): this {
    return this.add('GET', pattern, handler, opts);
  }
  post(pattern: string, handler: Handler, opts?: RouteOptions): this {
    return this.add('POST', pattern, handler, opts);
  }
  put(pattern: string, handler: Handler, opts?: RouteOptions): this {
    return this.add('PUT', pattern, handler, opts);
  }
  patch(pattern: string, handler: Handler, opts?: RouteOptions): this {
    return this.add('PATCH', pattern, handler, opts);
  }
  delete(pattern: string, handler: Handler, opts?: RouteOptions): this {
    return this.add('DELETE', pattern, handler, opts);
  }

  /** Every registered route, in registration order. */
  list(): readonly Route[] {
    return this.routes;
  }

  /** `segments` are already percent-decoded. */
  match(method: string, segments: readonly string[]): RouteMatch {
    const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    let best: { route: Route; params: Record<string, string> } | undefined;
    let bestScore = '';
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method !== m) {
        allowed.add(route.method);
        continue;
      }
      // Score: '1' for a literal and '0' for a parameter segment, compared as strings.
      const score = route.segments.map((s) => (s.startsWith(':') ? '0' : '1')).join('');
      if (!best || score > bestScore) {
        best = { route, params };
        bestScore = score;
      }
    }
    if (best) return { kind: 'found', route: best.route, params: best.params };
    if (allowed.size > 0) {
      if (allowed.has('GET')) allowed.add('HEAD');
      return { kind: 'method-not-allowed', allow: [...allowed].sort() };
    }
    return { kind: 'not-found' };
  }
}

function matchSegments(pattern: readonly string[], actual: readonly string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const a = actual[i]!;
    if (p.startsWith(':')) params[p.slice(1)] = a;
    else if (p !== a) return null;
  }
  return params;
}
