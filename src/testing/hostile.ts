// For the project's own tests: a proxy in front of a server that passes requests through (Host
// kept, so the server's links point at the proxy) until told to misbehave, so that a test can
// break a deployment in the middle of a run (issue 19).
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with a request: pass it through (after `delayMs`, if given), or answer it itself. */
export type Behaviour = { pass: true; delayMs?: number } | { answer: (req: IncomingMessage, res: ServerResponse) => void };

export interface HostileProxy {
  /** The proxy's origin; a path below it goes to the same path below the target's origin. */
  origin: string;
  /** Requests the proxy has received. */
  readonly requests: number;
  close(): Promise<void>;
}

/** Never answers: the connection stays open, no status line is sent. */
export const silence: Behaviour = { answer: () => undefined };

/**
 * A proxy to `targetOrigin` whose behaviour for the n-th request (from 1) is `behave(n, req)`.
 * Answers it holds back are ended when it closes.
 */
export async function hostileProxy(targetOrigin: string, behave: (n: number, req: IncomingMessage) => Behaviour): Promise<HostileProxy> {
  const target = new URL(targetOrigin);
  let requests = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const behaviour = behave(++requests, req);
    if ('answer' in behaviour) return behaviour.answer(req, res);
    const forward = () => {
      const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (!behaviour.delayMs) return forward();
    const timer = setTimeout(() => {
      timers.delete(timer);
      forward();
    }, behaviour.delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
