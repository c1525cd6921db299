// Answers the run keeps for reuse (issue 17, request economy): a GET that another test of the run
// (or discovery) already made, with the same token kind, the same Accept and no header or option
// of its own, is answered from here instead of asking the deployment again, as long as no write
// that could change the answer has begun or ended since the kept answer was asked for. One store
// for the whole run, in its main process (LocalRunServices): every worker reads what any worker
// kept. Only 2xx answers are kept. Tests about repetition (ETag, rate-limit headers) declare
// `reuse: false`; tests with a token of their own are never served from here.
//
// Which writes could change an answer (writeReach, readsFrom), from the spec:
//   - the user's favorites, favorite lists, addresses, personalization and notifications are
//     shown only to the user: a write to those is an area of the user's own ('favorites',
//     'addresses' (with PUT /personalization, which points at one), 'notifications') and changes
//     no answer got with the application token. A write to a SKU's reviews (a review, its votes
//     and flags) is the area 'reviews', and PATCH /user the area 'profile': shown to everyone
//     (a review, the rating of its SKU, an author's stats, name and avatar, in listings and in
//     notifications), but not in the user's addresses, personalization or saved orders. Any
//     other write, on any path, is 'public' and may change every answer: a deployment whose
//     writes reach further is still never answered from an old copy.
//   - The user's answers: the favorites and lists (GET /favorites, /favorite_lists,
//     /categories/:id/favorites) change with the favorites area (States and transitions), the
//     notifications with the notifications area (POST /notifications/view; the Events are price,
//     availability, release and review events, which a write to favorites or addresses is not),
//     each also with the reviews, the profile and the public writes, as does the profile itself;
//     the addresses and the personalization change with the addresses area and the public
//     writes alone, the saved orders and avatars with the public writes alone. Every other answer
//     of the user token (a SKU listing says `favorited`, a product's costs follow the
//     personalization) may change with a write to any area.
// A request for a token changes no answer.
import type { PlainResponse } from '../http/client.ts';
import { apiPathUnder } from '../rules/api-paths.ts';

/** At most this many answers, and this much body text, are kept; the oldest go first. */
const MAX_ANSWERS = 1000;
const MAX_TEXT = 64 * 1024 * 1024;

/** Which kept answers a write may change: those of an area of the user's own data, or 'public': any. */
export type WriteReach = 'favorites' | 'addresses' | 'notifications' | 'reviews' | 'profile' | 'public';

/** Paths (below the base URL) whose writes reach less than every answer, by area. */
const USER_AREAS: readonly (readonly [RegExp, Exclude<WriteReach, 'public'>])[] = [
  [/^\/(favorites|favorite_lists)(\/|$)/, 'favorites'],
  [/^\/user\/addresses(\/|$)|^\/personalization$/, 'addresses'],
  [/^\/notifications(\/|$)/, 'notifications'],
  [/^\/skus\/[^/]+\/reviews(\/|$)/, 'reviews'],
  [/^\/user$/, 'profile'],
];

/**
 * What a `method` request to `url` may change for a GET; null for GET and HEAD, and for the token
 * endpoint ({auth_url}/oauth2/token), which issues tokens and changes no resource.
 */
export function writeReach(method: string, url: string, baseUrl: string, authUrl?: string): WriteReach | null {
  if (method === 'GET' || method === 'HEAD') return null;
  const target = new URL(url);
  if (authUrl !== undefined && `${target.origin}${target.pathname}` === `${authUrl.replace(/\/+$/, '')}/oauth2/token`) return null;
  const path = apiPathUnder(url, baseUrl);
  if (path === null) return 'public';
  return USER_AREAS.find(([pattern]) => pattern.test(path))?.[1] ?? 'public';
}

/** The user token's answers that change only with the writes of these areas. */
const READS: readonly (readonly [RegExp, readonly WriteReach[]])[] = [
  [/^\/(favorites|favorite_lists)(\/|$)|^\/categories\/[^/]+\/favorites(\/|$)/, ['favorites', 'reviews', 'profile', 'public']],
  [/^\/notifications(\/|$)/, ['notifications', 'reviews', 'profile', 'public']],
  [/^\/user$/, ['reviews', 'profile', 'public']],
  [/^\/user\/addresses(\/|$)|^\/personalization$/, ['addresses', 'public']],
  [/^\/user\/(saved_orders|avatars)$/, ['public']],
];

/** The areas whose writes may change an application token's answer: those shown to everyone. */
const APP_READS: readonly WriteReach[] = ['reviews', 'profile', 'public'];

/** The areas whose writes may change a user token's answer to GET `url`; null: every area. */
export function readsFrom(url: string, baseUrl: string): readonly WriteReach[] | null {
  const path = apiPathUnder(url, baseUrl);
  if (path === null) return null;
  return READS.find(([pattern]) => pattern.test(path))?.[1] ?? null;
}

/** Answers of the application token that show what the user writes: a SKU (its rating and reviews), its reviews, SKU listings. */
const APP_ANSWERS_SHOWING_USER_WRITES = /^\/skus\/[^/]+(\/reviews(\/|$)|$)|^\/(categories|manufacturers)\/[^/]+\/skus$/;

/**
 * Whether an answer to `url` with `withUserToken` may show what another run of the same client
 * writes (the same user's favorites, addresses, profile, reviews): every answer of the user token,
 * and those of the application token that show reviews and ratings (the 'reviews' and 'profile'
 * areas above). A request off the base URL: yes.
 */
export function mayShowUserWrites(url: string, baseUrl: string, withUserToken: boolean): boolean {
  if (withUserToken) return true;
  const path = apiPathUnder(url, baseUrl);
  return path === null || APP_ANSWERS_SHOWING_USER_WRITES.test(path);
}

/** The counts of writes begun and ended so far, by reach: the stamp of an answer got with a token kind. */
export class WriteCounts {
  readonly #counts = new Map<WriteReach, number>();

  /** A write begins or ends. */
  count(reach: WriteReach): void {
    this.#counts.set(reach, (this.#counts.get(reach) ?? 0) + 1);
  }

  /**
   * The stamp of an answer got with `kind`: the writes that may change it. The application
   * token's answers change with the reviews, the profile and the public writes; the user
   * token's with those of `areas` (readsFrom), or of every area when null.
   */
  stampFor(kind: string, areas: readonly WriteReach[] | null = null): number {
    if (kind !== 'user') areas = APP_READS;
    let stamp = 0;
    for (const [reach, n] of this.#counts) if (areas === null || areas.includes(reach)) stamp += n;
    return stamp;
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
