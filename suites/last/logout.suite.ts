// Spec: Endpoints > User (DELETE /user/logout: "200, empty body"); Authentication > Gaps ("Effect
// of /user/logout on issued tokens: not shown").
// Runs after every other suite (suites/last/ is the run's second pass) and on a user token of
// its own: a deployment may end all of the user's tokens on logout, the run's shared one too.
import { describe } from 'vitest';
import { hasStatus } from '../../src/checks/http.ts';
import { conformanceTest } from '../../src/harness/conformance.ts';
import { pathOf } from '../../src/rules/api-paths.ts';

describe('DELETE /user/logout', () => {
  conformanceTest(
    'answers 200 with an empty body, on a user token of its own',
    // USER-26 is checked; AUTH-25 (the effect on issued tokens) is not shown, so nothing is asserted about it.
    { id: 'logout-200-empty', clauses: ['USER-26#1-2'], requirements: ['USER-26', 'AUTH-25'], readings: ['USER-26.a-f'], profile: 'write', requests: 4 },
    async (t) => {
      // The token the rate-limit tests counted on, which no other test has: logout ends it.
      const token = await t.lentUserToken(true);
      const auth = { token };
      // The token must work before logout, or a refusal of the logout would say nothing.
      const before = await t.api.get(pathOf('GET /user'), { auth });
      if (before.status !== 200) t.skip(`the user token of its own is refused by GET /user (${before.status}) before logout`);
      const response = await t.api.request('DELETE', pathOf('DELETE /user/logout'), { auth });
      t.require(hasStatus(response, 200), 'USER-26');
      t.response('DELETE /user/logout', response, 'USER-26');
    },
  );
});
