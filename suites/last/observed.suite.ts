// Spec: Errors ("in this format for the whole API"), Limits ("Rate-limit headers are on every
// response") and the other rules of src/checks/observed-rules.ts, judged on every exchange the
// run's other suites made, endpoint by endpoint, rather than on one sample.
// Runs in the second pass (suites/last/), after every other suite has finished; in a run of
// some suites only, it judges what those suites exchanged.
import { describe } from 'vitest';
import { fail, pass } from '../../src/checks/check.ts';
import { OBSERVED_RULES } from '../../src/checks/observed-rules.ts';
import { conformanceTest } from '../../src/harness/conformance.ts';

describe('every exchange of the run', () => {
  for (const rule of OBSERVED_RULES) {
    conformanceTest(rule.title, { requirements: rule.requirements, requests: 0 }, async (t) => {
      const tally = (await t.observations())[rule.id];
      if (!tally || tally.checked === 0) return t.skip('no exchange of this run was one the rule applies to: run it with the other suites');
      if (tally.violationCount === 0) {
        t.must(pass(), ...rule.requirements);
        return;
      }
      for (const violation of tally.violations) {
        t.evidence(violation.exchange);
        t.must(fail(`${violation.message} (in "${violation.test}")`), ...rule.requirements);
      }
      const rest = tally.violationCount - tally.violations.length;
      if (rest > 0) t.must(fail(`and ${rest} more of the ${tally.checked} exchanges checked broke it`), ...rule.requirements);
    });
  }
});
