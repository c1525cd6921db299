// Answers below HTTP requests: what node:http's parser rejects (step 0 of app.ts), and CONNECT.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorsBody, jsonContentType, variantBody, type HeaderMap } from './http.ts';
import { rateLimitHeaders } from './ratelimit.ts';
import type { ReferenceState } from './state.ts';
import { NO_VARIANTS, type Variants } from './variants.ts';

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
};

/** Sockets that got a raw answer; the parser's further complaints about them are ignored. */
const answered = new WeakSet<Duplex>();

/**
 * Writes a complete HTTP/1.1 response with the errors body on a raw socket, then closes it.
 * The client may still be sending its request (headers over the limit): what it sends is read
 * and dropped for a moment, since closing at once makes many clients report "other side
 * closed" instead of the answer.
 */
function writeRaw(socket: Duplex, status: number, code: string, message: string, headers: HeaderMap, variants: Variants = NO_VARIANTS): void {
  answered.add(socket);
  const body = JSON.stringify(variantBody(errorsBody(code, [message]), variants));
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`),
    `Content-Type: ${jsonContentType(variants)}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ];
  socket.write(lines.join('\r\n'));
  socket.once('end', () => socket.end());
  setTimeout(() => socket.end(), 200).unref();
  // A client that keeps sending (or never reads) must not hold the connection.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/**
 * node:http's 'clientError': a request the parser rejects, or a timeout. Answered with the
 * errors body and the client IP's rate-limit headers (on a separate auth origin, from the OAuth
 * endpoints' window) unless the socket is gone or a response has started: 501 NotImplemented
 * for an unknown method, 431 for headers over the size limit, 408 for a timeout, 400
 * BadRequest otherwise.
 */
export function clientErrorListener(state: ReferenceState, api: boolean): (err: Error & { code?: string }, socket: Duplex) => void {
  return (err, socket) => {
    if (answered.has(socket)) return;
    // As node:http does: no answer when the socket is gone or a response is being written on it.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    let status = 400;
    let code = 'BadRequest';
    let message = 'Malformed HTTP request';
    if (err.code === 'HPE_INVALID_METHOD') [status, code, message] = [501, 'NotImplemented', 'The request method is not implemented'];
    else if (err.code === 'HPE_HEADER_OVERFLOW') [status, code, message] = [431, 'RequestHeaderFieldsTooLarge', 'The request line and headers exceed 16 KiB'];
    else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'HPE_HEADER_TIMEOUT') {
      [status, code, message] = [408, 'RequestTimeout', 'The request was not received in time'];
    }
    const ip = (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? 'unknown';
    // The API server's answers follow its variants; the auth origin's stay plain JSON.
    writeRaw(socket, status, code, message, rateLimitHeaders(state.limiter.consume(`${api ? 'ip' : 'oauth'}:${ip}`), state.fault), api ? state.variants : NO_VARIANTS);
  };
}

/** CONNECT is no API method: 405 with the errors body, then the connection is closed. */
export function connectListener(state: ReferenceState, api: boolean): (req: IncomingMessage, socket: Duplex) => void {
  return (req, socket) => {
    socket.on('error', () => undefined);
    const headers = rateLimitHeaders(state.limiter.consume(`${api ? 'ip' : 'oauth'}:${req.socket.remoteAddress ?? 'unknown'}`), state.fault);
    writeRaw(socket, 405, 'MethodNotAllowed', 'CONNECT is not allowed', { ...headers, Allow: 'GET, HEAD, POST, PUT, PATCH, DELETE' }, api ? state.variants : NO_VARIANTS);
  };
}
