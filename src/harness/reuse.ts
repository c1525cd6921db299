// Answers a worker keeps for reuse (issue 17, request economy): a GET that another test of the
// run already made, with the same token kind and no header or option of its own, is answered from
// here instead of asking the deployment again, as long as no write (a method other than GET and
// HEAD, by any worker) has begun or ended since the kept answer was asked for. Only 2xx answers
// are kept. Tests about repetition (ETag, rate-limit headers) declare `reuse: false`; tests with a
// token of their own are never served from here.
import type { HttpResponse } from '../http/client.ts';

/** At most this many answers, and this much body text, are kept; the oldest go first. */
const MAX_ANSWERS = 400;
const MAX_TEXT = 32 * 1024 * 1024;

interface Kept {
  /** The run's write count when the answer was asked for. */
  writes: number;
  response: HttpResponse;
}

export class ReusedAnswers {
  readonly #kept = new Map<string, Kept>();
  #text = 0;
  /** Answers given from here, for the run's figures. */
  hits = 0;

  static key(kind: string, url: string): string {
    return `${kind} ${url}`;
  }

  /** The kept answer for `key`, when no write has begun or ended since it was asked for. */
  get(key: string, writes: number): HttpResponse | null {
    const kept = this.#kept.get(key);
    if (!kept) return null;
    if (kept.writes !== writes) {
      this.#drop(key, kept);
      return null;
    }
    this.hits++;
    return kept.response;
  }

  /** Keeps a 2xx answer asked for when the run's write count was `writes`. */
  keep(key: string, writes: number, response: HttpResponse): void {
    if (response.status < 200 || response.status > 299) return;
    const old = this.#kept.get(key);
    if (old) this.#drop(key, old);
    this.#kept.set(key, { writes, response });
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
