// Assembles the run's services in the main process: one budget, one pacer, one token cache and
// one discovery for the whole run. run.ts builds them for a real run, the own tests for theirs.
import { TokenManager, type InteractiveConsent, type TokenSettings } from '../auth/tokens.ts';
import { RequestBudget } from '../budget/budget.ts';
import { RateLimitPacer, type PacerOptions } from '../budget/pacing.ts';
import { RunWatchdog, stallMsFor } from '../budget/watchdog.ts';
import { LocalRunServices } from '../coordinator/services.ts';
import { Discovery } from '../discovery/discovery.ts';
import { HttpClient } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { ApiClient } from './api.ts';
import { ExchangeObserver } from '../rules/observations.ts';

export interface RunServicesOptions {
  baseUrl: string;
  tokens: TokenSettings;
  apiVersion: string;
  /** The vendor media type of the Accept header; default the spec's. */
  mediaType?: string;
  timeoutMs: number;
  maxRequests: number;
  hints?: Record<string, number>;
  pacer?: PacerOptions;
  interactive?: InteractiveConsent | null;
  /**
   * CATALOGUE_IMPLEMENTS: with it, discovery's exchanges are judged by the observed rules like a
   * test's (tests are often answered from them, src/harness/reuse.ts).
   */
  implements?: string;
}

export interface MainServices {
  services: LocalRunServices;
  budget: RequestBudget;
  pacer: RateLimitPacer;
  tokens: TokenManager;
  discovery: Discovery;
  /** The run's deadline and stall detector (src/budget/watchdog.ts). */
  watchdog: RunWatchdog;
  /** An API client of the run, charging the budget to `holder`. */
  api(holder: string): ApiClient;
  /**
   * Until `judgeKnowing`, discovery's exchanges are held, not judged: the answers that find the
   * versions served are judged knowing them, as the tests' are (and as verify re-judges the HAR).
   */
  holdJudgement(): void;
  judgeKnowing(servedSeries: readonly string[]): void;
}

/** Pacing key of the requests to the token endpoint. */
const TOKEN_ENDPOINT_PACING_KEY = 'oauth';

export function createRunServices(options: RunServicesOptions): MainServices {
  const budget = new RequestBudget(options.maxRequests);
  const pacer = new RateLimitPacer(options.pacer);
  const watchdog = new RunWatchdog({ stallMs: stallMsFor(options.timeoutMs) });
  // Token requests count against the budget and are paced like any other request, under a key
  // of their own: an auth server may limit them in a window apart from the API's.
  const tokenHttp = new HttpClient({
    apiVersion: options.apiVersion,
    timeoutMs: options.timeoutMs,
    hooks: {
      // Not stopped by the watchdog: the sweep after a stop may need a token.
      beforeSend: async () => {
        budget.spend('run');
        await pacer.acquire(TOKEN_ENDPOINT_PACING_KEY);
      },
      afterReceive: async (_info, status, headers, unanswered) => {
        if (unanswered) watchdog.unanswered(unanswered.message, unanswered.sentAtMs);
        else watchdog.answered();
        pacer.complete(TOKEN_ENDPOINT_PACING_KEY, headers, status ?? undefined);
      },
    },
  });
  const tokens = new TokenManager({ settings: options.tokens, http: tokenHttp, interactive: options.interactive ?? null });
  let discovery: Discovery | null = null;
  const services = new LocalRunServices(budget, pacer, tokens, () => discovery!, watchdog);
  const observer =
    options.implements === undefined
      ? null
      : new ExchangeObserver({ baseUrl: options.baseUrl, authUrl: options.tokens.authUrl, implements: options.implements, servedSeries: 'unknown' });
  let held: { exchange: Exchange; text: string | undefined; atMs: number }[] | null = null;
  const judge = (exchange: Exchange, text: string | undefined, atMs: number): void => {
    observer!.see(exchange, 'discovery', text, atMs);
    void services.observe(observer!.take());
  };
  const api = (holder: string) => {
    // Discovery's and the preflight's answers are kept for the tests, and judged by the observed rules:
    // the listing they read is often the one a test asks first.
    const forTheRun = holder === 'discovery' || holder === 'preflight';
    return new ApiClient({
      baseUrl: options.baseUrl,
      authUrl: options.tokens.authUrl,
      apiVersion: options.apiVersion,
      ...(options.mediaType ? { mediaType: options.mediaType } : {}),
      timeoutMs: options.timeoutMs,
      services,
      holder,
      reuse: forTheRun,
      judgedLive: Boolean(observer && forTheRun),
      ...(observer && forTheRun
        ? {
            onExchange: (exchange: Exchange, text?: string) => {
              if (held) held.push({ exchange, text, atMs: Date.now() });
              else judge(exchange, text, Date.now());
            },
          }
        : {}),
    });
  };
  discovery = new Discovery(api('discovery'), options.hints ?? {}, options.maxRequests);
  const holdJudgement = (): void => {
    held ??= [];
  };
  const judgeKnowing = (servedSeries: readonly string[]): void => {
    observer?.knowServedSeries(servedSeries);
    const waiting = held ?? [];
    held = null;
    for (const { exchange, text, atMs } of waiting) judge(exchange, text, atMs);
  };
  return { services, budget, pacer, tokens, discovery, watchdog, api, holdJudgement, judgeKnowing };
}
