// The requirement catalogue (catalogue.json beside this file): every normative statement of the
// spec, quoted with its section, under a stable id. Tests cite these ids; reports show them.
import { readFileSync } from 'node:fs';

export type Level = 'MUST' | 'OPEN';

/** What a reading turns on: the plain words, or the class of doubt that allows another behaviour. */
export const READING_KINDS = ['plain', 'meaning', 'scope', 'dated', 'example', 'blank', 'gap', 'type', 'order', 'version', 'other'] as const;
export type ReadingKind = (typeof READING_KINDS)[number];

/**
 * One server behaviour the words of a requirement allow, written from the quote, its section and
 * the Change history alone (issue 37). The kit accepts every reading of a requirement: a check
 * FAILs only what breaks them all. Each is served by the reference (`default`), by a legal variant
 * that names it (src/reference/variants/, VariantInfo.readings), or says why none can (`reason`).
 */
export interface Reading {
  /** `<requirement id>.<letter>`: SRCH-6.a is the plain reading, .b, .c ... the others. */
  id: string;
  /** One sentence: what a server does under this reading. */
  text: string;
  kind: ReadingKind;
  /** The reference server, with no variant switched on, behaves so. */
  default?: boolean;
  /** Why no legal variant serves it (no check judges the point, a person would be needed, ...). */
  reason?: string;
}

/** What one clause of a statement asserts (issue 38): each is checked on its own. */
export const CLAUSE_KINDS = ['type', 'presence', 'value', 'order', 'effect', 'relation', 'refusal'] as const;
export type ClauseKind = (typeof CLAUSE_KINDS)[number];

/**
 * One single checkable statement of a requirement's quote: a field's type, its presence, a value
 * the spec states, an order, an effect of a request, a relation between answers, a refusal. A
 * statement such as "family_id: integer, family id of the category, not the parent id; present on
 * single-category responses" holds three. Tests (and the rules checked on every exchange) name
 * the clauses they check; `npm test` fails on a clause nothing checks.
 */
export interface Clause {
  /** `<requirement id>#<n>`: CAT-10#3. */
  id: string;
  kind: ClauseKind;
  /** What holds, in a few words: "family_id is the category's family id, not its parent's". */
  text: string;
  /** Why no black-box check can judge it (as an untestable requirement says why). */
  untestable?: string;
}

export interface Requirement {
  id: string;
  section: string;
  /** MUST: stated behaviour, fails a run. OPEN: left open by the spec, may only warn. */
  level: Level;
  /** Verbatim excerpts of the spec, each from one line. */
  quote: string[];
  summary: string;
  /**
   * Every behaviour the statement allows (for a testable MUST, at least its plain reading): the
   * kit accepts every one (a FAIL breaks them all); the reference's default or a legal variant
   * serves each (src/reference/variants/), or it says why none can.
   */
  readings?: Reading[];
  /** Its clauses (issue 38), once the statement is split: each is checked on its own. */
  clauses?: Clause[];
  testable: boolean;
  untestableReason?: string;
}

const CATALOGUE_FILE = new URL('./catalogue.json', import.meta.url);

let cached: Map<string, Requirement> | null = null;

export function requirements(): Map<string, Requirement> {
  if (!cached) {
    const data = JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8')) as { requirements: Requirement[] };
    cached = new Map(data.requirements.map((r) => [r.id, r]));
  }
  return cached;
}

export function requirement(id: string): Requirement {
  const found = requirements().get(id);
  if (!found) throw new Error(`unknown requirement id ${id}: not in src/requirements/catalogue.json`);
  return found;
}

/** Throws on the first id the catalogue does not know. */
export function assertKnownRequirements(ids: readonly string[]): void {
  for (const id of ids) requirement(id);
}

/** Every reading of the catalogue, by id. */
export function readings(): Map<string, Reading> {
  return new Map([...requirements().values()].flatMap((r) => (r.readings ?? []).map((reading) => [reading.id, reading] as const)));
}

/** Every clause of the catalogue, by id. */
export function clauses(): Map<string, Clause> {
  return new Map([...requirements().values()].flatMap((r) => (r.clauses ?? []).map((clause) => [clause.id, clause] as const)));
}

/** The requirement id of a clause id ("CAT-10#3" -> "CAT-10"). */
export const requirementOfClause = (id: string): string => id.replace(/#\d+$/, '');

/** Clause ids as a declaration writes them, expanded: "CAT-10#3", or a range of one statement's clauses, "CAT-4#1-9". */
export function expandClauses(declared: readonly string[]): string[] {
  return declared.flatMap((entry) => {
    const range = /^(.+)#(\d+)-(\d+)$/.exec(entry);
    if (!range) return [entry];
    const [from, to] = [Number(range[2]), Number(range[3])];
    return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => `${range[1]}#${from + i}`);
  });
}

/** Why a test's declared clauses do not hold: unknown ids, or clauses of requirements it does not cite; null when they hold. */
export function clausesProblem(declared: readonly string[], requirementIds: readonly string[]): string | null {
  const known = clauses();
  const unknown = declared.filter((id) => !known.has(id));
  if (unknown.length) return `names clauses the catalogue does not have: ${unknown.join(', ')}`;
  const foreign = declared.filter((id) => !requirementIds.includes(requirementOfClause(id)));
  return foreign.length ? `names clauses of requirements it does not cite: ${foreign.join(', ')}` : null;
}

/** The requirement id of a reading id ("SRCH-6.b" -> "SRCH-6"). */
export const requirementOfReading = (id: string): string => id.replace(/\.[a-z]+$/, '');

/** The letter of the n-th reading (0 -> a, 25 -> z, 26 -> aa). */
export function readingLetter(n: number): string {
  return n < 26 ? String.fromCharCode(97 + n) : `${readingLetter(Math.floor(n / 26) - 1)}${readingLetter(n % 26)}`;
}

/** The position of a reading letter (a -> 0, z -> 25, aa -> 26). */
export function readingIndex(letter: string): number {
  return [...letter].reduce((n, c) => n * 26 + (c.charCodeAt(0) - 96), 0) - 1;
}

/**
 * Reading ids as a declaration writes them, expanded: "SRCH-6.a", or a range of one requirement's
 * readings, "SRCH-6.a-c" (a, b and c). Throws on a form it cannot read.
 */
export function expandReadings(declared: readonly string[]): string[] {
  return declared.flatMap((entry) => {
    const range = /^(.+)\.([a-z]+)-([a-z]+)$/.exec(entry);
    if (!range) {
      if (!/^.+\.[a-z]+$/.test(entry)) throw new Error(`reading "${entry}" is not <requirement>.<letter> nor <requirement>.<letter>-<letter>`);
      return [entry];
    }
    const [, requirement, from, to] = range as unknown as [string, string, string, string];
    const letters: string[] = [];
    for (let n = 0; n < 27 * 26; n++) {
      const letter = readingLetter(n);
      if (letter === from || letters.length) letters.push(letter);
      if (letter === to) break;
    }
    if (!letters.length || letters[letters.length - 1] !== to) throw new Error(`reading range "${entry}" does not run from ${from} to ${to}`);
    return letters.map((letter) => `${requirement}.${letter}`);
  });
}

/**
 * What a declaration must accept but does not: every reading of every requirement it cites
 * (`requirementIds`), against the readings it declares. Empty when it accepts them all.
 */
export function readingsNotAccepted(requirementIds: readonly string[], declared: readonly string[]): string[] {
  const accepted = new Set(expandReadings(declared));
  return requirementIds.flatMap((id) => (requirements().get(id)?.readings ?? []).map((r) => r.id)).filter((id) => !accepted.has(id));
}

/** The compact form of reading ids for a declaration: one range per requirement ("SRCH-6.a-c"). */
export function compactReadings(ids: readonly string[]): string[] {
  const byRequirement = new Map<string, string[]>();
  for (const id of ids) byRequirement.set(requirementOfReading(id), [...(byRequirement.get(requirementOfReading(id)) ?? []), id.slice(requirementOfReading(id).length + 1)]);
  return [...byRequirement].flatMap(([requirement, letters]) => {
    const contiguous = letters.every((letter, i) => readingIndex(letter) === readingIndex(letters[0]!) + i);
    if (letters.length === 1 || !contiguous) return letters.map((letter) => `${requirement}.${letter}`);
    return [`${requirement}.${letters[0]}-${letters[letters.length - 1]}`];
  });
}

/** Every reading of the requirements named, compact (a declaration that accepts them all). */
export function readingsOf(requirementIds: readonly string[]): string[] {
  return compactReadings(requirementIds.flatMap((id) => (requirements().get(id)?.readings ?? []).map((r) => r.id)));
}
