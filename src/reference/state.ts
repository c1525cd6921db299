// The state of a running reference server that its pipelines (app.ts) share: options, data,
// the OAuth service, the rate limiter and the routes.

import type { ClientRecord } from './auth-records.ts';
import { AuthService } from './auth.ts';
import type { Dataset } from './data.ts';
import type { FaultName } from './faults.ts';
import type { ConsentMode, LogoutEnds, ReviewActionsScope } from './options.ts';
import { RateLimiter, type WindowStart } from './ratelimit.ts';
import { Router, type RouteModule } from './router.ts';
import { NO_VARIANTS, type Variants } from './variants.ts';

export interface StateConfig {
  basePath: string;
  authBasePath: string;
  fault: FaultName | null;
  /** Default: none. */
  variants?: Variants;
  data: Dataset;
  clients: readonly ClientRecord[];
  perMinute: number;
  /** Length of the rate-limit "minute"; default 60,000 (shorter with a scaled clock). */
  windowMs?: number;
  perDay: number;
  consent: ConsentMode;
  /** Default 'granted'. */
  reviewActionsScope?: ReviewActionsScope;
  /** Default 'token'. */
  logoutEnds?: LogoutEnds;
  now: () => number;
  modules: readonly RouteModule[];
  /** Called with unexpected handler exceptions (500s). */
  onError?: (err: unknown) => void;
}

export interface ReferenceState {
  readonly basePath: string;
  readonly authBasePath: string;
  readonly fault: FaultName | null;
  readonly variants: Variants;
  readonly data: Dataset;
  readonly auth: AuthService;
  readonly limiter: RateLimiter;
  readonly router: Router;
  readonly now: () => number;
  readonly onError: (err: unknown) => void;
  /** Origin used for absolute links when the Host header is missing or odd. */
  fallbackOrigin: string;
  /** API requests + token requests served. */
  requests: number;
}

export function createState(cfg: StateConfig): ReferenceState {
  const variants = cfg.variants ?? NO_VARIANTS;
  const router = new Router();
  for (const register of cfg.modules) register(router, variants);
  return {
    basePath: cfg.basePath,
    authBasePath: cfg.authBasePath,
    fault: cfg.fault,
    variants,
    data: cfg.data,
    auth: new AuthService({
      clients: cfg.clients,
      now: cfg.now,
      perDay: cfg.perDay,
      consent: cfg.consent,
      reviewActionsScope: cfg.reviewActionsScope ?? 'granted',
      logoutEnds: cfg.logoutEnds ?? 'token',
      variants,
    }),
    limiter: new RateLimiter(cfg.perMinute, cfg.now, windowStartOf(variants), cfg.windowMs, variants.has('remaining-before-count')),
    router,
    now: cfg.now,
    onError: cfg.onError ?? ((err) => console.error('[reference] unexpected error:', err)),
    fallbackOrigin: 'http://127.0.0.1',
    requests: 0,
  };
}

/** '' or '/x/y' (leading slash, no trailing slash). Throws on anything else. */
export function normalizeBasePath(raw: string, name: string): string {
  const trimmed = raw.replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new Error(`${name} must look like "/api" (slash-separated segments of letters, digits, . _ ~ -), got "${raw}"`);
  }
  return trimmed;
}

/** When the variants' per-minute windows start: calendar minutes, sliding, or at a key's first request. */
function windowStartOf(variants: Variants): WindowStart {
  if (variants.has('ratelimit-calendar-minute')) return 'calendar-minute';
  return variants.has('ratelimit-sliding-window') ? 'sliding' : 'first-request';
}
