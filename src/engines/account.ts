// How the user suite (suites/user.suite.ts) reads and changes the account: the profile, its
// addresses and personalization, each read stopping the test unless the answer is usable.
import { fail, isPlainObject } from '../checks/check.ts';
import { hasCollectionEnvelope, hasSingleEnvelope, hasStatus } from '../checks/http.ts';
import { pathOf } from '../rules/api-paths.ts';
import type { ConformanceContext } from '../harness/conformance.ts';
import type { HttpResponse } from '../http/client.ts';
import { readAfterChange } from './write-state.ts';

type Json = Record<string, unknown>;

const USER = { auth: 'user' as const };

/** The body's single resource under `key`; stops the test unless the status is `status`. */
export function single(t: ConformanceContext, response: HttpResponse, status: number, key: string, ...requirements: string[]): Json {
  t.require(hasStatus(response, status), ...requirements);
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasSingleEnvelope(body, key), 'GEN-7', ...requirements);
  return body[key] as Json;
}

export async function getUser(t: ConformanceContext): Promise<Json> {
  return (await readUser(t)).user;
}

/** GET /user; after a change (`since`: the answer before it, and the change), judged for a stale ETag as well. */
export async function readUser(t: ConformanceContext, since?: { before: HttpResponse; change: string }): Promise<{ user: Json; response: HttpResponse }> {
  const path = pathOf('GET /user');
  const response = since ? await readAfterChange(t, path, since.before, since.change, USER) : await t.api.get(path, USER);
  const user = single(t, response, 200, 'user', 'USER-12');
  t.response('GET /user', response, 'USER-12', 'USER-2');
  return { user, response };
}

/**
 * PATCH /user. `journal.undo`: the values before the change, journalled before it is sent (a run
 * interrupted before the test puts them back still does); `journal.undoes`: this PATCH puts them back.
 */
export async function patchUser(t: ConformanceContext, body: Json, journal: { undo?: Json; undoes?: boolean } = {}): Promise<HttpResponse> {
  return t.api.request('PATCH', pathOf('PATCH /user'), {
    ...USER,
    json: body,
    ...(journal.undo
      ? {
          undo: [
            { action: { method: 'PATCH' as const, path: pathOf('PATCH /user'), json: journal.undo }, what: `the user's ${Object.keys(journal.undo).join(', ')} as before the run` },
          ],
        }
      : {}),
    ...(journal.undoes ? { undoes: true } : {}),
  });
}

export async function getAddresses(t: ConformanceContext): Promise<Json[]> {
  return (await readAddresses(t)).addresses;
}

/** GET /user/addresses; after a change (`since`: the answer before it, and the change), judged for a stale ETag as well. */
export async function readAddresses(t: ConformanceContext, since?: { before: HttpResponse; change: string }): Promise<{ addresses: Json[]; response: HttpResponse }> {
  const path = pathOf('GET /user/addresses');
  const response = since ? await readAfterChange(t, path, since.before, since.change, USER) : await t.api.get(path, USER);
  t.require(hasStatus(response, 200), 'USER-18');
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasCollectionEnvelope(body, 'addresses'), 'GEN-7', 'USER-18');
  t.response('GET /user/addresses', response, 'USER-18', 'USER-9');
  return { addresses: (body['addresses'] as unknown[]).filter(isPlainObject), response };
}

export async function getAddressForm(t: ConformanceContext): Promise<Json> {
  const response = await t.api.get(pathOf('GET /user/addresses/new'), USER);
  const form = single(t, response, 200, 'address_form', 'USER-19');
  t.response('GET /user/addresses/new', response, 'USER-19', 'USER-10');
  return form;
}

export async function getPersonalization(t: ConformanceContext, endpoint = 'GET /personalization'): Promise<Json> {
  const response = await t.api.get(pathOf('GET /personalization'), USER);
  const p = single(t, response, 200, 'personalization', 'PERS-2');
  t.response(endpoint, response, 'PERS-2', 'PERS-1');
  return p;
}

/** DELETE /user/addresses/:id for each id, going on after errors; what stays is a warning. */
export async function removeAddresses(t: ConformanceContext, ids: readonly number[]): Promise<void> {
  const left: string[] = [];
  for (const id of ids) {
    try {
      const response = await t.api.request('DELETE', pathOf('DELETE /user/addresses/:id', { id }), USER);
      if (response.status !== 204 && response.status !== 404) left.push(`${id} (${response.status})`);
    } catch (error) {
      left.push(`${id} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  if (left.length) t.warn(fail(`teardown could not delete the addresses ${left.join(', ')}`), 'USER-23');
}

/** Ids of addresses in `after`, not in `before`, other than `id`, labelled `label`: a create stored twice. */
export function newTwins(before: readonly Json[], after: readonly Json[], id: number, label: string): number[] {
  const old = new Set(before.map((a) => a['id']));
  return after.filter((a) => a['id'] !== id && !old.has(a['id']) && a['label'] === label && Number.isInteger(a['id'])).map((a) => a['id'] as number);
}
