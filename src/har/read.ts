// Reads a HAR 1.2 file (https://w3c.github.io/web-performance/specs/HAR/Overview.html) into the
// entries the passive judge needs. Nothing here judges: a malformed file is a HarError (one line).
//
// A HAR file of tens of MB is read as a stream: a small scanner walks the bytes of
// {"log": {..., "entries": [...]}} and hands each element of log.entries to JSON.parse alone, so
// memory follows the largest entry, never the whole file. The scanner works on bytes, not on
// decoded text: every byte JSON's structure depends on is ASCII, and no byte of a multi-byte
// UTF-8 character is, so a character split between two chunks needs no care until its entry is
// decoded whole.
import { closeSync, openSync, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

export class HarError extends Error {}

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

// ---------------------------------------------------------------------------------------------
// The streaming scanner

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;

const BOM = [0xef, 0xbb, 0xbf];

/** JSON.parse's reason without the excerpt of the text V8 quotes in it (the excerpt may hold a token). */
function parseReason(message: string): string {
  if (message.endsWith(' is not valid JSON')) return /^Unexpected token '[\s\S]{1,2}'/.exec(message)?.[0] ?? 'unexpected input';
  return message.replace(/ (?:in JSON )?at position \d+.*$/, '');
}

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const endsScalar = (b: number): boolean => isSpace(b) || b === COMMA || b === CLOSE_BRACE || b === CLOSE_BRACKET;

// Where the scanner stands in {"log": {..., "entries": [...]}}. Values off that path (creator,
// pages, the entries themselves) are captured whole and parsed by JSON.parse.
const TOP = 0; // before the document's value
const KEY = 1; // in the top or log object: a key or the closing brace
const COLON_NEXT = 2;
const VALUE = 3; // the value of the key just read
const AFTER_VALUE = 4; // a comma or the closing brace
const ELEMENT = 5; // in log.entries: an entry or the closing bracket
const AFTER_ELEMENT = 6; // a comma or the closing bracket
const TRAILING = 7; // after the document: whitespace only
const CAPTURE = 8; // inside a captured value

type Captured = 'key' | 'entry' | 'value';

/** A captured entry, handed to JSON.parse and the per-entry validation by harExchanges. */
interface RawEntry {
  bytes: Buffer;
  offset: number;
  index: number;
}

class HarScanner {
  readonly #source: string;
  #state = TOP;
  /** 1: the top object, 2: the log object. */
  #level = 0;
  /** A closing brace or bracket may come next (none right after a comma). */
  #mayClose = false;
  #key = '';
  #seenLog = false;
  #seenEntries = false;
  #entryCount = 0;
  /** A valid-JSON-but-not-HAR message, thrown once the whole document has proved to be JSON. */
  #notHar: string | null = null;
  /** Whether the document's value was a scalar or array (captured whole). */
  #topCaptured = false;
  /** Bytes of a UTF-8 byte order mark seen at the start of the file. */
  #bomBytes = 0;

  // The capture under way.
  #kind: Captured = 'value';
  #shape: 'string' | 'container' | 'scalar' = 'string';
  #inString = false;
  #escaped = false;
  #depth = 0;
  #pieces: Buffer[] = [];
  #start = 0;
  #afterCapture = AFTER_VALUE;

  readonly entries: RawEntry[] = [];

  constructor(source: string) {
    this.#source = source;
  }

  #syntax(reason: string, offset: number): HarError {
    return new HarError(`${this.#source}: not valid JSON at byte ${offset} (${reason})`);
  }

  #unexpected(b: number, offset: number): HarError {
    const shown = b >= 0x20 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16).padStart(2, '0')}`;
    return this.#syntax(`unexpected ${shown}${this.#where(' ')}`, offset);
  }

  /** Where in the document the scanner stands, for a message: "inside entry #3" (with a leading separator). */
  #where(separator: string): string {
    if (this.#state === CAPTURE && this.#kind === 'entry') return `${separator}inside entry #${this.#entryCount + 1}`;
    if (this.#state === ELEMENT || this.#state === AFTER_ELEMENT) {
      return this.#entryCount ? `${separator}in log.entries after entry #${this.#entryCount}` : `${separator}in log.entries before any entry`;
    }
    return '';
  }

  #beginCapture(kind: Captured, b: number, offset: number, after: number): void {
    const scalar = b === 0x2d || (b >= 0x30 && b <= 0x39) || b === 0x74 || b === 0x66 || b === 0x6e; // -, digits, true, false, null
    if (!scalar && b !== QUOTE && b !== OPEN_BRACE && b !== OPEN_BRACKET) throw this.#unexpected(b, offset);
    this.#state = CAPTURE;
    this.#kind = kind;
    this.#start = offset;
    this.#afterCapture = after;
    this.#pieces = [];
    this.#inString = false;
    this.#escaped = false;
    this.#depth = 0;
    if (b === QUOTE) {
      this.#shape = 'string';
      this.#inString = true;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      this.#shape = 'container';
      this.#depth = 1;
    } else {
      this.#shape = 'scalar';
    }
  }

  /** Parses the captured bytes (`start`: their offset in the file); a syntax error names the byte. */
  #parse(bytes: Buffer, start: number, what: string): unknown {
    const text = bytes.toString('utf8');
    try {
      return JSON.parse(text);
    } catch (error) {
      const message = (error as Error).message.split('\n')[0]!;
      const position = /at position (\d+)/.exec(message);
      const offset = start + (position ? Buffer.byteLength(text.slice(0, Number(position[1])), 'utf8') : 0);
      throw this.#syntax(`${what}: ${parseReason(message)}`, offset);
    }
  }

  #endCapture(bytes: Buffer): void {
    this.#pieces = [];
    this.#state = this.#afterCapture;
    if (this.#kind === 'entry') {
      this.entries.push({ bytes, offset: this.#start, index: ++this.#entryCount });
    } else if (this.#kind === 'key') {
      this.#key = this.#parse(bytes, this.#start, 'a key') as string;
    } else {
      // Off the path to the entries: parsed only to prove the file is JSON, then dropped.
      this.#parse(bytes, this.#start, this.#level === 2 ? `log.${this.#key}` : this.#level === 1 ? this.#key : 'the document');
    }
  }

  #bytesOf(chunk: Buffer, from: number, to: number): Buffer {
    const piece = chunk.subarray(from, to);
    return this.#pieces.length ? Buffer.concat([...this.#pieces, piece]) : piece;
  }

  /** Scans the next chunk of the file, which starts at byte `offset` of it. */
  feed(chunk: Buffer, offset: number): void {
    let captureFrom = 0;
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      const b = chunk[i]!;
      switch (this.#state) {
        case CAPTURE: {
          if (this.#inString) {
            if (this.#escaped) this.#escaped = false;
            else if (b === BACKSLASH) this.#escaped = true;
            else if (b === QUOTE) {
              this.#inString = false;
              if (this.#shape === 'string') this.#endCapture(this.#bytesOf(chunk, captureFrom, i + 1));
            }
          } else if (this.#shape === 'scalar') {
            if (endsScalar(b)) {
              this.#endCapture(this.#bytesOf(chunk, captureFrom, i));
              i--; // the delimiter belongs to the structure around the scalar
            }
          } else if (b === QUOTE) this.#inString = true;
          else if (b === OPEN_BRACE || b === OPEN_BRACKET) this.#depth++;
          else if ((b === CLOSE_BRACE || b === CLOSE_BRACKET) && --this.#depth === 0) this.#endCapture(this.#bytesOf(chunk, captureFrom, i + 1));
          break;
        }
        case ELEMENT:
          if (isSpace(b)) break;
          if (b === CLOSE_BRACKET && this.#mayClose) {
            this.#state = AFTER_VALUE;
            break;
          }
          captureFrom = i;
          this.#beginCapture('entry', b, offset + i, AFTER_ELEMENT);
          break;
        case AFTER_ELEMENT:
          if (isSpace(b)) break;
          if (b === COMMA) {
            this.#state = ELEMENT;
            this.#mayClose = false;
          } else if (b === CLOSE_BRACKET) this.#state = AFTER_VALUE;
          else throw this.#unexpected(b, offset + i);
          break;
        case KEY:
          if (isSpace(b)) break;
          if (b === QUOTE) {
            captureFrom = i;
            this.#beginCapture('key', b, offset + i, COLON_NEXT);
          } else if (b === CLOSE_BRACE && this.#mayClose) this.#closeObject();
          else throw this.#unexpected(b, offset + i);
          break;
        case COLON_NEXT:
          if (isSpace(b)) break;
          if (b !== COLON) throw this.#unexpected(b, offset + i);
          this.#state = VALUE;
          break;
        case VALUE:
          if (isSpace(b)) break;
          if (this.#level === 1 && this.#key === 'log' && !this.#seenLog) {
            this.#seenLog = true;
            if (b === OPEN_BRACE) {
              this.#level = 2;
              this.#state = KEY;
              this.#mayClose = true;
              break;
            }
            this.#notHar ??= 'not a HAR file (no "log" object)';
          } else if (this.#level === 2 && this.#key === 'entries' && !this.#seenEntries) {
            this.#seenEntries = true;
            if (b === OPEN_BRACKET) {
              this.#state = ELEMENT;
              this.#mayClose = true;
              break;
            }
            this.#notHar ??= 'not a HAR file (log.entries is not an array)';
          }
          captureFrom = i;
          this.#beginCapture('value', b, offset + i, AFTER_VALUE);
          break;
        case AFTER_VALUE:
          if (isSpace(b)) break;
          if (b === COMMA) {
            this.#state = KEY;
            this.#mayClose = false;
          } else if (b === CLOSE_BRACE) this.#closeObject();
          else throw this.#unexpected(b, offset + i);
          break;
        case TOP:
          if (isSpace(b)) break;
          // A UTF-8 byte order mark, which some tools write, is not part of the JSON text.
          if (offset + i === this.#bomBytes && b === BOM[this.#bomBytes]) {
            this.#bomBytes++;
            break;
          }
          if (b === OPEN_BRACE) {
            this.#level = 1;
            this.#state = KEY;
            this.#mayClose = true;
            break;
          }
          this.#notHar = 'not a HAR file (no "log" object)';
          this.#topCaptured = true;
          captureFrom = i;
          this.#beginCapture('value', b, offset + i, TRAILING);
          break;
        case TRAILING:
          if (!isSpace(b)) throw this.#unexpected(b, offset + i);
          break;
      }
    }
    // A value still open at the end of the chunk keeps its part of it (a view, not a copy).
    if (this.#state === CAPTURE) this.#pieces.push(chunk.subarray(captureFrom));
  }

  #closeObject(): void {
    if (this.#level === 2) {
      if (!this.#seenEntries) this.#notHar ??= 'not a HAR file (log.entries is not an array)';
      this.#level = 1;
      this.#state = AFTER_VALUE;
    } else {
      if (!this.#seenLog) this.#notHar ??= 'not a HAR file (no "log" object)';
      this.#level = 0;
      this.#state = TRAILING;
    }
  }

  /** The end of the file at byte `offset`: throws unless the document was whole, and HAR. */
  end(offset: number): void {
    if (this.#state === CAPTURE && this.#shape === 'scalar' && this.#topCaptured) this.#endCapture(this.#bytesOf(Buffer.alloc(0), 0, 0));
    if (this.#state === TOP) throw this.#syntax('the file is empty', offset);
    if (this.#state !== TRAILING) throw this.#syntax(`the file ends early${this.#where(', ')}`, offset);
    if (this.#notHar) throw new HarError(`${this.#source}: ${this.#notHar}`);
  }

  /** Parses a captured entry. */
  parseEntry(raw: RawEntry): unknown {
    return this.#parse(raw.bytes, raw.offset, `entry #${raw.index}`);
  }
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
