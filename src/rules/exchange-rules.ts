// The rules one exchange shows, each written once with its requirement ids and severity: the body
// as documented for its endpoint, status and version (schemas, conditional presence), a JSON
// Content-Type, the error format, the rate-limit headers, pagination and Link, and the rules of
// particular endpoints. Three users, one table:
//   - the live run judges every exchange it makes with every rule (src/rules/observations.ts,
//     reported per rule by suites/last/observed.suite.ts);
//   - a suite applies a rule to an answer it judges (ConformanceContext#rules);
//   - the passive judge applies every rule to every entry of recorded traffic (src/har/judge.ts).
// A rule sees an ExchangeView (src/rules/exchange-view.ts): exchange, endpoint, body, query, version, token kind.
// This module holds the table, in the order the rules are judged and reported; the rules are written
// by area: what a rule is and finds (exchange-rule.ts), the body (body-rules.ts), the headers and
// status (header-rules.ts), pagination and Link (pagination-rules.ts), particular endpoints
// (endpoint-rules.ts).
import { DOCUMENTED_BODY, ERROR_BODY, JSON_CONTENT_TYPE, NO_LATER_FIELDS, NOT_MODIFIED_NO_BODY } from './body-rules.ts';
import { ENDPOINT_RULES } from './endpoint-rules.ts';
import type { ExchangeRule, RuleOutcome } from './exchange-rule.ts';
import type { ExchangeView } from './exchange-view.ts';
import { HTTPS, RATE_LIMIT_RULES, REDIRECT_LOCATION } from './header-rules.ts';
import { PAGINATION_RULES } from './pagination-rules.ts';

export { askedVersion, isOAuthUrl, viewOf, type ExchangeView, type ViewInput } from './exchange-view.ts';

export const EXCHANGE_RULES: readonly ExchangeRule[] = [
  DOCUMENTED_BODY,
  JSON_CONTENT_TYPE,
  REDIRECT_LOCATION,
  HTTPS,
  NO_LATER_FIELDS,
  ERROR_BODY,
  ...RATE_LIMIT_RULES,
  NOT_MODIFIED_NO_BODY,
  ...PAGINATION_RULES,
  ...ENDPOINT_RULES,
];

/** The rule of an id; throws on an id the table does not have (a suite's typo). */
export function exchangeRule(id: string): ExchangeRule {
  const rule = EXCHANGE_RULES.find((r) => r.id === id);
  if (!rule) throw new Error(`no exchange rule "${id}" (src/rules/exchange-rules.ts has ${EXCHANGE_RULES.map((r) => r.id).join(', ')})`);
  return rule;
}

/** Every rule that applies to the view, with what it found. */
export function judgeView(view: ExchangeView, rules: readonly ExchangeRule[] = EXCHANGE_RULES): { rule: ExchangeRule; outcome: RuleOutcome }[] {
  return rules.filter((rule) => rule.applies(view)).map((rule) => ({ rule, outcome: rule.check(view) }));
}
