// A check is a small pure function over what the server sent; it knows nothing of severity or
// requirement ids. The suite that calls it decides both (OpenID conformance suite style).

export type CheckResult = { ok: true } | { ok: false; message: string };

export const pass = (): CheckResult => ({ ok: true });
export const fail = (message: string): CheckResult => ({ ok: false, message });

/** Passes when every result passes; otherwise fails with every message, joined. */
export function allOf(results: readonly CheckResult[]): CheckResult {
  const messages = results.flatMap((r) => (r.ok ? [] : [r.message]));
  return messages.length === 0 ? pass() : fail(messages.join('; '));
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
