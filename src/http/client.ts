// The one HTTP layer every request of the kit goes through (suites, discovery, token requests).
// undici underneath; redirects are followed here, not by undici, so that each hop is counted,
// paced and recorded, and so that a token never travels to another origin.
import { Agent, request as undiciRequest } from 'undici';
import { SPEC_MEDIA_TYPE } from '../rules/media-type.ts';
import { recordExchange, type Exchange, type RawExchange } from './exchange.ts';

/** The spec's media type (a deployment's own is CATALOGUE_MEDIA_TYPE, passed as `mediaType`). */
export const MEDIA_TYPE = SPEC_MEDIA_TYPE;
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 10;
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;
export type Query = Record<string, QueryValue>;
export type TokenPlacement = 'header' | 'query' | 'both';

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  query?: Query;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as application/json exactly as given: a body that is not valid JSON, for the tests of bad requests. */
  jsonText?: string;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** Access token; null or absent sends none. */
  token?: string | null;
  /** Where the token goes (spec: Sending the token). Both at once only when a test asks for it. */
  tokenVia?: TokenPlacement;
  /** Follow 3xx answers (default true); false returns the 3xx as it came. */
  followRedirects?: boolean;
  /** Override the Accept header; null sends none. */
  accept?: string | null;
}

export type HttpErrorKind = 'connect' | 'timeout' | 'reset' | 'too-large' | 'redirect-loop' | 'too-many-redirects' | 'bad-redirect' | 'not-json' | 'budget' | 'other';

/** The kinds of error where the server gave no complete answer (the run's stall detector counts them, src/budget/watchdog.ts). */
const NO_ANSWER: ReadonlySet<HttpErrorKind> = new Set(['connect', 'timeout', 'reset', 'other']);

/** A request that got no usable answer; `message` is one line a user can act on. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly kind: HttpErrorKind,
    message: string,
    readonly exchanges: Exchange[] = [],
  ) {
    super(message);
  }
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  text: string;
  /** URL of the final hop. */
  url: string;
  /** Every hop, redacted, in order. */
  exchanges: Exchange[];
  /** The body parsed as JSON; an HttpError of kind not-json when it is not JSON. */
  json<T = unknown>(): T;
  /** The kind of the run's token the request carried ('app', 'user'); absent or null: none, or one the run does not manage. */
  tokenKind?: 'app' | 'user' | null;
  /** The scopes that token was granted, when the run knows them; absent or null: not known. */
  tokenScopes?: readonly string[] | null;
}

/** An answer as plain data (what crosses from a worker to the run's main process and back). */
export type PlainResponse = Omit<HttpResponse, 'json'>;

/** The answer to a `method` request from its plain data (an answer kept and given again). */
export function responseOf(plain: PlainResponse, method = 'GET'): HttpResponse {
  return {
    ...plain,
    json<T>(): T {
      return parseJsonBody<T>(plain.status, plain.headers, plain.text, method, plain.exchanges);
    },
  };
}

/** The plain data of an answer. */
export function plainOf(response: HttpResponse): PlainResponse {
  const { json: _json, ...plain } = response;
  return plain;
}

export interface SendInfo {
  method: string;
  url: string;
  /** The token this hop carries (for per-token pacing), or null. */
  token: string | null;
}

/** A hop that got no answer: what happened (the error's message) and when it was sent. */
export interface Unanswered {
  message: string;
  sentAtMs: number;
}

export interface HttpHooks {
  /** Before each hop: budget and pacing. May throw to stop the request (e.g. budget spent). */
  beforeSend?(info: SendInfo): Promise<void>;
  /**
   * After each hop, answered or not (status and headers null when no response came), so that
   * pacing learns the rate-limit headers and never counts a failed request as still in flight.
   */
  afterReceive?(info: SendInfo, status: number | null, headers: Record<string, string> | null, unanswered?: Unanswered): Promise<void>;
  /** Every hop, redacted, including those that failed; `text` is the whole answer (the record keeps an excerpt). */
  onExchange?(exchange: Exchange, text?: string): void;
}

export interface HttpClientOptions {
  apiVersion: string;
  /** The vendor media type of the Accept header (CATALOGUE_MEDIA_TYPE); default the spec's MEDIA_TYPE. */
  mediaType?: string;
  timeoutMs: number;
  maxBodyBytes?: number;
  hooks?: HttpHooks;
  dispatcher?: Agent;
  /**
   * The run's observed rules judge this client's hops (src/rules/observations.ts): a recorder
   * marks them, so that `verify` re-judges from a HAR exactly the exchanges the run judged.
   */
  judgedLive?: boolean;
}

export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Appends path and query to a base URL; never resolves against the host root (keeps /api). */
export function joinUrl(base: string, path: string, query?: Query): string {
  if (!path.startsWith('/')) throw new Error(`path must start with '/': ${path}`);
  const url = new URL(base.replace(/\/+$/, '') + path);
  appendQuery(url, query);
  return url.toString();
}

export function appendQuery(url: URL, query?: Query): void {
  if (!query) return;
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
    else url.searchParams.append(key, String(value));
  }
}

const sharedAgent = new Agent({ keepAliveTimeout: 4_000, connections: 16 });

/** One hop as sent and received, whole and not yet redacted, with the time it started (ms since the epoch). */
export interface RecordedHop extends RawExchange {
  startedMs: number;
  /** HttpClientOptions.judgedLive. */
  judgedLive?: boolean;
}

/**
 * Receives every hop of every HttpClient of this process (the run's HAR, CATALOGUE_HAR); null
 * when nothing records, and then no record of the hop is even built. The recorder redacts what it keeps.
 */
let hopRecorder: ((hop: RecordedHop) => void) | null = null;

/** Installs (or with null removes) the process's hop recorder. */
export function setHopRecorder(recorder: ((hop: RecordedHop) => void) | null): void {
  hopRecorder = recorder;
}

export class HttpClient {
  readonly #options: HttpClientOptions;
  #count = 0;

  constructor(options: HttpClientOptions) {
    this.#options = options;
  }

  /** Hops sent by this client (each redirect hop is a request of its own). */
  get requestCount(): number {
    return this.#count;
  }

  get acceptHeader(): string {
    return `${this.#options.mediaType ?? MEDIA_TYPE}; version=${this.#options.apiVersion}`;
  }

  async request(url: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const exchanges: Exchange[] = [];
    let method = (options.method ?? 'GET').toUpperCase();
    let body = encodeBody(options);
    const token = options.token ?? null;
    const tokenVia = options.tokenVia ?? 'header';
    const firstOrigin = new URL(url).origin;
    // The first URL counts as visited: A -> B -> A is a loop as soon as B points back to A.
    const firstKey = new URL(url);
    firstKey.searchParams.delete('oauth_token');
    const seen = new Set<string>([`${method} ${firstKey.toString()}`]);
    let current = url;

    for (let hop = 0; ; hop++) {
      const sameOrigin = new URL(current).origin === firstOrigin;
      // The token goes only to the origin it was meant for: a redirect elsewhere gets none.
      const hopToken = sameOrigin ? token : null;
      const target = new URL(current);
      if (hopToken && (tokenVia === 'query' || tokenVia === 'both')) target.searchParams.set('oauth_token', hopToken);
      const headers: Record<string, string> = {};
      const accept = options.accept === undefined ? this.acceptHeader : options.accept;
      if (accept !== null) headers['accept'] = accept;
      if (body) headers['content-type'] = body.contentType;
      for (const [name, value] of Object.entries(options.headers ?? {})) {
        // Credentials a test wrote by hand stay on the first origin too.
        if (!sameOrigin && CREDENTIAL_HEADERS.has(name.toLowerCase())) continue;
        headers[name.toLowerCase()] = value;
      }
      if (hopToken && (tokenVia === 'header' || tokenVia === 'both')) headers['authorization'] = `Bearer ${hopToken}`;

      const info: SendInfo = { method, url: target.toString(), token: hopToken };
      await this.#options.hooks?.beforeSend?.(info);
      this.#count++;
      const hopResult = await this.#send(info, headers, body?.text);
      exchanges.push(hopResult.exchange);
      this.#options.hooks?.onExchange?.(hopResult.exchange, hopResult.error ? undefined : hopResult.text);
      if (hopResult.error) {
        // No complete answer came (a body cut off or stalled counts too); a body too large is an answer.
        const unanswered = NO_ANSWER.has(hopResult.error.kind) ? { message: hopResult.error.message, sentAtMs: hopResult.sentAtMs } : undefined;
        await this.#options.hooks?.afterReceive?.(info, null, null, unanswered);
        throw new HttpError(hopResult.error.kind, hopResult.error.message, exchanges);
      }
      const { status, headers: responseHeaders, text } = hopResult;
      await this.#options.hooks?.afterReceive?.(info, status, responseHeaders);

      if (options.followRedirects !== false && REDIRECT_STATUSES.has(status)) {
        const location = responseHeaders['location'];
        if (!location) {
          throw new HttpError('bad-redirect', `${method} ${shortUrl(exchanges)} answered ${status} without a Location header`, exchanges);
        }
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          throw new HttpError('bad-redirect', `${status} with an unusable Location header`, exchanges);
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new HttpError('bad-redirect', `${status} redirects to a non-HTTP URL (${next.protocol})`, exchanges);
        }
        // 303, and 301/302 after a non-GET, turn into GET without a body (what browsers and fetch do).
        if (status === 303 || ((status === 301 || status === 302) && method !== 'GET' && method !== 'HEAD')) {
          method = 'GET';
          body = undefined;
        }
        next.searchParams.delete('oauth_token');
        const key = `${method} ${next.toString()}`;
        if (seen.has(key) || next.toString() === current) {
          throw new HttpError('redirect-loop', `redirect loop: ${method} ${next.pathname} was already visited`, exchanges);
        }
        seen.add(key);
        if (hop + 1 > MAX_REDIRECTS) {
          throw new HttpError('too-many-redirects', `more than ${MAX_REDIRECTS} redirects from ${shortUrl(exchanges)}`, exchanges);
        }
        current = next.toString();
        continue;
      }

      return responseOf({ status, headers: responseHeaders, text, url: current, exchanges }, method);
    }
  }

  async #send(
    info: SendInfo,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<
    | { error: { kind: HttpErrorKind; message: string }; exchange: Exchange; sentAtMs: number }
    | { error?: undefined; status: number; headers: Record<string, string>; text: string; exchange: Exchange }
  > {
    const started = performance.now();
    const startedMs = Date.now();
    // Every way out of this hop records it: redacted and cut for the report, whole for a recorder.
    const record = (raw: RawExchange): Exchange => {
      hopRecorder?.({ ...raw, startedMs, ...(this.#options.judgedLive ? { judgedLive: true } : {}) });
      return recordExchange(raw);
    };
    const maxBody = this.#options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const timeoutMs = this.#options.timeoutMs;
    const signal = AbortSignal.timeout(timeoutMs);
    const base = { method: info.method, url: info.url, requestHeaders: headers, ...(body !== undefined ? { requestBody: body } : {}) };
    let status: number | null = null;
    let responseHeaders: Record<string, string> = {};
    try {
      const response = await undiciRequest(info.url, {
        method: info.method as 'GET',
        headers,
        body,
        signal,
        dispatcher: this.#options.dispatcher ?? sharedAgent,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      status = response.statusCode;
      responseHeaders = normaliseHeaders(response.headers);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > maxBody) {
          response.body.destroy();
          const error = { kind: 'too-large' as const, message: `${info.method} ${pathOf(info.url)}: response body exceeds ${maxBody} bytes` };
          return { error, exchange: record({ ...base, status, responseHeaders, error: error.message, durationMs: performance.now() - started }), sentAtMs: startedMs };
        }
        chunks.push(chunk as Buffer);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      const exchange = record({ ...base, status, responseHeaders, responseBody: text, durationMs: performance.now() - started });
      return { status, headers: responseHeaders, text, exchange };
    } catch (caught) {
      const error = describeTransportError(caught, info, timeoutMs, status !== null);
      return { error, exchange: record({ ...base, status, responseHeaders, error: error.message, durationMs: performance.now() - started }), sentAtMs: startedMs };
    }
  }
}

function encodeBody(options: RequestOptions): { text: string; contentType: string } | undefined {
  if (options.json !== undefined) return { text: JSON.stringify(options.json), contentType: 'application/json' };
  if (options.jsonText !== undefined) return { text: options.jsonText, contentType: 'application/json' };
  if (options.form !== undefined) {
    return { text: new URLSearchParams(options.form).toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  return undefined;
}

function normaliseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname;
  } catch {
    return url;
  }
}

function shortUrl(exchanges: Exchange[]): string {
  const last = exchanges[exchanges.length - 1];
  return last ? pathOf(last.url) : '';
}

function describeTransportError(caught: unknown, info: SendInfo, timeoutMs: number, gotHeaders: boolean): { kind: HttpErrorKind; message: string } {
  const error = caught as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = error?.code ?? error?.cause?.code ?? '';
  const where = `${info.method} ${safeOrigin(info.url)}${pathOf(info.url)}`;
  if (error?.name === 'TimeoutError' || error?.name === 'AbortError' || /TIMEOUT/.test(code)) {
    return { kind: 'timeout', message: `${where}: no complete response within ${timeoutMs} ms` };
  }
  if (code === 'ECONNREFUSED') return { kind: 'connect', message: `${where}: connection refused (nothing listening?)` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'connect', message: `${where}: host not found (${code})` };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return { kind: 'reset', message: `${where}: connection closed by the server ${gotHeaders ? 'in the middle of the body' : 'before a response'}` };
  }
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return { kind: 'reset', message: `${where}: body shorter or longer than its Content-Length` };
  }
  if (/^(CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_TLS)/.test(code)) {
    return { kind: 'connect', message: `${where}: TLS failure (${code})` };
  }
  if (code.startsWith('HPE_') || code === 'UND_ERR_INFO') {
    return { kind: 'other', message: `${where}: malformed HTTP response (${code})` };
  }
  const text = error instanceof Error ? error.message : String(caught);
  return { kind: 'other', message: `${where}: ${code ? `${code}: ` : ''}${text}` };
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

function parseJsonBody<T>(status: number, headers: Record<string, string>, text: string, method: string, exchanges: Exchange[]): T {
  const type = headers['content-type'] ?? '(no content type)';
  if (text.trim() === '') {
    throw new HttpError('not-json', `${method} ${shortUrl(exchanges)} answered ${status} with an empty body where JSON was expected`, exchanges);
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    const start = text.slice(0, 80).replace(/\s+/g, ' ');
    throw new HttpError(
      'not-json',
      `${method} ${shortUrl(exchanges)} answered ${status} with a body that is not JSON (${type}): "${start}${text.length > 80 ? '...' : ''}"`,
      exchanges,
    );
  }
}
