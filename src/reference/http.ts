// Shared response helpers: results, the errors envelope, JSON writing with ETag / 304,
// timestamps. Pagination (meta and the Link header) is pagination.ts, request bodies
// request-body.ts.
//
// Legal variants (variants.ts) of the choices made here: weak-etags (W/"..." tags),
// vendor-content-type and vendor-media-type (the Content-Type of JSON answers),
// timestamps-offset and extra-fields (variantBody: the JSON bodies of the API).

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
export function errorResult(err: ApiError, fault: FaultName | null, variants: Variants = NO_VARIANTS): ApiResult {
  const headers = err.headers ? { ...err.headers } : undefined;
  if (fault === 'not-found-wrong-body' && err.code === 'RecordNotFound') {
    return { status: err.status, body: { error: 'not found' }, ...(headers ? { headers } : {}) };
  }
  if (variants.has('not-found-empty-array') && err.code === 'RecordNotFound') {
    return { status: err.status, body: [], ...(headers ? { headers } : {}) };
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
  return (body as { errors: unknown[] }).errors.every(
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
/** The faults whose ETag is the request target's (a cache key): everywhere, or on one endpoint. */
function taggedByTarget(url: string, fault: FaultName | null): boolean {
  const path = url.split('?')[0] ?? '';
  if (fault === 'etag-from-request-target') return true;
  if (fault === 'category-etag-ignores-query') return /\/categories\/(root|\d+)$/.test(path);
  if (fault === 'user-etag-from-request-target') return /\/user$/.test(path);
  return fault === 'addresses-etag-from-request-target' && /\/user\/addresses$/.test(path);
}

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

/** If-None-Match holding the exact tag sent, or * (variant etag-strong-comparison). */
function exactTagMatches(header: string | undefined, sent: string): boolean {
  if (header === undefined) return false;
  return header.trim() === '*' || header.split(',').some((t) => t.trim() === sent);
}

/** A body of a paginated collection (meta.pagination). */
function isPaginatedBody(body: unknown): boolean {
  const meta = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['meta'] : undefined;
  return typeof meta === 'object' && meta !== null && 'pagination' in meta;
}

/** Writes a JSON body as it is (no ETag, no variants): the OAuth answers and the last-resort 500. */
export function writeJson(res: ServerResponse, status: number, body: unknown, headers: HeaderMap = {}): void {
  const buf = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, { ...headers, 'Content-Type': JSON_CONTENT_TYPE, 'Content-Length': String(buf.length) });
  res.end(buf);
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
  // Variant etag-off-collections: paginated collections carry no ETag ("most responses", not all).
  const untagged = variants.has('etag-off-collections') && isPaginatedBody(result.body);
  // The bug: the middleware that tags answers is not installed.
  if (result.status === 200 && (req.method === 'GET' || req.method === 'HEAD') && !untagged && fault !== 'etag-never-sent') {
    // The fault's ETag mixes in the time of the response, as a "last generated" stamp would; the
    // other fault's is the request target's (a cache key), so a change of the resource keeps it.
    const target = fault === 'category-etag-ignores-query' ? (req.url ?? '').split('?')[0]! : (req.url ?? '');
    const etag = fault === 'etag-changes-every-response' ? etagFor(`${text}@${process.hrtime.bigint()}`) : taggedByTarget(req.url ?? '', fault) ? etagFor(target) : etagFor(buf);
    headers['ETag'] = variants.has('weak-etags') ? `W/${etag}` : etag;
    const inm = req.headers['if-none-match'];
    // The comparison is weak, so W/"x" and "x" match; variant etag-strong-comparison takes only the exact tag sent.
    const matches = variants.has('etag-strong-comparison') ? exactTagMatches(inm, String(headers['ETag'])) : ifNoneMatchMatches(inm, etag);
    if (fault !== 'if-none-match-ignored' && matches) {
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
