// The passive judge (npm run validate-traffic) on HAR files recorded from the reference server,
// with and without faults, and on hand-made HAR files with what real exports contain.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAULTS, startReference } from '../reference/server.ts';
import { appToken } from '../testing/reference/testkit.ts';
import { runCli } from '../testing/cli.ts';
import { main, parseArgs, USAGE } from './main.ts';
import { HarError } from './read.ts';
import { HarRecorder, type HarEntryJson } from './record.ts';

const dir = mkdtempSync(join(tmpdir(), 'har-test-'));
const VND = 'application/vnd.service+json';

/** Records the same requests against a reference (base path /api) with the given fault. */
async function recordReference(fault: string | null, file: string): Promise<{ path: string; token: string }> {
  const ref = await startReference({ basePath: '/api', fault });
  try {
    const token = await appToken(ref);
    const rec = new HarRecorder();
    const auth = { Authorization: `Bearer ${token}`, Accept: `${VND}; version=3.2` };
    await rec.fetch(`${ref.baseUrl}/categories`, { headers: auth });
    await rec.fetch(`${ref.baseUrl}/categories?per=2`, { headers: auth });
    await rec.fetch(`${ref.baseUrl}/categories/root`, { headers: { Accept: VND, Authorization: `Bearer ${token}` } });
    await rec.fetch(`${ref.baseUrl}/categories/999999`, { headers: auth });
    await rec.fetch(`${ref.baseUrl}/categories/root?oauth_token=${encodeURIComponent(token)}`, { headers: { Accept: VND } });
    return { path: rec.write(join(dir, file)), token };
  } finally {
    await ref.close();
  }
}

interface Ran {
  code: number;
  out: string;
  results: {
    summary: Record<string, number>;
    tests: { title: string; status: string; requirements: string[]; message: string; findings: { requirements: string[]; severity: string }[] }[];
  };
  junit: string;
  json: string;
}

let runs = 0;
function run(...args: string[]): Ran {
  const reportDir = join(dir, `reports-${++runs}`);
  const lines: string[] = [];
  const code = main([...args, '--report-dir', reportDir], (t) => lines.push(t), {});
  let json = '';
  let junit = '';
  try {
    json = readFileSync(join(reportDir, 'latest', 'results.json'), 'utf8');
    junit = readFileSync(join(reportDir, 'latest', 'junit.xml'), 'utf8');
  } catch {
    // no reports (exit 2)
  }
  return { code, out: lines.join('\n'), results: json ? JSON.parse(json) : { summary: {}, tests: [] }, junit, json };
}

function hand(file: string, entries: Partial<HarEntryJson>[] | unknown): string {
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify({ log: { version: '1.2', creator: { name: 'hand', version: '0' }, entries } }));
  return path;
}

function entry(url: string, status: number, text: string | undefined, extra: { encoding?: string; headers?: Record<string, string> } = {}): HarEntryJson {
  const headers = {
    'content-type': 'application/json',
    'x-ratelimit-limit': '100',
    'x-ratelimit-remaining': '99',
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 30),
    ...extra.headers,
  };
  return {
    startedDateTime: new Date().toISOString(),
    time: 5,
    request: { method: 'GET', url, httpVersion: 'HTTP/1.1', headers: [{ name: 'Accept', value: VND }], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
      cookies: [],
      content: { size: text?.length ?? 0, mimeType: 'application/json', ...(text !== undefined ? { text } : {}), ...(extra.encoding ? { encoding: extra.encoding } : {}) },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 5, receive: 0 },
  };
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('validate-traffic on traffic recorded from the reference server', () => {
  it('passes the reference without faults, and no token of the HAR reaches a report', async () => {
    const { path, token } = await recordReference(null, 'clean.har');
    const r = run(path, '--base-path', '/api');
    const failed = r.results.tests.filter((t) => t.status === 'failed');
    expect(failed.map((t) => `${t.title}: ${t.message}`)).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.results.summary['passed']).toBeGreaterThan(10);
    // Every entry is judged (no "not an API v3 exchange" skip) and the pagination rules ran.
    expect(r.results.tests.filter((t) => t.message.startsWith('not an API v3 exchange'))).toEqual([]);
    expect(r.results.tests.some((t) => t.requirements.includes('PAG-5') && t.status === 'passed')).toBe(true);
    expect(r.results.tests.some((t) => t.requirements.includes('ERR-2') && t.status === 'passed')).toBe(true);
    for (const text of [r.json, r.junit, r.out]) {
      expect(text.length).toBeGreaterThan(0);
      expect(text).not.toContain(token);
      expect(text).not.toContain(encodeURIComponent(token));
    }
    expect(r.json).toContain('oauth_token=[REDACTED]');
  });

  it('without --base-path, the base path is read off the traffic, and said so; a wrong one judges nothing: exit 2, not a pass', async () => {
    const { path } = await recordReference(null, 'no-base.har');
    const found = run(path);
    expect(found.code, found.out).toBe(0);
    expect(found.out).toMatch(/^NOTE base path \/api read off the traffic: \d+ of \d+ API entries looked at are an endpoint under it/m);
    expect(found.results.tests.filter((t) => t.message.startsWith('not an API v3 exchange'))).toEqual([]);
    expect(found.results.summary).toMatchObject({ failed: 0 });
    const given = run(path, '--base-path', '/api');
    expect(found.results.summary).toEqual(given.results.summary);
    // Told a base path the traffic is not under: every entry skipped, nothing certified.
    const wrong = run(path, '--base-path', '/v9');
    expect(wrong.code).toBe(2);
    expect(wrong.results.tests.every((t) => t.status === 'skipped' && t.message.startsWith('not an API v3 exchange: '))).toBe(true);
    expect(wrong.out).toMatch(/^ERROR no entry of \S+no-base\.har was judged as the API's \(\d+ skipped, e\.g\. not an API v3 exchange: .*\): name the API with --base-url$/m);
  });

  for (const fault of ['not-found-wrong-body', 'ratelimit-headers-missing-on-errors', 'pagination-total-pages-off-by-one', 'null-field-omitted']) {
    it(`fails the reference with fault ${fault}, naming ${FAULTS[fault]!.requirement}`, async () => {
      const { path } = await recordReference(fault, `${fault}.har`);
      const r = run(path, '--base-path', '/api');
      expect(r.code).toBe(1);
      const failed = r.results.tests.filter((t) => t.status === 'failed');
      const named = failed.flatMap((t) => t.findings.flatMap((f) => f.requirements));
      expect(named).toContain(FAULTS[fault]!.requirement);
      expect(r.out).toContain('FAIL');
    });
  }
});

describe('validate-traffic on hand-made HAR files', () => {
  const category = JSON.stringify({ category: { id: 1 } });

  it('--help prints the usage, exit 0, and judges nothing', () => {
    const lines: string[] = [];
    expect(main(['--help'], (t) => lines.push(t), {})).toBe(0);
    expect(lines).toEqual([USAGE]);
  });

  it('a body not recorded is skipped as such; the headers are still judged', () => {
    const r = run(hand('no-body.har', [entry('https://api.example/categories/root', 200, undefined)]));
    expect(r.code).toBe(0);
    const body = r.results.tests.find((t) => t.title.includes('body as documented'))!;
    expect(body.status).toBe('skipped');
    expect(body.message).toBe('body not recorded');
    expect(r.results.tests.some((t) => t.requirements.includes('RATE-4') && t.status === 'passed')).toBe(true);
  });

  it("an exchange that got no answer (status 0, the kit's _error) is skipped as such, not judged as an answer without rate-limit headers", () => {
    const lost = { ...entry('https://api.example/categories/root', 0, undefined, { headers: {} }), _error: 'connection reset' };
    lost.response.headers = [];
    const r = run(hand('no-answer.har', [lost]));
    expect(r.results.tests.filter((t) => t.status === 'failed')).toEqual([]);
    expect(r.results.tests).toMatchObject([{ status: 'skipped', message: 'no answer was recorded (connection reset): https://api.example/categories/root' }]);
  });

  it('a base64 body is decoded before it is judged', () => {
    const errors = JSON.stringify({ errors: [{ code: 'not_found', messages: ['no such category'] }] });
    const r = run(hand('base64.har', [entry('https://api.example/categories/9', 404, Buffer.from(errors).toString('base64'), { encoding: 'base64' })]));
    expect(r.results.tests.filter((t) => t.status === 'failed')).toEqual([]);
    expect(r.results.tests.some((t) => t.requirements.includes('ERR-2') && t.status === 'passed')).toBe(true);
    expect(r.code).toBe(0);
  });

  it('a broken body fails the schema record (MUST, exit 1)', () => {
    const r = run(hand('broken.har', [entry('https://api.example/categories/root', 200, category)]));
    expect(r.code).toBe(1);
    expect(r.results.tests.find((t) => t.title.includes('body as documented'))!.status).toBe('failed');
  });

  it('non-API entries and entries of other hosts are skipped with their URL', () => {
    const r = run(
      hand('mixed.har', [
        entry('https://api.example/favicon.ico', 200, ''),
        entry('https://cdn.other.example/static/app.js', 200, 'x'),
        entry('https://api.example/v2/categories', 200, '{}'),
      ]),
      '--base-path',
      '/v3',
    );
    // Nothing judged: no verdict on any API (exit 2), each entry skipped with its URL.
    expect(r.code).toBe(2);
    expect(r.results.tests.map((t) => [t.status, t.message])).toEqual([
      ['skipped', 'not an API v3 exchange: https://api.example/favicon.ico'],
      ['skipped', 'not an API v3 exchange: https://cdn.other.example/static/app.js'],
      ['skipped', 'not an API v3 exchange: https://api.example/v2/categories'],
    ]);
  });

  it('a null where the schema types non-null only warns; an omitted field fails with GEN-8', () => {
    const ref = { id: 1, name: null };
    const r = run(hand('nulls.har', [entry('https://api.example/categories/root', 200, JSON.stringify({ category: ref }))]));
    const body = r.results.tests.find((t) => t.title.includes('body as documented'))!;
    expect(body.findings.some((f) => f.requirements.includes('GEN-8'))).toBe(true);
  });

  it('a malformed HAR is one clear line and exit 2', () => {
    const path = join(dir, 'malformed.har');
    writeFileSync(path, '{"log": {"entries": [');
    const r = run(path);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^validate-traffic: .*malformed\.har: not valid JSON/);
    expect(r.out.split('\n')).toHaveLength(1);
    const notHar = run(hand('not-har.har', 'nope'));
    expect(notHar.code).toBe(2);
    expect(notHar.out).toContain('log.entries is not an array');
    expect(run(join(dir, 'missing.har')).code).toBe(2);
    expect(run().code).toBe(2);
  });
});

describe("validate-traffic: which entries are the API's, and the rules of one exchange", () => {
  const errors = JSON.stringify({ errors: [{ code: 'RecordNotFound', messages: ['no such category'] }] });
  /** An entry without any sign of the API (no media type, no X-RateLimit-* headers). */
  const silent = (url: string, status: number, text: string, type = 'text/html'): HarEntryJson => {
    const e = entry(url, status, text, { headers: { 'content-type': type } });
    e.request.headers = [{ name: 'Accept', value: '*/*' }];
    e.response.headers = e.response.headers.filter((h) => !h.name.startsWith('x-ratelimit'));
    return e;
  };

  it('entries of a host that never shows itself as the API are skipped with the reason; --host judges them', () => {
    const file = hand('hosts.har', [entry('https://api.example/categories/9', 404, errors), silent('https://www.other.example/search?q=ab', 200, '<html></html>')]);
    const inferred = run(file);
    expect(inferred.code).toBe(0);
    const other = inferred.results.tests.find((t) => t.title.includes('www.other.example'))!;
    expect(other.status).toBe('skipped');
    expect(other.message).toMatch(/no entry of www\.other\.example shows it is the API .* --host or --base-url/);
    // A third party's sign-in (a token endpoint of a host that is not the API's) is not judged as the API's.
    const token = silent('https://accounts.other.example/oauth2/token', 200, '{"id_token":"x"}', 'application/json');
    token.request.method = 'POST';
    token.request.postData = { mimeType: 'application/x-www-form-urlencoded', text: 'grant_type=authorization_code&code=abcdef123' };
    const signIn = run(hand('sign-in.har', [entry('https://api.example/categories/9', 404, errors), token]));
    expect(signIn.code).toBe(0);
    expect(signIn.results.tests.find((t) => t.title.includes('accounts.other.example'))!.message).toMatch(/^not judged: no entry of accounts\.other\.example shows it is the API/);
    // Named, it is judged (and this answer is no token response).
    expect(run(hand('sign-in-named.har', [token]), '--host', 'accounts.other.example').code).toBe(1);
    // The auth server on another origin than the API named by --base-url: --auth-url has its token endpoint judged too.
    const apart = hand('auth-apart.har', [entry('https://api.example/categories/9', 404, errors), token]);
    expect(run(apart, '--base-url', 'https://api.example/').results.tests.find((t) => t.title.includes('accounts.other.example'))!.message).toBe(
      "another host (accounts.other.example) than the API's (api.example)",
    );
    const withAuth = run(apart, '--base-url', 'https://api.example/', '--auth-url', 'https://accounts.other.example');
    expect(withAuth.results.tests.filter((t) => t.title.includes('accounts.other.example') && t.status !== 'skipped').length).toBeGreaterThan(0);
    expect(withAuth.code).toBe(1);
    const named = run(file, '--host', 'api.example');
    expect(named.results.tests.find((t) => t.title.includes('www.other.example'))!.message).toBe("another host (www.other.example) than the API's (api.example)");
    // Named as the API's, its HTML answer to /search is judged, and fails.
    const judged = run(file, '--base-url', 'https://www.other.example/');
    expect(judged.code).toBe(1);
    expect(judged.results.tests.filter((t) => t.status === 'failed').flatMap((t) => t.requirements)).toContain('GEN-4');
  });

  it("an entry of the API host before the host showed itself is judged once it does, in the file's order", () => {
    const r = run(
      hand('late.har', [silent('https://api.example/categories/root', 500, 'Internal Server Error', 'text/plain'), entry('https://api.example/categories/9', 404, errors)]),
    );
    expect(r.code).toBe(1);
    expect(r.results.tests[0]!.title).toMatch(/^#1 GET https:\/\/api\.example\/categories\/root > /);
    expect(r.results.tests.filter((t) => t.status === 'failed').flatMap((t) => t.requirements)).toEqual(expect.arrayContaining(['ERR-2', 'GEN-4', 'RATE-4']));
  });

  it('a JSON body must come with a JSON Content-Type (GEN-4)', () => {
    const r = run(hand('type.har', [entry('https://api.example/categories/9', 404, errors, { headers: { 'content-type': 'text/html' } })]));
    expect(r.code).toBe(1);
    const rule = r.results.tests.find((t) => t.requirements.includes('GEN-4'))!;
    expect(rule.status).toBe('failed');
    expect(rule.message).toContain('JSON body sent as Content-Type text/html');
  });

  it('204 and 201 bodies as the spec gives them: a DELETE answered 204 with a body fails', () => {
    const e = entry('https://api.example/favorites/5', 204, JSON.stringify({ favorite: { id: 5 } }));
    e.request.method = 'DELETE';
    const empty = entry('https://api.example/favorites/5', 204, '');
    empty.request.method = 'DELETE';
    const r = run(hand('deleted.har', [e, empty]));
    expect(r.code).toBe(1);
    const [withBody, withoutBody] = r.results.tests.filter((t) => t.title.includes('body as documented'));
    expect(withBody!.status).toBe('failed');
    expect(withoutBody!.status).toBe('passed');
  });

  it('fields newer than the version asked only warn, naming the Change history row', async () => {
    const ref = await startReference({});
    try {
      const token = await appToken(ref);
      const rec = new HarRecorder();
      // A single category (family_id is required there; root and parent may leave it out), answered
      // as 3.2, recorded as if 3.0 had been asked: family_id (3.1.2) is newer than 3.0.
      const root = (await (await fetch(`${ref.baseUrl}/categories/root`, { headers: { Authorization: `Bearer ${token}`, Accept: `${VND}; version=3.2` } })).json()) as {
        category: { id: number };
      };
      await rec.fetch(`${ref.baseUrl}/categories/${root.category.id}`, { headers: { Authorization: `Bearer ${token}`, Accept: `${VND}; version=3.2` } });
      const recorded = rec.entries[0]!;
      recorded.request.headers = recorded.request.headers.map((h) => (h.name === 'Accept' ? { ...h, value: `${VND}; version=3.0` } : h));
      const r = run(rec.write(join(dir, 'newer.har')));
      expect(r.code).toBe(0);
      const newer = r.results.tests.find((t) => t.title.includes('no field newer than the version asked (version=3.0)'))!;
      expect(newer.status).toBe('warned');
      expect(newer.requirements).toEqual(expect.arrayContaining(['VER-9', 'CHG-4']));
      expect(newer.message).toContain('family_id');
      // Asked without a version: the latest is served, so nothing is too new and the rule is not recorded.
      recorded.request.headers = recorded.request.headers.map((h) => (h.name === 'Accept' ? { ...h, value: VND } : h));
      const latest = run(rec.write(join(dir, 'latest.har')));
      expect(latest.results.tests.some((t) => t.title.includes('no field newer'))).toBe(false);
    } finally {
      await ref.close();
    }
  });

  it('rules of one listing: 25 per page by default (PAG-2), Link URLs that keep per (PAG-5), no match_count outside search (CAT-14)', () => {
    const page = (per: number, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        categories: Array.from({ length: per }, (_, i) => ({ id: i + 1, ...extra })),
        meta: { pagination: { total_results: 60, total_pages: Math.ceil(60 / per), page: 1, per } },
      });
    const link = (next: string) => ({ link: `<${next}>; rel="next", <${next.replace('page=2', 'page=3')}>; rel="last"` });
    const r = run(
      hand('listing.har', [
        entry('https://api.example/categories', 200, page(20), { headers: link('https://api.example/categories?page=2') }),
        entry('https://api.example/categories?per=10', 200, page(10, { match_count: 0 }), { headers: link('https://api.example/categories?page=2') }),
      ]),
    );
    const failed = (rule: string) => r.results.tests.filter((t) => t.title.includes(rule)).map((t) => t.status);
    expect(failed('25 items per page when no per is sent')).toEqual(['failed']);
    expect(failed('the Link URLs keep per')).toEqual(['passed', 'failed']);
    // "Only on categories returned by search": shown elsewhere, it only warns.
    expect(failed('no match_count on categories outside search')).toEqual(['passed', 'warned']);
    expect(r.code).toBe(1);
  });

  it('filter groups come with Cache-Control max-age=300, private (CAT-25)', () => {
    const groups = JSON.stringify({ filter_groups: [], meta: { pagination: { total_results: 0, total_pages: 0, page: 1, per: 25 } } });
    const r = run(
      hand('groups.har', [
        entry('https://api.example/categories/4/filter_groups', 200, groups),
        entry('https://api.example/categories/4/filter_groups', 200, groups, { headers: { 'cache-control': 'private, max-age=300' } }),
      ]),
    );
    expect(r.results.tests.filter((t) => t.requirements.includes('CAT-25')).map((t) => t.status)).toEqual(['failed', 'passed']);
  });

  it("each finding names the requirement broken: the endpoint's row, the schema part's, the version rule, page and per apart", () => {
    const withAccept = (e: HarEntryJson, accept: string, method = 'GET'): HarEntryJson => {
      e.request.method = method;
      e.request.headers = [{ name: 'Accept', value: accept }];
      return e;
    };
    const listing = (page: number, per: number) => JSON.stringify({ categories: [], meta: { pagination: { total_results: 0, total_pages: 0, page, per } } });
    const aggregation = JSON.stringify({
      reviews: [],
      meta: { pagination: { total_results: 0, total_pages: 0, page: 1, per: 25 }, sku_reviews_aggregation: [{ label: 'overall', score: '4', style: 'stars' }] },
    });
    const refused = JSON.stringify({ errors: [{ code: 'Forbidden', messages: ['needs the favorites permission'] }] });
    const r = run(
      hand('cited.har', [
        /* 1 */ entry('https://api.example/categories?page=2', 200, listing(1, 25)),
        /* 2 */ entry('https://api.example/categories?per=10', 200, listing(1, 25)),
        /* 3 */ entry('https://api.example/categories/root', 429, JSON.stringify({ message: 'Rate limit exceeded' })),
        /* 4 */ entry('https://api.example/favorites', 403, refused),
        /* 5 */ entry('https://api.example/favorites', 403, JSON.stringify({ error: 'forbidden' })),
        /* 6 */ withAccept(entry('https://api.example/favorites/5', 200, ''), VND, 'DELETE'),
        /* 7 */ entry('https://api.example/skus/7/reviews', 200, aggregation),
        /* 8 */ withAccept(entry('https://api.example/user', 200, JSON.stringify({ user: { id: 1 } })), `${VND}; version=3.2.7`),
        /* 9 */ withAccept(entry('https://api.example/user', 200, JSON.stringify({ user: { id: 1 } })), VND),
        /* 10 */ withAccept(entry('https://api.example/user', 200, JSON.stringify({ user: { id: 1 } })), `${VND}; version=3.9`),
      ]),
    );
    const cited = (index: number, rule: string) => {
      const test = r.results.tests.find((t) => t.title.startsWith(`#${index} `) && t.title.includes(rule));
      expect(test, `#${index} ${rule}`).toBeDefined();
      return test!.status === 'failed' ? test!.findings.flatMap((f) => f.requirements) : test!.status;
    };
    expect(cited(1, 'page is the page asked')).toEqual(['PAG-3']);
    expect(cited(1, 'agrees with itself and the items')).toBe('passed');
    expect(cited(2, 'per is the per asked')).toEqual(['PAG-4']);
    expect(cited(3, 'over the rate limit the answer is 403')).toEqual(['RATE-8', 'ERR-7']);
    // A refused permission may be 403 with the errors format (401 or 403: the spec names neither).
    expect(cited(4, 'body as documented')).toBe('passed');
    expect(cited(5, 'body as documented')).toEqual(expect.arrayContaining(['ERR-7', 'ERR-2']));
    // A status the endpoint does not document: its row (DELETE /favorites/:id, 204 empty).
    expect(cited(6, 'body as documented')).toEqual(expect.arrayContaining(['FAV-32']));
    // The schema part's own requirement (meta.sku_reviews_aggregation), not every statement of the endpoint's row.
    expect(cited(7, 'body as documented')).toEqual(['REV-6']);
    // Fields of 3.2.0 absent: the Change history row, and the rule that chose the version.
    expect(cited(8, 'body as documented')).toEqual(expect.arrayContaining(['CHG-2', 'VER-5', 'GEN-8']));
    // Each field its own statement (the User table's), not the endpoint's row.
    expect(cited(8, 'body as documented')).not.toContain('USER-12');
    expect(cited(9, 'body as documented')).toEqual(expect.arrayContaining(['CHG-2', 'VER-7']));
    expect(cited(10, 'body as documented')).toEqual(expect.arrayContaining(['CHG-2', 'VER-10']));
    expect(cited(10, 'body as documented')).not.toContain('VER-7');
  });

  it('rules of one answer: the root (CAT-6), review_score (SHOP-3), specifications unpaginated (SKU-14) and with their groups (LINK-5), price history of the last 6 months (HIST-3)', () => {
    const spec = (groupId?: number) => ({ id: 1, name: 'RAM', values: ['8 GB'], order: 1, unit: '', ...(groupId === undefined ? {} : { group_id: groupId }) });
    const r = run(
      hand('answers.har', [
        // A null parent_id is a blank (GEN-8, a warning); the root's own id is wrong under every reading.
        /* 1 */ entry('https://api.example/categories/root', 200, JSON.stringify({ category: { id: 1, parent_id: 1 } })),
        /* 2 */ entry('https://api.example/categories/root', 200, JSON.stringify({ category: { id: 1, parent_id: 0 } })),
        /* 3 */ entry('https://api.example/shops/4', 200, JSON.stringify({ shop: { id: 4, review_score: 4.25 } })),
        /* 4 */ entry('https://api.example/shops/4', 200, JSON.stringify({ shop: { id: 4, review_score: 4.3 } })),
        /* 5 */ entry(
          'https://api.example/skus/7/specifications',
          200,
          JSON.stringify({ specifications: [spec()], meta: { pagination: { total_results: 1, total_pages: 1, page: 1, per: 25 } } }),
        ),
        /* 6 */ entry('https://api.example/skus/7/specifications?include=group', 200, JSON.stringify({ specifications: [spec(2)], meta: {} })),
        /* 7 */ entry(
          'https://api.example/skus/7/specifications?include=group',
          200,
          JSON.stringify({ specifications: [spec(2)], groups: [{ id: 2, name: 'Memory', order: 1 }], meta: {} }),
        ),
        /* 8 */ entry('https://api.example/skus/7/price_history', 200, JSON.stringify({ history: { average: [{ date: '2020-01-01', price: 1 }] } })),
        /* 9 */ entry('https://api.example/skus/7/price_history', 200, JSON.stringify({ history: { average: [{ date: new Date().toISOString().slice(0, 10), price: 1 }] } })),
        // Sparse fieldsets may leave out parent_id and group_id: not judged by these rules.
        /* 10 */ entry('https://api.example/categories/root?fields[root]=id', 200, JSON.stringify({ category: { id: 1 } })),
        /* 11 */ entry('https://api.example/skus/7/specifications?include=group&fields_except[root]=group_id', 200, JSON.stringify({ specifications: [spec()], meta: {} })),
      ]),
    );
    const status = (index: number, rule: string) => r.results.tests.find((t) => t.title.startsWith(`#${index} `) && t.title.includes(rule))?.status;
    expect([status(1, 'parent_id 0'), status(2, 'parent_id 0')]).toEqual(['failed', 'passed']);
    expect([status(3, 'review_score rounded'), status(4, 'review_score rounded')]).toEqual(['failed', 'passed']);
    expect([status(5, 'not paginated'), status(6, 'not paginated')]).toEqual(['failed', 'passed']);
    expect([status(6, 'a top-level groups array'), status(7, 'a top-level groups array'), status(5, 'a top-level groups array')]).toEqual(['failed', 'passed', undefined]);
    expect([status(8, 'within the 6 months'), status(9, 'within the 6 months')]).toEqual(['failed', 'passed']);
    expect([status(10, 'parent_id 0'), status(11, 'a top-level groups array')]).toEqual([undefined, undefined]);
    const failed = r.results.tests.filter((t) => t.status === 'failed').flatMap((t) => t.requirements);
    expect(failed).toEqual(expect.arrayContaining(['CAT-6', 'SHOP-3', 'SKU-14', 'LINK-5', 'HIST-3']));
    expect(r.results.tests.filter((t) => /^#1[01] /.test(t.title) && t.status === 'failed')).toEqual([]);
  });

  it('is a subcommand of the CLI too: npm run conformance -- validate-traffic <file>', async () => {
    const cli = await runCli(['validate-traffic', hand('cli.har', [entry('https://api.example/categories/9', 404, errors)])]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
    expect(cli.results!.summary.passed).toBeGreaterThan(0);
    const failing = await runCli(['validate-traffic', hand('cli-fail.har', [entry('https://api.example/categories/root', 200, '{"category": {"id": 1}}')])]);
    expect(failing.code).toBe(1);
  });
});

describe('validate-traffic --versions: the minor series the deployment serves', () => {
  it('lists them from the flag or CATALOGUE_VERSIONS (the flag wins), duplicates dropped; absent: not known', () => {
    expect(parseArgs(['a.har', '--versions', '3.0, 3.2,3.2'], {}).servedSeries).toEqual(['3.0', '3.2']);
    expect(parseArgs(['a.har'], { CATALOGUE_VERSIONS: '3.1' }).servedSeries).toEqual(['3.1']);
    expect(parseArgs(['a.har', '--versions', '3.2'], { CATALOGUE_VERSIONS: '3.1' }).servedSeries).toEqual(['3.2']);
    expect(parseArgs(['a.har'], {}).servedSeries).toBeUndefined();
  });
  it('anything but major.minor versions is refused with the usage', () => {
    for (const bad of ['3.1.2', 'x', ',', '4']) expect(() => parseArgs(['a.har', '--versions', bad], {}), bad).toThrow(HarError);
    expect(() => parseArgs(['a.har', '--versions', '3.1.2'], {})).toThrow(/--versions \(CATALOGUE_VERSIONS\) must list the minor versions.*"3.1.2"/);
  });
});
