// Two runs of one client against one deployment, on two machines, cannot read each other's
// journals (issue 19, point 5). So a run that may change the user's data announces itself on the
// deployment: a favorite list named `cc-run-o<over by>-<random>` (src/util/kit-names.ts), made
// before any test and deleted after the last (journalled like every record the kit makes, so an
// interrupted run's is swept). Then it reads the user's lists, the read discovery makes anyway
// and the tests reuse: another run's beacon whose time has not passed means that run may be
// changing the same user's data, and this one skips its write tests, saying why. Made first and
// read after, two runs starting together each see the other's and both skip: never both write.
// Reads stay correct beside another run's writes (each listing is judged on its own).
import type { ApiClient } from './api.ts';
import { linkTargets } from '../checks/pagination.ts';
import type { HttpResponse } from '../http/client.ts';
import { KIT_PREFIX, overByOf, runIsOver } from '../util/kit-names.ts';

/** The `what` of a beacon's kit name. */
export const BEACON_WHAT = 'run';

/** Most pages of the user's lists read for the beacons after discovery's first. */
const MORE_PAGES = 4;

type Json = Record<string, unknown>;

export interface BeaconList {
  id: number;
  name: string;
  /** When its run must be over (epoch ms). */
  overBy: number;
}

/** One page of the user's lists and the URL of the next (discovery's favoriteListsPage). */
export interface ListsPage {
  items: Json[];
  next: string | null;
}

/** Whether a kit name is a beacon's. */
export function isBeaconName(name: string): boolean {
  return name.startsWith(`${KIT_PREFIX}${BEACON_WHAT}-o`);
}

/**
 * Beacons in `lists` other than `own`: `live`, of runs that may still be going (their over-by time
 * has not passed), and `over`, of runs over an hour ago (a sweep may take them). Between the two:
 * neither, left alone.
 */
export function otherBeacons(lists: readonly Json[], own: string, now: number): { live: BeaconList[]; over: BeaconList[] } {
  const live: BeaconList[] = [];
  const over: BeaconList[] = [];
  for (const list of lists) {
    const name = list['name'];
    const id = list['id'];
    if (typeof name !== 'string' || name === own || !isBeaconName(name) || !Number.isInteger(id)) continue;
    const overBy = overByOf(name, now);
    if (overBy === null) continue;
    if (now <= overBy) live.push({ id: id as number, name, overBy });
    else if (runIsOver(name, now)) over.push({ id: id as number, name, overBy });
  }
  return { live, over };
}

/** What announcing found. `beacon` null: none was made; `others` names the live runs seen; `notes` go to the reports. */
export interface Announcement {
  beacon: BeaconList | null;
  others: BeaconList[];
  notes: string[];
}

/** The body as JSON; null when it is not JSON (a beacon is the run's own business: no finding). */
function jsonOf(response: HttpResponse): unknown {
  try {
    return response.json();
  } catch {
    return null;
  }
}

/** `GET` of a next-page URL's items, or null when it is not a 200 with a `favorite_lists` array. */
async function nextPage(api: ApiClient, url: string): Promise<ListsPage | null> {
  const response = await api.requestUrl('GET', url, { auth: 'user' });
  const body = response.status === 200 ? jsonOf(response) : null;
  const items = typeof body === 'object' && body !== null ? (body as Json)['favorite_lists'] : undefined;
  if (!Array.isArray(items)) return null;
  return { items: items.filter((i): i is Json => typeof i === 'object' && i !== null), next: linkTargets(response.headers, response.url)?.get('next') ?? null };
}

/**
 * The user's lists from `page` on, page after page until the run's beacon `name` is among them;
 * why it is not (where the run's own beacon is not seen, another's might not be either).
 */
async function listsUntil(api: ApiClient, first: ListsPage | null, name: string): Promise<Json[] | string> {
  const lists: Json[] = [];
  let page = first;
  for (let more = 0; page; more++) {
    lists.push(...page.items);
    if (lists.some((l) => l['name'] === name) || !page.next || more === MORE_PAGES) break;
    page = await nextPage(api, page.next);
  }
  return lists.some((l) => l['name'] === name) ? lists : `its beacon list ${name} is not among the first ${lists.length} lists GET /favorite_lists shows`;
}

/** Other runs' live beacons as the deployment shows them now (a fresh read of the lists), or null when that cannot be told. */
export async function liveBeaconsNow(api: ApiClient, own: string, now: () => number = Date.now): Promise<BeaconList[] | null> {
  const lists = await listsUntil(api, await nextPage(api, api.url('/favorite_lists')), own);
  return typeof lists === 'string' ? null : otherBeacons(lists, own, now()).live;
}

/**
 * Makes the beacon `name` (POST /favorite_lists with the user token), reads the lists (`firstPage`,
 * then further pages while the run's own beacon is not among them), and sweeps beacons of runs
 * long over. A failure anywhere leaves the run as it would be without beacons, with a note.
 */
export async function announceRun(api: ApiClient, firstPage: () => Promise<ListsPage>, name: string, now: () => number = Date.now): Promise<Announcement> {
  const notes: string[] = [];
  const cannotTell = (why: string): Announcement => ({
    beacon: null,
    others: [],
    notes: [`whether another run of this client is changing this user's data from another machine could not be told: ${why}`],
  });
  const made = await api.request('POST', '/favorite_lists', { auth: 'user', json: { favorite_list: { name } } });
  const list = (jsonOf(made) as Json | null)?.['favorite_list'];
  const id = typeof list === 'object' && list !== null ? (list as Json)['id'] : undefined;
  if (made.status !== 201 || !Number.isInteger(id))
    return cannotTell(`POST /favorite_lists (the run's beacon list ${name}) answered ${made.status}${made.status === 201 ? ' with no integer favorite_list.id' : ''}`);
  const beacon: BeaconList = { id: id as number, name, overBy: overByOf(name, now()) ?? now() };

  let lists: Json[] | string;
  try {
    lists = await listsUntil(api, await firstPage(), name);
  } catch (error) {
    lists = `GET /favorite_lists: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof lists === 'string') return { ...cannotTell(lists), beacon };

  const { live, over } = otherBeacons(lists, name, now());
  for (const old of over) {
    const deleted = await api.request('DELETE', `/favorite_lists/${old.id}`, { auth: 'user' });
    const ok = (deleted.status >= 200 && deleted.status <= 299) || deleted.status === 404;
    notes.push(
      `the beacon list ${old.name} of a run over since ${new Date(old.overBy).toISOString()} was left on the deployment; ${ok ? 'deleted' : `DELETE /favorite_lists/${old.id} answered ${deleted.status}: left`}`,
    );
  }
  for (const other of live) {
    notes.push(
      `another run of this client is changing this user's data, or may be (its beacon, the favorite list ${other.name}, says it is over by ${new Date(other.overBy).toISOString()}): the tests that change the user's data were skipped; if no run is going, delete that list`,
    );
  }
  return { beacon, others: live, notes };
}

/** Deletes the run's beacon: null when gone, else why it was left (the journal keeps it for the next run's sweep). */
export async function withdrawRun(api: ApiClient, beacon: BeaconList): Promise<string | null> {
  const deleted = await api.request('DELETE', `/favorite_lists/${beacon.id}`, { auth: 'user' });
  return (deleted.status >= 200 && deleted.status <= 299) || deleted.status === 404
    ? null
    : `DELETE /favorite_lists/${beacon.id} (the run's beacon list) answered ${deleted.status}`;
}
