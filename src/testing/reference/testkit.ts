// Helpers for the reference server's own tests (src/reference/*.test.ts) and its fault probes
// (probes/): test support, kept out of the server's directory (issue 21).

import { afterAll, beforeAll, expect } from 'vitest';
import { createDataset, type Dataset } from '../../reference/data.ts';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/server.ts';
import type { VariantName } from '../../reference/variants.ts';

export const VND = 'application/vnd.service+json';

export interface Clock {
  now: () => number;
  advance(ms: number): void;
  set(ms: number): void;
}

/** A settable clock, starting at 2024-03-10T12:00:00Z unless told otherwise. */
export function makeClock(start = Date.UTC(2024, 2, 10, 12, 0, 0)): Clock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  body: any;
}

/** A response of any kind (JSON or not) as a Reply: its status, headers, text and parsed JSON body, if any. */
export async function toReply(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

export async function post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return toReply(res);
}

export async function appToken(ref: RunningReference): Promise<string> {
  const r = await post(`${ref.authUrl}/oauth2/token`, {
    grant_type: 'client_credentials',
    client_id: ref.client.id,
    client_secret: ref.client.secret,
    scope: 'public',
  });
  if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${r.text}`);
  return r.body.access_token as string;
}

/** Runs the authorization step and returns the decoded code (and the raw Location). */
export async function authorize(ref: RunningReference, scope = 'public favorites'): Promise<{ code: string; location: string }> {
  const q = new URLSearchParams({ client_id: ref.client.id, redirect_uri: ref.client.redirectUri, response_type: 'code', scope });
  const res = await fetch(`${ref.authUrl}/oauth2/authorizations/new?${q}`, { redirect: 'manual' });
  await res.text();
  const location = res.headers.get('location');
  if (res.status !== 302 || location === null) throw new Error(`authorize failed: ${res.status}`);
  const code = new URL(location).searchParams.get('code');
  if (code === null) throw new Error(`no code in ${location}`);
  return { code, location };
}

export async function userTokens(ref: RunningReference, scope = 'public favorites'): Promise<{ access: string; refresh: string }> {
  const { code } = await authorize(ref, scope);
  const r = await post(`${ref.authUrl}/oauth2/token`, {
    grant_type: 'authorization_code',
    client_id: ref.client.id,
    client_secret: ref.client.secret,
    redirect_uri: ref.client.redirectUri,
    code,
  });
  if (r.status !== 200) throw new Error(`code exchange failed: ${r.status} ${r.text}`);
  return { access: r.body.access_token as string, refresh: r.body.refresh_token as string };
}

export interface CallOptions {
  token?: string | null;
  /** Send the token as ?oauth_token= instead of the Authorization header. */
  inQuery?: boolean;
  /** Requested version ('3.1'): sent as the Accept header's version parameter. */
  version?: string | null;
  /** Sent last: they override the headers the other options set. */
  headers?: Record<string, string>;
  /** A JSON body (application/json). */
  body?: unknown;
  /** A form body (application/x-www-form-urlencoded): fields (an array repeats the key), or already encoded. */
  form?: Record<string, string | readonly string[]> | string;
  /** A body sent as it is, with the Content-Type of `headers` if any. */
  raw?: RequestInit['body'];
}

/** `method` {baseUrl}{path}, with the token in the header (default) or the query. */
export async function call(ref: RunningReference, method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  let url = ref.baseUrl + path;
  if (opts.token) {
    if (opts.inQuery) url += `${url.includes('?') ? '&' : '?'}oauth_token=${encodeURIComponent(opts.token)}`;
    else headers['Authorization'] = `Bearer ${opts.token}`;
  }
  if (opts.version !== undefined && opts.version !== null) headers['Accept'] = `${VND}; version=${opts.version}`;
  let body: RequestInit['body'] = opts.raw;
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  } else if (opts.form !== undefined) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    if (typeof opts.form === 'string') body = opts.form;
    else {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.form)) for (const one of typeof v === 'string' ? [v] : v) params.append(k, one);
      body = params.toString();
    }
  }
  // fetch sends no body with GET or HEAD: a table of routes may pass one to every method.
  const withBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
  const res = await fetch(url, { method, headers: { ...headers, ...(opts.headers ?? {}) }, ...(withBody ? { body } : {}) });
  return toReply(res);
}

export function get(ref: RunningReference, path: string, opts: Omit<CallOptions, 'body' | 'form' | 'raw'> = {}): Promise<Reply> {
  return call(ref, 'GET', path, opts);
}

/** Limits no test meets unless it is about limits. */
export const HIGH_LIMITS = Object.freeze({ perMinute: 1_000_000, perDay: 1_000_000 });
export const ALL_SCOPES = 'public favorites notifications publish_sku_review_actions';

/** The two setups most suites run on: the default data at the root, the alt data under a base path. */
export const SETUPS: readonly [string, ReferenceOptions][] = [
  ['default data', {}],
  ['alt data under /api', { dataset: 'alt', basePath: '/api' }],
];

export interface TestServer {
  ref: RunningReference;
  /** Application token (scope public). */
  app: string;
  /** User token (the demo user) with `userScope`. */
  user: string;
}

/**
 * Starts a server (with HIGH_LIMITS unless `options.limits` says otherwise) and returns it with
 * an application token; the server is closed again if the token request fails.
 */
export async function startWithToken(options: ReferenceOptions = {}): Promise<{ ref: RunningReference; token: string }> {
  const ref = await startReference({ limits: HIGH_LIMITS, ...options });
  try {
    return { ref, token: await appToken(ref) };
  } catch (err) {
    await ref.close();
    throw err;
  }
}

/** startWithToken, plus a user token (the demo user) of `userScope`. */
export async function startServer(options: ReferenceOptions = {}, userScope = 'public favorites'): Promise<TestServer> {
  const { ref, token } = await startWithToken(options);
  try {
    return { ref, app: token, user: (await userTokens(ref, userScope)).access };
  } catch (err) {
    await ref.close();
    throw err;
  }
}

/**
 * Servers with one legal variant each, started on first use and once only, all on `clock`, beside
 * `base` (the server without variants): the variant tests compare the two answers.
 */
export interface VariantCallOptions extends CallOptions {
  /** The application token instead of the user token. */
  app?: boolean;
}

export interface VariantReadOptions {
  /** The user token instead of the application token. */
  user?: boolean;
  /** Requested version ('3.1'). */
  version?: string | null;
}

export class VariantServers {
  readonly #started = new Map<string, Promise<TestServer>>();

  constructor(
    private readonly clock: Clock,
    private readonly base: () => TestServer,
  ) {}

  /** A server with just this variant on; null: the base server. */
  get(variant: VariantName | null): Promise<TestServer> {
    if (variant === null) return Promise.resolve(this.base());
    let s = this.#started.get(variant);
    if (!s) {
      s = startServer({ now: this.clock.now, variants: [variant] }, ALL_SCOPES);
      this.#started.set(variant, s);
    }
    return s;
  }

  /** A call with the user token (or, `app`, the application token) of the server with this variant on (null: none). */
  readonly call = async (variant: VariantName | null, method: string, path: string, opts: VariantCallOptions = {}): Promise<Reply> => {
    const s = await this.get(variant);
    return call(s.ref, method, path, { token: opts.app ? s.app : s.user, ...opts });
  };

  /** The same call without and with the variant. */
  readonly callBoth = async (variant: VariantName, method: string, path: string, opts: VariantCallOptions = {}): Promise<[Reply, Reply]> => [
    await this.call(null, method, path, opts),
    await this.call(variant, method, path, opts),
  ];

  /** GET with the application token (or, `user`, the user token) of the server with this variant on (null: none). */
  readonly read = async (variant: VariantName | null, path: string, opts: VariantReadOptions = {}): Promise<Reply> => {
    const s = await this.get(variant);
    return get(s.ref, path, { token: opts.user ? s.user : s.app, version: opts.version ?? null });
  };

  /** The same GET without and with the variant: [default, variant] bodies, both 200. */
  readonly readBoth = async (variant: VariantName, path: string, opts: VariantReadOptions = {}): Promise<[any, any]> => {
    const [a, b] = await Promise.all([this.read(null, path, opts), this.read(variant, path, opts)]);
    expect(a.status, a.text).toBe(200);
    expect(b.status, b.text).toBe(200);
    return [a.body, b.body];
  };

  /** Closes every server, the base one too. */
  async close(): Promise<void> {
    await Promise.all([this.base().ref.close(), ...[...this.#started.values()].map(async (s) => (await s).ref.close())]);
  }
}

// ---------------------------------------------------------------------------------------------
// Discovery through the API (robust to the faults: leaves by structure, pages until nothing new)

type Json = Record<string, any>;

/** The array of a collection the envelope fault (categories-under-singular-key) puts under its singular key: the other probes read on. */
export function singularEnvelope(body: Json | undefined, key: string): unknown[] | undefined {
  const items = key === 'categories' ? body?.['category'] : undefined;
  return Array.isArray(items) ? items : undefined;
}

/**
 * Every item of a collection (per=100, page by page until a page brings nothing new), robust
 * to pagination faults (a page parameter that is ignored, a wrong total_pages).
 */
export async function collect<T extends { id: number }>(ref: RunningReference, token: string, path: string, key: string, version?: string): Promise<T[]> {
  const out = new Map<number, T>();
  for (let page = 1; page <= 50; page++) {
    const r = await get(ref, `${path}${path.includes('?') ? '&' : '?'}per=100&page=${page}`, { token, version: version ?? null });
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text.slice(0, 200)}`);
    const items = (r.body?.[key] ?? singularEnvelope(r.body, key) ?? []) as T[];
    const before = out.size;
    for (const item of items) out.set(item.id, item);
    if (items.length < 100 || out.size === before) break;
  }
  return [...out.values()];
}

export interface CategoryRef {
  id: number;
  name: string;
  parent_id: number | null;
  children_count: number;
  path: string;
  image_url?: string | null;
}

export function allCategories(ref: RunningReference, token: string): Promise<CategoryRef[]> {
  return collect<CategoryRef>(ref, token, '/categories', 'categories');
}

/** The leaves among `cats`: those no category names as parent (children_count may be faulty). */
export function leavesOf<T extends { id: number; parent_id: number | null }>(cats: readonly T[]): T[] {
  // Compared as text: a fault gives parent_id as a string.
  const parents = new Set(cats.map((c) => String(c.parent_id)));
  return cats.filter((c) => !parents.has(String(c.id)));
}

export async function leafCategories(ref: RunningReference, token: string): Promise<CategoryRef[]> {
  return leavesOf(await allCategories(ref, token));
}

const skuCache = new WeakMap<RunningReference, Map<string, Promise<Json[]>>>();

/** Every SKU of every leaf category (the first 100 per leaf), in category order; cached per server and token. */
export function allSkus(ref: RunningReference, token: string): Promise<Json[]> {
  const byToken = skuCache.get(ref) ?? new Map<string, Promise<Json[]>>();
  skuCache.set(ref, byToken);
  let p = byToken.get(token);
  if (!p) {
    p = (async () => {
      const lists = await Promise.all((await leafCategories(ref, token)).map((l) => get(ref, `/categories/${l.id}/skus?per=100`, { token })));
      return lists.flatMap((r) => (r.status === 200 ? (r.body.skus as Json[]) : []));
    })();
    byToken.set(token, p);
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Expectations and small helpers

/** The spec's timestamp form (formatTimestamp). */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** 1x1 transparent PNG. */
export const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Fields of the spec's tables, in their order. */
export const CATEGORY_FIELDS = [
  'id',
  'name',
  'children_count',
  'image_url',
  'parent_id',
  'fashion',
  'layout_mode',
  'web_uri',
  'code',
  'path',
  'show_specifications',
  'manufacturer_title',
];
export const SKU_FIELDS = [
  'id',
  'ean',
  'pn',
  'name',
  'display_name',
  'category_id',
  'first_product_shop_info',
  'click_url',
  'price_max',
  'price_min',
  'reviewscore',
  'shop_count',
  'plain_spec_summary',
  'manufacturer_id',
  'future',
  'reviews_count',
  'virtual',
  'images',
  'web_uri',
  'comparable',
  'reviewable',
  'name_source',
  'sizes',
  'ecommerce_enabled',
  'unit_price',
  'description',
];
export const SHOP_FIELDS = [
  'id',
  'name',
  'link',
  'phone',
  'image_url',
  'thumbshot_url',
  'web_uri',
  'reviews_count',
  'latest_reviews_count',
  'review_score',
  'payment_methods',
  'shipping',
  'extra_info',
  'top_positive_reasons',
];

/** The etypes of the spec's Events section. */
export const NOTIFICATION_ETYPES = [
  'price_drop',
  'price_up',
  'availability_true',
  'availability_false',
  'sku_release',
  'sku_review',
  'sku_review_rephrase_request',
  'sku_review_approve_after_update',
] as const;

/** An error answer: `status`, and the body {errors: [{code, messages}]} with at least one message. */
export function expectError(r: Reply, status: number, code?: string, what?: string): void {
  expect(r.status, what ?? r.text).toBe(status);
  expect(r.body, what).toEqual({ errors: [{ code: code ?? expect.any(String), messages: expect.any(Array) }] });
  expect(r.body.errors[0].messages.length, what).toBeGreaterThan(0);
  for (const m of r.body.errors[0].messages) expect(typeof m, what).toBe('string');
}

/** A sorted copy (default sort order: for comparing sets of keys or ids). */
export const sorted = <T>(xs: readonly T[]): T[] => [...xs].sort();
export const ids = (items: readonly Json[]): number[] => items.map((x) => x['id'] as number);

/** Name order of the listings: case-insensitive, ties by id. */
export function byName(a: Json, b: Json): number {
  const x = String(a.name).toLowerCase();
  const y = String(b.name).toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id - b.id;
}

/** X-RateLimit-Limit, -Remaining and -Reset. */
export function rateHeaders(h: Headers): [string | null, string | null, string | null] {
  return [h.get('x-ratelimit-limit'), h.get('x-ratelimit-remaining'), h.get('x-ratelimit-reset')];
}

/** Parses an RFC 8288 Link header into rel -> URL. */
export function parseLink(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(/,\s*(?=<)/)) {
    const m = /^<([^>]*)>\s*;\s*rel="([^"]+)"$/.exec(part.trim());
    if (m) out[m[2]!] = m[1]!;
  }
  return out;
}

/** What a variants test file compares on: see variantTestBed. */
export interface VariantTestBed {
  clock: Clock;
  /** The dataset every server on the clock holds: fixtures are picked from it where the API does not show what makes them fit. */
  data: Dataset;
  /** The reference with no variant on (started before the file's tests). */
  base: () => TestServer;
  servers: VariantServers;
}

/**
 * One clock, its dataset, the reference with no variant on and the servers with one variant each
 * (started on first use): every server runs on the clock, so they all hold the same dataset. The
 * base server starts before the calling file's tests, and every server closes after them.
 */
export function variantTestBed(): VariantTestBed {
  const clock = makeClock();
  let base: TestServer | undefined;
  const baseServer = (): TestServer => base ?? expect.fail('the base server starts before the tests (beforeAll)');
  const servers = new VariantServers(clock, baseServer);
  beforeAll(async () => {
    base = await startServer({ now: clock.now }, ALL_SCOPES);
  });
  afterAll(async () => {
    if (base) await servers.close();
  });
  return { clock, data: createDataset('default', clock.now()), base: baseServer, servers };
}
