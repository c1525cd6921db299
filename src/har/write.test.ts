// The run's HAR (CATALOGUE_HAR): one entry per hop, redacted like every report but with whole
// bodies; part files per process merged in start order into a HAR 1.2 file the passive judge reads;
// a HAR that cannot be written is one line, never a crash.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { HttpClient, HttpError, type RecordedHop } from '../http/client.ts';
import { BODY_EXCERPT_CHARS } from '../http/exchange.ts';
import { SecretRegistry } from '../http/redact.ts';
import { readHar } from './read.ts';
import { harEntry, HarWriteError, keepEarlier, mergeHarParts, partsDirOf, preparePartsDir, recordHopsInto, startHarRecording, type HarEntry } from './write.ts';

const dir = mkdtempSync(join(tmpdir(), 'har-write-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOKEN = 'tok-3a4b5c6d7e8f9a0b';
const REFRESH = 'ref-0f1e2d3c4b5a6978';
const SECRET = 'client-secret-9988776655';
const CODE = 'code-1122334455';

let cases = 0;
const fresh = (name: string): string => join(dir, `${++cases}-${name}`);

function hop(extra: Partial<RecordedHop> = {}): RecordedHop {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:8080/api/categories/5?per=2',
    requestHeaders: { accept: 'application/vnd.service+json; version=3.2' },
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: '{"category":{"id":5}}',
    durationMs: 12.3456,
    startedMs: Date.UTC(2025, 0, 2, 3, 4, 5, 678),
    ...extra,
  };
}

const parts = (harPath: string): string[] => (existsSync(partsDirOf(harPath)) ? readdirSync(partsDirOf(harPath)) : []);

describe('harEntry', () => {
  test('a HAR 1.2 entry: request, response, content, start time and duration', () => {
    const entry = harEntry(hop(), new SecretRegistry());
    expect(entry).toEqual({
      startedDateTime: '2025-01-02T03:04:05.678Z',
      time: 12.346,
      request: {
        method: 'GET',
        url: 'http://127.0.0.1:8080/api/categories/5?per=2',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'accept', value: 'application/vnd.service+json; version=3.2' }],
        queryString: [{ name: 'per', value: '2' }],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'content-type', value: 'application/json' }],
        content: { size: 21, mimeType: 'application/json', text: '{"category":{"id":5}}' },
        redirectURL: '',
        headersSize: -1,
        bodySize: 21,
      },
      cache: {},
      timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 12.346, receive: 0 },
    } satisfies HarEntry);
  });

  test('every secret is redacted: Authorization, oauth_token, form and JSON bodies, the code in Location, known values anywhere', () => {
    const registry = new SecretRegistry();
    registry.add(REFRESH);
    const entry = harEntry(
      hop({
        method: 'POST',
        url: `http://127.0.0.1:8080/oauth2/token?oauth_token=${TOKEN}`,
        requestHeaders: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
        requestBody: `grant_type=authorization_code&client_secret=${SECRET}&code=${CODE}`,
        status: 302,
        responseHeaders: { location: `http://127.0.0.1:9/callback?code=${CODE}&state=s`, 'x-echo': REFRESH, 'content-type': 'application/json' },
        responseBody: JSON.stringify({ access_token: TOKEN, refresh_token: REFRESH, token_type: 'bearer' }),
      }),
      registry,
    );
    const text = JSON.stringify(entry);
    for (const secret of [TOKEN, REFRESH, SECRET, CODE]) expect(text).not.toContain(secret);
    expect(entry.request.url).toBe('http://127.0.0.1:8080/oauth2/token?oauth_token=[REDACTED]');
    expect(entry.request.queryString).toEqual([{ name: 'oauth_token', value: '[REDACTED]' }]);
    expect(entry.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [REDACTED]' });
    expect(entry.request.postData).toEqual({
      mimeType: 'application/x-www-form-urlencoded',
      text: 'grant_type=authorization_code&client_secret=[REDACTED]&code=[REDACTED]',
    });
    expect(entry.response.redirectURL).toBe('http://127.0.0.1:9/callback?code=[REDACTED]&state=s');
    expect(entry.response.statusText).toBe('Found');
    expect(JSON.parse(entry.response.content.text!)).toEqual({ access_token: '[REDACTED]', refresh_token: '[REDACTED]', token_type: 'bearer' });
  });

  test('bodies are kept whole, not cut to the report excerpt (the passive judge parses them)', () => {
    const items = Array.from({ length: 400 }, (_, id) => ({ id, name: `category ${id}` }));
    const body = JSON.stringify({ categories: items });
    expect(body.length).toBeGreaterThan(BODY_EXCERPT_CHARS * 5);
    expect(harEntry(hop({ responseBody: body }), new SecretRegistry()).response.content.text).toBe(body);
  });

  test('no response: status 0, no content text, the reason in _error', () => {
    const entry = harEntry(
      hop({ status: null, responseHeaders: {}, responseBody: undefined, error: 'GET http://127.0.0.1:1/x: connection refused (nothing listening?)' }),
      new SecretRegistry(),
    );
    expect(entry.response).toMatchObject({ status: 0, statusText: '', httpVersion: '', headers: [], content: { size: 0, mimeType: '' }, bodySize: -1 });
    expect(entry.response.content.text).toBeUndefined();
    expect(entry._error).toBe('GET http://127.0.0.1:1/x: connection refused (nothing listening?)');
  });
});

describe('recording the hops of an HttpClient', () => {
  const servers: Server[] = [];
  let stop: (() => void) | null = null;
  afterEach(async () => {
    stop?.();
    stop = null;
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('each hop (a redirect too), and each request that got no response, is one entry of the process part file', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/old') res.writeHead(302, { location: '/new', 'content-length': 0 }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: TOKEN, ok: true }));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));

    const harPath = fresh('client.har');
    const partsDir = preparePartsDir(harPath);
    const registry = new SecretRegistry();
    stop = recordHopsInto(partsDir, registry);
    const http = new HttpClient({ apiVersion: '3.2', timeoutMs: 2_000 });
    const response = await http.request(`${origin}/old`, { token: TOKEN });
    expect(response.status).toBe(200);
    await expect(http.request(`${closedOrigin}/gone`)).rejects.toBeInstanceOf(HttpError);
    stop();
    stop = null;
    await http.request(`${origin}/new`); // after stop(): not recorded

    const files = parts(harPath);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d+-\d+\.jsonl$/);
    const entries = readFileSync(join(partsDir, files[0]!), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as HarEntry);
    expect(entries.map((e) => [e.request.method, new URL(e.request.url).pathname, e.response.status])).toEqual([
      ['GET', '/old', 302],
      ['GET', '/new', 200],
      ['GET', '/gone', 0],
    ]);
    expect(entries[0]!.response.redirectURL).toBe('/new');
    expect(entries[0]!.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [REDACTED]' });
    expect(JSON.parse(entries[1]!.response.content.text!)).toEqual({ access_token: '[REDACTED]', ok: true });
    expect(entries[2]!._error).toMatch(/connection refused/);
    expect(Date.parse(entries[0]!.startedDateTime)).toBeLessThanOrEqual(Date.parse(entries[1]!.startedDateTime));
    expect(readFileSync(join(partsDir, files[0]!), 'utf8')).not.toContain(TOKEN);
  });
});

describe('mergeHarParts', () => {
  const at = (ms: number, path: string): HarEntry => harEntry(hop({ startedMs: Date.UTC(2025, 0, 1) + ms, url: `http://127.0.0.1:8080${path}` }), new SecretRegistry());
  const line = (entry: HarEntry) => `${JSON.stringify(entry)}\n`;

  test('merges the parts of several processes by start time into a HAR 1.2 file, then removes them', () => {
    const harPath = fresh('merged.har');
    const partsDir = preparePartsDir(harPath);
    // Entries are appended when the answer comes, so a part is not in start order either.
    writeFileSync(join(partsDir, '100-0.jsonl'), line(at(30, '/c')) + line(at(10, '/a')));
    writeFileSync(join(partsDir, '200-1.jsonl'), line(at(20, '/b')) + line(at(40, '/d')) + '{"startedDateTime": "2025-01-0');
    writeFileSync(join(partsDir, '200-1.jsonl.lost'), '1\n1\n');
    const result = mergeHarParts(partsDir, harPath, new SecretRegistry());
    expect(result).toEqual({ entries: 4, brokenLines: 1, lost: 2 });
    expect(existsSync(partsDir)).toBe(false);

    const doc = JSON.parse(readFileSync(harPath, 'utf8')) as { log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] } };
    expect(doc.log.version).toBe('1.2');
    expect(doc.log.creator.name).toBe('catalogue-conformance');
    expect(doc.log.creator.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.log.entries.map((e) => new URL(e.request.url).pathname)).toEqual(['/a', '/b', '/c', '/d']);
    // The passive judge's reader takes it as it is.
    expect(readHar(harPath).map((e) => [e.index, e.method, new URL(e.url).pathname, e.status])).toEqual([
      [1, 'GET', '/a', 200],
      [2, 'GET', '/b', 200],
      [3, 'GET', '/c', 200],
      [4, 'GET', '/d', 200],
    ]);
  });

  test('ties keep the order of their part; no part at all is a HAR without entries', () => {
    const harPath = fresh('ties.har');
    const partsDir = preparePartsDir(harPath);
    writeFileSync(join(partsDir, '1-0.jsonl'), line(at(5, '/first')) + line(at(5, '/second')));
    mergeHarParts(partsDir, harPath, new SecretRegistry());
    expect(readHar(harPath).map((e) => new URL(e.url).pathname)).toEqual(['/first', '/second']);

    const empty = fresh('empty.har');
    expect(mergeHarParts(preparePartsDir(empty), empty, new SecretRegistry())).toEqual({ entries: 0, brokenLines: 0, lost: 0 });
    expect(JSON.parse(readFileSync(empty, 'utf8'))).toMatchObject({ log: { version: '1.2', entries: [] } });
  });

  test('a secret only the merging process knows (a token it handed out) is scrubbed from every line', () => {
    const harPath = fresh('scrub.har');
    const partsDir = preparePartsDir(harPath);
    writeFileSync(join(partsDir, '1-0.jsonl'), line(harEntry(hop({ responseHeaders: { 'x-echo': TOKEN } }), new SecretRegistry())));
    const registry = new SecretRegistry();
    registry.add(TOKEN);
    mergeHarParts(partsDir, harPath, registry);
    const text = readFileSync(harPath, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('"x-echo","value":"[REDACTED]"');
  });
});

describe('a HAR that cannot be written is one line', () => {
  test('a directory, or a path under a file, is refused before the run', () => {
    const asDir = fresh('a-dir.har');
    mkdirSync(asDir);
    const file = fresh('plain-file');
    writeFileSync(file, 'x');
    for (const path of [asDir, join(file, 'run.har')]) {
      let error: unknown;
      try {
        preparePartsDir(path);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(HarWriteError);
      expect((error as Error).message).toMatch(new RegExp(`^HAR file ${path.replace(/[.]/g, '\\.')} cannot be written \\((EISDIR|ENOTDIR)\\)`));
      expect((error as Error).message).not.toContain('\n');
    }
  });

  test('parts of an earlier, interrupted run do not join this one', () => {
    const harPath = fresh('stale.har');
    mkdirSync(partsDirOf(harPath));
    writeFileSync(join(partsDirOf(harPath), '99-0.jsonl'), `${JSON.stringify(harEntry(hop(), new SecretRegistry()))}\n`);
    const partsDir = preparePartsDir(harPath);
    expect(readdirSync(partsDir)).toEqual([]);
  });

  test('what a HAR path held is never dropped without a word: earlier parts are merged into a file of their own, an existing file is named', () => {
    const harPath = fresh('kept.har');
    writeFileSync(harPath, '{"log":{"entries":[]}}');
    mkdirSync(partsDirOf(harPath));
    writeFileSync(join(partsDirOf(harPath), '99-0.jsonl'), `${JSON.stringify(harEntry(hop(), new SecretRegistry()))}\n`);
    const notes = keepEarlier(harPath);
    expect(notes).toHaveLength(2);
    const recovered = /they are in (\S+)$/.exec(notes[0]!)?.[1];
    expect(notes[0]).toMatch(/^HAR: an earlier run left 1 exchanges unmerged in \S+kept\.har\.parts; they are in \S+kept\.earlier-\d{8}T\d{6}\.har$/);
    expect((JSON.parse(readFileSync(recovered!, 'utf8')) as { log: { entries: unknown[] } }).log.entries).toHaveLength(1);
    expect(notes[1]).toBe(`HAR: ${harPath} existed and was replaced by this run's`);
  });

  test('a merge that cannot write the file is a HarWriteError and leaves no partial file', () => {
    const harPath = fresh('gone-dir.har');
    const partsDir = preparePartsDir(harPath);
    writeFileSync(join(partsDir, '1-0.jsonl'), `${JSON.stringify(harEntry(hop(), new SecretRegistry()))}\n`);
    mkdirSync(harPath); // made a directory after the preflight
    expect(() => mergeHarParts(partsDir, harPath, new SecretRegistry())).toThrow(HarWriteError);
    expect(() => mergeHarParts(partsDir, harPath, new SecretRegistry())).toThrow(new RegExp(`^HAR file .*gone-dir\\.har cannot be written \\(E[A-Z]+\\)$`));
    expect(readdirSync(dir).filter((n) => n.endsWith('.partial'))).toEqual([]);
    expect(readdirSync(partsDir)).toEqual(['1-0.jsonl']); // the parts stay for another try
  });

  test('startHarRecording records this process until finish(), which merges once', async () => {
    const harPath = fresh('recording.har');
    const recording = startHarRecording(harPath);
    expect(recording.partsDir).toBe(partsDirOf(harPath));
    expect(recording.finished).toBe(false);
    const http = new HttpClient({ apiVersion: '3.2', timeoutMs: 500 });
    await http.request('http://127.0.0.1:1/nothing').catch(() => undefined);
    expect(recording.finish()).toEqual({ entries: 1, brokenLines: 0, lost: 0 });
    expect(recording.finished).toBe(true);
    expect(() => recording.finish()).toThrow(HarWriteError);
    const [entry] = readHar(harPath);
    expect(entry).toMatchObject({ method: 'GET', url: 'http://127.0.0.1:1/nothing', status: 0 });
  });
});
