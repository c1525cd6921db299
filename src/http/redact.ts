// Secrets never reach a report, a log or the terminal. Two layers:
// 1. by position: the Authorization header, token-bearing query parameters and body fields;
// 2. by value: every secret the run knows (client secret, tokens it obtained or was given) is
//    replaced wherever it appears, so a server that echoes a token in an odd place cannot leak it.

export const REDACTED = '[REDACTED]';

/** JSON body fields whose value is a secret. */
const SECRET_JSON_FIELDS = new Set(['access_token', 'refresh_token', 'client_secret', 'oauth_token', 'id_token', 'password']);
/**
 * Query and form parameters whose value is a secret: these add `code`, the authorization code of
 * a redirect or a token request. In a JSON body `code` is the error code and must stay readable.
 */
const SECRET_PARAMS = new Set([...SECRET_JSON_FIELDS, 'code']);

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Shorter values are not redacted by value: they would blank out ordinary text. */
const MIN_SECRET_LENGTH = 6;
/** Above this many secrets, scrub scans the text once instead of searching for each secret. */
const SCAN_THRESHOLD = 32;

export class SecretRegistry {
  readonly #values = new Set<string>();
  /** Longest first (a secret containing another is replaced whole); rebuilt after an add. */
  #sorted: string[] | null = null;
  /** Secrets by their first MIN_SECRET_LENGTH characters, for scrubbing with many secrets. */
  #byPrefix: Map<string, string[]> | null = null;

  add(value: string | null | undefined): void {
    if (!value || value.length < MIN_SECRET_LENGTH) return;
    const before = this.#values.size;
    this.#values.add(value);
    // The same secret may appear URL-encoded (a code in a Location header, a form body).
    const encoded = encodeURIComponent(value);
    if (encoded !== value) this.#values.add(encoded);
    const formEncoded = new URLSearchParams({ v: value }).toString().slice(2);
    if (formEncoded !== value) this.#values.add(formEncoded);
    if (this.#values.size !== before) this.#sorted = this.#byPrefix = null;
  }

  values(): string[] {
    return (this.#sorted ??= [...this.#values].sort((a, b) => b.length - a.length));
  }

  scrub(text: string): string {
    const values = this.values();
    // A few secrets (a live run): one search per secret. Many (recorded traffic of many users):
    // one pass over the text, looking secrets up by prefix, so the cost does not grow with their number.
    if (values.length <= SCAN_THRESHOLD) {
      let out = text;
      for (const value of values) {
        if (out.includes(value)) out = out.split(value).join(REDACTED);
      }
      return out;
    }
    return this.#scrubByPrefix(text);
  }

  #scrubByPrefix(text: string): string {
    if (!this.#byPrefix) {
      this.#byPrefix = new Map();
      for (const value of this.values()) {
        const key = value.slice(0, MIN_SECRET_LENGTH);
        const list = this.#byPrefix.get(key);
        if (list) list.push(value);
        else this.#byPrefix.set(key, [value]);
      }
    }
    const parts: string[] = [];
    let copied = 0;
    for (let i = 0; i + MIN_SECRET_LENGTH <= text.length;) {
      const candidates = this.#byPrefix.get(text.slice(i, i + MIN_SECRET_LENGTH));
      const found = candidates?.find((v) => text.startsWith(v, i));
      if (found === undefined) {
        i++;
        continue;
      }
      parts.push(text.slice(copied, i), REDACTED);
      i += found.length;
      copied = i;
    }
    if (copied === 0) return text;
    parts.push(text.slice(copied));
    return parts.join('');
  }
}

/** The registry of the current process; the harness adds every secret it learns. */
export const secrets = new SecretRegistry();

export function redactUrl(url: string, registry: SecretRegistry = secrets): string {
  let out = url;
  try {
    const parsed = new URL(url);
    let changed = false;
    for (const key of [...parsed.searchParams.keys()]) {
      if (SECRET_PARAMS.has(key.toLowerCase())) {
        parsed.searchParams.set(key, REDACTED);
        changed = true;
      }
    }
    if (parsed.password) {
      parsed.password = REDACTED;
      changed = true;
    }
    if (changed) out = parsed.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED);
  } catch {
    out = redactFormText(url);
  }
  return registry.scrub(out);
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>, registry: SecretRegistry = secrets): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const joined = Array.isArray(value) ? value.join(', ') : value;
    const lower = name.toLowerCase();
    if (SECRET_HEADERS.has(lower)) {
      const scheme = /^(\w+)\s+/.exec(joined);
      out[name] = lower === 'authorization' && scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
    } else if (lower === 'location' || lower === 'content-location') {
      // One URI reference, absolute or relative (a relative one is redacted as form text).
      out[name] = redactUrl(joined, registry);
    } else if (lower === 'link') {
      // <URI-reference>s, absolute or relative, and bare URLs; then known secrets anywhere.
      out[name] = registry.scrub(
        joined.replace(/<([^>]*)>|https?:\/\/[^\s<>"]+/g, (whole, ref: string | undefined) => (ref !== undefined ? `<${redactUrl(ref, registry)}>` : redactUrl(whole, registry))),
      );
    } else {
      out[name] = registry.scrub(joined);
    }
  }
  return out;
}

/** Redacts a body given as text: JSON by field, form-encoded by parameter, anything by value. */
export function redactBodyText(text: string, registry: SecretRegistry = secrets): string {
  let out = text;
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      out = JSON.stringify(redactJson(JSON.parse(text)));
    } catch {
      out = redactJsonLikeText(text);
    }
  } else if (/^[\w.%+-]+=[^&]*(&[\w.%+-]+=[^&]*)*$/.test(trimmed)) {
    out = redactFormText(text);
  }
  return registry.scrub(out);
}

export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = SECRET_JSON_FIELDS.has(key.toLowerCase()) && inner !== null ? REDACTED : redactJson(inner);
    }
    return out;
  }
  return value;
}

function redactFormText(text: string): string {
  return text.replace(/([?&]|^)([\w.%-]+)=([^&#\s]*)/g, (whole, sep: string, key: string) =>
    SECRET_PARAMS.has(decodeSafe(key).toLowerCase()) ? `${sep}${key}=${REDACTED}` : whole,
  );
}

/** For truncated or broken JSON: blank the string value after any secret key. */
function redactJsonLikeText(text: string): string {
  return text.replace(/"([\w-]+)"\s*:\s*"((?:[^"\\]|\\.)*)("?)/g, (whole, key: string, _value: string, close: string) =>
    SECRET_JSON_FIELDS.has(key.toLowerCase()) ? `"${key}":"${REDACTED}${close}` : whole,
  );
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
