// Embedded reference server for the Catalogue API v3: the target the kit's suites run against
// when no target is configured, and (with one fault switched on) the subject of the kit's
// self-tests. Only node:http and the standard library.
//
// Layout: server.ts (options, listening; options.ts the deployment's layout and choices),
// app.ts (request pipelines: api-pipeline.ts, oauth-pipeline.ts, raw-answers.ts; their shared
// state.ts), router.ts, http.ts (envelope, errors, ETag), pagination.ts (meta + Link),
// request-body.ts, auth.ts (OAuth + daily limit; auth-records.ts, consent-page.ts),
// ratelimit.ts, versioning.ts (Accept negotiation + field/version table), data.ts (datasets;
// model.ts the records), serializers.ts, routes/*.ts (one module per resource group, listed in
// routes/index.ts), faults.ts, variants.ts. Test code (test kit, test-only routes, fault probes)
// lives in src/testing/reference/; tests add routes through testHooks.extraRoutes.

import { createHash } from 'node:crypto';
import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiListener, createAuthListener } from './app.ts';
import type { ClientRecord } from './auth-records.ts';
import { createDataset, DATASET_NAMES, type Dataset, type DatasetName } from './data.ts';
import { FAULT_NAMES, resolveFault, type FaultName } from './faults.ts';
import { CONSENT_MODES, LOGOUT_ENDS_MODES, REVIEW_ACTIONS_SCOPE_MODES, type ConsentMode, type DeploymentOptions, type LogoutEnds, type ReviewActionsScope } from './options.ts';
import { resolveVariants, VARIANTS, type VariantInfo, type Variants } from './variants.ts';
import { withVariantData } from './variant-data.ts';
import { withRareDataLast } from './rare-data-last.ts';
import type { RouteModule } from './router.ts';
import { WINDOW_MS } from './ratelimit.ts';
import { servedVersions } from './versioning.ts';
import { clientErrorListener, connectListener } from './raw-answers.ts';
import { ROUTE_MODULES } from './routes/index.ts';
import { createState, normalizeBasePath, type ReferenceState } from './state.ts';

export { FAULTS } from './faults.ts';
export type { FaultInfo, FaultName } from './faults.ts';
export { VARIANTS } from './variants.ts';
export type { VariantInfo, VariantName } from './variants.ts';

/** With the base path, the OAuth origin and the consent, scope and logout choices of DeploymentOptions (options.ts). */
export interface ReferenceOptions extends DeploymentOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Default 'default'. */
  dataset?: 'default' | 'alt';
  /** At most one named fault (see FAULTS); an unknown name throws. */
  fault?: string | null;
  /**
   * Legal variants to switch on (see VARIANTS): other answers the spec allows where the
   * reference makes a choice. An unknown name, or two that conflict, throws. A variant that
   * stands for a server option (base-path, auth-separate-origin, ...) sets it unless the option
   * is given.
   */
  variants?: readonly string[];
  /**
   * Defaults 100 per minute and 1000 per day. `windowMs` (default 60,000) is how long the
   * rate-limit minute lasts: a scaled clock for the embedded run, whose minute is a second
   * (EMBEDDED_WINDOW_MS), so that pacing works as against a deployment without real waiting.
   */
  limits?: { perMinute?: number; perDay?: number; windowMs?: number };
  /** Clock in ms since the epoch; default Date.now. */
  now?: () => number;
  /**
   * A moved base path, for the kit's redirect tests: a request whose path is under `from` is
   * answered `status` with a Location of the same path and query under basePath (same origin).
   */
  redirect?: { from: string; status: 301 | 302 | 303 | 307 | 308 };
  /**
   * Test setting: the rare items moved to the last pages of the last leaves / shops, for the
   * discovery self-test (issue 38 point 4). The dataset then holds one future SKU, the last of
   * the default order of the last leaf (GET /categories order) where that works, and one
   * unstructured location, the last of the shop with the most locations (rare-data-last.ts).
   */
  rareDataLast?: boolean;
  /** For the reference's own tests only; not part of the kit's interface. */
  testHooks?: TestHooks;
}

export interface TestHooks {
  /** Route modules registered after the API's own (test-only endpoints). */
  extraRoutes?: readonly RouteModule[];
  /** Override SERVER_TIMEOUTS (milliseconds). */
  timeouts?: Partial<Record<keyof typeof SERVER_TIMEOUTS, number>>;
  /** Receives unexpected exceptions (500s) instead of console.error. */
  onError?: (err: unknown) => void;
}

/**
 * node:http limits, so slow or hostile clients cannot hold connections (or a test process)
 * for long: the request line and headers must arrive within 10 s and the whole request within
 * 30 s (checked every second), idle keep-alive connections close after 5 s, and the request
 * line and headers together may not exceed 16 KiB (answered 431). close() also ends every open
 * connection at once.
 */
export const SERVER_TIMEOUTS = Object.freeze({
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
});
export const MAX_HEADER_BYTES = 16 * 1024;

export interface RunningReference {
  /** e.g. 'http://127.0.0.1:41234/api' (no trailing slash). */
  baseUrl: string;
  /** e.g. 'http://127.0.0.1:41235' (no trailing slash). */
  authUrl: string;
  /** With the redirect option: the old base URL, every request to which is redirected to baseUrl. */
  movedBaseUrl: string | null;
  client: { id: string; secret: string; redirectUri: string };
  faults: readonly string[];
  /** The fault this server was started with, or null (for fault probes that need a copy of it). */
  fault?: string | null;
  /** The legal variants this server was started with. */
  variants: readonly string[];
  /** The major.minor versions the server serves, oldest first (e.g. ['3.0', '3.1', '3.2']). */
  servedVersions: readonly string[];
  /** How long the server's rate-limit minute lasts (60,000 unless started with limits.windowMs). */
  rateWindowMs: number;
  /** API + token requests served so far. */
  requestCount(): number;
  /**
   * A digest of everything requests can change (users, reviews, votes, flags, addresses,
   * personalization, favorite lists, favorites, notifications): equal digests mean a run left
   * the data as it found it.
   */
  stateDigest(): string;
  /** The same, map by map: which of them a run changed. */
  stateDigests(): Record<string, string>;
  /** A token of the demo client that has expired (for the kit's expired-token checks). */
  expiredToken(): string;
  close(): Promise<void>;
}

/** The demo client. Fixed so a user can configure the kit once for a local reference server. */
export const DEMO_CLIENT: Readonly<ClientRecord> = Object.freeze({
  id: 'reference-demo-client',
  secret: 'reference-demo-secret',
  // Only ever read back from the Location header; nothing listens there.
  redirectUri: 'http://127.0.0.1:9/callback',
});

export const DEFAULT_LIMITS = Object.freeze({ perMinute: 100, perDay: 1000 });
/** The embedded run's rate-limit minute (a clock scaled 60 times): the spec's 100 a "minute" without waiting minutes. */
export const EMBEDDED_WINDOW_MS = 1_000;

function makeServer(state: ReferenceState, listener: RequestListener, api: boolean, hooks: TestHooks | undefined): Server {
  const options: ServerOptions = {
    ...SERVER_TIMEOUTS,
    ...(hooks?.timeouts ?? {}),
    maxHeaderSize: MAX_HEADER_BYTES,
    // The pipeline answers a missing Host itself, with the errors body and rate-limit headers.
    requireHostHeader: false,
  };
  const server = createServer(options, listener);
  server.on('clientError', clientErrorListener(state, api));
  server.on('connect', connectListener(state, api));
  return server;
}

function positiveInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}

function oneOf<T extends string>(value: T | undefined, allowed: readonly T[], fallback: T, name: string): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value)) throw new Error(`${name} must be one of ${allowed.join(', ')}, got "${String(value)}"`);
  return value;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function originOf(host: string, port: number): string {
  let h = host;
  if (h === '0.0.0.0') h = '127.0.0.1';
  else if (h === '::') h = '::1';
  if (h.includes(':')) h = `[${h}]`;
  return `http://${h}:${port}`;
}

/** A digest of each map of the data a write can change (users, reviews, votes, ..., notifications). */
function mutableStateDigests(data: Dataset): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, map] of Object.entries(mutableMaps(data))) {
    const hash = createHash('sha256');
    for (const key of [...map.keys()].sort((a, b) => a - b)) hash.update(JSON.stringify([key, map.get(key)]));
    out[name] = hash.digest('hex');
  }
  return out;
}

function mutableMaps(data: Dataset): Record<string, Map<number, unknown>> {
  return {
    users: data.users,
    skuReviews: data.skuReviews,
    votes: data.votes,
    flags: data.flags,
    addresses: data.addresses,
    personalization: data.personalization,
    favoriteLists: data.favoriteLists,
    favorites: data.favorites,
    notifications: data.notifications,
  };
}

function mutableStateDigest(data: Dataset): string {
  const hash = createHash('sha256');
  for (const [name, map] of Object.entries(mutableMaps(data))) {
    hash.update(name);
    for (const key of [...map.keys()].sort((a, b) => a - b)) hash.update(JSON.stringify([key, map.get(key)]));
  }
  return hash.digest('hex');
}

/** Answers requests under `from` with a redirect to the same path under `basePath`; passes on the rest. */
function redirecting(redirect: { from: string; status: number }, basePath: string, fault: FaultName | null, next: RequestListener): RequestListener {
  return (req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    if (path !== redirect.from && !path.startsWith(`${redirect.from}/`)) return next(req, res);
    // The bug: the rewrite rule that builds Location does not match a URL with a query.
    const lost = fault === 'redirect-without-location' && url.includes('?');
    res.writeHead(redirect.status, { ...(lost ? {} : { Location: basePath + url.slice(redirect.from.length) }), 'Content-Length': '0' }).end();
    // A body sent with the request is not read: drop it.
    req.resume();
  };
}

/** The dataset a server starts with: generated, reshaped for its variants, and (a test setting) its rare items moved last. */
function datasetFor(name: DatasetName, now: number, variants: Variants, rareDataLast: boolean): Dataset {
  const data = withVariantData(createDataset(name, now), variants);
  return rareDataLast ? withRareDataLast(data) : data;
}

export async function startReference(given: ReferenceOptions = {}): Promise<RunningReference> {
  const fault = resolveFault(given.fault);
  const variants = resolveVariants(given.variants);
  // Options a variant stands for, unless given.
  const implied = Object.assign({}, ...[...variants].map((v) => (VARIANTS[v] as VariantInfo).options ?? {})) as ReferenceOptions;
  const options: ReferenceOptions = { ...implied, ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) };
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`port must be an integer 0-65535, got ${String(port)}`);
  const basePath = normalizeBasePath(options.basePath ?? '', 'basePath');
  const authBasePath = normalizeBasePath(options.authBasePath ?? '', 'authBasePath');
  const authOrigin = oneOf(options.authOrigin, ['same', 'separate'], 'same', 'authOrigin');
  const dataset = oneOf<DatasetName>(options.dataset, DATASET_NAMES, 'default', 'dataset');
  const consent = oneOf<ConsentMode>(options.consent, CONSENT_MODES, 'auto', 'consent');
  const reviewActionsScope = oneOf<ReviewActionsScope>(options.reviewActionsScope, REVIEW_ACTIONS_SCOPE_MODES, 'granted', 'reviewActionsScope');
  const logoutEnds = oneOf<LogoutEnds>(options.logoutEnds, LOGOUT_ENDS_MODES, 'token', 'logoutEnds');
  const perMinute = positiveInt(options.limits?.perMinute, DEFAULT_LIMITS.perMinute, 'limits.perMinute');
  const perDay = positiveInt(options.limits?.perDay, DEFAULT_LIMITS.perDay, 'limits.perDay');
  const windowMs = positiveInt(options.limits?.windowMs, WINDOW_MS, 'limits.windowMs');
  const now = options.now ?? Date.now;

  const state = createState({
    basePath,
    authBasePath,
    fault,
    variants,
    data: datasetFor(dataset, now(), variants, options.rareDataLast === true),
    clients: [DEMO_CLIENT],
    perMinute,
    windowMs,
    perDay,
    consent,
    reviewActionsScope,
    logoutEnds,
    now,
    modules: [...ROUTE_MODULES, ...(options.testHooks?.extraRoutes ?? [])],
    ...(options.testHooks?.onError ? { onError: options.testHooks.onError } : {}),
  });

  // The fault redirect-without-location is a moved base path's: it brings one (/v3, 301) unless one is given.
  const moved = options.redirect ?? (fault === 'redirect-without-location' ? { from: '/v3', status: 301 as const } : undefined);
  const redirect = moved ? { from: normalizeBasePath(moved.from, 'redirect.from'), status: moved.status } : null;
  if (redirect && (redirect.from === '' || redirect.from === basePath)) throw new Error('redirect.from must be a path prefix other than basePath');
  const apiListener = createApiListener(state, authOrigin === 'same');
  const apiServer = makeServer(state, redirect ? redirecting(redirect, basePath, fault, apiListener) : apiListener, true, options.testHooks);
  const servers: Server[] = [apiServer];
  const apiAddress = await listen(apiServer, port, host);
  const apiOrigin = originOf(host, apiAddress.port);
  state.fallbackOrigin = apiOrigin;
  let authOriginUrl = apiOrigin;
  if (authOrigin === 'separate') {
    const authServer = makeServer(state, createAuthListener(state), false, options.testHooks);
    servers.push(authServer);
    try {
      const authAddress = await listen(authServer, 0, host);
      authOriginUrl = originOf(host, authAddress.port);
    } catch (err) {
      await closeServer(apiServer);
      throw err;
    }
  }

  let closing: Promise<void> | undefined;
  return {
    baseUrl: apiOrigin + basePath,
    authUrl: authOriginUrl + authBasePath,
    movedBaseUrl: redirect ? apiOrigin + redirect.from : null,
    client: { ...DEMO_CLIENT },
    faults: FAULT_NAMES,
    fault,
    variants: [...variants],
    servedVersions: servedVersions(variants).map((v) => `${v.major}.${v.minor}`),
    rateWindowMs: windowMs,
    requestCount: () => state.requests,
    stateDigest: () => mutableStateDigest(state.data),
    stateDigests: () => mutableStateDigests(state.data),
    expiredToken: () => state.auth.expiredToken(DEMO_CLIENT.id),
    close: () => (closing ??= Promise.all(servers.map(closeServer)).then(() => undefined)),
  };
}
