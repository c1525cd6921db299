// For the project's own tests: the run services of a real run (budget, pacer, tokens, discovery)
// over a given target, without the CLI around them.
import { TokenManager } from '../auth/tokens.ts';
import { RequestBudget } from '../budget/budget.ts';
import { RateLimitPacer, type PacerOptions } from '../budget/pacing.ts';
import { LocalRunServices, pacingKey } from '../coordinator/services.ts';
import { Discovery } from '../discovery/discovery.ts';
import { ApiClient } from '../harness/api.ts';
import { HttpClient } from '../http/client.ts';
import type { RunningReference } from '../reference/server.ts';

export interface TestServices {
  services: LocalRunServices;
  discovery: Discovery;
  api: (holder?: string) => ApiClient;
  budget: RequestBudget;
  pacer: RateLimitPacer;
}

export function servicesFor(
  ref: RunningReference,
  options: { maxRequests?: number; hints?: Record<string, number>; pacer?: PacerOptions } = {},
): TestServices {
  const budget = new RequestBudget(options.maxRequests ?? 1000);
  const pacer = new RateLimitPacer(options.pacer);
  const tokenHttp = new HttpClient({
    apiVersion: '3.2',
    timeoutMs: 5_000,
    hooks: {
      beforeSend: async (info) => {
        budget.spend('run');
        await pacer.acquire(pacingKey(info.token));
      },
      afterReceive: async (info, status, headers) => pacer.complete(pacingKey(info.token), headers, status ?? undefined),
    },
  });
  const tokens = new TokenManager({
    settings: {
      authUrl: ref.authUrl,
      clientId: ref.client.id,
      clientSecret: ref.client.secret,
      redirectUri: ref.client.redirectUri,
      userToken: null,
      userRefreshToken: null,
    },
    http: tokenHttp,
  });
  let discovery: Discovery | null = null;
  const services = new LocalRunServices(budget, pacer, tokens, () => discovery!);
  const api = (holder = 'test') => new ApiClient({ baseUrl: ref.baseUrl, apiVersion: '3.2', timeoutMs: 5_000, services, holder });
  discovery = new Discovery(api('discovery'), options.hints ?? {});
  return { services, discovery, api, budget, pacer };
}
