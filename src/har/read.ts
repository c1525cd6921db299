// Reads a HAR 1.2 file (https://w3c.github.io/web-performance/specs/HAR/Overview.html) into the
// entries the passive judge needs. Nothing here judges: a malformed file is a HarError (one line).
//
// A HAR file of tens of MB is read as a stream: a small scanner (scan.ts) walks the bytes of
// {"log": {..., "entries": [...]}} and hands each element of log.entries to JSON.parse alone, so
// memory follows the largest entry, never the whole file. The scanner works on bytes, not on
// decoded text: every byte JSON's structure depends on is ASCII, and no byte of a multi-byte
// UTF-8 character is, so a character split between two chunks needs no care until its entry is
// decoded whole.
import { closeSync, openSync, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

export { HarError } from './scan.ts';
import { HarError, HarScanner } from './scan.ts';

export interface HarExchange {
  /** 1-based position in the file's entries. */
  index: number;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  /** The response body as text; undefined when the HAR did not record it, or not whole, or not decodably. */
  body: string | undefined;
  /** Why a body the HAR carries is undefined (compressed beyond decoding, truncated). */
  bodyNote?: string;
  /** When the request started, ms since the epoch (NaN when the HAR gives no valid time). */
  startedMs: number;
  /** Total time of the entry in ms (HAR `time`), 0 when absent. */
  timeMs: number;
  /** Why no complete answer came (the kit's `_error`): status 0 then means none came. */
  error?: string;
  /** The kit's `_judgedLive`: the run's observed rules judged this exchange (src/report/verify.ts re-judges it). */
  judgedLive?: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** HAR headers are a list of {name, value}; repeated names are joined with ", " (as HTTP allows). */
function headersOf(list: unknown, where: string): Record<string, string> {
  if (list === undefined) return {};
  if (!Array.isArray(list)) throw new HarError(`${where}: headers is not an array`);
  const out: Record<string, string> = {};
  for (const item of list) {
    if (!isObject(item) || typeof item['name'] !== 'string') throw new HarError(`${where}: a header without a name`);
    const name = item['name'].toLowerCase();
    // HTTP/2 pseudo-headers (":status") are not headers of the exchange.
    if (name.startsWith(':')) continue;
    const value = String(item['value'] ?? '');
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Bodies: base64, compressed, truncated

/** A decompressed body larger than this is refused (a zip bomb must not exhaust memory). */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;
const CODINGS = new Set(['gzip', 'deflate', 'br']);
/** Control characters no text body carries (tab, line feed and carriage return excepted). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;
/** A string of one character per byte: raw bytes some tools store as a plain content.text. */
// eslint-disable-next-line no-control-regex -- every byte value, control characters included
const BYTE_STRING = /^[\x00-\xff]*$/;

const hasGzipMagic = (bytes: Buffer): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
const isText = (bytes: Buffer): boolean => isUtf8(bytes) && !CONTROL.test(bytes.toString('latin1'));

/** The codings of a Content-Encoding header, in the order they are to be undone (last applied first). */
function codingsOf(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .map((c) => (c === 'x-gzip' ? 'gzip' : c))
    .filter((c) => c !== '' && c !== 'identity')
    .reverse();
}

function decompress(bytes: Buffer, coding: string): Buffer {
  const options = { maxOutputLength: MAX_DECODED_BYTES };
  if (coding === 'gzip') return gunzipSync(bytes, options);
  if (coding === 'br') return brotliDecompressSync(bytes, options);
  // HTTP's "deflate" is zlib-wrapped; some servers send raw deflate.
  try {
    return inflateSync(bytes, options);
  } catch {
    return inflateRawSync(bytes, options);
  }
}

/**
 * Undoes the Content-Encoding when the recorded bytes still carry it. Browsers record bodies
 * already decoded, with the header kept: bytes that do not decode but are text are taken as such.
 */
function decoded(bytes: Buffer, contentEncoding: string | undefined): { bytes: Buffer } | { note: string } {
  let codings = codingsOf(contentEncoding);
  if (!codings.length && hasGzipMagic(bytes)) codings = ['gzip'];
  let current = bytes;
  for (const named of codings) {
    const coding = hasGzipMagic(current) ? 'gzip' : named;
    const fail = (reason: string) => ({ note: `body recorded compressed (${coding}) and could not be decompressed: ${reason}` });
    if (!CODINGS.has(coding)) {
      if (isText(current)) break;
      return fail('unsupported coding');
    }
    try {
      current = decompress(current, coding);
    } catch (error) {
      if (!hasGzipMagic(current) && isText(current)) break;
      return fail((error as Error).message.split('\n')[0]!);
    }
  }
  return { bytes: current };
}

function bodyOf(content: unknown, responseHeaders: Record<string, string>): { body: string | undefined; note?: string } {
  if (!isObject(content) || typeof content['text'] !== 'string') return { body: undefined };
  const text = content['text'];
  const contentEncoding = responseHeaders['content-encoding'];
  let bytes: Buffer | undefined;
  if (content['encoding'] === 'base64') bytes = Buffer.from(text, 'base64');
  else if (text.startsWith('\x1f\x8b') || (contentEncoding && CONTROL.test(text) && BYTE_STRING.test(text))) bytes = Buffer.from(text, 'latin1');
  let body = text;
  let length: number;
  if (bytes) {
    const result = decoded(bytes, contentEncoding);
    if ('note' in result) return { body: undefined, note: result.note };
    body = result.bytes.toString('utf8');
    length = result.bytes.length;
  } else length = Buffer.byteLength(text, 'utf8');
  // content.size is the length of the decoded body; content.compression the bytes compression saved
  // (a tool that records the body as transferred records size - compression bytes). Some tools
  // give the length of the text they wrote (base64 characters): that text is whole.
  const size = content['size'];
  const compression = typeof content['compression'] === 'number' ? content['compression'] : 0;
  if (typeof size === 'number' && size > length && length + compression < size && size !== text.length) {
    return { body: undefined, note: `body truncated in the HAR: ${length} of ${size} bytes recorded` };
  }
  return { body };
}

// ---------------------------------------------------------------------------------------------
// Entries

/** One entry of log.entries as a HarExchange; HarError when it lacks what the judge needs. */
function exchangeOf(entry: unknown, index: number, source: string): HarExchange {
  const where = `${source}: entry #${index}`;
  if (!isObject(entry) || !isObject(entry['request']) || !isObject(entry['response'])) throw new HarError(`${where} lacks request or response`);
  const request = entry['request'];
  const response = entry['response'];
  if (typeof request['method'] !== 'string' || typeof request['url'] !== 'string') throw new HarError(`${where}: request lacks method or url`);
  if (typeof response['status'] !== 'number') throw new HarError(`${where}: response lacks a numeric status`);
  const postData = request['postData'];
  const responseHeaders = headersOf(response['headers'], where);
  const { body, note } = bodyOf(response['content'], responseHeaders);
  const exchange: HarExchange = {
    index,
    method: request['method'].toUpperCase(),
    url: request['url'],
    requestHeaders: headersOf(request['headers'], where),
    status: response['status'],
    responseHeaders,
    body,
    startedMs: typeof entry['startedDateTime'] === 'string' ? Date.parse(entry['startedDateTime']) : Number.NaN,
    timeMs: typeof entry['time'] === 'number' && entry['time'] > 0 ? entry['time'] : 0,
  };
  if (note !== undefined) exchange.bodyNote = note;
  if (isObject(postData) && typeof postData['text'] === 'string') exchange.requestBody = postData['text'];
  if (typeof entry['_error'] === 'string') exchange.error = entry['_error'];
  if (entry['_judgedLive'] === true) exchange.judgedLive = true;
  return exchange;
}

/** The entries of a parsed HAR document. */
export function harEntries(doc: unknown, source = 'HAR'): HarExchange[] {
  const log = isObject(doc) ? doc['log'] : undefined;
  if (!isObject(log)) throw new HarError(`${source}: not a HAR file (no "log" object)`);
  const entries = log['entries'];
  if (!Array.isArray(entries)) throw new HarError(`${source}: not a HAR file (log.entries is not an array)`);
  return entries.map((entry: unknown, i) => exchangeOf(entry, i + 1, source));
}

export const DEFAULT_CHUNK_SIZE = 1024 * 1024;

/**
 * The exchanges of a HAR file, entry by entry, read in chunks of `chunkSize` bytes. HarError when
 * the file cannot be read, is not JSON (with the byte offset) or not HAR (with the entry number);
 * entries before the fault have been yielded by then.
 */
export function* harExchanges(path: string, chunkSize = DEFAULT_CHUNK_SIZE): Generator<HarExchange> {
  const cannotRead = (error: unknown) => new HarError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw cannotRead(error);
  }
  try {
    const scanner = new HarScanner(path);
    let offset = 0;
    for (;;) {
      // A fresh buffer per chunk: an entry still open keeps views of the chunks it spans.
      const chunk = Buffer.allocUnsafe(chunkSize);
      let read: number;
      try {
        read = readSync(fd, chunk, 0, chunkSize, null);
      } catch (error) {
        throw cannotRead(error);
      }
      if (read === 0) break;
      scanner.feed(read === chunkSize ? chunk : chunk.subarray(0, read), offset);
      offset += read;
      for (const raw of scanner.entries.splice(0)) yield exchangeOf(scanner.parseEntry(raw), raw.index, path);
    }
    scanner.end(offset);
  } finally {
    closeSync(fd);
  }
}

/** Reads and parses a whole HAR file; a HarError for a file that cannot be read or is not HAR. */
export function readHar(path: string): HarExchange[] {
  return [...harExchanges(path)];
}
