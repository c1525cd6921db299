// CATALOGUE_HAR end to end: a live run of the CLI against the reference writes every exchange it
// made (token requests, discovery, the suites in every vitest worker) into one HAR 1.2 file,
// redacted, in the order the requests started; the passive judge (npm run validate-traffic) finds
// no failure in it (issue 8: "recording a full live run against the reference to HAR and
// validating it passively gives no failure"). A HAR that cannot be written stops the run with one
// line before any request.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main as validateTraffic } from '../har/main.ts';
import { partsDirOf } from '../har/write.ts';
import { startReference, type RunningReference } from '../reference/server.ts';
import { runCli, runCliBatched, runSummary, SELFTEST_LIMITS, targetArgs, type CliRun } from '../testing/cli.ts';

/** Two cheap suites, and logout: a suite of a later pass (LATER_PASSES), run by workers of their own. */
const SUITES = ['categories', 'oauth', 'logout'];
const BASE_PATH = '/api';
const dir = mkdtempSync(join(tmpdir(), 'har-recording-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Seen {
  method: string;
  url: string;
  requestBody: string;
  status: number;
  location: string;
  responseBody: string;
}

/**
 * A proxy in front of the reference (API and token endpoint: one origin) that keeps every
 * exchange whole, so the test knows each token the run got and used, which the HAR must not hold.
 */
async function recordingProxy(ref: RunningReference): Promise<{ origin: string; seen: Seen[]; close: () => Promise<void> }> {
  const target = new URL(ref.baseUrl);
  const seen: Seen[] = [];
  const proxy = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      const requestBody = Buffer.concat(body);
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const responseBody = Buffer.concat(chunks);
          const headers: IncomingHttpHeaders = { ...answer.headers, 'content-length': String(responseBody.length) };
          delete headers['transfer-encoding'];
          seen.push({
            method: req.method ?? '',
            url: req.url ?? '',
            requestBody: requestBody.toString('utf8'),
            status: answer.statusCode ?? 0,
            location: String(answer.headers['location'] ?? ''),
            responseBody: responseBody.toString('utf8'),
          });
          res.writeHead(answer.statusCode ?? 502, headers).end(responseBody);
        });
      });
      upstream.on('error', () => res.writeHead(502).end());
      upstream.end(requestBody);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen,
    close: () => {
      proxy.closeAllConnections();
      return new Promise((resolve) => proxy.close(() => resolve()));
    },
  };
}

/** Every token, refresh token and authorization code the server handed out, and the client secret. */
function secretsOf(seen: Seen[], clientSecret: string): string[] {
  const out = new Set<string>([clientSecret]);
  for (const s of seen) {
    try {
      const body = JSON.parse(s.responseBody) as Record<string, unknown>;
      for (const key of ['access_token', 'refresh_token']) if (typeof body[key] === 'string') out.add(body[key]);
    } catch {
      // not JSON
    }
    const code = s.location ? new URL(s.location, 'http://x').searchParams.get('code') : null;
    if (code) out.add(code);
  }
  return [...out];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) requires of a log and each entry, as a list of problems. */
function harProblems(doc: unknown): string[] {
  const problems: string[] = [];
  const need = (where: string, object: unknown, fields: Record<string, 'string' | 'number' | 'array' | 'object'>) => {
    if (!isObject(object)) return void problems.push(`${where} is not an object`);
    for (const [field, type] of Object.entries(fields)) {
      const value = object[field];
      const ok = type === 'array' ? Array.isArray(value) : type === 'object' ? isObject(value) : typeof value === type;
      if (!ok) problems.push(`${where}.${field} is not a${type === 'array' || type === 'object' ? 'n' : ''} ${type}`);
    }
  };
  const log = isObject(doc) ? doc['log'] : undefined;
  need('log', log, { version: 'string', creator: 'object', entries: 'array' });
  if (!isObject(log)) return problems;
  if (log['version'] !== '1.2') problems.push(`log.version is ${String(log['version'])}`);
  need('log.creator', log['creator'], { name: 'string', version: 'string' });
  const nameValues = (where: string, list: unknown) => {
    if (Array.isArray(list)) list.forEach((item, i) => need(`${where}[${i}]`, item, { name: 'string', value: 'string' }));
  };
  (log['entries'] as unknown[]).forEach((entry, i) => {
    const at = `entries[${i}]`;
    need(at, entry, { startedDateTime: 'string', time: 'number', request: 'object', response: 'object', cache: 'object', timings: 'object' });
    if (!isObject(entry)) return;
    for (const key of Object.keys(entry)) {
      if (!key.startsWith('_') && !['pageref', 'startedDateTime', 'time', 'request', 'response', 'cache', 'timings', 'serverIPAddress', 'connection', 'comment'].includes(key)) {
        problems.push(`${at}.${key} is no HAR field (custom fields start with _)`);
      }
    }
    if (Number.isNaN(Date.parse(String(entry['startedDateTime']))) || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(String(entry['startedDateTime']))) {
      problems.push(`${at}.startedDateTime is not ISO 8601: ${String(entry['startedDateTime'])}`);
    }
    const request = entry['request'];
    need(`${at}.request`, request, {
      method: 'string',
      url: 'string',
      httpVersion: 'string',
      cookies: 'array',
      headers: 'array',
      queryString: 'array',
      headersSize: 'number',
      bodySize: 'number',
    });
    if (isObject(request)) {
      nameValues(`${at}.request.headers`, request['headers']);
      nameValues(`${at}.request.queryString`, request['queryString']);
      if (request['postData'] !== undefined) need(`${at}.request.postData`, request['postData'], { mimeType: 'string', text: 'string' });
    }
    const response = entry['response'];
    need(`${at}.response`, response, {
      status: 'number',
      statusText: 'string',
      httpVersion: 'string',
      cookies: 'array',
      headers: 'array',
      content: 'object',
      redirectURL: 'string',
      headersSize: 'number',
      bodySize: 'number',
    });
    if (isObject(response)) {
      nameValues(`${at}.response.headers`, response['headers']);
      need(`${at}.response.content`, response['content'], { size: 'number', mimeType: 'string' });
    }
    const timings = entry['timings'];
    need(`${at}.timings`, timings, { send: 'number', wait: 'number', receive: 'number' });
    if (isObject(timings) && typeof entry['time'] === 'number') {
      const sum = Object.values(timings)
        .filter((v): v is number => typeof v === 'number' && v !== -1)
        .reduce((a, b) => a + b, 0);
      if (Math.abs(sum - entry['time']) > 0.01) problems.push(`${at}.time ${entry['time']} is not the sum of its timings (${sum})`);
    }
  });
  return problems;
}

interface HarDoc {
  log: {
    entries: {
      startedDateTime: string;
      request: { method: string; url: string; headers: { name: string; value: string }[] };
      response: { status: number };
    }[];
  };
}

describe('a live run recorded to HAR (--har)', () => {
  const harPath = join(dir, 'evidence', 'run.har');
  let run: CliRun;
  let seen: Seen[];
  let clientSecret: string;
  let harText: string;

  beforeAll(async () => {
    const ref = await startReference({ limits: SELFTEST_LIMITS, basePath: BASE_PATH });
    const proxy = await recordingProxy(ref);
    try {
      const real = new URL(ref.baseUrl).origin;
      const args = targetArgs(ref).map((a) => (a.startsWith(real) ? a.replace(real, proxy.origin) : a));
      run = await runCliBatched([...args, '--har', harPath, ...SUITES]);
      seen = proxy.seen;
      clientSecret = ref.client.secret;
      harText = existsSync(harPath) ? readFileSync(harPath, 'utf8') : '';
    } finally {
      await proxy.close();
      await ref.close();
    }
  }, 120_000);

  test('the run passes, prints the HAR path with the reports, and leaves no part file', () => {
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.stdout).toContain(`\nHAR: ${harPath}\n`);
    expect(existsSync(partsDirOf(harPath))).toBe(false);
  });

  test('the HAR is HAR 1.2 JSON', () => {
    expect(harProblems(JSON.parse(harText))).toEqual([]);
  });

  test('one entry per request of the run: as many as results.json counts (token requests included) and as the server saw', () => {
    const entries = (JSON.parse(harText) as HarDoc).log.entries;
    // Token requests are inside the budget (createRunServices spends it for each), so the counts are equal.
    expect(entries.length).toBe(run.results!.requests.total);
    expect(entries.length).toBe(seen.length);
    expect(entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status}`).sort()).toEqual(
      seen.map((s) => `${s.method} ${s.url.split('?')[0]} ${s.status}`).sort(),
    );
  });

  test('every pass is recorded: the logout of the second pass is there, after every exchange of the first', () => {
    const entries = (JSON.parse(harText) as HarDoc).log.entries;
    const logout = entries.findIndex((e) => e.request.method === 'DELETE' && new URL(e.request.url).pathname === `${BASE_PATH}/user/logout`);
    expect(logout).toBeGreaterThan(0);
    expect(entries[logout]!.response.status).toBe(200);
    expect(entries.slice(logout + 1).every((e) => !new URL(e.request.url).pathname.startsWith(`${BASE_PATH}/categories`))).toBe(true);
  });

  test('entries are in the order their requests started', () => {
    const times = (JSON.parse(harText) as HarDoc).log.entries.map((e) => Date.parse(e.startedDateTime));
    expect(times.every((t, i) => i === 0 || times[i - 1]! <= t)).toBe(true);
  });

  test('the token endpoint exchanges are there: the run’s own (application token) and the oauth suite’s (code flow, errors)', () => {
    const entries = (JSON.parse(harText) as HarDoc).log.entries;
    const token = entries.filter((e) => e.request.method === 'POST' && new URL(e.request.url).pathname === '/oauth2/token');
    expect(token.length).toBe(seen.filter((s) => s.method === 'POST' && s.url === '/oauth2/token').length);
    expect(token.some((e) => e.response.status === 200)).toBe(true);
    expect(token.some((e) => e.response.status === 400)).toBe(true);
    // The run's first request is its preflight: the application token, made in the main process.
    expect(new URL(entries[0]!.request.url).pathname).toBe('/oauth2/token');
    expect(entries.some((e) => new URL(e.request.url).pathname === '/oauth2/authorizations/new' && e.response.status === 302)).toBe(true);
  });

  test('no token, refresh token, authorization code or client secret of the run is in the file', () => {
    const used = secretsOf(seen, clientSecret);
    // At least the run's application token, the oauth suite's tokens, a user token, its refresh token and a code.
    expect(used.length).toBeGreaterThanOrEqual(5);
    for (const secret of used) {
      expect(harText).not.toContain(secret);
      expect(harText).not.toContain(encodeURIComponent(secret));
    }
    expect(harText).toContain('"name":"authorization","value":"Bearer [REDACTED]"');
    expect(harText).toContain('"access_token\\":\\"[REDACTED]\\"');
  });

  test('validate-traffic judges the recording without a failure', () => {
    const reportDir = join(dir, 'judged');
    const printed: string[] = [];
    const code = validateTraffic([harPath, '--base-path', BASE_PATH, '--report-dir', reportDir], (t) => printed.push(t), {});
    const results = JSON.parse(readFileSync(join(reportDir, 'latest', 'results.json'), 'utf8')) as {
      summary: { passed: number; failed: number };
      tests: { title: string; status: string; message: string }[];
    };
    const failed = results.tests.filter((t) => t.status === 'failed').map((t) => `${t.title}: ${t.message}`);
    expect(failed).toEqual([]);
    expect(code, printed.join('\n')).toBe(0);
    // Every API exchange was judged: only the OAuth endpoints (outside the base path) are skipped as not API v3.
    const notApi = results.tests.filter((t) => t.message.startsWith('not an API v3 exchange'));
    expect(notApi.every((t) => /\/oauth2\//.test(t.message))).toBe(true);
    expect(results.summary.passed).toBeGreaterThan(run.results!.requests.total);
    for (const secret of secretsOf(seen, clientSecret)) expect(readFileSync(join(reportDir, 'latest', 'results.json'), 'utf8')).not.toContain(secret);
  });
});

describe('a run that stops early', () => {
  test('still leaves the exchanges it made: credentials refused at the preflight, exit 2, the refused token request in the HAR', async () => {
    const ref = await startReference({ limits: SELFTEST_LIMITS });
    try {
      const harPath = join(dir, 'refused.har');
      const wrongSecret = 'wrong-secret-0123456789';
      const args = targetArgs(ref).map((a) => (a === ref.client.secret ? wrongSecret : a));
      const run = await runCli([...args, '--har', harPath, 'categories']);
      expect(run.code, runSummary(run)).toBe(2);
      expect(run.stdout).toBe(`HAR: ${harPath}\n`);
      const text = readFileSync(harPath, 'utf8');
      const entries = (JSON.parse(text) as HarDoc).log.entries;
      expect(entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`)).toEqual(['POST /oauth2/token']);
      expect(entries[0]!.response.status).toBeGreaterThanOrEqual(400);
      expect(text).not.toContain(wrongSecret);
      expect(existsSync(partsDirOf(harPath))).toBe(false);
    } finally {
      await ref.close();
    }
  });
});

describe('a HAR that cannot be written', () => {
  test('stops the run before any request: one line, exit 2', async () => {
    const ref = await startReference({ limits: SELFTEST_LIMITS });
    try {
      const file = join(dir, 'a-file');
      writeFileSync(file, 'not a directory');
      const run = await runCli([...targetArgs(ref), '--har', join(file, 'run.har'), 'categories']);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `catalogue-conformance: HAR file ${join(file, 'run.har')} cannot be written (ENOTDIR): set CATALOGUE_HAR (--har) to a file in a writable directory\n`,
      );
      expect(ref.requestCount()).toBe(0);
    } finally {
      await ref.close();
    }
  });
});
