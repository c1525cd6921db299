// Takes back what a journal (src/harness/journal.ts) says is still pending: DELETE the records a
// run created, PATCH/PUT the values it changed back to what they were before it. Used at the end
// of a run for its own journal, and at the start of a run for journals earlier runs left.
import type { ApiClient } from './api.ts';
import { findCreated } from './find-created.ts';
import type { UndoEntry } from './journal.ts';
import { HttpError } from '../http/client.ts';

export interface SweepOutcome {
  /** Keys taken back, a record already gone included. */
  done: string[];
  /** Of those, the records that were already gone (their DELETE answered 404 or 410): nothing was left of them. */
  gone: string[];
  /** What could not be taken back, with the answer. */
  failed: string[];
  /** Requests whose answer was never recorded (the run was killed meanwhile) and whose record could not be looked up: they may have left one. */
  unknown: string[];
  /** Of the done keys, intents whose record was looked up: what was found and deleted (none: nothing was created). */
  found: Record<string, string[]>;
}

/** DELETEs `paths` with the user token: whether each is gone (a 2xx, or 404/410: gone already). */
async function deleteAll(api: ApiClient, paths: readonly string[]): Promise<string | null> {
  for (const path of paths) {
    const response = await api.request('DELETE', path, { auth: 'user' });
    if (!(response.status >= 200 && response.status <= 299) && response.status !== 404 && response.status !== 410) return `DELETE ${path} answered ${response.status}`;
  }
  return null;
}

/** One request per entry, newest first; a failure does not stop the others. */
// A record can be gone before its DELETE: a favorite goes with the list deleted under it.
export async function sweep(api: ApiClient, entries: readonly (UndoEntry & { key: string })[]): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { done: [], gone: [], failed: [], unknown: [], found: {} };
  for (const entry of entries) {
    if (!entry.action) {
      // An intent left unresolved: its record is looked up by what was sent (src/harness/find-created.ts).
      let paths: string[] | null = null;
      let why = 'its answer was never recorded, and no record it made could be looked up';
      try {
        paths = entry.create ? await findCreated(api, entry.create) : null;
        const failed = paths && (await deleteAll(api, paths));
        if (failed) {
          why = `its record was found, but ${failed}`;
          paths = null;
        }
      } catch (error) {
        why = `looking its record up failed: ${error instanceof HttpError ? error.message : (error as Error).message}`;
        paths = null;
      }
      // Said once, then dropped: what a lookup cannot find is left to the user.
      outcome.done.push(entry.key);
      if (paths === null) outcome.unknown.push(`${entry.what} (${why}: a record may be left; look for it by hand)`);
      else outcome.found[entry.key] = paths;
      continue;
    }
    const { method, path, json } = entry.action;
    try {
      const response = await api.request(method, path, { auth: 'user', ...(json !== undefined ? { json } : {}) });
      // A record already gone was taken back by someone (the test, the user): nothing is left.
      const gone = method === 'DELETE' && (response.status === 404 || response.status === 410);
      if (gone) outcome.gone.push(entry.key);
      if (gone || (response.status >= 200 && response.status <= 299)) outcome.done.push(entry.key);
      else outcome.failed.push(`${entry.what} (${method} ${path} answered ${response.status})`);
    } catch (error) {
      outcome.failed.push(`${entry.what} (${method} ${path}: ${error instanceof HttpError ? error.message : (error as Error).message})`);
    }
  }
  return outcome;
}

/** "took back N: ...", what could not be (with where the journal keeps it), and what is unknown. */
export function describeSweep(entries: readonly (UndoEntry & { key: string })[], outcome: SweepOutcome, file: string): string {
  const whats = (keys: readonly string[]) => entries.filter((e) => e.action && keys.includes(e.key)).map((e) => e.what);
  const done = whats(outcome.done.filter((key) => !outcome.gone.includes(key)));
  const gone = whats(outcome.gone);
  const intents = entries
    .filter((e) => !e.action && outcome.found[e.key]?.length)
    .map((e) => `${e.what} (its answer never recorded; found and deleted ${outcome.found[e.key]!.join(', ')})`);
  done.push(...intents);
  const parts = [done.length ? `took back ${done.length}: ${done.join('; ')}` : 'took back none'];
  if (gone.length) parts.push(`already gone ${gone.length}: ${gone.join('; ')}`);
  if (outcome.failed.length) parts.push(`could not take back ${outcome.failed.length}: ${outcome.failed.join('; ')} (kept in ${file} for the next run)`);
  if (outcome.unknown.length) parts.push(`unknown: ${outcome.unknown.join('; ')}`);
  return parts.join('; ');
}

/** Whether a sweep found nothing left: every record already gone, nothing failed or unknown. */
export function nothingWasLeft(outcome: SweepOutcome): boolean {
  const nothingFound = (key: string) => outcome.found[key]?.length === 0;
  return outcome.failed.length === 0 && outcome.unknown.length === 0 && outcome.done.every((key) => outcome.gone.includes(key) || nothingFound(key));
}
