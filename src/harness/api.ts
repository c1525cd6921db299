// The API as a suite sees it: paths relative to the base URL, the run's tokens attached, budget and
// pacing applied to every hop, every exchange recorded for the report.
import { HttpClient, HttpError, joinUrl, MEDIA_TYPE, plainOf, responseOf, type HttpResponse, type PlainResponse, type Query, type RequestOptions } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { secrets } from '../http/redact.ts';
import { pacingKey, type RunServices } from '../coordinator/services.ts';
import type { TokenKind } from '../auth/tokens.ts';
import { randomUUID } from 'node:crypto';
import { BudgetExhaustedError } from '../budget/budget.ts';
import { RateLimitWaitError } from '../budget/pacing.ts';
import { RunStoppedError } from '../budget/watchdog.ts';
import { readsFrom, ReusedAnswers, writeReach, type WriteReach } from './reuse.ts';
import { undoKey, type UndoEntry } from './journal.ts';
import { apiPathUnder } from '../rules/api-paths.ts';

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
  /** Ask the deployment even when the run keeps an answer to this GET (a test asking again to see whether something changed). */
  fresh?: boolean;
  /**
   * The run's journal (src/harness/journal.ts): how to take back the change this request makes,
   * written before it is sent (e.g. the values a PATCH /user changes, as they were). A POST that
   * creates a record (201 with its id) is journalled by itself; `undoAfter` adds what only its
   * answer tells (a list the POST created along with it).
   */
  undo?: readonly UndoEntry[];
  undoAfter?: (response: HttpResponse) => readonly UndoEntry[];
  /** This request takes back a change of the journal (a PATCH putting values back): on a 2xx the change is done. */
  undoes?: boolean;
}

/** Collections whose POST creates a record the run must remove: the user's favorites, lists, addresses, and reviews. */
const CREATES = /^\/(favorites|favorite_lists|user\/addresses|skus\/[^/]+\/reviews)$/;

/** A request body, short, for the journal. */
function excerpt(json: unknown): string {
  const text = json === undefined ? '' : JSON.stringify(json);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/** The id of the record a 201 answer holds: the one top-level object's `id`. */
function createdId(response: HttpResponse): string | null {
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  for (const value of Object.values(body as Record<string, unknown>)) {
    const id = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)['id'] : undefined;
    if ((typeof id === 'number' && Number.isInteger(id)) || (typeof id === 'string' && /^[\w-]+$/.test(id))) return String(id);
  }
  return null;
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
  /** `onExchange` feeds the run's observed rules (HttpClientOptions.judgedLive: a HAR marks these exchanges). */
  judgedLive?: boolean;
  /** Each request asked for (sent, or answered from the kept answers), with the token it carries. */
  onRequest?: (url: string, auth: Auth) => void;
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
        ...(options.judgedLive ? { judgedLive: true } : {}),
        hooks: {
          beforeSend: (info) => services.beforeSend(holder, paced ? pacingKey(info.token) : null, writeReach(info.method, info.url, options.baseUrl, options.authUrl)),
          // Unpaced answers still teach the pacer the window, so paced requests wait for it.
          afterReceive: (info, status, headers, unanswered) =>
            services.afterReceive(pacingKey(info.token), status, headers, paced, writeReach(info.method, info.url, options.baseUrl, options.authUrl), unanswered ?? null),
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
    const { undo, undoAfter, undoes, ...rest } = options;
    // Writes with a token are journalled; GET, HEAD and requests without a token change nothing of the run's.
    const write = method !== 'GET' && method !== 'HEAD' && (options.auth ?? 'app') !== 'none' && new URL(url).origin === new URL(this.#options.baseUrl).origin;
    return write ? this.#journalled(method, url, rest, { undo, undoAfter, undoes }) : this.#request(method, url, rest);
  }

  async #request(method: string, url: string, options: Omit<ApiRequestOptions, 'undo' | 'undoAfter' | 'undoes'>): Promise<HttpResponse> {
    const auth = options.auth ?? 'app';
    this.#options.onRequest?.(url, auth);
    const onApiOrigin = new URL(url).origin === new URL(this.#options.baseUrl).origin;
    const { auth: _auth, renewOn401, query: _query, paced, accept, fresh, ...http } = options;
    const client = paced === false ? this.#unpaced : this.#paced;
    // Each exchange says which kind of token it carried, so that its replay says how to get one (tokenStep).
    const kind: Exchange['token'] = typeof auth === 'object' ? 'own' : auth === 'none' ? undefined : auth;
    const tagged = <T extends { exchanges: Exchange[] }>(carrier: T): T => {
      if (kind && onApiOrigin) for (const exchange of carrier.exchanges) exchange.token ??= kind;
      return carrier;
    };
    const send = (token: string | null) =>
      client.request(url, { ...http, ...(accept !== undefined ? { accept } : {}), method, token: onApiOrigin ? token : null }).then(tagged, (error: unknown) => {
        throw error instanceof HttpError ? tagged(error) : error;
      });

    if (auth === 'none') return send(null);
    if (typeof auth === 'object') {
      secrets.add(auth.token);
      return send(auth.token);
    }
    // A plain GET another test already made, with no write since that could change it: its answer, not a new request.
    // An Accept of the request's own is part of the key (a versioning test asking the run's version shares the answer).
    const reusable = this.#options.reuse === true && method === 'GET' && onApiOrigin && paced !== false && renewOn401 !== false && fresh !== true && Object.keys(http).length === 0;
    const key = reusable ? ReusedAnswers.key(auth, accept === undefined ? this.#accept : (accept ?? '(none)'), url) : undefined;
    const { token, scopes, writes, kept, asking } = await this.#tokenAndWrites(auth, key, key === undefined ? null : readsFrom(url, this.#options.baseUrl));
    if (kept) {
      const last = kept.exchanges[kept.exchanges.length - 1];
      if (last) this.#options.onReuse?.(last);
      return responseOf(kept);
    }
    // Which token the answer is for: conditions such as "authorized user only" depend on it.
    let response: HttpResponse | undefined;
    try {
      response = { ...(await send(token)), tokenKind: onApiOrigin ? auth : null, ...(onApiOrigin && scopes ? { tokenScopes: scopes } : {}) };
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
    const renewed = await this.#tokenAndWrites(auth);
    if (renewed.token === token) return response;
    const retried = await send(renewed.token);
    return { ...retried, tokenKind: auth, ...(renewed.scopes ? { tokenScopes: renewed.scopes } : {}), exchanges: [...response.exchanges, ...retried.exchanges] };
  }

  /** A write: its undo action journalled before it is sent, and what its answer creates or takes back after. */
  async #journalled(
    method: string,
    url: string,
    options: Omit<ApiRequestOptions, 'undo' | 'undoAfter' | 'undoes'>,
    journal: Pick<ApiRequestOptions, 'undo' | 'undoAfter' | 'undoes'>,
  ): Promise<HttpResponse> {
    const services = this.#options.services;
    const path = apiPathUnder(url, this.#options.baseUrl);
    const creates = method === 'POST' && path !== null && CREATES.test(path);
    // A record's id comes with the answer: until then, the journal holds the intent.
    const intent = creates
      ? { key: `intent ${randomUUID()}`, what: `POST ${path} ${excerpt(options.json)}`, create: { path: path!, json: options.json ?? null, sentAt: new Date().toISOString() } }
      : null;
    if (journal.undo?.length || intent) await services.journal({ undo: [...(journal.undo ?? []), ...(intent ? [intent] : [])] });
    let response: HttpResponse;
    try {
      response = await this.#request(method, url, options);
    } catch (error) {
      // Refused before it was sent (the run stopped, the budget or the rate limit), or no token to
      // send it with (none at all, or one renewed after a 401, which created nothing): nothing was
      // created. Any other error: the record may or may not exist, and the intent stays for the sweep to report.
      const notCreated = error instanceof RunStoppedError || error instanceof BudgetExhaustedError || error instanceof RateLimitWaitError || error instanceof PrerequisiteMissing;
      if (intent && notCreated) await services.journal({ done: [intent.key] });
      throw error;
    }
    const ok = response.status >= 200 && response.status <= 299;
    const entries: UndoEntry[] = [];
    if (creates && response.status === 201) {
      const id = createdId(response);
      if (id !== null) entries.push({ action: { method: 'DELETE', path: `${path}/${id}` }, what: `the record POST ${path} created (${path}/${id})` });
    }
    if (journal.undoAfter) entries.push(...journal.undoAfter(response));
    const done: string[] = [];
    // A record deleted (or already gone) needs no sweeping; a PATCH that puts values back is their undo done.
    if (method === 'DELETE' && path !== null && (ok || response.status === 404 || response.status === 410)) done.push(undoKey({ method: 'DELETE', path }));
    if (journal.undoes && ok && path !== null && (method === 'PATCH' || method === 'PUT')) done.push(undoKey({ method, path, json: options.json }));
    // The record's own undo before its intent is done: in the file, one line after the other.
    if (intent) done.push(intent.key);
    if (entries.length || done.length) await services.journal({ undo: entries, done });
    return response;
  }

  /** The Accept header the client sends (part of a kept answer's key). */
  get #accept(): string {
    return `${this.#options.mediaType ?? MEDIA_TYPE}; version=${this.#options.apiVersion}`;
  }

  async #tokenAndWrites(
    kind: TokenKind,
    reuseKey?: string,
    reads: readonly WriteReach[] | null = null,
  ): Promise<{ token: string; scopes: readonly string[] | undefined; writes: number | undefined; kept: PlainResponse | undefined; asking: boolean | undefined }> {
    const result = await this.#options.services.token(kind, reuseKey, reads);
    if ('unavailable' in result) throw new PrerequisiteMissing(result.unavailable);
    secrets.add(result.token);
    return { token: result.token, scopes: result.scopes, writes: result.writes, kept: result.kept, asking: result.asking };
  }
}
