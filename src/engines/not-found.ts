// A 404 for a missing record, judged one way by every suite: the {errors} body with RecordNotFound
// (3.1.0 on), or the spec's own example of a missing category, an empty array, which only warns
// (ERR-16: the kit reads it as allowed for any missing record, src/checks/errors.ts).
import { fail, isPlainObject, pass } from '../checks/check.ts';
import { EMPTY_ARRAY_NOT_FOUND, errorBodyIsWellFormed, hasErrorCode, isEmptyArrayNotFound } from '../checks/errors.ts';
import type { ConformanceContext } from '../harness/conformance.ts';
import type { HttpResponse } from '../http/client.ts';

/**
 * The body of a 404 for a missing record; `what` names the request in the messages ("GET /skus/9").
 * `record`: the missing record, whose naming in the messages is judged too ("messages name the
 * missing record", ERR-14: a warning, since how they name it is not shown).
 */
export function judgeNotFoundBody(t: ConformanceContext, response: HttpResponse, what?: string, record?: { id: number; kind: string }): void {
  if (response.status !== 404 || !t.has('normalized-errors')) return; // the error format before 3.1.0 is not shown
  const body = t.json(response, 'GEN-4');
  const at = (message: string) => (what ? `${what}: ${message}` : message);
  if (isEmptyArrayNotFound(response.status, body)) {
    t.warn(fail(at(EMPTY_ARRAY_NOT_FOUND)), 'ERR-16');
    return;
  }
  const wellFormed = errorBodyIsWellFormed(body);
  t.must(wellFormed.ok ? wellFormed : fail(at(wellFormed.message)), 'ERR-2');
  const code = hasErrorCode(body, 'RecordNotFound');
  t.must(code.ok ? code : fail(at(code.message)), 'ERR-14');
  if (!record) return;
  const messages = JSON.stringify(isPlainObject(body) ? (body['errors'] ?? null) : null);
  const named = messages.includes(String(record.id)) || new RegExp(record.kind.slice(0, -1), 'i').test(messages);
  t.warn(named ? pass() : fail(at(`no message names the missing record (${record.kind} ${record.id}): ${messages}`)), 'ERR-14');
}
