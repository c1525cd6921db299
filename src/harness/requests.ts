// Request helpers the suites share.
import { fail, isPlainObject, pass, show } from '../checks/check.ts';
import { hasStatus } from '../checks/http.ts';
import type { HttpResponse } from '../http/client.ts';
import type { ConformanceContext } from './conformance.ts';

export type Query = Record<string, string | number | readonly string[]>;

/** GET that must answer 200 with a JSON object; stops the test otherwise, citing `requirements`. */
export async function getOk(
  t: ConformanceContext,
  path: string,
  query: Query,
  ...requirements: string[]
): Promise<{ body: Record<string, unknown>; response: HttpResponse }> {
  const response = await t.api.get(path, { query });
  t.require(hasStatus(response, 200), ...requirements);
  const body = t.json<Record<string, unknown>>(response, 'GEN-4');
  t.require(isPlainObject(body) ? pass() : fail(`body is ${show(body)}, expected an object`), 'GEN-7', ...requirements);
  return { body, response };
}
