// Loopback HTTP servers for HttpClient's tests (src/http/client*.test.ts): each records the requests
// it sees; closeServers (register it with afterEach) closes them all and stops the tests' timers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, HttpError } from '../http/client.ts';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestServer {
  server: Server;
  origin: string;
  port: number;
  requests: SeenRequest[];
}

/** Every server started and not yet closed: a test that closes one itself takes it out. */
export const servers: Server[] = [];
/** Timers a test started, cleared by closeServers. */
export const timers: NodeJS.Timeout[] = [];

/** A server on 127.0.0.1 (a free port) that records each request, then hands it to `handler` with its body. */
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, port, requests };
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Clears the tests' timers and closes every server: afterEach(closeServers). */
export async function closeServers(): Promise<void> {
  for (const timer of timers.splice(0)) clearInterval(timer);
  await Promise.all(servers.splice(0).map(closeServer));
}

export function json(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function redirect(res: ServerResponse, status: number, location: string): void {
  res.writeHead(status, { location, 'content-length': 0 });
  res.end();
}

/** An HttpClient for version 3.2 with a 2 s timeout, unless `extra` says otherwise. */
export const client = (extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) => new HttpClient({ apiVersion: '3.2', timeoutMs: 2_000, ...extra });

/** The HttpError `promise` rejects with (another error is rethrown; success fails the test). */
export async function httpError(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected an HttpError, the request succeeded');
}

export const TOKEN = 'tok-abcdef-123456';
