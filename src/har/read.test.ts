// The streaming HAR reader: the same exchanges as JSON.parse + harEntries whatever the chunk
// boundaries cut, one-line HarErrors with a byte offset or entry number for malformed files, and
// bodies as real exports record them (base64, compressed, truncated, absent).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { startReference } from '../reference/server.ts';
import { appToken } from '../testing/reference/testkit.ts';
import { HarError, harEntries, harExchanges, readHar, type HarExchange } from './read.ts';
import { HarRecorder } from './record.ts';

const dir = mkdtempSync(join(tmpdir(), 'har-read-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function file(content: string | Buffer): string {
  const path = join(dir, `f${++files}.har`);
  writeFileSync(path, content);
  return path;
}

const read = (path: string, chunkSize?: number): HarExchange[] => [...harExchanges(path, chunkSize)];

/** The HarError a call throws (fails the test when it throws nothing or something else). */
function harError(call: () => unknown): HarError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(HarError);
    expect((error as Error).message).not.toContain('\n');
    return error as HarError;
  }
  throw new Error('no HarError was thrown');
}

interface Content {
  text?: string;
  encoding?: string;
  size?: number;
  compression?: number;
}

function entry(url: string, content: Content = {}, responseHeaders: Record<string, string> = {}): Record<string, unknown> {
  return {
    startedDateTime: '2024-03-10T12:00:00.000Z',
    time: 7,
    request: {
      method: 'get',
      url,
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Accept', value: 'application/vnd.service+json; version=3.2' }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: Object.entries({ 'content-type': 'application/json', ...responseHeaders }).map(([name, value]) => ({ name, value })),
      cookies: [],
      content: { mimeType: 'application/json', ...content },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 7, receive: 0 },
  };
}

const har = (entries: unknown[], extra: Record<string, unknown> = {}) => ({ log: { version: '1.2', creator: { name: 'test', version: '0' }, ...extra, entries } });

// Text a naive scanner gets wrong: brackets and quotes inside strings, escapes, and characters of
// two, three and four UTF-8 bytes that chunk boundaries cut in every possible place.
const TRICKY = 'Crème brûlée – 東京 🎉 "quoted" [not] {an} \\ array\\" ] } , : \u005d \u2028 end';
const trickyBody = JSON.stringify({ category: { id: 1, name: TRICKY, path: '[{"a": "}"}]' } });

function trickyDoc(): ReturnType<typeof har> {
  return har([
    entry('https://api.example/categories/root', { text: trickyBody, size: Buffer.byteLength(trickyBody) }),
    entry('https://api.example/categories?name=%5B%5D&q="x"', { text: '' }),
    entry(`https://api.example/search?q=${encodeURIComponent('🎉東京')}`),
    {
      ...entry('https://api.example/user/addresses'),
      request: { method: 'POST', url: 'https://api.example/user/addresses', headers: [], postData: { mimeType: 'application/json', text: '{"street": "Rue \\"]}\\""}' } },
    },
  ]);
}

describe('harExchanges reads entry by entry, whatever the chunk boundaries', () => {
  const compact = JSON.stringify(trickyDoc());
  const pretty = JSON.stringify(trickyDoc(), null, 2);
  const expected = harEntries(JSON.parse(compact));

  for (const chunkSize of [1, 2, 3, 5, 7, 64, 4096]) {
    it(`gives what JSON.parse and harEntries give, in chunks of ${chunkSize} bytes`, () => {
      expect(read(file(compact), chunkSize)).toEqual(expected);
      expect(read(file(pretty), chunkSize)).toEqual(expected);
    });
  }

  it('keeps multi-byte characters whole where a chunk boundary cuts them', () => {
    const path = file(compact);
    const emojiAt = Buffer.from(compact).indexOf(Buffer.from('🎉'));
    // Chunks of 1 to 4 bytes starting at the file's start cut the emoji's four bytes every way.
    for (const chunkSize of [1, 2, 3, 4, emojiAt + 1, emojiAt + 2, emojiAt + 3]) {
      const [first] = read(path, chunkSize);
      expect(JSON.parse(first!.body!).category.name).toBe(TRICKY);
    }
  });

  it('finds log.entries whatever the order of the keys of log and of the document', () => {
    const entries = trickyDoc().log.entries;
    const orders = [
      { log: { entries, version: '1.2', creator: { name: 'x', version: '0' }, pages: [{ id: 'p', title: 'entries: [' }] } },
      { comment: '{"log": {"entries": []}}', log: { pages: [{ title: ']}' }], entries, comment: 'after' }, after: [1, { entries: [] }] },
      { log: { creator: { name: 'x', entries: 'not these' }, entries } },
    ];
    for (const doc of orders) {
      const text = JSON.stringify(doc);
      expect(read(file(text), 3)).toEqual(harEntries(JSON.parse(text)));
      expect(read(file(text), 3)).toHaveLength(entries.length);
    }
  });

  it('reads numbers, true, false and null around the entries (a scalar ends where the structure goes on)', () => {
    const text = `{"n":0,"log":{"version":1.2,"ok":true,"no":false, "nothing":null ,"entries":${JSON.stringify(trickyDoc().log.entries)},"z":-5e3},"t":[1,-2]}`;
    for (const chunkSize of [1, 3, undefined]) expect(read(file(text), chunkSize)).toEqual(expected);
  });

  it('skips a UTF-8 byte order mark, also when it is cut by a chunk boundary', () => {
    const path = file(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(compact)]));
    expect(read(path, 1)).toEqual(expected);
    expect(readHar(path)).toEqual(expected);
  });

  it('yields the entries before a fault later in the file, then throws', () => {
    const text = JSON.stringify(trickyDoc());
    const path = file(`${text.slice(0, text.lastIndexOf(']'))},{"broken"`);
    const seen: number[] = [];
    const error = harError(() => {
      for (const h of harExchanges(path, 16)) seen.push(h.index);
    });
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(error.message).toMatch(/not valid JSON at byte \d+ \(the file ends early, inside entry #5\)$/);
  });

  it('gives what JSON.parse and harEntries give on traffic recorded from the reference server', async () => {
    const ref = await startReference({ basePath: '/api' });
    try {
      const token = await appToken(ref);
      const rec = new HarRecorder();
      const headers = { Authorization: `Bearer ${token}`, Accept: 'application/vnd.service+json; version=3.2' };
      await rec.fetch(`${ref.baseUrl}/categories?per=100`, { headers });
      await rec.fetch(`${ref.baseUrl}/categories/root`, { headers, base64: true });
      await rec.fetch(`${ref.baseUrl}/categories/999999`, { headers });
      await rec.fetch(`${ref.baseUrl}/categories/root`, { headers, omitBody: true });
      const path = rec.write(join(dir, 'reference.har'));
      const text = JSON.stringify(rec.har());
      const expectedHere = harEntries(JSON.parse(text), path);
      expect(expectedHere).toHaveLength(4);
      for (const chunkSize of [13, 1000, undefined]) expect(read(path, chunkSize)).toEqual(expectedHere);
      const pretty = file(JSON.stringify(rec.har(), null, 1));
      expect(read(pretty, 97)).toEqual(expectedHere);
    } finally {
      await ref.close();
    }
  });
});

describe('a malformed HAR file is one HarError naming the file and where', () => {
  // A valid entry, so each file's first fault is the one the case is about.
  const E = '{"request": {"method": "GET", "url": "https://a/"}, "response": {"status": 200}}';
  const head = '{"log": {"entries": [';
  const at = (text: string) => Buffer.byteLength(text);
  const cases: [string, string, RegExp][] = [
    ['not JSON', 'hello', /: not valid JSON at byte 0 \(unexpected 'h'\)$/],
    ['empty', '', /: not valid JSON at byte 0 \(the file is empty\)$/],
    ['only whitespace', ' \n ', /: not valid JSON at byte 3 \(the file is empty\)$/],
    ['truncated before any entry', head, new RegExp(`: not valid JSON at byte ${at(head)} \\(the file ends early, in log.entries before any entry\\)$`)],
    [
      'truncated inside an entry',
      `${head}${E}, {"request": {"url": "a]}`,
      new RegExp(`: not valid JSON at byte ${at(`${head}${E}, {"request": {"url": "a]}`)} \\(the file ends early, inside entry #2\\)$`),
    ],
    ['truncated inside a string after an escape', `${head}{"request": "\\`, new RegExp(`: not valid JSON at byte ${at(head) + 14} \\(the file ends early, inside entry #1\\)$`)],
    ['truncated between entries', `${head}${E},`, new RegExp(`: not valid JSON at byte ${at(head + E) + 1} \\(the file ends early, in log.entries after entry #1\\)$`)],
    ['truncated after the entries', `${head}${E}]`, new RegExp(`: not valid JSON at byte ${at(head + E) + 1} \\(the file ends early\\)$`)],
    [
      'a syntax error inside an entry',
      `${head}${E}, {"request": {"url": "x" "y"}}]}}`,
      new RegExp(`: not valid JSON at byte ${at(head + E) + 26} \\(entry #2: Expected ',' or '}' after property value\\)$`),
    ],
    ['a bad literal inside an entry', `${head}{"a": tru}]}}`, new RegExp(`: not valid JSON at byte ${at(head)} \\(entry #1: Unexpected token '}'\\)$`)],
    ['a syntax error outside the entries', '{"log": {"creator": {"name": x}, "entries": []}}', /: not valid JSON at byte \d+ \(log.creator: /],
    ['a trailing comma in log.entries', `${head}${E},]}}`, new RegExp(`: not valid JSON at byte ${at(head + E) + 1} \\(unexpected '\\]' in log.entries after entry #1\\)$`)],
    ['a missing comma between entries', `${head}${E} ${E}]}}`, new RegExp(`: not valid JSON at byte ${at(head + E) + 1} \\(unexpected '\\{' in log.entries after entry #1\\)$`)],
    ['a missing colon', '{"log" {"entries": []}}', /: not valid JSON at byte 7 \(unexpected '\{'\)$/],
    ['text after the document', '{"log": {"entries": []}} x', /: not valid JSON at byte 25 \(unexpected 'x'\)$/],
    ['invalid JSON that is not HAR either', '[1, 2', /: not valid JSON at byte 5 \(the file ends early\)$/],
    ['a control byte', '{"log": \x01}', /: not valid JSON at byte 8 \(unexpected byte 0x01\)$/],
    // Offsets count bytes, not characters: 東京 is two characters of six bytes.
    ['a multi-byte character before the fault', '{"log": {"comment": "東京", "entries": [}', /: not valid JSON at byte 42 \(unexpected '\}' in log.entries before any entry\)$/],
    [
      'a multi-byte character before the fault inside an entry',
      `${head}{"name": "東京" "x"}]}}`,
      new RegExp(`: not valid JSON at byte ${at(head) + 18} \\(entry #1: Expected ','`),
    ],
  ];
  for (const [name, text, message] of cases) {
    it(name, () => {
      const path = file(text);
      for (const chunkSize of [1, 4, undefined]) {
        const error = harError(() => read(path, chunkSize));
        expect(error.message.startsWith(`${path}: `)).toBe(true);
        expect(error.message).toMatch(message);
      }
    });
  }

  it('the message never quotes the entry (JSON.parse would, tokens included)', () => {
    const secret = '"Bearer s3cr3t-t0ken"';
    const long = 'x'.repeat(200);
    const broken = [
      `{"value": ${secret}, "x": tru}`,
      `{"a": "${long}", "value": ${secret}, "x": tru}`,
      `{"x": tru, "value": ${secret}, "a": "${long}"}`,
      `{"a": "${long}", "value": ${secret}, "x": tru, "b": "${long}"}`,
      `{"value": ${secret}, "n": 1.2}`.replace('1.2', '1..2'),
    ];
    for (const entryText of broken) {
      const error = harError(() => read(file(`{"log": {"entries": [${entryText}]}}`)));
      expect(error.message).toMatch(/entry #1: (Unexpected token '.'|Unterminated fractional number|No number after minus sign|Expected ',' or '}' after property value)\)$/);
      expect(error.message).not.toContain('s3cr3t');
    }
  });

  // Valid JSON that is not HAR: the messages of JSON.parse + harEntries, unchanged.
  const notHar: [string, unknown][] = [
    ['a string', 'nope'],
    ['a number', 42],
    ['an array', [{ log: { entries: [] } }]],
    ['null', null],
    ['no log key', { entries: [] }],
    ['log not an object', { log: [] }],
    ['log a string', { log: 'x', after: { entries: [] } }],
    ['no entries', { log: { version: '1.2' } }],
    ['entries not an array', { log: { entries: {} } }],
    ['entries null', { log: { entries: null } }],
    ['an entry that is not an object', { log: { entries: [entry('https://a/'), 7] } }],
    ['an entry that is an array', { log: { entries: [[entry('https://a/')]] } }],
    ['an entry without a response', { log: { entries: [{ request: { method: 'GET', url: 'https://a/' } }] } }],
    ['a header without a name', { log: { entries: [{ ...entry('https://a/'), request: { method: 'GET', url: 'https://a/', headers: [{ value: 'x' }] } }] } }],
  ];
  for (const [name, doc] of notHar) {
    it(`${name}: the message JSON.parse and harEntries give`, () => {
      const path = file(JSON.stringify(doc, null, 1));
      const expected = harError(() => harEntries(doc, path)).message;
      expect(expected).toMatch(/not a HAR file|entry #\d|no "log"/);
      for (const chunkSize of [1, 5, undefined]) expect(harError(() => read(path, chunkSize)).message).toBe(expected);
    });
  }

  it('a file that cannot be read names the error code', () => {
    expect(harError(() => readHar(join(dir, 'missing.har'))).message).toBe(`${join(dir, 'missing.har')}: cannot be read (ENOENT)`);
    const folder = join(dir, 'folder.har');
    mkdirSync(folder);
    expect(harError(() => readHar(folder)).message).toBe(`${folder}: cannot be read (EISDIR)`);
  });
});

describe('bodies as real HAR exports record them', () => {
  const json = JSON.stringify({ category: { id: 1, name: 'Crème 東京' } });
  const bytes = Buffer.from(json);
  const only = (content: Content, headers: Record<string, string> = {}): HarExchange => harEntries(har([entry('https://api.example/categories/root', content, headers)]))[0]!;
  const b64 = (b: Buffer) => b.toString('base64');

  it('no content.text: body undefined, without a note (the body was not recorded)', () => {
    const h = only({ size: 120 });
    expect(h.body).toBeUndefined();
    expect(h.bodyNote).toBeUndefined();
  });

  it('plain and base64 text', () => {
    expect(only({ text: json, size: bytes.length })).toMatchObject({ body: json });
    expect(only({ text: b64(bytes), encoding: 'base64', size: bytes.length })).toMatchObject({ body: json });
    expect(only({ text: b64(bytes), encoding: 'base64', size: bytes.length }).bodyNote).toBeUndefined();
  });

  const compressed: [string, Buffer][] = [
    ['gzip', gzipSync(bytes)],
    ['deflate', deflateSync(bytes)],
    ['br', brotliCompressSync(bytes)],
  ];
  for (const [coding, data] of compressed) {
    it(`${coding}: base64 of the compressed bytes, with the Content-Encoding header, is decompressed`, () => {
      const h = only({ text: b64(data), encoding: 'base64', size: bytes.length }, { 'content-encoding': coding });
      expect(h.body).toBe(json);
      expect(h.bodyNote).toBeUndefined();
    });

    it(`${coding}: text already decoded (as browsers record it), with the header kept, is taken as it is`, () => {
      expect(only({ text: json, size: bytes.length }, { 'content-encoding': coding }).body).toBe(json);
      expect(only({ text: b64(bytes), encoding: 'base64', size: bytes.length }, { 'content-encoding': coding }).body).toBe(json);
    });

    it(`${coding}: compressed bytes stored as a plain string, one character per byte, are decompressed`, () => {
      expect(only({ text: data.toString('latin1'), size: bytes.length }, { 'content-encoding': coding }).body).toBe(json);
    });
  }

  it('deflate without the zlib wrapper (raw deflate, as some servers send) is decompressed', () => {
    expect(only({ text: b64(deflateRawSync(bytes)), encoding: 'base64' }, { 'content-encoding': 'deflate' }).body).toBe(json);
  });

  it('gzip bytes are recognised by their magic number without a header', () => {
    expect(only({ text: b64(gzipSync(bytes)), encoding: 'base64', size: bytes.length }).body).toBe(json);
    expect(only({ text: gzipSync(bytes).toString('latin1') }).body).toBe(json);
    // A server that labels gzip bytes "deflate": the magic number wins.
    expect(only({ text: b64(gzipSync(bytes)), encoding: 'base64' }, { 'content-encoding': 'deflate' }).body).toBe(json);
  });

  it('two codings are undone in the reverse order of the header', () => {
    const data = brotliCompressSync(gzipSync(bytes));
    expect(only({ text: b64(data), encoding: 'base64', size: bytes.length }, { 'content-encoding': 'gzip, br' }).body).toBe(json);
  });

  it('a compressed body that does not decompress: body undefined, and a note saying why', () => {
    const broken = gzipSync(bytes).subarray(0, 15);
    const h = only({ text: b64(broken), encoding: 'base64', size: bytes.length }, { 'content-encoding': 'gzip' });
    expect(h.body).toBeUndefined();
    expect(h.bodyNote).toMatch(/^body recorded compressed \(gzip\) and could not be decompressed: \S/);
    const garbage = Buffer.from([0x8b, 0x00, 0xff, 0x13, 0x07, 0xfe, 0x01, 0x02, 0x99, 0xc3]);
    const br = only({ text: b64(garbage), encoding: 'base64' }, { 'content-encoding': 'br' });
    expect(br.body).toBeUndefined();
    expect(br.bodyNote).toMatch(/^body recorded compressed \(br\) and could not be decompressed: \S/);
    const unknown = only({ text: b64(garbage), encoding: 'base64' }, { 'content-encoding': 'zstd' });
    expect(unknown.bodyNote).toBe('body recorded compressed (zstd) and could not be decompressed: unsupported coding');
  });

  it('a body shorter than content.size says: truncated in the HAR, X of Y bytes', () => {
    const cut = json.slice(0, 20);
    const h = only({ text: cut, size: 500 });
    expect(h.body).toBeUndefined();
    expect(h.bodyNote).toBe('body truncated in the HAR: 20 of 500 bytes recorded');
    expect(only({ text: b64(Buffer.from(cut)), encoding: 'base64', size: 500 }).bodyNote).toBe('body truncated in the HAR: 20 of 500 bytes recorded');
    // Bytes, not characters: "Crème 東京" is longer in UTF-8 than in UTF-16.
    expect(only({ text: json, size: bytes.length }).body).toBe(json);
    expect(only({ text: json, size: bytes.length + 1 }).bodyNote).toBe(`body truncated in the HAR: ${bytes.length} of ${bytes.length + 1} bytes recorded`);
  });

  it('a difference content.compression explains, or a size below the body, is no truncation', () => {
    expect(only({ text: json, size: bytes.length + 300, compression: 300 }).body).toBe(json);
    expect(only({ text: json, size: 3 }).body).toBe(json);
    expect(only({ text: json, size: -1 }).body).toBe(json);
    expect(only({ text: json, size: 0 }).body).toBe(json);
    expect(only({ text: '', size: 0 }).body).toBe('');
  });

  it('bodies are decoded the same way when read from a file in small chunks', () => {
    const doc = har([
      entry('https://api.example/a', { text: b64(gzipSync(bytes)), encoding: 'base64', size: bytes.length }, { 'content-encoding': 'gzip' }),
      entry('https://api.example/b', { text: json.slice(0, 9), size: 90 }),
      entry('https://api.example/c', { text: b64(gzipSync(bytes).subarray(0, 12)), encoding: 'base64' }),
    ]);
    const got = read(file(JSON.stringify(doc)), 8);
    expect(got).toEqual(harEntries(doc));
    expect(got.map((h) => [h.body, h.bodyNote?.slice(0, 30)])).toEqual([
      [json, undefined],
      [undefined, 'body truncated in the HAR: 9 o'],
      [undefined, 'body recorded compressed (gzip'],
    ]);
  });
});
