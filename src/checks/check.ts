// A check is a small pure function over what the server sent; it knows nothing of severity or
// requirement ids. The suite that calls it decides both (OpenID conformance suite style).

import type { Exchange } from '../http/exchange.ts';

/**
 * `shown`: the exchange the check judged, when it is not the test's latest (see `about`).
 * `follows`: the finding this failure follows from (see `following`): it names nothing broken.
 */
export type CheckResult = { ok: true } | { ok: false; message: string; blank?: true; shown?: Exchange; follows?: string };

export const pass = (): CheckResult => ({ ok: true });
export const fail = (message: string): CheckResult => ({ ok: false, message });

/**
 * A failure that is only a null where the spec types a value: "blank fields are present with
 * value null" (GEN-8) allows a null anywhere, so every caller records it as a warning citing
 * GEN-8, never as a failure (ConformanceContext, the passive judge). One policy for every check.
 */
export const blank = (message: string): CheckResult => ({ ok: false, message, blank: true });

/** `ok` when the value is as the spec types it; a null is blank (a warning), anything else a failure. */
export function typed(value: unknown, ok: boolean, message: string): CheckResult {
  if (ok) return pass();
  return value === null ? blank(message) : fail(message);
}

/**
 * `ok` when the value is the one the spec states or the request names (0 for the root's parent, 0
 * children for a leaf, the id asked, is_viewed after viewing): a null there is a wrong value, not
 * a blank. "Blank fields are null" (GEN-8) is for a field the spec gives a type and no value
 * (issue 38, point 3): those use `typed`.
 */
export const statedValue = (ok: boolean, message: string): CheckResult => (ok ? pass() : fail(message));

const MESSAGES_SHOWN = 5;

/**
 * Passes when every result passes; otherwise fails with the first messages and a count of the
 * rest. Blank only when every failure is (a real failure among nulls is a failure, shown first).
 */
export function allOf(results: readonly CheckResult[]): CheckResult {
  const failed = results.filter((r): r is Extract<CheckResult, { ok: false }> => !r.ok);
  if (failed.length === 0) return pass();
  const hard = failed.filter((r) => !r.blank);
  const messages = [...hard, ...failed.filter((r) => r.blank)].map((r) => r.message);
  const rest = messages.length - MESSAGES_SHOWN;
  const message = messages.slice(0, MESSAGES_SHOWN).join('; ') + (rest > 0 ? `; and ${rest} more of the same kind` : '');
  const shown = (hard[0] ?? failed[0])?.shown;
  const result = hard.length ? fail(message) : blank(message);
  return shown && !result.ok ? { ...result, shown } : result;
}

/**
 * The result shown with the exchange of the answer it judged (its last hop), not the test's latest
 * request: a test that judges page 1 after asking for page 2 shows page 1.
 */
export function about(answer: { exchanges: readonly Exchange[] }, result: CheckResult): CheckResult {
  const last = answer.exchanges[answer.exchanges.length - 1];
  return result.ok || !last ? result : { ...result, shown: last };
}

/**
 * A failure that follows from another already recorded (its root, said in `root`): shown under it,
 * it names no requirement as broken (one bug, one verdict; Finding.follows).
 */
export function following(root: string, result: CheckResult): CheckResult {
  return result.ok ? result : { ...result, follows: root };
}

/** A check's failure message prefixed with what was asked ("distance=10: ..."); a blank stays blank. */
export function inContext(what: string, result: CheckResult): CheckResult {
  return result.ok ? result : { ...result, message: `${what}: ${result.message}` };
}

/** A short rendering of a value for a failure message. */
export function show(value: unknown, max = 120): string {
  if (value === undefined) return 'undefined (absent)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
