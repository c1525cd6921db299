import { describe, expect, test } from 'vitest';
import { recordExchange } from '../http/exchange.ts';
import { secrets } from '../http/redact.ts';
import { htmlReport } from './html.ts';
import { resultsOf, type TestRecord } from './results.ts';
import type { RunInfo } from './write.ts';
import { testRecord } from '../testing/records.ts';

const TOKEN = 'planted-html-token-0123456789';
secrets.add(TOKEN);

const record = (overrides: Partial<TestRecord>): TestRecord => testRecord({ requirements: ['CAT-6'], durationMs: 1, ...overrides });

const run: RunInfo = {
  target: 'https://user:pw-secret@api.example/api',
  authUrl: 'https://auth.example',
  referenceServer: false,
  apiVersion: '3.2',
  profiles: ['read'],
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  requests: { total: 2, budget: 900 },
  exitCode: 1,
  exitReason: 'FAIL: MUST requirements failed',
  notes: [],
};

describe('report.html', () => {
  const exchange = recordExchange({
    method: 'GET',
    url: `https://api.example/api/categories/root?oauth_token=${TOKEN}`,
    requestHeaders: { authorization: `Bearer ${TOKEN}` },
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: '{"category":{"id":1,"parent_id":null,"name":"<script>alert(1)</script>"}}',
    durationMs: 1,
  });
  const failed = record({
    id: 'categories/failed',
    status: 'failed',
    message: '[CAT-6] root has parent_id null',
    failures: [{ requirements: ['CAT-6'], severity: 'MUST', message: `root has parent_id null <b>bold</b> ${TOKEN}`, exchange: 0 }],
    exchanges: [exchange],
  });
  const html = htmlReport(resultsOf([failed, record({ id: 'categories/ok' })], []), run);

  test('self-contained: a policy forbidding every outside source, no outside reference, the page script inline', () => {
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
    expect(html).not.toMatch(/\s(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/<link /);
    expect(html).toContain('<script>');
  });

  test('a failure shows its spec quote and the exchange that showed it; text from the server is escaped; secrets are not there', () => {
    expect(html).toContain('<b>FAIL</b> [CAT-6] root has parent_id null &lt;b&gt;bold&lt;/b&gt;');
    expect(html).toMatch(/<b>CAT-6<\/b> <span class="reqs">\([^)]+, MUST\)<\/span><blockquote>[^<]*parent_id/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain(TOKEN);
    expect(html).not.toContain('pw-secret');
    expect(html).toContain('FAIL: MUST requirements failed');
  });

  test('a large run lists its passed tests by count only', () => {
    const many = Array.from({ length: 5001 }, (_, i) => record({ id: `categories/t${i}`, title: `test ${i}` }));
    const big = htmlReport(resultsOf([failed, ...many], []), run);
    expect(big).toContain('5001 passed tests not listed here (5002 tests in all): results.json has them.');
    expect(big).not.toContain('id="t-categories_t17"');
    expect(big).toContain('id="t-categories_failed"');
  });
});
