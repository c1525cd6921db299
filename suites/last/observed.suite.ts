// Spec: the rules one exchange shows (src/rules/exchange-rules.ts): the body as documented for its
// endpoint, status and version (Resources and their fields; Endpoints), a JSON Content-Type (What
// the service does), the errors format "for the whole API" (Errors), "Rate-limit headers are on
// every response" (Limits), pagination and Link (General conventions 2; Endpoints > General rules
// 2), and the rules of particular endpoints: judged on every exchange the run's other suites made,
// endpoint by endpoint, rather than on one sample; the same table judges recorded traffic.
// Runs in the second pass (suites/last/), after every other suite has finished; in a run of some
// suites only, it judges what those suites exchanged.
import { describe } from 'vitest';
import { fail, following, pass } from '../../src/checks/check.ts';
import { conformanceTest } from '../../src/harness/conformance.ts';
import { EXCHANGE_RULES } from '../../src/rules/exchange-rules.ts';
import { readingsOf } from '../../src/requirements/catalogue.ts';

describe('every exchange of the run', () => {
  for (const rule of EXCHANGE_RULES) {
    const requirements = [...new Set([...rule.requirements, ...(rule.cites?.() ?? [])])];
    // The rule's own requirements' readings, as it declares them; those of the statements the
    // schemas encode (cites), every one: the schemas accept them, the legal variants prove it.
    const readings = [...(rule.readings ?? []), ...readingsOf(rule.cites?.() ?? [])];
    const clauses = rule.clauses ? { clauses: [...rule.clauses] } : {};
    conformanceTest(rule.title, { id: rule.id, requirements, readings, ...clauses, severity: rule.severity, requests: 0 }, async (t) => {
      const tally = (await t.observations())[rule.id];
      t.judgesTally(rule.id, tally);
      if (!tally || tally.checked === 0) {
        if (tally?.skipReason !== undefined) return t.skip(`the rule judged none of the exchanges it applies to: ${tally.skipReason}`);
        return t.skip('no exchange of this run was one the rule applies to: run it with the other suites');
      }
      if (tally.violationCount === 0 && tally.warningCount === 0) {
        t.must(pass(), ...rule.requirements);
        return;
      }
      for (const finding of tally.violations) {
        t.evidence(finding.exchange);
        const result = fail(`${finding.message} (in "${finding.test}")`);
        if (finding.severity === 'MUST') t.must(result, ...finding.requirements);
        else t.warn(result, ...finding.requirements);
      }
      const rest = tally.violationCount + tally.warningCount - new Set(tally.violations.map((v) => v.exchange)).size;
      if (rest > 0) {
        // A count, not a finding of its own: the statements broken are those the findings above name.
        const more = following('the findings above', fail(`and ${rest} more of the ${tally.checked} exchanges judged broke it`));
        if (tally.violationCount > 0) t.must(more, ...rule.requirements);
        else t.warn(more, ...rule.requirements);
      }
    });
  }
});
