// A check is a small pure function over what the server sent; it knows nothing of severity or
// requirement ids. The suite that calls it decides both (OpenID conformance suite style).

export type CheckResult = { ok: true } | { ok: false; message: string };

export const pass = (): CheckResult => ({ ok: true });
export const fail = (message: string): CheckResult => ({ ok: false, message });

const MESSAGES_SHOWN = 5;

/** Passes when every result passes; otherwise fails with the first messages and a count of the rest. */
export function allOf(results: readonly CheckResult[]): CheckResult {
  const messages = results.flatMap((r) => (r.ok ? [] : [r.message]));
  if (messages.length === 0) return pass();
  const rest = messages.length - MESSAGES_SHOWN;
  return fail(messages.slice(0, MESSAGES_SHOWN).join('; ') + (rest > 0 ? `; and ${rest} more of the same kind` : ''));
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
