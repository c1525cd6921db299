// The engines of the fieldsets suite's properties (suites/fieldsets.suite.ts): the rows each
// property draws from (asked once without fieldsets), and the properties themselves, run with
// the generator (src/checks/fieldsets-arbitraries.ts) and judged by the oracle
// (src/checks/fieldsets-oracle.ts, fieldsets-links.ts). The runs scale with the run's request budget.
import { fail } from '../checks/check.ts';
import { describeFieldset, fieldsetQuery, type Fieldset } from '../checks/fieldsets.ts';
import { linkArbitrary, linkExamples, rootArbitrary, rootExamples } from '../checks/fieldsets-arbitraries.ts';
import { embeddedObjects, includedMembers, judgeLink, keysAdded, linkRequest, linksSomething, type LinkedResource, type LinkServed } from '../checks/fieldsets-links.ts';
import {
  exclusionOrOrder,
  goneMeanwhile,
  judgeRootAnswer,
  namedByBoth,
  noFinding,
  readAnswer,
  servedFields,
  showsWhatStays,
  type Answer,
  type Resource,
  type Served,
} from '../checks/fieldsets-oracle.ts';
import { DEFAULT_MAX_REQUESTS, scaledToBudget } from '../budget/budget.ts';
import type { ConformanceContext } from '../harness/conformance.ts';
import { SchemaRegistry } from '../schemas/validator.ts';
import { fieldSince } from '../schemas/versioned-fields.ts';
import { baseline, checkProperty, describeRequest, seedOf, SHRINK_REQUESTS } from './fieldsets-property.ts';
import { DERIVED_ROWS, linkCandidates, ROOT_ROWS, rootRows } from './fieldsets-rows.ts';

// ---------------------------------------------------------------------------------------------
// Scale

/** Random cases of a property, given at the default budget, scaled to the run's (each case is one request). */
const runsFor = (atDefaultBudget: number, budget = DEFAULT_MAX_REQUESTS): number => scaledToBudget(atDefaultBudget, budget, 1);

/**
 * Random cases after the examples, at the default budget (a larger budget draws more). Few: the
 * examples already ask every row with both parameters and each form of each parameter once
 * (issue 17: a run spends a small part of the deployment's daily calls).
 */
const ROOT_RANDOM = 1;
const LINK_RANDOM = 2;

/** Runs reserved from the budget, at the default budget's scale (a larger budget draws on what is left). */
const ROOT_RUNS = runsFor(ROOT_RANDOM);
const ROOT_SETUP = 1; // a products listing (then one answer without fieldsets per row: ROOT_ROWS)
const LINK_RUNS = runsFor(LINK_RANDOM);
const LINK_SETUP = 25; // a products listing, up to 3 location listings, 21 answers without fieldsets

/** The requests the root property reserves: its setup, each row without fieldsets and as an example, the examples of both rules, its runs, shrinking and the exclusion alone (attribute). */
export const ROOT_PROPERTY_REQUESTS = ROOT_SETUP + 2 * ROOT_ROWS + 4 + ROOT_RUNS + SHRINK_REQUESTS + 1;
/** The requests the link property reserves: its setup, its 5 examples, its runs and shrinking. */
export const LINK_PROPERTY_REQUESTS = LINK_SETUP + LINK_RUNS + 5 + SHRINK_REQUESTS;

// ---------------------------------------------------------------------------------------------
// Fields of the spec

const schemas = SchemaRegistry.shared();
export const documentedOf = (schemaId: string): Set<string> => new Set(schemas.documentedFields(schemaId));

/** The fields the spec requires of a resource in the version the run asks for: served whatever the data. */
function requiredFields(t: ConformanceContext, schemaId: string): string[] {
  const required = (schemas.doc(schemaId)['required'] as string[] | undefined) ?? [];
  return required.filter((f) => {
    const since = fieldSince(schemaId, f);
    return since === null || t.version.serves(since);
  });
}

// ---------------------------------------------------------------------------------------------
// 1. fields[root] and fields_except[root]

/**
 * The root property's rows that serve a documented field, each asked once without fieldsets
 * (the rows an answer derives with them); lazy rows are asked later, when needed, once a user row
 * answered (the run has a user token that works). Why a row is left out goes to `notes`.
 */
export async function servedRootRows(t: ConformanceContext, notes: string[]): Promise<Served[]> {
  const served: Served[] = [];
  const pending = await rootRows(t);
  const lazy: Resource[] = [];
  for (let r = pending.shift(); r !== undefined; r = pending.shift()) {
    if (r.lazy) {
      lazy.push(r);
      continue;
    }
    const answer = await baseline(t, r, {}, notes);
    if (!answer || answer.items.length === 0) continue;
    pending.push(...(DERIVED_ROWS[r.endpoint]?.(answer.items, r) ?? []));
    const documented = documentedOf(r.schema);
    const fields = servedFields(answer.items, documented);
    if (fields.length >= 1) served.push({ ...r, full: answer.items, fields, documented });
  }
  // Lazy rows once a user row answered (the run has a user token that works); else asked as the others.
  const userAnswered = served.some((s) => s.auth === 'user');
  for (const r of lazy) {
    const documented = documentedOf(r.schema);
    if (userAnswered) {
      const fields = requiredFields(t, r.schema).filter((f) => documented.has(f));
      if (fields.length >= 1) served.push({ ...r, full: null, fields, documented });
      continue;
    }
    const answer = await baseline(t, r, {}, notes);
    if (!answer || answer.items.length === 0) continue;
    const fields = servedFields(answer.items, documented);
    if (fields.length >= 1) served.push({ ...r, full: answer.items, fields, documented });
  }
  return served;
}

/** fields[root] / fields_except[root] on the rows: the examples, then random cases from the seed. */
export async function rootFieldsetProperty(t: ConformanceContext, served: Served[], notes: string[]): Promise<void> {
  const seed = seedOf(t);
  /** Lazy rows whose answer without fieldsets turned out not usable: not judged. */
  const unusable = new Set<Served>();
  await checkProperty(t, 'fields[root] / fields_except[root]', rootArbitrary(served), {
    runs: runsFor(ROOT_RANDOM, t.run.maxRequests),
    examples: rootExamples(served, seed.seed),
    seed,
    ids: ['FIELDS-1', 'FIELDS-2', 'FIELDS-4'],
    request: (c) => {
      const s = served[c.r]!;
      return { path: s.path, query: { ...s.query, ...fieldsetQuery('root', c.set) }, ...(s.auth ? { auth: s.auth } : {}) };
    },
    judge: async (c, response) => {
      const s = served[c.r]!;
      // Gone meanwhile: another test of the run deleted it.
      if (goneMeanwhile(s, response)) return noFinding();
      const answer = readAnswer(response, s);
      if (unusable.has(s)) return noFinding();
      if (s.full === null) {
        if (showsWhatStays(s, c.set, answer)) return noFinding();
        const full = await baseline(t, s, {}, notes);
        if (!full || full.items.length === 0) {
          // Not usable without fieldsets either (not served to this version, say): the endpoint's own suite judges that.
          unusable.add(s);
          return noFinding();
        }
        s.full = full.items;
      }
      return judgeRootAnswer(s, s.full, c.set, answer);
    },
    // A field both parameters name, still there: the exclusion alone on the same row tells whether it is applied at all.
    attribute: async (c, verdict) => {
      const s = served[c.r]!;
      const alone: Fieldset = { except: namedByBoth(c.set) };
      if (s.full === null || alone.except!.length === 0 || !verdict.must.some((f) => f.ids[0] === 'FIELDS-4')) return verdict;
      const answer = readAnswer(await t.api.get(s.path, { query: { ...s.query, ...fieldsetQuery('root', alone) }, auth: s.auth ?? 'app' }), s);
      if (typeof answer === 'string') return verdict;
      return exclusionOrOrder(verdict, judgeRootAnswer(s, s.full, alone, answer), describeFieldset('root', alone));
    },
  });
}

// ---------------------------------------------------------------------------------------------
// 2. embed, embed_ids, include, with fields[root] and fields[<name>]

/**
 * The link property's rows that link something here, each asked with embed=<name>, without it,
 * and (collections) with include=<name>. A row whose embed or include answer is not usable is a
 * finding (LINK-4: the names are accepted); why a row is left out goes to `notes`.
 */
export async function servedLinks(t: ConformanceContext, notes: string[]): Promise<LinkServed[]> {
  const { candidates, prefetched } = await linkCandidates(t, notes);
  const served: LinkServed[] = [];
  for (const r of candidates) {
    const embedded = prefetched.get(r.path) ?? (await baseline(t, r, { embed: r.link }, notes));
    if (!embedded) {
      const why = notes[notes.length - 1] ?? 'no answer';
      // Unusable without embed too (no envelope, say): the endpoint's own suite judges its answer, not the link's.
      if (!(await baseline(t, r, {}, notes))) {
        notes.push(`${r.endpoint} (${r.path}) answers nothing usable with or without embed=${r.link}: left to its own tests`);
        continue;
      }
      t.must(fail(`${describeRequest(t, { path: r.path, query: { embed: r.link } })}: ${why}`), 'LINK-4', 'LINK-1');
      continue;
    }
    if (!linksSomething(embedded.items, r.link)) {
      notes.push(`${r.endpoint} (${r.path}) links no ${r.link} here`);
      continue;
    }
    const plain = await baseline(t, r, {}, notes);
    if (!plain) continue;
    let included: Answer | null = null;
    if (!r.single) {
      included = await baseline(t, r, { include: r.link }, notes);
      if (!included) t.must(fail(`${notes[notes.length - 1]}`), 'LINK-4', 'LINK-3');
    }
    served.push(linkServed(r, plain, embedded, included));
  }
  return served;
}

/** A link row with what its cases are drawn from and judged against. */
function linkServed(r: LinkedResource, plain: Answer, embedded: Answer, included: Answer | null): LinkServed {
  const documented = documentedOf(r.schema);
  const linkDocumented = documentedOf(r.linkSchema);
  const linked = [...embeddedObjects(embedded.items, r.link), ...(included ? includedMembers(included.body, plain.body) : [])];
  return {
    ...r,
    plain,
    embedded,
    included,
    embedKeys: keysAdded(embedded.items, plain.items),
    // A parent that already names the linked id (shop_id on a product) carries it without include adding a key.
    includeKeys: included
      ? new Set([...keysAdded(included.items, plain.items), ...[`${r.link}_id`, `${r.link}_ids`].filter((k) => included.items.some((i) => k in i))])
      : new Set(),
    rootFields: servedFields([...plain.items, ...embedded.items, ...(included?.items ?? [])], documented),
    linkFields: servedFields(linked, linkDocumented),
    documented,
    linkDocumented,
  };
}

/** embed / embed_ids / include on the rows (with fieldsets when the run's version has them): the examples, then random cases. */
export async function linkProperty(t: ConformanceContext, served: LinkServed[], fieldsets: boolean): Promise<void> {
  const name = fieldsets ? 'embed / embed_ids / include with fields[root] and fields[<name>]' : 'embed / embed_ids / include';
  await checkProperty(t, name, linkArbitrary(served, fieldsets), {
    runs: runsFor(LINK_RANDOM, t.run.maxRequests),
    examples: linkExamples(served, fieldsets),
    ids: ['LINK-1', 'LINK-2', 'LINK-3'],
    request: (c) => linkRequest(served[c.r]!, c),
    judge: (c, response) => judgeLink(served[c.r]!, c, response),
  });
}
