// The oracle of the fieldsets suite's link property (suites/fieldsets.suite.ts, run by
// src/engines/fieldsets.ts): what embed / embed_ids / include of a linked name (General
// conventions 5, 6), with or without fields[root] and fields[<name>], must give, judged against
// the row's answers without fieldsets (with embed=<name>, with include=<name>, without either).
// Pure: no request, no context.
import { blank, fail, isPlainObject, show } from './check.ts';
import {
  addedKeys,
  byObject,
  describeFieldset,
  embedIdsIsArrayOfIds,
  fieldsetProblems,
  fieldsetQuery,
  includedArrayKeys,
  includeResolves,
  keeps,
  linkedObjects,
  missingFields,
  pairById,
  type Fieldset,
  type Json,
} from './fieldsets.ts';
import {
  add,
  addByClause,
  describeQuery,
  idOf,
  idsForSet,
  judgeFieldset,
  labelOf,
  noFinding,
  readAnswer,
  type Answer,
  type Request,
  type Resource,
  type Verdict,
} from './fieldsets-oracle.ts';
import type { HttpResponse } from '../http/client.ts';

export type LinkMode = 'embed' | 'embed_ids' | 'include';

export interface LinkedResource extends Resource {
  /** The linked name (General conventions 6). */
  link: string;
  /** Schema of the linked object. */
  linkSchema: string;
}

export interface LinkServed extends LinkedResource {
  /** Answers without link parameter, with embed=<name>, with include=<name> (collections). */
  plain: Answer;
  embedded: Answer;
  included: Answer | null;
  /** Keys embed / include add to the parents. */
  embedKeys: Set<string>;
  includeKeys: Set<string>;
  rootFields: string[];
  linkFields: string[];
  documented: Set<string>;
  linkDocumented: Set<string>;
}

/** One case of the link property: a row (its index), the parameter, and the fieldsets sent with it. */
export interface LinkCase {
  r: number;
  mode: LinkMode;
  root: Fieldset | null;
  assoc: Fieldset | null;
}

const LINK_IDS: Record<LinkMode, string> = { embed: 'LINK-1', embed_ids: 'LINK-2', include: 'LINK-3' };

/** The keys a link parameter added to any item (items paired by id, else by position). */
export function keysAdded(withLink: readonly Json[], without: readonly Json[]): Set<string> {
  return new Set(pairById(withLink, without).flatMap(([w, o]) => (o ? addedKeys(w, o) : [])));
}

/** The objects embed=<name> put in the items, over every item. */
export const embeddedObjects = (items: readonly Json[], link: string): Json[] => items.flatMap((i) => linkedObjects(i[link]) ?? []);

/** Whether any parent links an object with an id (else there is nothing to embed, list or include). */
export const linksSomething = (items: readonly Json[], link: string): boolean => embeddedObjects(items, link).some((o) => idOf(o['id']) !== null);

/** The objects of the top-level arrays include added to a body. */
export const includedMembers = (body: Json, without: Json): Json[] => includedArrayKeys(body, without).flatMap((k) => (body[k] as unknown[]).filter(isPlainObject));

/** The parameters of a case: the fieldsets are sent only with embed and include (FIELDS-3: "an association name used in embed/include"). */
export function effective(c: LinkCase): { root: Fieldset | null; assoc: Fieldset | null } {
  return c.mode === 'embed_ids' ? { root: null, assoc: null } : { root: c.root, assoc: c.assoc };
}

export function linkRequest(s: LinkServed, c: LinkCase): Request {
  const { root, assoc } = effective(c);
  return { path: s.path, query: { ...s.query, [c.mode]: s.link, ...(root ? fieldsetQuery('root', root) : {}), ...(assoc ? fieldsetQuery(s.link, assoc) : {}) } };
}

/** What a case judges with: the row, the case's effective fieldsets, its requirement id, its parameters for messages. */
interface Judging {
  verdict: Verdict;
  s: LinkServed;
  mode: LinkMode;
  root: Fieldset | null;
  assoc: Fieldset | null;
  linkId: string;
  params: string;
}

/** A linked object paired with the same object answered without fieldsets, labelled for messages. */
interface PairedObject {
  o: Json;
  f: Json;
  label: string;
}

/** The verdict of a link case's answer. */
export function judgeLink(s: LinkServed, c: LinkCase, response: HttpResponse): Verdict {
  const { root, assoc } = effective(c);
  const j: Judging = { verdict: noFinding(), s, mode: c.mode, root, assoc, linkId: LINK_IDS[c.mode], params: describeQuery(linkRequest(s, c).query) };
  const answer = readAnswer(response, s);
  if (typeof answer === 'string') {
    add(j.verdict.must, fail(`${j.params} ${answer}`), [j.linkId, 'LINK-4', ...(root || assoc ? ['FIELDS-3'] : [])]);
    return j.verdict;
  }
  if (c.mode === 'embed_ids') judgeEmbedIds(j, answer.items);
  else judgeEmbedOrInclude(j, answer);
  return j.verdict;
}

/** embed_ids: as many items as without it, each with an array of the ids embed=<name> embeds. */
function judgeEmbedIds(j: Judging, items: readonly Json[]): void {
  const { s, verdict, linkId } = j;
  if (items.length !== s.plain.items.length) {
    add(verdict.must, fail(`${j.params}: ${items.length} ${s.noun}(s), ${s.plain.items.length} without it`), [linkId]);
    return;
  }
  const embeddedById = pairById(items, s.embedded.items);
  pairById(items, s.plain.items).forEach(([item, plain], i) => {
    if (!plain) return;
    const withEmbed = embeddedById[i]![1];
    const objects = withEmbed ? linkedObjects(withEmbed[s.link]) : null;
    const expected = withEmbed === undefined ? null : (objects ?? []).map((o) => idOf(o['id']));
    add(verdict.must, embedIdsIsArrayOfIds(item, plain, s.link, expected, labelOf(s, item, i)), [linkId]);
  });
}

/** embed / include, with the fieldsets: the root's fields, then the linked objects. */
function judgeEmbedOrInclude(j: Judging, answer: Answer): void {
  const { s, verdict, root, linkId } = j;
  const { body, items } = answer;
  const full = j.mode === 'embed' ? s.embedded : s.included!;
  const linkKeys = j.mode === 'embed' ? new Set([...s.embedKeys, s.link]) : s.includeKeys;
  if (items.length !== full.items.length) {
    add(verdict.must, fail(`${j.params}: ${items.length} ${s.noun}(s), ${full.items.length} without fieldsets`), [...(root ? idsForSet(root) : []), linkId]);
    return;
  }
  const pairs = pairById(items, full.items);
  if (root) judgeRootWithLink(j, root, items, full.items, pairs, linkKeys);
  if (j.mode === 'embed') judgeEmbedded(j, pairs);
  else judgeIncluded(j, body, items, full);
}

/** The root fieldset: the root's own fields; a key the link parameter added stays when the fieldset lists it or does not exclude it. */
function judgeRootWithLink(j: Judging, root: Fieldset, items: readonly Json[], full: readonly Json[], pairs: [Json, Json | undefined][], linkKeys: ReadonlySet<string>): void {
  const { s, verdict } = j;
  judgeFieldset(verdict, s, items, full, 'root', root, s.documented, idsForSet(root), linkKeys);
  pairs.forEach(([item, f], i) => {
    if (!f) return;
    const lost = [...linkKeys].filter((k) => k in f && !(k in item) && keeps(root, k));
    if (lost.length) {
      add(
        verdict.must,
        fail(`${j.params}: ${labelOf(s, item, i)} lacks ${lost.join(', ')}, which ${j.mode}=${s.link} adds, although ${describeFieldset('root', root)} does not remove it`),
        [j.linkId, ...idsForSet(root)],
      );
    }
  });
}

/** The linked objects: trimmed by fields[<name>], complete when no fields parameter names the association. */
function judgeObjects(j: Judging, pairs: readonly PairedObject[]): void {
  const { s, verdict, root, assoc } = j;
  if (assoc) {
    const entries = pairs.map(({ o, f, label }) => ({ label, problems: fieldsetProblems(o, f, s.link, assoc, s.linkDocumented) }));
    if (pairs.every(({ o, f }) => missingFields(o, f).length === 0)) {
      // Not one field removed: the association is not honoured as a target (FIELDS-3); how the
      // inclusion and the exclusion trim (FIELDS-1, 2, 4) is not seen here.
      add(verdict.must, byObject(entries.map((e) => ({ label: e.label, problems: e.problems.broken }))), ['FIELDS-3']);
    } else {
      addByClause(
        verdict.must,
        pairs.map(({ o, f, label }) => ({ label, got: o, full: f })),
        s.link,
        assoc,
        s.linkDocumented,
        new Set(),
      );
    }
    add(verdict.warn, byObject(entries.map((e) => ({ label: e.label, problems: e.problems.noted }))), idsForSet(assoc, ['FIELDS-3']));
    return;
  }
  const why = root ? `no fields parameter names ${s.link} (only ${describeFieldset('root', root)})` : `no fields parameter names ${s.link}`;
  const entries = pairs.map(({ o, f, label }) => {
    const missing = missingFields(o, f);
    return { label, problems: missing.length ? [`lacks ${missing.join(', ')}, which it has without fieldsets, although ${why}`] : [] };
  });
  add(verdict.must, byObject(entries), root ? ['FIELDS-5'] : [j.linkId]);
}

/** Linked objects paired with the same objects answered without fieldsets, labelled for messages. */
function paired(link: string, got: readonly Json[], whole: readonly Json[], where: string): PairedObject[] {
  return pairById(got, whole).flatMap(([o, f], j) => {
    if (!f) return [];
    const id = idOf(o['id']);
    return [{ o, f, label: `${where}${id !== null ? ` (${link} ${id})` : got.length > 1 ? ` (#${j + 1})` : ''}` }];
  });
}

/** embed: each parent's linked objects against those embedded without fieldsets. */
function judgeEmbedded(j: Judging, pairs: [Json, Json | undefined][]): void {
  const { s, verdict } = j;
  const objects = pairs.flatMap(([item, f], i) => {
    if (!f || !(s.link in item)) return []; // a missing key: judged above, or a reading of fields[root]
    const whole = linkedObjects(f[s.link]);
    if (!whole) return [];
    const got = linkedObjects(item[s.link]);
    if (!got) {
      const message = `${labelOf(s, item, i)} has ${s.link}: ${show(item[s.link])}; without fieldsets it embeds ${show(f[s.link], 60)}`;
      add(verdict.must, item[s.link] === null ? blank(message) : fail(message), [j.linkId]);
      return [];
    }
    return paired(s.link, got, whole, `the ${s.link} embedded in ${labelOf(s, item, i)}`);
  });
  judgeObjects(j, objects);
}

/**
 * include: ids in each parent (those the fieldsets keep), every id resolved by the top-level array.
 * (A root fieldset that removes every key include adds leaves no id to judge: a reading of fields[root].)
 */
function judgeIncluded(j: Judging, body: Json, items: readonly Json[], full: Answer): void {
  const { s, verdict, root, assoc } = j;
  const parentKeys = [...s.includeKeys].filter((k) => !root || keeps(root, k));
  const parents = s.includeKeys.size > 0 && parentKeys.length === 0 ? [] : items;
  const resolveById = !assoc || keeps(assoc, 'id');
  add(
    verdict.must,
    includeResolves(body, s.plain.body, parents, parentKeys, s.link, resolveById, (i) => labelOf(s, items[i]!, i)),
    [j.linkId],
  );
  const members = includedMembers(body, s.plain.body);
  const wholeMembers = includedMembers(full.body, s.plain.body);
  if (members.length) judgeObjects(j, paired(s.link, members, wholeMembers, `the included ${s.link}`));
}
