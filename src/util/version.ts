// Which API version a run gets, as the spec's Versioning section reads (one rule for the whole kit:
// the schemas' x-since, the suites' version gates).

/**
 * Whether the version a run asks for (Accept: version=major[.minor]) serves what the Change
 * history dates `since` (major.minor.patch). Only a major gives the oldest version of that major,
 * taken as M.0.0 (rule 4); major.minor gives the latest fixes of that series (rule 2), so any
 * patch of it counts; a later minor or major serves everything earlier.
 */
export function versionServes(requested: string, since: string): boolean {
  const [sM = 0, sm = 0, sp = 0] = since.split('.').map(Number);
  const [rM = 0, rm] = requested.split('.').map(Number);
  if (sM !== rM) return sM < rM;
  if (rm === undefined || Number.isNaN(rm)) return sm === 0 && sp === 0;
  return sm <= rm;
}
