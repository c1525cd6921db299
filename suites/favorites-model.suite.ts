// Spec: States and transitions (the four favorite rows); Endpoints > Favorites (every endpoint);
// Resources and their fields > Favorite list, Favorite; GET /favorites order (creation date
// descending by default, ascending with order_dir=asc: the created_at of each listing, pre-existing
// favorites included, follow the direction, ties in any order); Errors (404 on deleting a missing
// favorite or favorite list); Versioning > Change history 3.2.0 (owned favorites left out of the
// listings) and 3.1.0 (the errors body).
// A model-based test: random sequences of favorite-list and favorite calls (fast-check commands),
// each answer judged by the model of src/checks/favorites-model.ts. suites/favorites.suite.ts
// checks each rule once; this suite checks them in random orders. SKUs come from discovery (the
// discovered leaf category and other leaves of GET /categories), lists are named cc-model-<run>-*,
// and what a sequence created is deleted after it, also when a step failed. The readings the spec
// leaves open (auto lists in GET /favorite_lists or not, an auto list dropped when its last
// favorite leaves, favorite_list_id shown on update only) are the model's to accept; the suite
// learns what they hide: the auto lists of the SKUs' categories from their favorites when no auto
// list is listed, and the list a favorite went into from GET /favorite_lists when its answer does
// not show it. The commands and the sequences' run are src/engines/favorites-model.ts and
// favorites-model-run.ts; what they choose and spend, src/checks/favorites-model-sequences.ts.
import { fail } from '../src/checks/check.ts';
import { conformanceTest } from '../src/harness/conformance.ts';
import { prepareSequences, REQUESTS, runSequences } from '../src/engines/favorites-model-run.ts';

conformanceTest(
  'random sequences of list and favorite calls keep to the States and transitions table and the Favorites endpoints (model-based)',
  {
    id: 'model-based-sequences',
    clauses: [
      'FAV-9#1',
      'FAV-10#1-2',
      'FAV-11#1-2',
      'FAV-12#1',
      'FAV-13#1',
      'FAV-14#1-2',
      'FAV-15#1-2',
      'FAV-16#1',
      'FAV-17#1-2',
      'FAV-19#1-3',
      'FAV-20#1',
      'FAV-21#1-2',
      'FAV-22#1',
      'FAV-23#1-2',
      'FAV-24#1-2',
      'FAV-25#1-2',
      'FAV-26#1',
      'FAV-27#1-2',
      'FAV-28#1',
      'FAV-29#1-2',
      'FAV-31#1-3',
      'FAV-32#1-2',
      'FAV-33#1',
      'CHG-2#18-20',
    ],
    requirements: [
      'FAV-9',
      'FAV-10',
      'FAV-11',
      'FAV-12',
      'FAV-13',
      'FAV-14',
      'FAV-15',
      'FAV-16',
      'FAV-17',
      'FAV-19',
      'FAV-20',
      'FAV-21',
      'FAV-22',
      'FAV-23',
      'FAV-24',
      'FAV-25',
      'FAV-26',
      'FAV-27',
      'FAV-28',
      'FAV-29',
      'FAV-31',
      'FAV-32',
      'FAV-33',
      'CHG-2',
    ],
    readings: [
      'FAV-9.a-g',
      'FAV-10.a-c',
      'FAV-11.a-d',
      'FAV-12.a-c',
      'FAV-13.a-c',
      'FAV-14.a-g',
      'FAV-15.a-c',
      'FAV-16.a-b',
      'FAV-17.a-d',
      'FAV-19.a-d',
      'FAV-20.a-h',
      'FAV-21.a-e',
      'FAV-22.a-c',
      'FAV-23.a-h',
      'FAV-24.a-d',
      'FAV-25.a-d',
      'FAV-26.a-d',
      'FAV-27.a-f',
      'FAV-28.a-b',
      'FAV-29.a-e',
      'FAV-31.a-h',
      'FAV-32.a-c',
      'FAV-33.a-b',
      'CHG-2.a-o',
    ],
    profile: 'write',
    requests: REQUESTS,
    timeoutMs: 10 * 60_000,
  },
  async (t) => {
    const counter = { spent: 0 };
    const prepared = await prepareSequences(t, counter);
    const outcome = await runSequences(t, counter, prepared);
    const leftovers = [...prepared.sweptLeft, ...outcome.leftovers];
    if (leftovers.length) t.warn(fail(`teardown could not delete ${leftovers.slice(0, 10).join(', ')}`), 'FAV-21', 'FAV-32');
    // The rule the shortest failing sequence broke, with its calls and how to replay it.
    if (outcome.failed) t.must(outcome.failed.result, ...outcome.failed.requirements);
  },
);
