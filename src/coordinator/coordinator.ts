// Makes the main process's RunServices reachable from vitest workers: a small JSON RPC over
// loopback HTTP, guarded by a random key. Workers are separate processes, so shared memory is no
// option; one loopback round trip per request is cheap next to the request itself.
import { createServer, type IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { BudgetExhaustedError } from '../budget/budget.ts';
import { RateLimitWaitError } from '../budget/pacing.ts';
import { RunStoppedError } from '../budget/watchdog.ts';
import type { RunServices } from './services.ts';

const METHODS = [
  'reserve',
  'settle',
  'beforeSend',
  'afterReceive',
  'token',
  'keep',
  'ownUserToken',
  'lentUserToken',
  'tokenRejected',
  'discover',
  'observe',
  'observations',
  'journal',
  'otherRun',
] as const;
type Method = (typeof METHODS)[number];

export interface CoordinatorAddress {
  url: string;
  key: string;
}

export interface RunningCoordinator extends CoordinatorAddress {
  close(): Promise<void>;
}

/** Errors a worker must recognise by class (they turn a test into a skip). */
const KNOWN_ERRORS: Record<string, new (message: string) => Error> = {
  BudgetExhaustedError,
  RateLimitWaitError,
  RunStoppedError,
};

export async function startCoordinator(services: RunServices): Promise<RunningCoordinator> {
  const key = randomBytes(24).toString('hex');
  const server = createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/rpc' || req.headers['x-coordinator-key'] !== key) {
      reply(404, { error: { name: 'Error', message: 'not found' } });
      return;
    }
    try {
      const { method, args } = JSON.parse(await readBody(req)) as { method: Method; args: unknown[] };
      if (!METHODS.includes(method)) throw new Error(`unknown coordinator method ${method}`);
      const fn = services[method] as (...a: unknown[]) => Promise<unknown>;
      const value = await fn.apply(services, args);
      reply(200, { value: value ?? null });
    } catch (error) {
      const e = error as Error;
      reply(200, { error: { name: e.name ?? 'Error', message: e.message ?? String(error) } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/rpc`,
    key,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The worker side: a RunServices whose every call goes to the coordinator. */
export function remoteServices(address: CoordinatorAddress): RunServices {
  // Pacing may hold a call for over a minute while a rate-limit window resets.
  const agent = new Agent({ headersTimeout: 10 * 60_000, bodyTimeout: 10 * 60_000 });
  const call = async (method: Method, ...args: unknown[]): Promise<never> => {
    const response = await request(address.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-coordinator-key': address.key },
      body: JSON.stringify({ method, args }),
      dispatcher: agent,
    });
    const body = (await response.body.json()) as { value?: unknown; error?: { name: string; message: string } };
    if (body.error) {
      const ErrorClass = KNOWN_ERRORS[body.error.name] ?? Error;
      throw new ErrorClass(body.error.message);
    }
    return body.value as never;
  };
  return {
    reserve: (holder, requests) => call('reserve', holder, requests),
    settle: (holder) => call('settle', holder),
    beforeSend: (holder, key, write) => call('beforeSend', holder, key, write ?? null),
    afterReceive: (key, status, headers, paced, write, unanswered) => call('afterReceive', key, status, headers, paced ?? true, write ?? null, unanswered ?? null),
    token: (kind, reuseKey, readsFrom) => (reuseKey === undefined ? call('token', kind) : call('token', kind, reuseKey, readsFrom ?? null)),
    keep: (reuseKey, writes, response) => call('keep', reuseKey, writes, response),
    ownUserToken: () => call('ownUserToken'),
    lentUserToken: (holder, ends) => call('lentUserToken', holder, ends ?? false),
    tokenRejected: (kind, token) => call('tokenRejected', kind, token),
    discover: (role) => call('discover', role),
    observe: (batch) => call('observe', batch),
    observations: () => call('observations'),
    journal: (change) => call('journal', change),
    otherRun: () => call('otherRun'),
  };
}
