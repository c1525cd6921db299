// Answers the run keeps for reuse (issue 17, request economy): a GET that another test of the run
// (or discovery) already made, with the same token kind, the same Accept and no header or option
// of its own, is answered from here instead of asking the deployment again, as long as no write
// that could change the answer has begun or ended since the kept answer was asked for. One store
// for the whole run, in its main process (LocalRunServices): every worker reads what any worker
// kept. Only 2xx answers are kept. Tests about repetition (ETag, rate-limit headers) declare
// `reuse: false`; tests with a token of their own are never served from here.
//
// Which writes could change an answer (writeReach): what the spec lets a user's write show to
// the application token is the catalogue's reviews (a review, its votes and flags, the rating
// of its SKU and shop, the author's name) and the personalization's costs; the user's favorites,
// favorite lists, addresses and notifications are shown only to the user. So a write to those is
// 'private': it changes the stamp of answers got with the user token, not of those got with the
// application token. Any other write, on any path, is 'public' and changes both: a deployment
// whose writes reach further is still never answered from an old copy. A request for a token
// changes no answer.
import type { PlainResponse } from '../http/client.ts';

/** At most this many answers, and this much body text, are kept; the oldest go first. */
const MAX_ANSWERS = 1000;
const MAX_TEXT = 64 * 1024 * 1024;

/** Which kept answers a write may change: 'private' those of the user token, 'public' all. */
export type WriteReach = 'private' | 'public';

/** Paths (below the base URL) whose writes the spec shows to the user alone. */
const PRIVATE_WRITE = /^\/(favorites|favorite_lists|user\/addresses|notifications)(\/|$)/;

/**
 * What a `method` request to `url` may change for a GET; null for GET and HEAD, and for the token
 * endpoint ({auth_url}/oauth2/token), which issues tokens and changes no resource.
 */
export function writeReach(method: string, url: string, baseUrl: string, authUrl?: string): WriteReach | null {
  if (method === 'GET' || method === 'HEAD') return null;
  const base = new URL(baseUrl);
  const target = new URL(url);
  if (authUrl !== undefined && `${target.origin}${target.pathname}` === `${authUrl.replace(/\/+$/, '')}/oauth2/token`) return null;
  if (target.origin !== base.origin) return 'public';
  const basePath = base.pathname.replace(/\/+$/, '');
  if (basePath !== '' && !target.pathname.startsWith(`${basePath}/`)) return 'public';
  return PRIVATE_WRITE.test(target.pathname.slice(basePath.length)) ? 'private' : 'public';
}

/** The counts of writes begun and ended so far, by reach: the stamp of an answer got with a token kind. */
export class WriteCounts {
  #all = 0;
  #public = 0;

  /** A write begins or ends. */
  count(reach: WriteReach): void {
    this.#all++;
    if (reach === 'public') this.#public++;
  }

  /** The stamp of an answer got with `kind`: writes that may change it. */
  stampFor(kind: string): number {
    return kind === 'user' ? this.#all : this.#public;
  }
}

interface Kept {
  /** The stamp (WriteCounts.stampFor) when the answer was asked for. */
  stamp: number;
  response: PlainResponse;
}

/** The kept answer of a GET, or whether the caller is to ask the deployment (false: ask, keep nothing). */
export type Lookup = { kept: PlainResponse } | { ask: boolean };

export class ReusedAnswers {
  readonly #kept = new Map<string, Kept>();
  /** GETs out now (one asker each): others asking the same wait for its answer instead of sending it too. */
  readonly #asking = new Map<string, { answered: Promise<void>; settle: () => void }>();
  #text = 0;
  /** Answers given from here, for the run's figures. */
  hits = 0;

  /** The key of a GET: the token kind, the Accept header it sends, the URL. */
  static key(kind: string, accept: string, url: string): string {
    return `${kind} ${accept} ${url}`;
  }

  /** The kept answer for `key`, when its stamp is still `stamp`. */
  get(key: string, stamp: number): PlainResponse | null {
    const kept = this.#kept.get(key);
    if (!kept) return null;
    if (kept.stamp !== stamp) {
      this.#drop(key, kept);
      return null;
    }
    this.hits++;
    return kept.response;
  }

  /**
   * The kept answer for `key` at the current stamp; else, when no one is asking for it, the
   * caller is its asker ({ask: true}: it must report the answer to `answered`, kept or not); when
   * another is, the caller waits for that answer, at most `waitMs`, and then looks again (past
   * `waitMs`: {ask: false}, it asks alone and keeps nothing). Workers starting at once ask once.
   */
  async lookup(key: string, stampNow: () => number, waitMs: number): Promise<Lookup> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const kept = this.get(key, stampNow());
      if (kept) return { kept };
      const asking = this.#asking.get(key);
      if (!asking) {
        let settle = () => {};
        const answered = new Promise<void>((resolve) => (settle = resolve));
        this.#asking.set(key, { answered, settle });
        return { ask: true };
      }
      const left = deadline - Date.now();
      if (left <= 0) return { ask: false };
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([asking.answered, new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
    }
  }

  /** The asker's answer to `key` (asked at `stamp`): kept when 2xx; null when none came. Those waiting look again. */
  answered(key: string, stamp: number, response: PlainResponse | null): void {
    if (response) this.keep(key, stamp, response);
    const asking = this.#asking.get(key);
    this.#asking.delete(key);
    asking?.settle();
  }

  /** Keeps a 2xx answer asked for at `stamp`. */
  keep(key: string, stamp: number, response: PlainResponse): void {
    if (response.status < 200 || response.status > 299) return;
    const old = this.#kept.get(key);
    if (old) this.#drop(key, old);
    this.#kept.set(key, { stamp, response });
    this.#text += response.text.length;
    for (const [k, v] of this.#kept) {
      if (this.#kept.size <= MAX_ANSWERS && this.#text <= MAX_TEXT) break;
      this.#drop(k, v);
    }
  }

  #drop(key: string, kept: Kept): void {
    this.#kept.delete(key);
    this.#text -= kept.response.text.length;
  }
}
