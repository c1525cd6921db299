// Test helper: makes requests with fetch and records them as HAR 1.2 entries, so the passive judge
// can be tested on traffic of the reference server (not a test file itself).
import { writeFileSync } from 'node:fs';

export interface HarEntryJson {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: { name: string; value: string }[];
    queryString: [];
    cookies: [];
    headersSize: -1;
    bodySize: number;
    postData?: { mimeType: string; text: string };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: { name: string; value: string }[];
    cookies: [];
    content: { size: number; mimeType: string; text?: string; encoding?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
}

export interface RecordOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Store the response body base64-encoded (as browsers do for binary or compressed content). */
  base64?: boolean;
  /** Leave content.text out, as HAR exports that do not keep bodies. */
  omitBody?: boolean;
}

export class HarRecorder {
  readonly entries: HarEntryJson[] = [];

  async fetch(url: string, options: RecordOptions = {}): Promise<{ status: number; text: string }> {
    const method = options.method ?? 'GET';
    const headers = options.headers ?? {};
    const started = Date.now();
    const res = await fetch(url, { method, headers, ...(options.body !== undefined ? { body: options.body } : {}), redirect: 'manual' });
    const text = await res.text();
    const responseHeaders: { name: string; value: string }[] = [];
    res.headers.forEach((value, name) => responseHeaders.push({ name, value }));
    const content: HarEntryJson['response']['content'] = { size: Buffer.byteLength(text), mimeType: res.headers.get('content-type') ?? '' };
    if (!options.omitBody) {
      if (options.base64) {
        content.text = Buffer.from(text, 'utf8').toString('base64');
        content.encoding = 'base64';
      } else content.text = text;
    }
    const entry: HarEntryJson = {
      startedDateTime: new Date(started).toISOString(),
      time: Date.now() - started,
      request: {
        method,
        url,
        httpVersion: 'HTTP/1.1',
        headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: options.body === undefined ? 0 : Buffer.byteLength(options.body),
      },
      response: {
        status: res.status,
        statusText: res.statusText,
        httpVersion: 'HTTP/1.1',
        headers: responseHeaders,
        cookies: [],
        content,
        redirectURL: res.headers.get('location') ?? '',
        headersSize: -1,
        bodySize: Buffer.byteLength(text),
      },
      cache: {},
      timings: { send: 0, wait: Date.now() - started, receive: 0 },
    };
    if (options.body !== undefined) entry.request.postData = { mimeType: headers['Content-Type'] ?? 'application/json', text: options.body };
    this.entries.push(entry);
    return { status: res.status, text };
  }

  har(): { log: { version: string; creator: { name: string; version: string }; entries: HarEntryJson[] } } {
    return { log: { version: '1.2', creator: { name: 'catalogue-conformance test recorder', version: '0' }, entries: this.entries } };
  }

  write(path: string): string {
    writeFileSync(path, JSON.stringify(this.har()));
    return path;
  }
}
