// Reads a HAR 1.2 file (https://w3c.github.io/web-performance/specs/HAR/Overview.html) into the
// entries the passive judge needs. Nothing here judges: a malformed file is a HarError (one line).
import { readFileSync } from 'node:fs';

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
  /** The response body as text; undefined when the HAR did not record it. */
  body: string | undefined;
  /** When the request started, ms since the epoch (NaN when the HAR gives no valid time). */
  startedMs: number;
  /** Total time of the entry in ms (HAR `time`), 0 when absent. */
  timeMs: number;
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

function bodyOf(content: unknown): string | undefined {
  if (!isObject(content) || typeof content['text'] !== 'string') return undefined;
  const text = content['text'];
  return content['encoding'] === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
}

/** The entries of a parsed HAR document. */
export function harEntries(doc: unknown, source = 'HAR'): HarExchange[] {
  const log = isObject(doc) ? doc['log'] : undefined;
  if (!isObject(log)) throw new HarError(`${source}: not a HAR file (no "log" object)`);
  const entries = log['entries'];
  if (!Array.isArray(entries)) throw new HarError(`${source}: not a HAR file (log.entries is not an array)`);
  return entries.map((entry: unknown, i) => {
    const where = `${source}: entry #${i + 1}`;
    if (!isObject(entry) || !isObject(entry['request']) || !isObject(entry['response'])) throw new HarError(`${where} lacks request or response`);
    const request = entry['request'];
    const response = entry['response'];
    if (typeof request['method'] !== 'string' || typeof request['url'] !== 'string') throw new HarError(`${where}: request lacks method or url`);
    if (typeof response['status'] !== 'number') throw new HarError(`${where}: response lacks a numeric status`);
    const postData = request['postData'];
    const exchange: HarExchange = {
      index: i + 1,
      method: request['method'].toUpperCase(),
      url: request['url'],
      requestHeaders: headersOf(request['headers'], where),
      status: response['status'],
      responseHeaders: headersOf(response['headers'], where),
      body: bodyOf(response['content']),
      startedMs: typeof entry['startedDateTime'] === 'string' ? Date.parse(entry['startedDateTime']) : Number.NaN,
      timeMs: typeof entry['time'] === 'number' && entry['time'] > 0 ? entry['time'] : 0,
    };
    if (isObject(postData) && typeof postData['text'] === 'string') exchange.requestBody = postData['text'];
    return exchange;
  });
}

/** Reads and parses a HAR file; a HarError for a file that cannot be read or is not HAR. */
export function readHar(path: string): HarExchange[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new HarError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new HarError(`${path}: not valid JSON (${(error as Error).message.split('\n')[0]})`);
  }
  return harEntries(doc, path);
}
