// The API as a suite sees it: paths relative to the base URL, the run's tokens attached, budget and
// pacing applied to every hop, every exchange recorded for the report.
import { HttpClient, joinUrl, MEDIA_TYPE, plainOf, responseOf, type HttpResponse, type PlainResponse, type Query, type RequestOptions } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { secrets } from '../http/redact.ts';
import { pacingKey, type RunServices } from '../coordinator/services.ts';
import type { TokenKind } from '../auth/tokens.ts';
import { ReusedAnswers, writeReach } from './reuse.ts';

/** Something a test needs is not there (no user token, nothing to discover): the test is skipped. */
export class PrerequisiteMissing extends Error {
  override name = 'PrerequisiteMissing';
}

/**
 * Which token a request carries: the run's application or user token (renewed once on 401),
 * none, or a given one (an expired or made-up token; never renewed).
 */
export type Auth = TokenKind | 'none' | { token: string };

export interface ApiRequestOptions extends Omit<RequestOptions, 'token' | 'method'> {
  auth?: Auth;
  query?: Query;
  /** Renew a managed token and retry once on 401 (default true). Tests of 401 itself turn it off. */
  renewOn401?: boolean;
  /**
   * Wait for the rate limit before sending (default true). Only the destructive tests that
   * provoke the limit turn it off; the budget still counts the request.
   */
  paced?: boolean;
}

export interface ApiClientOptions {
  baseUrl: string;
  apiVersion: string;
  /** The vendor media type of the Accept header; default the spec's. */
  mediaType?: string;
  timeoutMs: number;
  maxBodyBytes?: number;
  services: RunServices;
  /** Who the budget charges: a test id, 'discovery', 'auth'. */
  holder: string;
  onExchange?: (exchange: Exchange, text?: string) => void;
  /** {auth_url}: a request to its token endpoint changes no answer (src/harness/reuse.ts). */
  authUrl?: string;
  /** Whether a plain GET may be answered from, and its answer kept in, the run's answers (src/harness/reuse.ts); default false: every request is sent. */
  reuse?: boolean;
  /** Receives the last exchange of an answer the run kept (shown, not counted as a request). */
  onReuse?: (exchange: Exchange) => void;
}

export class ApiClient {
  readonly #paced: HttpClient;
  readonly #unpaced: HttpClient;
  readonly #options: ApiClientOptions;

  constructor(options: ApiClientOptions) {
    this.#options = options;
    const { services, holder } = options;
    const client = (paced: boolean) =>
      new HttpClient({
        apiVersion: options.apiVersion,
        ...(options.mediaType ? { mediaType: options.mediaType } : {}),
        timeoutMs: options.timeoutMs,
        ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
        hooks: {
          beforeSend: (info) => services.beforeSend(holder, paced ? pacingKey(info.token) : null, writeReach(info.method, info.url, options.baseUrl, options.authUrl)),
          // Unpaced answers still teach the pacer the window, so paced requests wait for it.
          afterReceive: (info, status, headers) => services.afterReceive(pacingKey(info.token), status, headers, paced, writeReach(info.method, info.url, options.baseUrl, options.authUrl)),
          ...(options.onExchange ? { onExchange: options.onExchange } : {}),
        },
      });
    this.#paced = client(true);
    this.#unpaced = client(false);
  }

  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /** The absolute URL of an API path, query included (what a test shows in a message). */
  url(path: string, query?: Query): string {
    return joinUrl(this.#options.baseUrl, path, query);
  }

  get(path: string, options: ApiRequestOptions = {}): Promise<HttpResponse> {
    return this.request('GET', path, options);
  }

  request(method: string, path: string, options: ApiRequestOptions = {}): Promise<HttpResponse> {
    return this.requestUrl(method, this.url(path, options.query), { ...options, query: undefined });
  }

  /**
   * Requests an absolute URL as given (e.g. a Link header's). The token is attached only when the
   * URL is on the base URL's origin: a URL handed over by the server must not leak it elsewhere.
   */
  async requestUrl(method: string, url: string, options: ApiRequestOptions = {}): Promise<HttpResponse> {
    const auth = options.auth ?? 'app';
    const onApiOrigin = new URL(url).origin === new URL(this.#options.baseUrl).origin;
    const { auth: _auth, renewOn401, query: _query, paced, accept, ...http } = options;
    const client = paced === false ? this.#unpaced : this.#paced;
    const send = (token: string | null) => client.request(url, { ...http, ...(accept !== undefined ? { accept } : {}), method, token: onApiOrigin ? token : null });

    if (auth === 'none') return send(null);
    if (typeof auth === 'object') {
      secrets.add(auth.token);
      return send(auth.token);
    }
    // A plain GET another test already made, with no write since that could change it: its answer, not a new request.
    // An Accept of the request's own is part of the key (a versioning test asking the run's version shares the answer).
    const reusable = this.#options.reuse === true && method === 'GET' && onApiOrigin && paced !== false && renewOn401 !== false && Object.keys(http).length === 0;
    const key = reusable ? ReusedAnswers.key(auth, accept === undefined ? this.#accept : (accept ?? '(none)'), url) : undefined;
    const { token, writes, kept, asking } = await this.#tokenAndWrites(auth, key);
    if (kept) {
      const last = kept.exchanges[kept.exchanges.length - 1];
      if (last) this.#options.onReuse?.(last);
      return responseOf(kept);
    }
    // Which token the answer is for: conditions such as "authorized user only" depend on it.
    let response: HttpResponse | undefined;
    try {
      response = { ...(await send(token)), tokenKind: onApiOrigin ? auth : null };
    } finally {
      // The asker reports every outcome, also none: others may be waiting for this answer.
      if (asking === true && key !== undefined && writes !== undefined) {
        const answer = response && response.status >= 200 && response.status <= 299 ? plainOf(response) : null;
        await this.#options.services.keep(key, writes, answer);
      }
    }
    if (response.status !== 401 || renewOn401 === false || !onApiOrigin) return response;
    // The token may have expired during the run: renew once; a second 401 is the server's answer.
    await this.#options.services.tokenRejected(auth, token);
    const renewed = await this.#token(auth);
    if (renewed === token) return response;
    const retried = await send(renewed);
    return { ...retried, tokenKind: auth, exchanges: [...response.exchanges, ...retried.exchanges] };
  }

  async #token(kind: TokenKind): Promise<string> {
    return (await this.#tokenAndWrites(kind)).token;
  }

  /** The Accept header the client sends (part of a kept answer's key). */
  get #accept(): string {
    return `${this.#options.mediaType ?? MEDIA_TYPE}; version=${this.#options.apiVersion}`;
  }

  async #tokenAndWrites(kind: TokenKind, reuseKey?: string): Promise<{ token: string; writes: number | undefined; kept: PlainResponse | undefined; asking: boolean | undefined }> {
    const result = await this.#options.services.token(kind, reuseKey);
    if ('unavailable' in result) throw new PrerequisiteMissing(result.unavailable);
    secrets.add(result.token);
    return { token: result.token, writes: result.writes, kept: result.kept, asking: result.asking };
  }
}
