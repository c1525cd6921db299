// Which minor versions a deployment serves, found from its own answers (issue 38, point 7), so that
// the rules about older minors and a major alone are judged without the certifier having to list
// them. From outside, the version served shows only in the fields an answer carries (the spec names
// no header for it), and a minor the deployment does not serve is answered with the previous version
// (Versioning 5). So each minor of the Change history is asked for the same resources, and:
//
// - SERVED.a the oldest minor asked is found served when its answer shows no later series whole. A
//   retired oldest minor has no previous version to fall back to (rule 5 is silent): a deployment
//   may answer it with the next one, which then shows that series whole.
// - SERVED.b a later minor is found served when its answer shows its own series whole (every field
//   the series added, up to the deployment's patch level, on every object), or shows some of it
//   where the answer to the minor before showed none: a minor not served would have been answered
//   as that one (rule 5), so the difference is the minor's own answer, fields missing or not.
// - SERVED.c an answer that also shows a later series whole is of a later version. That is open for
//   a minor with no served minor before it (nothing to fall back to, as in SERVED.a); after one, it
//   breaks rule 5 whether the minor is served (its own version) or not (the previous), so the minor
//   counts as served and its tests judge the answer.
// - SERVED.d a minor answered like the one before, with nothing of its own series, is not found:
//   either it is not served (rule 5) or it adds nothing the probed resources show. Neither can be
//   told from outside, so it is not judged, and the run says so.
// - SERVED.e a minor whose answer could not be had (a status other than 200, no object to read) is
//   not found, with that reason.
import { isPlainObject } from './check.ts';
import { seriesOf, type JudgedObjects, type VersionedField } from './versioning.ts';
import { compareVersions } from '../util/version.ts';

/** The answers to one minor (version=3.1): the resources judged, or why they could not be had. */
export type MinorAnswer = { minor: string; judged: readonly JudgedObjects[] } | { minor: string; problem: string };

export interface ServedMinors {
  /** The minors found served, oldest first. */
  served: string[];
  /** Why each minor asked and not found was not (SERVED.d, SERVED.e), one line each. */
  notFound: string[];
}

function present(object: unknown, path: readonly string[]): boolean {
  let current: unknown = object;
  for (const key of path) {
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return false;
    current = current[key];
  }
  return true;
}

const laterSeries = (a: string, b: string): boolean => compareVersions(`${a}.0`, `${b}.0`) > 0;

/** The required fields of a series, up to the patch level, of each resource judged. */
function fieldsOf(objects: JudgedObjects, series: string, upTo: string): VersionedField[] {
  return objects.fields.filter((f) => f.required && seriesOf(f.since) === series && compareVersions(f.since, upTo) <= 0);
}

/** Every field the series added, up to the patch level, on every object (and at least one such field). */
export function showsWhole(judged: readonly JudgedObjects[], series: string, upTo: string): boolean {
  let count = 0;
  for (const resource of judged) {
    const fields = fieldsOf(resource, series, upTo);
    const objects = resource.objects.filter((o) => isPlainObject(o.value));
    if (!objects.length) continue;
    for (const field of fields) {
      if (!objects.every((o) => present(o.value, field.path))) return false;
      count++;
    }
  }
  return count > 0;
}

/** Some field the series added on some object. */
export function showsSome(judged: readonly JudgedObjects[], series: string): boolean {
  return judged.some((r) => r.fields.some((f) => seriesOf(f.since) === series && r.objects.some((o) => present(o.value, f.path))));
}

/**
 * The minors served, from the answers to each minor of the Change history (oldest first) for the
 * same resources, at the deployment's patch level `upTo` (SERVED.a to SERVED.e).
 */
export function servedMinors(answers: readonly MinorAnswer[], upTo: string): ServedMinors {
  const served: string[] = [];
  const notFound: string[] = [];
  const minors = answers.map((a) => a.minor);
  answers.forEach((answer, i) => {
    if ('problem' in answer) {
      notFound.push(`version=${answer.minor}: ${answer.problem}`);
      return;
    }
    const later = minors.filter((m) => laterSeries(m, answer.minor)).find((m) => showsWhole(answer.judged, m, upTo));
    const before = answers[i - 1];
    if (!before) {
      if (later) notFound.push(`version=${answer.minor}: its answer shows every field of ${later} (rule 5 names no version to fall back to for the oldest)`);
      else served.push(answer.minor);
      return;
    }
    const own = showsWhole(answer.judged, answer.minor, upTo) || (showsSome(answer.judged, answer.minor) && 'judged' in before && !showsSome(before.judged, answer.minor));
    if (!own) notFound.push(`version=${answer.minor}: answered as version=${before.minor}, with no field ${answer.minor} added (not served, rule 5, or nothing of it shows here)`);
    else if (later && served.length === 0) notFound.push(`version=${answer.minor}: its answer shows every field of ${later}, and no earlier minor is served to fall back to`);
    else served.push(answer.minor);
  });
  return { served, notFound };
}
