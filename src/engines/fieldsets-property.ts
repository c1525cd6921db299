// How the fieldsets suite's properties (suites/fieldsets.suite.ts) ask the deployment: a property
// whose every run is one GET, drawn by fast-check from the run's seed (or CATALOGUE_SEED's), its
// failure shrunk within a few requests and asked once more as the finding's evidence; and the
// answer of a row without fieldsets that the oracle (src/checks/fieldsets-oracle.ts) compares with.
import fc from 'fast-check';
import { fail, inContext } from '../checks/check.ts';
import { describeQuery, idsOf, isBlank, messagesOf, readAnswer, type Answer, type PropertyFinding, type Request, type Resource, type Verdict } from '../checks/fieldsets-oracle.ts';
import { PrerequisiteMissing } from '../harness/api.ts';
import type { ConformanceContext } from '../harness/conformance.ts';
import type { HttpResponse } from '../http/client.ts';

/** Requests a property may spend on shrinking a failure, and the one that asks the counterexample again. */
export const SHRINK_REQUESTS = 12;

/** The seed for this test's properties: CATALOGUE_SEED, else the run's (printed with every failure, and recorded in results.json). */
export function seedOf(t: ConformanceContext): { seed: number; given: boolean } {
  if (t.run.seed !== null) return { seed: t.run.seed.seed, given: true };
  return { seed: t.run.runSeed, given: false };
}

/** "GET <exact URL> (readable query)" */
export function describeRequest(t: ConformanceContext, request: Request): string {
  const url = t.api.url(request.path, request.query);
  const readable = describeQuery(request.query);
  return `GET ${url}${readable ? ` (${readable})` : ''}`;
}

/** Stops the property without counting a failure (budget, no usable answer): rethrown after the run. */
class Aborted {
  constructor(readonly error: unknown) {}
}

export interface PropertyOptions<C> {
  runs: number;
  examples: C[];
  request: (c: C) => Request;
  /** May ask once more (a lazy row's answer without fieldsets). */
  judge: (c: C, response: HttpResponse) => Verdict | Promise<Verdict>;
  /** The requirement ids the property stands for, when a failure cannot be reproduced. */
  ids: string[];
  /** The seed, when the caller drew examples from it too. */
  seed?: { seed: number; given: boolean };
  /** The shrunk counterexample's verdict, judged further (it may ask once more): which statements its findings break. */
  attribute?: (c: C, verdict: Verdict) => Promise<Verdict>;
}

const ask = (t: ConformanceContext, request: Request): Promise<HttpResponse> => t.api.get(request.path, { query: request.query, auth: request.auth ?? 'app' });

/**
 * Runs a property whose every run is one GET: the examples first, then `runs` random cases from
 * the seed; a failure is shrunk within SHRINK_REQUESTS, asked once more, and recorded with the
 * seed, the path and the exact request. Warnings are recorded once each (first three).
 */
export async function checkProperty<C>(t: ConformanceContext, name: string, arbitrary: fc.Arbitrary<C>, options: PropertyOptions<C>): Promise<void> {
  const { seed, given } = options.seed ?? seedOf(t);
  let spent = 0;
  let aborted: Aborted | null = null;
  const warnings = new Map<string, { finding: PropertyFinding; request: Request }>();
  const limit = options.runs + options.examples.length + SHRINK_REQUESTS - 1;
  const property = fc.asyncProperty(arbitrary, async (c) => {
    if (aborted || spent >= limit) return true;
    spent++;
    const request = options.request(c);
    let verdict: Verdict;
    try {
      verdict = await options.judge(c, await ask(t, request));
    } catch (error) {
      aborted = new Aborted(error);
      return true;
    }
    for (const w of [...verdict.warn, ...verdict.must.filter(isBlank)]) {
      const key = `${w.ids.join(',')} ${w.result.ok ? '' : w.result.message.replace(/\d+/g, '#')}`;
      if (!warnings.has(key)) warnings.set(key, { finding: w, request });
    }
    return verdict.must.every(isBlank);
  });
  const details = await fc.check(property, { seed, numRuns: options.runs + options.examples.length, examples: options.examples.map((e) => [e] as [C]) });
  const stopped = aborted as Aborted | null;
  if (stopped) throw stopped.error;

  for (const { finding, request } of [...warnings.values()].slice(0, 3)) {
    t.warn(inContext(describeRequest(t, request), finding.result), ...finding.ids);
  }
  if (!details.failed || details.counterexample === null) return;

  // The shrunk counterexample, asked once more: its exchange is the finding's evidence.
  const counterexample = details.counterexample[0];
  const request = options.request(counterexample);
  const judged = await options.judge(counterexample, await ask(t, request));
  const again = options.attribute ? await options.attribute(counterexample, judged) : judged;
  const where =
    `${name}: failed after ${details.numRuns} run(s) and ${details.numShrinks} shrink(s) ` +
    `(fast-check seed ${details.seed}${given ? ', from CATALOGUE_SEED' : ''}, path ${details.counterexamplePath}; CATALOGUE_SEED=${details.seed} replays it). ` +
    `Shrunk counterexample: ${describeRequest(t, request)}`;
  const hard = again.must.filter((f) => !isBlank(f));
  if (hard.length) {
    t.must(fail(`${where}: ${messagesOf(hard)}`), ...idsOf(hard));
  } else {
    t.must(fail(`${where}: it failed during the run, but passed when asked again (the answers change between requests)`), ...options.ids);
  }
}

/** GET without fieldsets; null (with the reason in `notes`) when the answer is not usable: the endpoint's own suite judges that. */
export async function baseline(t: ConformanceContext, r: Resource, extra: Record<string, string>, notes: string[]): Promise<Answer | null> {
  const query = { ...r.query, ...extra };
  let response: HttpResponse;
  try {
    response = await t.api.get(r.path, { query, auth: r.auth ?? 'app' });
  } catch (error) {
    // No user token: the user's resources are left out, the others still judged.
    if (r.auth === 'user' && error instanceof PrerequisiteMissing) {
      notes.push(`${r.endpoint} left out: ${error.message}`);
      return null;
    }
    throw error;
  }
  const answer = readAnswer(response, r);
  if (typeof answer === 'string') {
    notes.push(`${describeRequest(t, { path: r.path, query })} ${answer}`);
    return null;
  }
  return answer;
}
