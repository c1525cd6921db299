// Conditional presence: fields the spec requires only under a condition ("only with include=group",
// "when embedded", "for authorized users", "in the create response", "in product cards"). The
// resource schemas never require them; schemas/endpoints.json lists, per endpoint and status, the
// rules that require them where the condition visibly holds in the exchange: the endpoint itself,
// a query parameter of the request, the kind of token (known to a live run, not to recorded
// traffic), the version served. Elsewhere such a field may be present, absent or null.
import type { VersionScope } from '../rules/version-scope.ts';
import type { Violation } from './violation.ts';

export interface PresenceCondition {
  /** The request carried a user token (a live run knows; recorded traffic does not, so the rule never applies there). */
  token?: 'user';
  /** Query parameter -> a value it must name (with or without [], comma-separated or repeated). */
  query?: Record<string, string>;
  /** The version that added the fields (a row of the Change history). */
  since?: string;
  /**
   * The request's token was granted this scope (the fields describe what only it permits). A live
   * run knows what its user token was granted; where that is not known the rule never applies.
   */
  tokenScope?: string;
}

export interface PresenceRule {
  /**
   * Where the objects are: JSON pointers into the body whose `*` stands for every item of an array
   * ("" is the body itself). Several are readings of the spec: the rule holds when every object at
   * any one of them carries the fields.
   */
  at: string[];
  fields: string[];
  when?: PresenceCondition;
  requirements: string[];
  /** The spec's words that state the condition. */
  because: string;
}

/** What an exchange shows besides its body: the request's query and, in a live run, the kind of token. */
export interface ExchangeContext {
  query?: URLSearchParams;
  /** 'user' or 'app' when the run knows which token the request carried; null or absent: not known. */
  token?: 'user' | 'app' | null;
  /** The scopes that token was granted, when the run knows them; null or absent: not known. */
  tokenScopes?: readonly string[] | null;
}

/**
 * Whether the query parameter `name` (or `name[]`) names `value` (comma-separated or repeated). A
 * `name` written with its brackets ("include_meta[]") is that form alone: where the spec writes
 * only it, a server may recognise only it, and an answer to the other form is not judged.
 */
export function queryNames(query: URLSearchParams | undefined, name: string, value: string): boolean {
  if (!query) return false;
  const forms = name.endsWith('[]') ? [name] : [name, `${name}[]`];
  return forms
    .flatMap((form) => query.getAll(form))
    .flatMap((v) => v.split(','))
    .some((v) => v.trim() === value);
}

/** Whether the request asked for sparse fieldsets (General conventions 7): then what it left out is not judged here. */
export function asksFieldsets(query: URLSearchParams | undefined): boolean {
  return !!query && [...query.keys()].some((k) => /^fields(_except)?\[/.test(k));
}

/** Whether the rule's condition visibly holds in the exchange. */
export function ruleApplies(rule: PresenceRule, context: ExchangeContext, scope: VersionScope): boolean {
  const when = rule.when ?? {};
  if (asksFieldsets(context.query)) return false;
  if (when.token === 'user' && context.token !== 'user') return false;
  if (when.tokenScope && !context.tokenScopes?.includes(when.tokenScope)) return false;
  if (when.since && !scope.serves(when.since)) return false;
  return Object.entries(when.query ?? {}).every(([name, value]) => queryNames(context.query, name, value));
}

const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
const unescape = (part: string): string => part.replace(/~1/g, '/').replace(/~0/g, '~');

/** The objects at a pointer with `*` wildcards, each with its concrete pointer. */
export function objectsAtPointer(body: unknown, pointer: string): { pointer: string; value: Record<string, unknown> }[] {
  let found: { pointer: string; value: unknown }[] = [{ pointer: '', value: body }];
  for (const part of pointer === '' ? [] : pointer.slice(1).split('/').map(unescape)) {
    found = found.flatMap(({ pointer: at, value }) => {
      if (part === '*') return Array.isArray(value) ? value.map((item, i) => ({ pointer: `${at}/${i}`, value: item as unknown })) : [];
      if (value === null || typeof value !== 'object' || Array.isArray(value) || !(part in value)) return [];
      return [{ pointer: `${at}/${escape(part)}`, value: (value as Record<string, unknown>)[part] }];
    });
  }
  return found.filter((f): f is { pointer: string; value: Record<string, unknown> } => f.value !== null && typeof f.value === 'object' && !Array.isArray(f.value));
}

/** The fields the rules require and the body lacks, as absent-field violations citing each rule's requirements. */
export function missingConditionalFields(rules: readonly PresenceRule[], body: unknown, context: ExchangeContext, scope: VersionScope): Violation[] {
  const out: Violation[] = [];
  for (const rule of rules) {
    if (!ruleApplies(rule, context, scope)) continue;
    const readings = rule.at.map((at) =>
      objectsAtPointer(body, at).flatMap(({ pointer, value }) => rule.fields.filter((f) => !(f in value)).map((f) => `${pointer}/${escape(f)}`)),
    );
    if (readings.some((missing) => missing.length === 0)) continue;
    const where = rule.at.length > 1 ? ` (at ${rule.at.map((a) => a || '/').join(' or ')})` : '';
    for (const pointer of readings[0]!) {
      out.push({
        pointer,
        expected: `the field present: "${rule.because}"${where}`,
        actual: 'field absent',
        nullValue: false,
        absent: true,
        requirements: rule.requirements,
      });
    }
  }
  return out;
}
