import { describe, expect, test } from 'vitest';
import { testRecord } from '../testing/records.ts';
import { brokenRequirements, requirementVerdicts, type Finding } from './model.ts';

const must = (requirements: string[], extra: Partial<Finding> = {}): Finding => ({ requirements, severity: 'MUST', message: 'broken', ...extra });
const warn = (requirements: string[]): Finding => ({ requirements, severity: 'WARN', message: 'left open' });

describe('the verdict by requirement', () => {
  test('a requirement fails only where a finding names it, not where a failing test merely cites it', () => {
    const failing = testRecord({ id: 'categories/children', status: 'failed', requirements: ['CAT-1', 'PAG-1'], failures: [must(['PAG-1'])] });
    const verdicts = requirementVerdicts([failing]);
    expect(verdicts).toEqual([
      { id: 'PAG-1', status: 'failed', tests: ['categories/children'] },
      { id: 'CAT-1', status: 'skipped', tests: ['categories/children'] },
    ]);
  });

  test('a requirement a passing test cites passes; failed beats expected beats warned beats passed beats not judged', () => {
    const tests = [
      testRecord({ id: 's/passes', status: 'passed', requirements: ['A-1', 'B-1', 'C-1', 'D-1'] }),
      testRecord({ id: 's/fails', status: 'failed', requirements: ['A-1'], failures: [must(['A-1'])] }),
      testRecord({ id: 's/excused', status: 'expected', requirements: ['B-1'], failures: [must(['B-1'])] }),
      testRecord({ id: 's/warns', status: 'warned', requirements: ['C-1'], warnings: [warn(['C-1'])] }),
      testRecord({ id: 's/skips', status: 'skipped', requirements: ['E-1'] }),
    ];
    const status = Object.fromEntries(requirementVerdicts(tests).map((v) => [v.id, v.status]));
    expect(status).toEqual({ 'A-1': 'failed', 'B-1': 'expected', 'C-1': 'warned', 'D-1': 'passed', 'E-1': 'skipped' });
    expect(requirementVerdicts(tests).find((v) => v.id === 'A-1')!.tests).toEqual(['s/fails']);
  });

  test('a consequence of another finding names no requirement as broken; a warning of a failed test only warns', () => {
    const test1 = testRecord({
      status: 'failed',
      requirements: ['PAG-1', 'PAG-5'],
      failures: [must(['PAG-1']), must(['PAG-5'], { follows: '[PAG-1] total_pages is 3, but 9 results at 5 per page make 2' })],
      warnings: [warn(['GEN-8'])],
    });
    expect(brokenRequirements(test1)).toEqual(['PAG-1']);
    expect(Object.fromEntries(requirementVerdicts([test1]).map((v) => [v.id, v.status]))).toEqual({ 'PAG-1': 'failed', 'GEN-8': 'warned', 'PAG-5': 'skipped' });
  });

  test('in the catalogue order when given, ids it does not know last', () => {
    const tests = [testRecord({ requirements: ['Z-9', 'B-1', 'A-1'] })];
    expect(requirementVerdicts(tests, ['A-1', 'B-1']).map((v) => v.id)).toEqual(['A-1', 'B-1', 'Z-9']);
  });
});
