// Which version of the API an answer comes from, and so what it must show: the spec's Versioning
// rules applied to the version asked for (the Accept header's version parameter), the patch level
// the deployment implements (CATALOGUE_IMPLEMENTS; by default the newest of the Change history),
// and, for recorded traffic, the time of the recording (a change dated later cannot be required
// of it). Every version-dependent check asks `serves` or `has`: one rule for the live suites, the
// schemas and the passive judge.
import { compareVersions } from '../util/version.ts';
import { changeHistory, changeRow, featureSince, newestVersion, type Feature } from './change-history.ts';

/** The Versioning rule that chose the version served. */
export type VersionRule = 'VER-7' | 'VER-8' | 'VER-9' | 'VER-10';

export interface VersionScopeInit {
  /** The Accept header's version parameter (major, major.minor or major.minor.patch); null when none was sent. */
  asked: string | null;
  /** The patch level the deployment implements (major.minor.patch); default the newest of the Change history. */
  implements?: string;
  /** When the exchange was recorded (ms since the epoch); null or absent: now, no bound. */
  recordedAt?: number | null;
  /**
   * The oldest minor series the deployment is known to serve (major.minor: the lowest of
   * CATALOGUE_VERSIONS and the version the run asks for). A major alone gets the oldest served
   * version, so nothing of a later series; absent: not known.
   */
  oldest?: string | null;
  /**
   * The minor series the deployment serves (major.minor: CATALOGUE_VERSIONS, else found from its
   * answers before the suites): a minor asked gets the latest of them not after it (rules 5, 2).
   * 'unknown' (recorded traffic, unless told): the patch level's own series is served (rule 3's
   * latest), an earlier minor may be or not (rule 5 answers it with the previous version), so its
   * answer must show only what the oldest series has (3.1 at 3.2.1 may be 3.0.23). Absent: every
   * series up to the patch level, as a version the kit's own checks name.
   */
  servedSeries?: readonly string[] | 'unknown';
}

const seriesOfVersion = (v: string): string => v.split('.').slice(0, 2).join('.');

const series = (v: string): [number, number] => {
  const [major = 0, minor = 0] = v.split('.').map(Number);
  return [major, Number.isNaN(minor) ? 0 : minor];
};

export class VersionScope {
  readonly asked: string | null;
  readonly implements: string;
  readonly recordedAt: number | null;
  /** The version served, major.minor.patch: the newest the rules allow. */
  readonly served: string;
  /** The rule that chose it. */
  readonly rule: VersionRule;
  /**
   * The latest minor series the answer can be (major.minor), so fields of later series must be
   * absent; null when the answer may be the latest, whatever its number (no version asked).
   */
  readonly atMost: string | null;
  /** The minor asked may or may not be served (servedSeries not known): `served` is the least its answer shows. */
  readonly uncertain: boolean = false;

  constructor(init: VersionScopeInit) {
    this.asked = init.asked === null || init.asked.trim() === '' ? null : init.asked.trim();
    this.implements = init.implements ?? newestVersion();
    this.recordedAt = init.recordedAt ?? null;
    const known = [...changeHistory().map((r) => r.version), '3.0.0'].filter((v) => compareVersions(v, this.implements) <= 0);
    const newest = (fits: (v: string) => boolean): string => known.filter(fits).sort(compareVersions).pop() ?? '3.0.0';
    if (this.asked === null) {
      // Rule 3: the latest version, which is the one the deployment implements.
      this.served = this.implements;
      this.rule = 'VER-7';
      this.atMost = null;
    } else if (!this.asked.includes('.')) {
      // Rule 4: the oldest version of that major; which one a deployment serves is not shown, so
      // only what its .0.0 has (nothing of the Change history) counts as served.
      this.served = `${series(this.asked)[0]}.0.0`;
      this.rule = 'VER-8';
      this.atMost = init.oldest ?? null;
    } else {
      // Rules 2 and 5: the patch is ignored; the newest version of the series asked, or failing
      // that the previous one, that the deployment implements.
      const [major, minor] = series(this.asked);
      const notAfter = (v: string): boolean => {
        const [m, n] = series(v);
        return m < major || (m === major && n <= minor);
      };
      const listed = init.servedSeries === 'unknown' ? undefined : init.servedSeries;
      const known = listed?.filter(notAfter).sort(compareVersions).pop();
      const ownSeries = `${series(this.implements)[0]}.${series(this.implements)[1]}`;
      // Known served: the latest of them not after the minor asked; none (a minor below every
      // served series, VER-10.c): open, nothing of the Change history required. Not known: the
      // patch level's own series is served (rule 3's latest); an earlier minor may not be.
      const chosen = listed ? known : init.servedSeries !== 'unknown' || notAfter(ownSeries) ? this.asked : `${major}.0`;
      this.served = chosen === undefined ? `${major}.0.0` : newest((v) => notAfter(v) && compareVersions(seriesOfVersion(v), chosen) <= 0);
      const [m, n] = series(this.served);
      this.rule = m === major && n === minor ? 'VER-9' : 'VER-10';
      // Not known whether the minor asked is served: the answer may be of it, not later.
      this.uncertain = init.servedSeries === 'unknown' && !notAfter(ownSeries);
      this.atMost = chosen === undefined ? null : this.uncertain ? `${major}.${minor}` : seriesOfVersion(this.served);
    }
  }

  /** Whether the answer must show what the Change history dates `since` (major.minor.patch). */
  serves(since: string): boolean {
    if (compareVersions(since, this.served) > 0) return false;
    if (this.recordedAt === null) return true;
    const row = changeRow(since);
    return !row || Date.parse(`${row.date}T00:00:00Z`) <= this.recordedAt;
  }

  /**
   * Whether a field the Change history dates `since` must be in the answer: present when the
   * version served has it and the schema requires it; absent when it came with a later minor
   * series than the answer can be; either otherwise.
   */
  presence(since: string, required: boolean): 'present' | 'absent' | 'either' {
    if (this.atMost !== null) {
      const [sm, sn] = series(since);
      const [am, an] = series(this.atMost);
      if (sm > am || (sm === am && sn > an)) return 'absent';
    }
    return required && this.serves(since) ? 'present' : 'either';
  }

  /** Whether the answer must show a behaviour or endpoint of the Change history. */
  has(feature: Feature): boolean {
    return this.serves(featureSince(feature));
  }

  /** "version=3.2 (3.1.1 served: the deployment implements 3.1.1)", for skip reasons and messages. */
  describe(): string {
    const asked = this.asked === null ? 'no version asked' : `version=${this.asked}`;
    if (this.uncertain) return `${asked}, ${this.served} or later served (whether the deployment serves ${this.atMost} is not known)`;
    // The patch level is worth naming when it is not the newest (CATALOGUE_IMPLEMENTS was set).
    const bound = this.implements === newestVersion() ? '' : `; the deployment implements ${this.implements}`;
    return `${asked}, ${this.served} served${bound}${this.recordedAt === null ? '' : `, recorded ${new Date(this.recordedAt).toISOString().slice(0, 10)}`}`;
  }

  /** Why a feature is not judged: "X came with 3.1.3 (Change history); version=3.2, 3.1.1 served; ...". */
  missing(feature: Feature, what: string): string {
    const since = featureSince(feature);
    const row = changeRow(since);
    if (compareVersions(since, this.served) > 0) return `${what} came with ${since} (Change history); ${this.describe()}`;
    return `${what} came with ${since}, dated ${row?.date ?? '?'} (Change history): after the recording (${this.describe()})`;
  }

  /** The rule to cite when the answer is not of the version served: VER-5 when a patch was sent (ignored), else the rule that chose it. */
  citedRule(): VersionRule | 'VER-5' {
    return this.asked !== null && this.asked.split('.').length > 2 ? 'VER-5' : this.rule;
  }

  /** A key for caches: equal keys judge every since alike. */
  get key(): string {
    const dated =
      this.recordedAt === null
        ? ''
        : changeHistory()
            .filter((r) => !this.serves(r.version))
            .map((r) => r.version)
            .join(',');
    return `${this.served}|${this.atMost ?? ''}|${dated}`;
  }
}
