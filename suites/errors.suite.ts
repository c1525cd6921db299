// Spec: Errors (the status shows the outcome; 400 for a missing or incorrect parameter; 404 for
// what does not exist; the {errors: [{code, messages}]} body of every 4xx and 5xx, from 3.1.0,
// Change history "normalized error format"), Endpoints > General rules 5 (order_by values given
// per endpoint).
// Answers to requests a client gets wrong: a path no route serves, a body that is not JSON, an
// order_by value the endpoint does not offer. What no reading allows is a server error (a 5xx
// shows a server's failure where the client erred: the status does not show the outcome, ERR-1;
// "500 internal server error", ERR-12, holds for a server that did fail, so no finding names it)
// or a success for them; where the spec admits two answers (an unknown optional value refused with 400
// or ignored) both pass, the second noted. The other suites judge the errors of their own
// endpoints (unknown ids, short queries, refused tokens).
import { describe } from 'vitest';
import { fail, pass } from '../src/checks/check.ts';
import { notAServerError } from '../src/checks/errors.ts';
import { hasStatus } from '../src/checks/http.ts';
import type { HttpResponse } from '../src/http/client.ts';
import { PrerequisiteMissing } from '../src/harness/api.ts';
import { conformanceTest, type ConformanceContext } from '../src/harness/conformance.ts';
import { pathOf } from '../src/rules/api-paths.ts';

const USER = { auth: 'user' as const };

/**
 * The errors body of a 4xx or 5xx, by the rule that judges every exchange (src/rules/exchange-rules.ts,
 * error-body): from 3.1.0 on, {errors: [{code, messages}]}, or the empty array a missing
 * category may get (ERR-16).
 */
const judgeErrorBody = (t: ConformanceContext, response: HttpResponse): boolean => t.rules(response, 'error-body');

describe('Requests the client gets wrong', () => {
  conformanceTest(
    'a path no route serves answers 404 with the errors body (501 noted), not a page, a success or another server error',
    {
      id: 'unknown-route-404',
      clauses: ['ERR-1#1', 'ERR-2#1-3', 'ERR-9#1'],
      requirements: ['ERR-9', 'ERR-1', 'ERR-2', 'ERR-12', 'ERR-13'],
      readings: ['ERR-9.a-j', 'ERR-1.a-f', 'ERR-2.a-h', 'ERR-12.a-c', 'ERR-13.a-f'],
      requests: 1,
    },
    async (t) => {
      const path = '/cc-no-such-route';
      const response = await t.api.get(path);
      // "501: requested action is not implemented" can be read to cover a path no route serves;
      // "404: resource does not exist" fits it better, so 501 is noted, not failed.
      if (response.status === 501)
        t.warn(fail(`GET ${path} answered 501 (not implemented); the spec's 404 (resource does not exist) fits a path no route serves`), 'ERR-13', 'ERR-9');
      else {
        t.must(notAServerError(response.status, `GET ${path}`), 'ERR-1');
        // Another 4xx misses 404 (ERR-9) but still shows a client error; a success shows an outcome the request did not have (ERR-1).
        t.must(hasStatus(response, 404), 'ERR-9', ...(response.status < 400 ? ['ERR-1'] : []));
      }
      judgeErrorBody(t, response);
    },
  );

  conformanceTest(
    'a path placeholder that is not an integer answers 404 or 400 with the errors body, never a success or a server error',
    {
      id: 'non-integer-id',
      clauses: ['GEN-15#2', 'ERR-1#1', 'ERR-2#1-3'],
      requirements: ['GEN-15', 'ERR-9', 'ERR-4', 'ERR-1', 'ERR-2', 'ERR-12'],
      readings: ['GEN-15.a-g', 'ERR-9.a-j', 'ERR-4.a-i', 'ERR-1.a-f', 'ERR-2.a-h', 'ERR-12.a-c'],
      requests: 1,
    },
    async (t) => {
      // Placeholders are integers: a word there names no record (404) or is an incorrect parameter (400).
      const path = '/categories/cc-not-an-id';
      const response = await t.api.get(path);
      t.must(notAServerError(response.status, `GET ${path}`), 'GEN-15', 'ERR-1');
      // 422 too: the spec answers a query it cannot accept with 422 itself (InvalidSearch), and
      // frameworks validate path parameters so; it only warns, saying why.
      t.must(
        response.status === 404 || response.status === 400 || response.status === 422
          ? pass()
          : fail(`GET ${path} answered ${response.status}, expected 404 (no such record) or 400 (an incorrect parameter)`),
        'GEN-15',
      );
      if (response.status === 422)
        t.warn(
          fail(`GET ${path} answered 422 (validation failed): the spec gives 404 for no such record and 400 for an incorrect parameter, though it answers a bad search query 422`),
          'ERR-4',
          'ERR-11',
        );
      judgeErrorBody(t, response);
    },
  );

  conformanceTest(
    'a body that is not valid JSON answers 400 with the errors body (422 noted), never a success or a server error',
    {
      id: 'invalid-json-400',
      clauses: ['ERR-1#1', 'ERR-2#1-3', 'ERR-4#2'],
      requirements: ['ERR-4', 'ERR-1', 'ERR-2', 'ERR-11', 'ERR-12'],
      readings: ['ERR-4.a-i', 'ERR-1.a-f', 'ERR-2.a-h', 'ERR-11.a-i', 'ERR-12.a-c'],
      profile: 'write',
      requests: 2,
    },
    async (t) => {
      // POST /favorite_lists: a small write every version serves, with the favorites permission.
      const path = pathOf('POST /favorite_lists');
      let response: HttpResponse;
      try {
        response = await t.api.request('POST', path, { ...USER, jsonText: '{"favorite_list": {"name": ' });
      } catch (error) {
        if (error instanceof PrerequisiteMissing) return t.skip(error.message);
        throw error;
      }
      if (response.status >= 200 && response.status < 300) {
        // Taken as a list: deleted again, whatever it holds.
        const id = (response.json<{ favorite_list?: { id?: unknown } }>() ?? {}).favorite_list?.id;
        if (typeof id === 'number' && Number.isInteger(id)) await t.api.request('DELETE', pathOf('DELETE /favorite_lists/:id', { id }), USER);
      }
      if (response.status === 401 || response.status === 403) {
        return t.skip(`POST ${path} answered ${response.status}: the user token may lack the favorites permission, so the body was not judged`);
      }
      t.must(notAServerError(response.status, `POST ${path} with a body that is not JSON`), 'ERR-4', 'ERR-1');
      t.must(
        response.status >= 400 && response.status < 500 ? pass() : fail(`POST ${path} with a body that is not JSON answered ${response.status}, expected 400`),
        'ERR-4',
        'ERR-1',
      );
      // "400: a required parameter is missing or incorrect"; 422 is for validation: a server may call a parse error either.
      if (response.status === 422)
        t.warn(fail(`POST ${path} with a body that is not JSON answered 422 (validation failed); the spec gives 400 for a missing or incorrect parameter`), 'ERR-4', 'ERR-11');
      judgeErrorBody(t, response);
    },
  );

  conformanceTest(
    'an order_by value the endpoint does not offer answers 400 with the errors body, or is ignored (noted); never a server error',
    {
      id: 'unknown-order-by',
      clauses: ['ERR-1#1', 'ERR-2#1-3'],
      requirements: ['ERR-4', 'ERR-1', 'ERR-2', 'MAN-4', 'ERR-12'],
      readings: ['ERR-4.a-i', 'ERR-1.a-f', 'ERR-2.a-h', 'MAN-4.a-j', 'ERR-12.a-c'],
      requests: 1,
    },
    async (t) => {
      const id = await t.discover('manufacturerWithSkus');
      const path = pathOf('GET /manufacturers/:id/categories', { id });
      const response = await t.api.get(path, { query: { order_by: 'cc_not_a_method' } });
      const what = `GET ${path}?order_by=cc_not_a_method (order_by is name or popularity)`;
      t.must(notAServerError(response.status, what), 'ERR-1');
      // order_by is optional: refusing an incorrect value (400) and ignoring it are both readings of ERR-4.
      if (response.status >= 200 && response.status < 300) t.warn(fail(`${what} answered ${response.status}: the value was ignored, not refused with 400`), 'ERR-4');
      // 422, a failed validation, as the spec answers a search query it cannot accept (InvalidSearch): a reading of its own, noted.
      else if (response.status === 422) t.warn(fail(`${what} answered 422 (validation failed), where the spec gives 400 for an incorrect parameter`), 'ERR-4', 'ERR-11');
      // A server error is ERR-1's finding above (order_by being optional, a 500 misses no 400 ERR-4 requires): ERR-4 judges the other refusals.
      else if (response.status < 500) t.must(hasStatus(response, 400), 'ERR-4');
      judgeErrorBody(t, response);
    },
  );
});
