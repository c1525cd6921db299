// For the project's own tests: a test record as the reports hold it, a passing one unless told.
import type { TestRecord } from '../report/results.ts';

export function testRecord(overrides: Partial<TestRecord> = {}): TestRecord {
  return {
    id: 'categories/x',
    title: 'GET /categories/root > is the root',
    suite: 'categories',
    requirements: ['CAT-18', 'CAT-6'],
    severity: 'MUST',
    profile: 'read',
    status: 'passed',
    message: '',
    failures: [],
    warnings: [],
    exchanges: [],
    omittedExchanges: 0,
    requests: 1,
    durationMs: 12,
    ...overrides,
  };
}
