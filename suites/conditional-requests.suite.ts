// Spec: Endpoints > General rules 3 ("Conditional requests: most responses carry ETag. Send
// If-None-Match: <etag>; when unchanged the status is 304."); Errors (304 not modified); Limits
// ("Rate-limit headers are on every response"; "A 304 reply to a conditional request still
// counts against the limit").
// The unchanged resources are public ones no test writes (the category root, the category and
// manufacturer listings, the flag catalogue); the changed one is a favorite list listing, changed
// by a list this suite creates (named with a run id) and deletes in a finally block. Remaining is
// judged only on a user token of the test's own: other tests use the run's tokens concurrently.
import { describe } from 'vitest';
import {
  changedResourceIsSentAgain,
  hasEtag,
  headerValue,
  isNotModified,
  mostCarryEtag,
  rateLimitHeadersPresent,
  remainingFellByOne,
  someCarryEtag,
} from '../src/checks/caching.ts';
import { fail, following, isPlainObject, pass, show, typed } from '../src/checks/check.ts';
import { hasStatus } from '../src/checks/http.ts';
import { conformanceTest } from '../src/harness/conformance.ts';
import { mustCarryRateLimit } from '../src/harness/requests.ts';
import { pathOf } from '../src/rules/api-paths.ts';

/** Public resources no test changes. */
const UNCHANGING = [pathOf('GET /categories/root'), pathOf('GET /categories'), pathOf('GET /manufacturers')];
/** GET /flags too, where the version served has flagging (3.0.21, CHG-15). */
const FLAGS = pathOf('GET /flags');

describe('ETag and If-None-Match', () => {
  conformanceTest(
    'most successful GETs carry an ETag; If-None-Match with it answers 304 without a body, with the rate-limit headers; another tag gets 200',
    // The first GETs may be answers other tests already got (the resources do not change); the conditional ones are always sent.
    {
      id: 'etag-304',
      clauses: ['RATE-4#1', 'RATE-7#1-2', 'ETAG-1#1', 'ETAG-2#1', 'ERR-3#1-2'],
      requirements: ['ETAG-1', 'ETAG-2', 'ERR-3', 'RATE-4', 'RATE-7'],
      readings: ['ETAG-1.a-f', 'ETAG-2.a-g', 'ERR-3.a-h', 'RATE-4.a-d', 'RATE-7.a-d'],
      requests: 9,
    },
    async (t) => {
      const tagged: { path: string; etag: string }[] = [];
      const answers: { what: string; headers: Record<string, string> }[] = [];
      for (const path of [...UNCHANGING, ...(t.has('review-flags') ? [FLAGS] : [])]) {
        const response = await t.api.get(path);
        t.require(hasStatus(response, 200), 'ERR-1');
        answers.push({ what: `GET ${path}`, headers: response.headers });
        const etag = headerValue(response.headers, 'ETag');
        if (etag !== undefined && etag.trim() !== '') tagged.push({ path, etag });
      }
      t.require(someCarryEtag(answers), 'ETAG-1');
      // The sample is mostly collections, which may carry none (ETAG-1.d): "most" is not judged on it.
      t.warn(mostCarryEtag(answers), 'ETAG-1');
      for (const { path, etag } of tagged.slice(0, 3)) {
        const what = `GET ${path}`;
        const again = await t.api.get(path, { headers: { 'If-None-Match': etag } });
        if (!t.must(isNotModified(again, what), 'ETAG-2')) continue;
        t.rules(again, 'not-modified-no-body');
        mustCarryRateLimit(t, again.headers, `the 304 to ${what}`);
      }
      // A tag the resource never had: 304 would claim "not modified" for a version the client lacks.
      const { path } = tagged[0]!;
      const other = await t.api.get(path, { headers: { 'If-None-Match': '"cc-not-an-etag-of-this-resource"' } });
      t.must(other.status === 200 ? pass() : fail(`GET ${path} with If-None-Match set to a tag it never sent answered ${other.status}, expected 200`), 'ERR-3');
    },
  );

  conformanceTest(
    'after the resource changes, If-None-Match with the old ETag gets it again (200), under a new ETag',
    { id: 'etag-after-change', clauses: ['ERR-3#1-2'], reuse: false, requirements: ['ERR-3', 'ETAG-2'], readings: ['ERR-3.a-h', 'ETAG-2.a-g'], profile: 'write', requests: 5 },
    async (t) => {
      const USER = { auth: 'user' as const };
      const before = await t.api.get(pathOf('GET /favorite_lists'), USER);
      t.require(hasStatus(before, 200), 'ERR-1');
      const oldEtag = headerValue(before.headers, 'ETag');
      if (oldEtag === undefined || oldEtag.trim() === '') t.skip('GET /favorite_lists carries no ETag here ("most responses carry ETag"), so there is no tag to compare');
      let created: number | null = null;
      try {
        const name = t.kitName('etag');
        const post = await t.api.request('POST', pathOf('POST /favorite_lists'), { ...USER, json: { favorite_list: { name } } });
        t.require(hasStatus(post, 201), 'FAV-19');
        const body = t.json<unknown>(post, 'GEN-4');
        const id = isPlainObject(body) && isPlainObject(body['favorite_list']) ? body['favorite_list']['id'] : undefined;
        t.require(typed(id, Number.isInteger(id), `the created list has id ${show(id)}`), 'FAV-1');
        created = id as number;
        const after = await t.api.get(pathOf('GET /favorite_lists'), { ...USER, headers: { 'If-None-Match': oldEtag! } });
        // ERR-3 alone (304 means not modified): ETAG-2 is the 304 of an unchanged resource, judged in etag-304.
        t.must(changedResourceIsSentAgain(after, oldEtag!, `GET /favorite_lists after POST /favorite_lists`), 'ERR-3');
      } finally {
        if (created !== null) {
          const deleted = await t.api.request('DELETE', pathOf('DELETE /favorite_lists/:id', { id: created }), USER);
          if (deleted.status !== 204 && deleted.status !== 404) t.warn(fail(`teardown could not delete /favorite_lists/${created} (${deleted.status})`), 'FAV-21');
        }
      }
    },
  );
});

describe('an ETag tags one representation', () => {
  conformanceTest(
    'two representations that differ (the root category with and without fields[root]) never share an ETag: If-None-Match with the one gets the other (200)',
    {
      id: 'etag-per-representation',
      clauses: ['ERR-3#1'],
      requirements: ['ERR-3'],
      readings: ['ERR-3.a-h'],
      requests: 3,
    },
    async (t) => {
      t.requireFeature('sparse-fieldsets', 'fields[root]');
      const path = pathOf('GET /categories/root');
      const full = await t.api.get(path);
      t.require(hasStatus(full, 200), 'ERR-1');
      const etag = headerValue(full.headers, 'ETag');
      if (etag === undefined || etag.trim() === '') return t.skip(`GET ${path} carries no ETag here ("most responses carry ETag"): no tag to send`);
      // Readings: a deployment may tag per resource version only where representations cannot
      // differ; here they do, so a 304 hands the client the full category for the trimmed one.
      // A deployment that ignores fields[root] serves the same body, and its 304 is right.
      const query = { 'fields[root]': 'id,name' };
      const conditional = await t.api.get(path, { query, headers: { 'If-None-Match': etag } });
      if (conditional.status !== 304) return;
      const trimmed = await t.api.get(path, { query, fresh: true });
      t.require(hasStatus(trimmed, 200), 'ERR-1');
      const differs = JSON.stringify(trimmed.json<unknown>()) !== JSON.stringify(full.json<unknown>());
      t.must(
        differs
          ? fail(
              `GET ${path}?fields[root]=id,name with If-None-Match set to the ETag of GET ${path} (${etag}) answered 304, although its representation differs: the two share a tag`,
            )
          : pass(),
        'ERR-3',
      );
    },
  );
});

describe('a 304 counts against the rate limit', () => {
  conformanceTest(
    'a 304 lowers X-RateLimit-Remaining by one, on a user token of its own',
    {
      id: '304-counts-against-limit',
      clauses: ['RATE-4#1', 'RATE-6#1-2', 'RATE-9#1'],
      reuse: false,
      requirements: ['RATE-9', 'RATE-4', 'RATE-6'],
      readings: ['RATE-9.a-c', 'RATE-4.a-d', 'RATE-6.a-d'],
      requests: 5,
    },
    async (t) => {
      // No other test uses the token meanwhile (lent to one test at a time).
      const auth = { token: await t.lentUserToken() };
      const path = pathOf('GET /categories/root');
      const zeroth = await t.api.get(path, { auth });
      t.require(hasStatus(zeroth, 200), 'ERR-1');
      t.require(rateLimitHeadersPresent(zeroth.headers, `GET ${path}`), 'RATE-4');
      const first = await t.api.get(path, { auth });
      t.require(hasStatus(first, 200), 'ERR-1');
      // Remaining must fall on a 200 first: a header that never falls (RATE-6) shows no count of the 304 either.
      const onA200 = remainingFellByOne(zeroth.headers, first.headers, `request 2 of GET ${path}`);
      t.must(onA200, 'RATE-6');
      const etag = headerValue(first.headers, 'ETag');
      if (!hasEtag(first.headers).ok) t.skip(`GET ${path} carries no ETag here, so no 304 can be asked for`);
      const again = await t.api.get(path, { auth, headers: { 'If-None-Match': etag! } });
      t.require(isNotModified(again, `GET ${path}`), 'ETAG-2');
      t.require(rateLimitHeadersPresent(again.headers, `the 304 to GET ${path}`), 'RATE-4');
      const counted = remainingFellByOne(first.headers, again.headers, `the 304 to GET ${path}`);
      t.must(onA200.ok ? counted : following('X-RateLimit-Remaining does not fall by one on a 200 either', counted), 'RATE-9');
      // The request after it shows the 304 counted too, where Remaining is reckoned before each request is counted (RATE-6.b).
      const next = await t.api.get(path, { auth });
      t.require(hasStatus(next, 200), 'ERR-1');
      const countedBefore = remainingFellByOne(again.headers, next.headers, `the GET ${path} after the 304`);
      if (onA200.ok && counted.ok) t.must(countedBefore, 'RATE-9');
    },
  );
});
