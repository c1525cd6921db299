// Shared response helpers: results, the errors envelope, JSON writing with ETag / 304,
// pagination with meta and the Link header, timestamps, request bodies.
//
// Legal variants (variants.ts) of the choices made here: weak-etags (W/"..." tags),
// vendor-content-type and vendor-media-type (the Content-Type of JSON answers),
// timestamps-offset and extra-fields (variantBody: the JSON bodies of the API), and the
// pagination variants listed at paginate.

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultName } from './faults.ts';
import { NO_VARIANTS, type Variants } from './variants.ts';
import { ACME_MEDIA_TYPE, vendorMediaType, type ApiVersion } from './versioning.ts';

export type HeaderMap = Record<string, string | string[]>;

/** What a route handler returns; the pipeline turns it into the HTTP response. */
export interface ApiResult {
  status: number;
  /** JSON body; undefined for no body. */
  body?: unknown;
  headers?: HeaderMap;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** An error that becomes `{errors:[{code, messages}]}` with the given status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly messages: string[];
  readonly headers: HeaderMap | undefined;
  constructor(status: number, code: string, messages: string | string[], headers?: HeaderMap) {
    const list = Array.isArray(messages) ? messages : [messages];
    super(list.join('; '));
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.messages = list;
    this.headers = headers;
  }
}

export function errorsBody(code: string, messages: string[]): { errors: { code: string; messages: string[] }[] } {
  return { errors: [{ code, messages }] };
}

/** RecordNotFound, with the message naming the record: "Couldn't find Category with id=123". */
export function recordNotFound(model: string, id: string | number): ApiError {
  return new ApiError(404, 'RecordNotFound', [`Couldn't find ${model} with id=${id}`]);
}

export function badRequest(message: string, code = 'BadRequest'): ApiError {
  return new ApiError(400, code, [message]);
}

/** Turns an ApiError into a result. */
export function errorResult(err: ApiError, fault: FaultName | null): ApiResult {
  const headers = err.headers ? { ...err.headers } : undefined;
  if (fault === 'not-found-wrong-body' && err.code === 'RecordNotFound') {
    return { status: err.status, body: { error: 'not found' }, ...(headers ? { headers } : {}) };
  }
  if (fault === 'unauthorized-messages-string' && err.status === 401) {
    return { status: 401, body: { errors: [{ code: err.code, messages: err.messages.join(' ') }] }, ...(headers ? { headers } : {}) };
  }
  return { status: err.status, body: errorsBody(err.code, err.messages), ...(headers ? { headers } : {}) };
}

/** `{ <key>: object }` */
export function single(key: string, value: unknown): ApiResult {
  return { status: 200, body: { [key]: value } };
}

/** Timestamps: YYYY-MM-DDTHH:MM:SSZ (no fractional seconds). */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// ---------------------------------------------------------------------------------------------
// JSON bodies and headers as the variants write them

/**
 * The Content-Type of JSON answers: application/json, or the deployment's vendor type (variant
 * vendor-media-type). Variant vendor-content-type: the vendor media type with the served version
 * (`served`, null when no version was chosen: the answer carries no version parameter).
 */
export function jsonContentType(variants: Variants = NO_VARIANTS, served: ApiVersion | null = null): string {
  if (variants.has('vendor-content-type')) return `${vendorMediaType(variants)}${served ? `; version=${served.label}` : ''}; charset=utf-8`;
  return variants.has('vendor-media-type') ? `${ACME_MEDIA_TYPE}; charset=utf-8` : JSON_CONTENT_TYPE;
}

const TIMESTAMP_Z = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})Z$/;
const OFFSET_MS = 2 * 60 * 60 * 1000;

/** "2024-05-01T12:00:00Z" -> "2024-05-01T14:00:00+02:00" (the same instant); other strings unchanged. */
export function timestampAtOffset(text: string): string {
  const m = TIMESTAMP_Z.exec(text);
  if (!m) return text;
  const ms = Date.parse(`${m[1]}Z`);
  if (Number.isNaN(ms)) return text;
  return `${new Date(ms + OFFSET_MS).toISOString().slice(0, 19)}+02:00`;
}

/** A copy of a JSON value with `fn` applied to every string value (not to keys). */
function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn)]));
  }
  return value;
}

/** `obj` with the undocumented keys at its end; the values depend on the record alone (its id), so an unchanged body keeps its ETag. */
function withExtraKeys(obj: Record<string, unknown>): Record<string, unknown> {
  const id = obj['id'];
  return { ...obj, x_internal_id: typeof id === 'number' ? 1_000_000 + id : null, x_trace: 'reference' };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of a JSON value with the undocumented keys on `record` (when an object) and on every object with an id inside it. */
function extraFieldsDeep(value: unknown, record: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => extraFieldsDeep(v, false));
  if (!isPlainObject(value)) return value;
  const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, extraFieldsDeep(v, false)]));
  return record || value['id'] !== undefined ? withExtraKeys(out) : out;
}

/**
 * A resource with undocumented keys, as a deployment's internal bookkeeping adds them (variant
 * extra-fields): on the resource and on every object with an id inside it (a nested SKU, user,
 * review). Objects keyed by data (order_by_methods, filter counts, rating breakdowns, region ids)
 * are maps whose keys are values, so they get none. shape.ts applies it before the fieldsets, so
 * fields[...] / fields_except[...] trim these keys like any other field.
 */
export function withExtraFields(resource: Record<string, unknown>): Record<string, unknown> {
  return extraFieldsDeep(resource, true) as Record<string, unknown>;
}

/** The undocumented keys on a body's envelope, its meta and meta.pagination (the resources have theirs from shape.ts). */
function envelopeExtraFields(body: unknown): unknown {
  if (!isPlainObject(body)) return body;
  const out = { ...body };
  if (isPlainObject(out['meta'])) {
    const meta = { ...out['meta'] };
    if (isPlainObject(meta['pagination'])) meta['pagination'] = withExtraKeys(meta['pagination']);
    out['meta'] = withExtraKeys(meta);
  }
  return withExtraKeys(out);
}

/** Is this the errors envelope `{errors: [{code, messages}]}`? */
export function isErrorsBody(body: unknown): body is { errors: { code: string; messages: string[] }[] } {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as Record<string, unknown>)['errors'])) return false;
  return ((body as { errors: unknown[] }).errors).every(
    (e) => typeof e === 'object' && e !== null && typeof (e as Record<string, unknown>)['code'] === 'string' && Array.isArray((e as Record<string, unknown>)['messages']),
  );
}

/** The errors envelope in the format before 3.1.0's normalization: `{error: <code>, message: <text>}`. */
export function legacyErrorBody(body: { errors: { code: string; messages: string[] }[] }): { error: string; message: string } {
  const first = body.errors[0];
  return { error: first?.code ?? 'Error', message: body.errors.flatMap((e) => e.messages).join('; ') };
}

/**
 * An API body as the variants write it: timestamps at +02:00 (timestamps-offset; price-history
 * dates are no timestamps), undocumented keys on the envelope and meta (extra-fields; the
 * resources get theirs in shape.ts, before the fieldsets).
 */
export function variantBody(body: unknown, variants: Variants): unknown {
  let out = body;
  if (variants.has('timestamps-offset')) out = mapStrings(out, timestampAtOffset);
  if (variants.has('extra-fields')) out = envelopeExtraFields(out);
  return out;
}

/** Strong ETag: quoted base64url SHA-256 of the exact body bytes. */
export function etagFor(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`;
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored. */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const trimmed = header.trim();
  if (trimmed === '*') return true;
  const strip = (t: string): string => t.trim().replace(/^W\//, '');
  const ours = strip(etag);
  return trimmed.split(',').some((t) => strip(t) === ours);
}

/**
 * Writes a result as JSON. For a 200 answer to GET/HEAD it adds an ETag and answers 304 (no body,
 * same ETag and extra headers, no Link, Content-Type or Content-Length) when If-None-Match
 * matches. No other response carries an ETag.
 */
export function writeResult(
  req: IncomingMessage,
  res: ServerResponse,
  result: ApiResult,
  extraHeaders: HeaderMap = {},
  fault: FaultName | null = null,
  variants: Variants = NO_VARIANTS,
  served: ApiVersion | null = null,
): void {
  const headers: HeaderMap = { ...extraHeaders, ...(result.headers ?? {}) };
  if (result.body === undefined) {
    res.writeHead(result.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(result.body);
  const buf = Buffer.from(text, 'utf8');
  if (result.status === 200 && (req.method === 'GET' || req.method === 'HEAD')) {
    // The fault's ETag mixes in the time of the response, as a "last generated" stamp would; the
    // other fault's is the request target's (a cache key), so a change of the resource keeps it.
    const etag =
      fault === 'etag-changes-every-response'
        ? etagFor(`${text}@${process.hrtime.bigint()}`)
        : fault === 'etag-from-request-target'
          ? etagFor(req.url ?? '')
          : etagFor(buf);
    headers['ETag'] = variants.has('weak-etags') ? `W/${etag}` : etag;
    const inm = req.headers['if-none-match'];
    // The comparison is weak either way, so W/"x" and "x" match.
    if (fault !== 'if-none-match-ignored' && ifNoneMatchMatches(inm, etag)) {
      delete headers['Link'];
      if (fault === 'ratelimit-headers-missing-on-304') {
        for (const name of Object.keys(headers)) if (name.toLowerCase().startsWith('x-ratelimit-')) delete headers[name];
      }
      res.writeHead(304, headers);
      res.end();
      return;
    }
  }
  headers['Content-Type'] = jsonContentType(variants, served);
  headers['Content-Length'] = String(buf.length);
  res.writeHead(result.status, headers);
  res.end(buf);
}

// ---------------------------------------------------------------------------------------------
// Pagination

export const DEFAULT_PER = 25;
/**
 * Choice (the spec gives no maximum): per is capped at 100. A larger per is clamped, not
 * rejected, and meta.pagination.per reports the value actually used (100). Variant per-cap-50:
 * capped at 50.
 */
export const MAX_PER = 100;
/** The cap of variant per-cap-50. */
export const MAX_PER_50 = 50;

export interface Pagination {
  total_results: number;
  total_pages: number;
  page: number;
  per: number;
}

/** page / per: a positive integer; anything else is 400, or the fallback when `lenient`. */
function positiveIntParam(query: URLSearchParams, name: string, fallback: number, lenient: boolean): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    if (lenient) return fallback;
    throw new ApiError(400, 'InvalidParameter', [`${name} must be a positive integer, got "${raw}"`]);
  }
  return Number(raw);
}

export interface PageRequest {
  /** The absolute public URL of the request (with its base path and query). */
  url: URL;
  query: URLSearchParams;
  fault: FaultName | null;
  /** The server's legal variants; none when left out. */
  variants?: Variants;
}

export interface Page<T> {
  items: T[];
  pagination: Pagination;
  headers: HeaderMap;
}

/**
 * Slices `all` by the page / per query parameters (non-integer or < 1 -> 400 InvalidParameter;
 * variant bad-paging-defaults: ignored, the defaults apply).
 *
 * total_pages = ceil(total_results / per), so an empty collection has total_pages 0 (choice;
 * variant empty-collection-one-page: 1). A page past the end is 200 with an empty slice and the
 * true meta (variant page-past-end-404: 404 RecordNotFound).
 *
 * Link header (reading of "when other pages exist a Link header carries rel=next and rel=last"):
 * sent only when total_pages > 1; rel="next" only when page < total_pages; rel="last" always
 * then (variant link-every-rel: on every answer, first and last, prev and next where they
 * exist). URLs are absolute (variant link-relative: path and query only), keep the path (with
 * base path) and every other query parameter in order (variant link-default-per-omitted: per
 * left out when it is the default), set page=, and never contain oauth_token.
 */
export function paginate<T>(req: PageRequest, all: readonly T[]): Page<T> {
  const variants = req.variants ?? NO_VARIANTS;
  const lenient = variants.has('bad-paging-defaults');
  const defaultPer = req.fault === 'default-per-not-25' ? 20 : DEFAULT_PER;
  const page = req.fault === 'page-param-ignored' ? 1 : positiveIntParam(req.query, 'page', 1, lenient);
  const per = Math.min(positiveIntParam(req.query, 'per', defaultPer, lenient), variants.has('per-cap-50') ? MAX_PER_50 : MAX_PER);
  const total = all.length;
  let totalPages = Math.ceil(total / per);
  // Page 1 of an empty collection exists (and is empty).
  if (totalPages === 0 && variants.has('empty-collection-one-page')) totalPages = 1;
  if (page > Math.max(1, totalPages) && variants.has('page-past-end-404')) {
    throw new ApiError(404, 'RecordNotFound', [`Couldn't find page ${page}; the collection has ${totalPages} page${totalPages === 1 ? '' : 's'} of ${per}`]);
  }
  const start = (page - 1) * per;
  const items = start < total ? all.slice(start, start + per) : [];
  const linkUrl = (n: number): string => {
    const absolute = req.fault === 'link-next-drops-query' ? pageOnlyUrl(req.url, n) : pageUrl(req.url, n, variants.has('link-default-per-omitted') && per === defaultPer);
    return variants.has('link-relative') ? relativeRef(absolute) : absolute;
  };
  const links = variants.has('link-every-rel') ? everyRel(page, totalPages, linkUrl) : nextAndLast(page, totalPages, linkUrl);
  const headers: HeaderMap = {};
  if (links.length > 0 && req.fault !== 'link-header-missing') headers['Link'] = links.join(', ');
  if (req.fault === 'pagination-total-pages-off-by-one') totalPages += 1;
  return { items, pagination: { total_results: total, total_pages: totalPages, page, per }, headers };
}

/** The reference's Link: only when other pages exist; next (when there is one) and last. */
function nextAndLast(page: number, totalPages: number, linkUrl: (n: number) => string): string[] {
  if (totalPages <= 1) return [];
  const links: string[] = [];
  if (page < totalPages) links.push(`<${linkUrl(page + 1)}>; rel="next"`);
  links.push(`<${linkUrl(totalPages)}>; rel="last"`);
  return links;
}

/** Variant link-every-rel: first and last always (page 1 for an empty collection), prev and next where those pages exist. */
function everyRel(page: number, totalPages: number, linkUrl: (n: number) => string): string[] {
  const last = Math.max(1, totalPages);
  const links = [`<${linkUrl(1)}>; rel="first"`];
  if (page > 1 && page - 1 <= last) links.push(`<${linkUrl(page - 1)}>; rel="prev"`);
  if (page < last) links.push(`<${linkUrl(page + 1)}>; rel="next"`);
  links.push(`<${linkUrl(last)}>; rel="last"`);
  return links;
}

/** An absolute URL as a relative reference: absolute path and query (variant link-relative). */
function relativeRef(absolute: string): string {
  const u = new URL(absolute);
  return `${u.pathname}${u.search}`;
}

/**
 * Same URL with page=<n>: oauth_token removed (and per, when `dropPer`); every other parameter
 * kept byte for byte and in order; page replaced in place (or appended).
 */
export function pageUrl(url: URL, page: number, dropPer = false): string {
  const u = new URL(url.href);
  const out: string[] = [];
  let placed = false;
  for (const part of u.search.replace(/^\?/, '').split('&')) {
    if (part === '') continue;
    const rawKey = part.split('=')[0]!.replace(/\+/g, ' ');
    let key: string;
    try {
      key = decodeURIComponent(rawKey);
    } catch {
      key = rawKey;
    }
    if (key === 'oauth_token' || (dropPer && key === 'per')) continue;
    if (key === 'page') {
      if (!placed) out.push(`page=${page}`);
      placed = true;
      continue;
    }
    out.push(part);
  }
  if (!placed) out.push(`page=${page}`);
  u.search = out.join('&');
  return u.href;
}

/** The same path with only page=<n> (the bug of fault link-next-drops-query). */
function pageOnlyUrl(url: URL, page: number): string {
  const u = new URL(url.href);
  u.search = `page=${page}`;
  return u.href;
}

/** `{ <key>: items, meta: { pagination } }` plus the Link header. */
export function collection<T>(key: string, req: PageRequest, all: readonly T[], map: (item: T) => unknown): ApiResult {
  const p = paginate(req, all);
  return {
    status: 200,
    body: { [key]: p.items.map(map), meta: { pagination: p.pagination } },
    headers: p.headers,
  };
}

// ---------------------------------------------------------------------------------------------
// Request bodies

/** Largest token-request body. */
export const MAX_BODY_BYTES = 64 * 1024;
/** Largest API request body (PATCH /user carries a base64 avatar image). */
export const MAX_API_BODY_BYTES = 2 * 1024 * 1024;

/** Why readBody gave up. */
export type BodyProblem = 'too-large' | 'aborted';

/**
 * Reads the whole body, or reports why not. A body over `limit` bytes (announced by
 * Content-Length, or counted while it arrives) is reported as soon as that is known, without
 * waiting for the rest: the caller answers at once and calls `discardRest`. A request that the
 * client abandons (connection closed before the end) is 'aborted' instead of a promise that
 * never settles.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer | BodyProblem> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return resolve('too-large');
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (value: Buffer | BodyProblem): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onClose);
      resolve(value);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        finish('too-large');
      } else chunks.push(chunk);
    };
    const onEnd = (): void => finish(Buffer.concat(chunks));
    const onAbort = (): void => finish('aborted');
    const onClose = (): void => {
      if (!req.complete) finish('aborted');
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onClose);
  });
}

/**
 * After an answer given before the request body was (fully) read: the rest is read and thrown
 * away, so the connection can serve the next request and the client, still sending, gets to
 * read the answer (closing a socket with unread input resets it, and the client may then lose
 * the answer). A client that sends more than `maxBytes` more, or is not done within `maxMs`,
 * has its connection closed.
 */
export function discardRest(req: IncomingMessage, maxBytes = 8 * 1024 * 1024, maxMs = 2000): void {
  const length = req.headers['content-length'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!hasBody || req.complete || req.destroyed) return;
  let drained = 0;
  const stop = (): void => {
    clearTimeout(timer);
    req.socket.destroy();
  };
  const timer = setTimeout(stop, maxMs);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > maxBytes) stop();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.on('error', () => undefined);
  req.resume();
}

/**
 * Parses an API request body: JSON (an object), or application/x-www-form-urlencoded with
 * bracket keys (`vote[helpful]=true` -> { vote: { helpful: "true" } }). Empty body -> null.
 * Throws 400 BadRequest for malformed JSON, a JSON value that is not an object, or another
 * content type.
 */
export function parseApiBody(raw: Buffer, contentType: string | undefined): Record<string, unknown> | null {
  const text = raw.toString('utf8');
  if (text.trim() === '') return null;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return parseNestedForm(text);
  if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
    throw new ApiError(400, 'BadRequest', [`Unsupported request body type "${type}"; send application/json`]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, 'BadRequest', [`Malformed JSON body: ${err instanceof Error ? err.message : String(err)}`]);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError(400, 'BadRequest', ['The JSON body must be an object']);
  }
  return parsed as Record<string, unknown>;
}

const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** `a[b]=1&a[c][]=2&d=3` -> { a: { b: "1", c: ["2"] }, d: "3" } (later scalars win). */
export function parseNestedForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!m) continue;
    const path = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)];
    // `__proto__[x]=1` must not reach Object.prototype.
    if (path.some((part) => UNSAFE_KEYS.has(part))) continue;
    let node: Record<string, unknown> = root;
    for (let i = 0; i < path.length; i++) {
      const part = path[i]!;
      const last = i === path.length - 1;
      const nextIsArray = path[i + 1] === '';
      if (last) {
        node[part] = value;
      } else if (nextIsArray && i + 1 === path.length - 1) {
        const arr = Array.isArray(node[part]) ? (node[part] as unknown[]) : [];
        arr.push(value);
        node[part] = arr;
        break;
      } else {
        const child = node[part];
        const obj = typeof child === 'object' && child !== null && !Array.isArray(child) ? (child as Record<string, unknown>) : {};
        node[part] = obj;
        node = obj;
      }
    }
  }
  return root;
}
