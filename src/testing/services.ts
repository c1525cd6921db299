// For the project's own tests: the services of a real run over a reference server.
import type { PacerOptions } from '../budget/pacing.ts';
import { createRunServices, type MainServices } from '../harness/run-services.ts';
import type { RunningReference } from '../reference/server.ts';

export function servicesFor(
  ref: RunningReference,
  options: { maxRequests?: number; hints?: Record<string, number>; pacer?: PacerOptions } = {},
): MainServices & { api: (holder?: string) => ReturnType<MainServices['api']> } {
  const main = createRunServices({
    baseUrl: ref.baseUrl,
    tokens: {
      authUrl: ref.authUrl,
      clientId: ref.client.id,
      clientSecret: ref.client.secret,
      redirectUri: ref.client.redirectUri,
      userToken: null,
      userRefreshToken: null,
    },
    apiVersion: '3.2',
    timeoutMs: 5_000,
    maxRequests: options.maxRequests ?? 1000,
    ...(options.hints ? { hints: options.hints } : {}),
    ...(options.pacer ? { pacer: options.pacer } : {}),
  });
  return { ...main, api: (holder = 'test') => main.api(holder) };
}
