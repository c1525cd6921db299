// Request bodies: reading them within a size limit, throwing away the rest of one answered early,
// and parsing an API body (JSON, or a form with bracket keys).

import type { IncomingMessage } from 'node:http';
import { ApiError } from './http.ts';

/** Largest token-request body. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Largest API request body (PATCH /user carries a base64 avatar image). */
export const MAX_API_BODY_BYTES = 2 * 1024 * 1024;

/** Why readBody gave up. */
export type BodyProblem = 'too-large' | 'aborted';

/**
 * Reads the whole body, or reports why not. A body over `limit` bytes (announced by
 * Content-Length, or counted while it arrives) is reported as soon as that is known, without
 * waiting for the rest: the caller answers at once and calls `discardRest`. A request that the
 * client abandons (connection closed before the end) is 'aborted' instead of a promise that
 * never settles.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer | BodyProblem> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return resolve('too-large');
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (value: Buffer | BodyProblem): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onClose);
      resolve(value);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        finish('too-large');
      } else chunks.push(chunk);
    };
    const onEnd = (): void => finish(Buffer.concat(chunks));
    const onAbort = (): void => finish('aborted');
    const onClose = (): void => {
      if (!req.complete) finish('aborted');
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onClose);
  });
}

/**
 * After an answer given before the request body was (fully) read: the rest is read and thrown
 * away, so the connection can serve the next request and the client, still sending, gets to
 * read the answer (closing a socket with unread input resets it, and the client may then lose
 * the answer). A client that sends more than `maxBytes` more, or is not done within `maxMs`,
 * has its connection closed.
 */
export function discardRest(req: IncomingMessage, maxBytes = 8 * 1024 * 1024, maxMs = 2000): void {
  const length = req.headers['content-length'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!hasBody || req.complete || req.destroyed) return;
  let drained = 0;
  const stop = (): void => {
    clearTimeout(timer);
    req.socket.destroy();
  };
  const timer = setTimeout(stop, maxMs);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > maxBytes) stop();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.on('error', () => undefined);
  req.resume();
}

/**
 * Parses an API request body: JSON (an object), or application/x-www-form-urlencoded with
 * bracket keys (`vote[helpful]=true` -> { vote: { helpful: "true" } }). Empty body -> null.
 * Throws 400 BadRequest for malformed JSON, a JSON value that is not an object, or another
 * content type.
 */
export function parseApiBody(raw: Buffer, contentType: string | undefined): Record<string, unknown> | null {
  const text = raw.toString('utf8');
  if (text.trim() === '') return null;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return parseNestedForm(text);
  if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
    throw new ApiError(400, 'BadRequest', [`Unsupported request body type "${type}"; send application/json`]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, 'BadRequest', [`Malformed JSON body: ${err instanceof Error ? err.message : String(err)}`]);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError(400, 'BadRequest', ['The JSON body must be an object']);
  }
  return parsed as Record<string, unknown>;
}

const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** `a[b]=1&a[c][]=2&d=3` -> { a: { b: "1", c: ["2"] }, d: "3" } (later scalars win). */
export function parseNestedForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!m) continue;
    const path = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)];
    // `__proto__[x]=1` must not reach Object.prototype.
    if (path.some((part) => UNSAFE_KEYS.has(part))) continue;
    let node: Record<string, unknown> = root;
    for (let i = 0; i < path.length; i++) {
      const part = path[i]!;
      const last = i === path.length - 1;
      const nextIsArray = path[i + 1] === '';
      if (last) {
        node[part] = value;
      } else if (nextIsArray && i + 1 === path.length - 1) {
        const arr = Array.isArray(node[part]) ? (node[part] as unknown[]) : [];
        arr.push(value);
        node[part] = arr;
        break;
      } else {
        const child = node[part];
        const obj = typeof child === 'object' && child !== null && !Array.isArray(child) ? (child as Record<string, unknown>) : {};
        node[part] = obj;
        node = obj;
      }
    }
  }
  return root;
}
