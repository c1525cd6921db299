// The names the kit gives what it creates on a deployment (favorite lists, addresses' labels,
// reviews' texts), and how a later run tells a record of a run that is over (issue 19, point 5):
//   cc-<what>-o<over by, base 36 epoch ms>-<random>
// "Over by" is when the run that made it had to be over (its start plus CATALOGUE_DEADLINE_S): a
// record whose time has passed, with an hour to spare, belongs to no run still going, on this
// machine or another, and a sweep may take it; one whose time has not come is another run's, and
// is left alone. Names of earlier kit versions carry their creation time without the "o": they
// are over an hour after it (those runs had a deadline of 30 minutes by default).
export const KIT_PREFIX = 'cc-';

/** A record is another run's until an hour after its over-by time. */
export const SPARE_MS = 3600 * 1000;

/** The deadline of the kit's versions that stamped creation times (CATALOGUE_DEADLINE_S's default then). */
const EARLIER_DEADLINE_MS = 1800 * 1000;

/** The stamp's plausible range: from 2020 to a year from now (a run's deadline is at most a week). */
const EARLIEST = Date.UTC(2020, 0, 1);
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** `cc-<what>-o<overBy>-<random>`, for a record a run made that is its own until `overBy` (epoch ms). */
export function kitName(what: string, overBy: number): string {
  return `${KIT_PREFIX}${what}-o${Math.round(overBy).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The over-by time of a kit name (the first segment after the prefix that reads as one), or null for a name that is not the kit's. */
export function overByOf(name: string, now = Date.now()): number | null {
  if (!name.startsWith(KIT_PREFIX)) return null;
  // A review's text carries its name as its first word.
  const segments = name.slice(KIT_PREFIX.length).split(/\s/)[0]!.split('-');
  const plausible = (text: string): number | null => {
    const stamp = /^[0-9a-z]{8,9}$/.test(text) ? parseInt(text, 36) : NaN;
    return stamp >= EARLIEST && stamp <= now + YEAR_MS ? stamp : null;
  };
  for (const segment of segments) if (segment.startsWith('o') && plausible(segment.slice(1)) !== null) return plausible(segment.slice(1));
  // An earlier version's name: its creation time, the first segment with a digit that reads as one.
  for (const segment of segments) if (/\d/.test(segment) && plausible(segment) !== null) return plausible(segment)! + EARLIER_DEADLINE_MS;
  return null;
}

/** Whether a kit name's run is over (its over-by time and an hour have passed): a sweep may take the record. */
export function runIsOver(name: string, now = Date.now()): boolean {
  const overBy = overByOf(name, now);
  return overBy !== null && now > overBy + SPARE_MS;
}
