// Before the suites: which minor versions the deployment serves, found from its answers
// (src/checks/served-versions.ts says how) unless CATALOGUE_VERSIONS lists them. Each minor of the
// Change history up to the deployment's patch level is asked for the discovered leaf category and
// its SKU listing: between them they carry fields of every minor series (family_id 3.1.2,
// comparable 3.1.1, reviewable 3.2.0, ...). The versioning suite asks the same two answers with
// the same Accept header, so they are kept for it (src/harness/reuse.ts) rather than asked twice.
import { servedMinors, type MinorAnswer } from '../checks/served-versions.ts';
import { isPlainObject } from '../checks/check.ts';
import { objectsAt, seriesOf, type JudgedObjects } from '../checks/versioning.ts';
import type { Discovery } from '../discovery/discovery.ts';
import { HttpError } from '../http/client.ts';
import { pathIn } from '../rules/api-paths.ts';
import { changeHistory } from '../rules/change-history.ts';
import { versionedFieldsOf } from '../schemas/versioned-fields.ts';
import { compareVersions } from '../util/version.ts';
import type { ApiClient } from './api.ts';
import type { RunContext } from './run-context.ts';

/** The suites that judge versions other than the run's own: the probe is asked only for them. */
export const SUITES_JUDGING_VERSIONS: readonly string[] = ['versioning', 'fieldsets'];

export interface FoundVersions {
  /** The minors served (oldest first); the run's own version alone when none could be found. */
  versions: string[];
  /** How they were found, and why each other minor was not: for the run's notes. */
  note: string;
}

/** The minor series of the Change history up to the patch level `upTo`, oldest first (3.0 always). */
export function minorsUpTo(upTo: string): string[] {
  const minors = new Set(['3.0']);
  for (const row of changeHistory()) if (compareVersions(row.version, upTo) <= 0) minors.add(seriesOf(row.version));
  return [...minors].sort(compareVersions);
}

const RESOURCES = [
  { route: 'GET /categories/:id', key: 'category', schema: 'resources/category-detail.json' },
  { route: 'GET /categories/:category_id/skus', key: 'skus', schema: 'resources/sku.json' },
] as const;

async function answersTo(api: ApiClient, accept: string, leaf: number, minor: string): Promise<MinorAnswer> {
  const judged: JudgedObjects[] = [];
  for (const { route, key, schema } of RESOURCES) {
    const path = pathIn(route, [leaf]);
    try {
      const response = await api.get(path, { accept });
      let body: unknown = null;
      try {
        if (response.status === 200) body = response.json();
      } catch {
        // not JSON: said below as an answer without a JSON object
      }
      if (!isPlainObject(body)) return { minor, problem: `GET ${path} answered ${response.status}${response.status === 200 ? ' without a JSON object' : ''}` };
      judged.push({ objects: objectsAt(body, [key], `GET ${path}`), fields: versionedFieldsOf(schema) });
    } catch (error) {
      if (error instanceof HttpError) return { minor, problem: `GET ${path}: ${error.message}` };
      throw error;
    }
  }
  return { minor, judged };
}

/**
 * The minors the deployment serves, from the answers to each (`mediaType; version=<minor>`), at
 * the patch level it implements; `fallback` (the run's own version) when the leaf cannot be found.
 */
export async function findServedVersions(api: ApiClient, discovery: Discovery, options: { mediaType: string; implements: string; fallback: string }): Promise<FoundVersions> {
  const leaf = await discovery.find('leafCategory');
  if ('unavailable' in leaf) return { versions: [options.fallback], note: `versions: only ${options.fallback} judged; the others could not be looked for (${leaf.unavailable})` };
  const minors = minorsUpTo(options.implements);
  const answers: MinorAnswer[] = [];
  for (const minor of minors) answers.push(await answersTo(api, `${options.mediaType}; version=${minor}`, leaf.id, minor));
  const { served, notFound } = servedMinors(answers, options.implements);
  const asked = `the answers to version=${minors.join(', ')} for category ${leaf.id} and its SKU listing`;
  const why = notFound.length ? `; not found: ${notFound.join('; ')}` : '';
  if (!served.length) return { versions: [options.fallback], note: `versions: none found served in ${asked}${why}; only ${options.fallback} judged` };
  return { versions: served, note: `versions: ${served.join(', ')} found served in ${asked}${why} (CATALOGUE_VERSIONS, when set, names them instead)` };
}

/** Why a test of `version` is skipped: it is not among the versions the run found or was told. */
export function notServedReason(run: Pick<RunContext, 'versions' | 'versionsFrom'>, version: string): string {
  return `version ${version} is not among the versions the deployment serves (${run.versionsFrom ?? `CATALOGUE_VERSIONS=${run.versions.join(',')}`})`;
}
