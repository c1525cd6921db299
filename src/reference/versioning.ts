// API version negotiation (spec "Versioning") and the field -> since-version table.
//
// Requests choose a version with `Accept: application/vnd.service+json; version=<major[.minor]>`.
// The reference serves three minor series of major 3; a request for a minor series gets the
// latest patch of that series (rule 2).
//
// Legal variants (variants.ts) of these choices:
// - implements-3.2.0 / implements-3.1.1 / implements-3.0.22: the server implements the Change
//   history up to that patch level only (served 3.0.23, 3.1.3, 3.2.0 / 3.0.23, 3.1.1 / 3.0.22);
//   fields, endpoints and behaviour follow the served label, so a 3.2.0 server lacks exactly the
//   3.2.1 changes, and a 3.0.22 one has no minor versions and none of 3.0.23's changes.
// - series-3-0-retired: the 3.0 series is no longer served; version=3 gets 3.1 (the oldest served),
//   and so does version=3.0 (no earlier version to fall back to).
// - series-3-1-skipped: the 3.1 series is not served; version=3.1 gets 3.0 (the previous one served).
// - vendor-media-type: the version is negotiated on application/vnd.acme+json instead.
// - unknown-version-latest: an unparsable version or another major gets the latest (no 406).

import type { FaultName } from './faults.ts';
import { NO_VARIANTS, type Variants } from './variants.ts';

export interface ApiVersion {
  readonly major: number;
  readonly minor: number;
  /** Latest patch of the served minor series (patches are never chosen by the client). */
  readonly patch: number;
  /** "major.minor.patch", e.g. "3.1.3". */
  readonly label: string;
}

function version(major: number, minor: number, patch: number): ApiVersion {
  return Object.freeze({ major, minor, patch, label: `${major}.${minor}.${patch}` });
}

/** Served versions, oldest first: each minor series at its latest patch (from the Change history). */
export const SERVED_VERSIONS: readonly ApiVersion[] = Object.freeze([version(3, 0, 23), version(3, 1, 3), version(3, 2, 1)]);

export const SUPPORTED_MAJOR = 3;
export const OLDEST_VERSION: ApiVersion = SERVED_VERSIONS[0]!;
export const LATEST_VERSION: ApiVersion = SERVED_VERSIONS[SERVED_VERSIONS.length - 1]!;

/** A deployment at patch level 3.2.0: the 3.2 series without the changes of 3.2.1. */
const SERVED_UP_TO_3_2_0: readonly ApiVersion[] = Object.freeze([version(3, 0, 23), version(3, 1, 3), version(3, 2, 0)]);
/** A deployment at patch level 3.1.1: nothing of 3.1.2 and later, so no 3.2 series at all. */
const SERVED_UP_TO_3_1_1: readonly ApiVersion[] = Object.freeze([version(3, 0, 23), version(3, 1, 1)]);

/** A deployment at patch level 3.0.22: the 3.0 series one patch short, before minor versions existed (3.1.0). */
const SERVED_UP_TO_3_0_22: readonly ApiVersion[] = Object.freeze([version(3, 0, 22)]);

/** A deployment at the base of 3.0: none of the Change history. */
const SERVED_BASE_3_0_0: readonly ApiVersion[] = Object.freeze([version(3, 0, 0)]);

/** The versions a server with `variants` serves, oldest first. */
export function servedVersions(variants: Variants = NO_VARIANTS): readonly ApiVersion[] {
  if (variants.has('implements-3.0.22')) return SERVED_UP_TO_3_0_22;
  if (variants.has('implements-3.0.0')) return SERVED_BASE_3_0_0;
  const upTo = variants.has('implements-3.2.0') ? SERVED_UP_TO_3_2_0 : variants.has('implements-3.1.1') ? SERVED_UP_TO_3_1_1 : SERVED_VERSIONS;
  // Variant series-3-0-retired: the 3.0 series is no longer served; series-3-1-skipped: 3.1 is not.
  if (variants.has('series-3-1-skipped')) return upTo.filter((v) => v.minor !== 1);
  return variants.has('series-3-0-retired') ? upTo.filter((v) => v.minor > 0) : upTo;
}

/** The latest version a server with `variants` serves. */
export function latestVersion(variants: Variants = NO_VARIANTS): ApiVersion {
  const served = servedVersions(variants);
  return served[served.length - 1]!;
}

/** The vendor media type carrying the version parameter. */
export const VENDOR_MEDIA_TYPE = 'application/vnd.service+json';
/** The vendor media type of a deployment that uses its own name in it (variant vendor-media-type). */
export const ACME_MEDIA_TYPE = 'application/vnd.acme+json';

/** The vendor media type a server with `variants` negotiates on (and, for ACME, answers with). */
export function vendorMediaType(variants: Variants = NO_VARIANTS): string {
  return variants.has('vendor-media-type') ? ACME_MEDIA_TYPE : VENDOR_MEDIA_TYPE;
}

export type Negotiation = { ok: true; version: ApiVersion } | { ok: false; message: string };

/**
 * Chooses the served version for an Accept header (rules 1-5 of the spec's Versioning):
 *
 * | requested              | served |
 * |------------------------|--------|
 * | none                   | 3.2.1 (latest, rule 3) |
 * | 3                      | 3.0.23 (oldest, rule 4) |
 * | 3.0 / 3.1 / 3.2        | 3.0.23 / 3.1.3 / 3.2.1 (rule 5, latest fixes: rule 2) |
 * | 3.3, 3.4, 3.99         | 3.2.1 (no match: the previous version, rule 5) |
 * | 3.N.P                  | as 3.N (the patch is ignored, rule 2) |
 *
 * - "Unspecified" is: no Accept header, no `application/vnd.service+json` media range in it
 *   (for example `application/json` or `*\/*`), or that media range without a version parameter.
 *   The first vendor media range of the header decides; its q-value is not consulted.
 * - Choice where the spec is silent: a major other than 3, or a version that does not parse as
 *   `major[.minor[.patch]]` with decimal digits, gives 406 Not Acceptable with the errors body
 *   (there is no version to fall back to that the client could have meant).
 * - No response header names the served version (the spec defines none): the fields show it.
 */
export function negotiateVersion(accept: string | undefined, fault: FaultName | null = null, variants: Variants = NO_VARIANTS): Negotiation {
  const latest = latestVersion(variants);
  const mediaType = vendorMediaType(variants);
  // Variant vendor-type-required: only the vendor type without version is "unspecified"; without it at all, 406.
  const unspecified: Negotiation = variants.has('vendor-type-required')
    ? { ok: false, message: `Accept must name ${mediaType} (with version=<major[.minor]>, or without to get the latest)` }
    : { ok: true, version: latest };
  if (accept === undefined || accept.trim() === '') return unspecified;
  for (const range of accept.split(',')) {
    const [typePart, ...paramParts] = range.split(';');
    if ((typePart ?? '').trim().toLowerCase() !== mediaType) continue;
    let requested: string | undefined;
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      if (p.slice(0, eq).trim().toLowerCase() !== 'version') continue;
      requested = p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
    }
    if (requested === undefined) return { ok: true, version: fault === 'version-unspecified-gives-oldest' ? servedVersions(variants)[0]! : latest };
    return resolveRequestedVersion(requested, fault, variants);
  }
  return unspecified;
}

export function resolveRequestedVersion(requested: string, fault: FaultName | null = null, variants: Variants = NO_VARIANTS): Negotiation {
  const served = servedVersions(variants);
  const latest = latestVersion(variants);
  // The bug: the version parameter is read, then never used.
  if (fault === 'version-param-ignored') return { ok: true, version: latest };
  const m = /^(\d{1,6})(?:\.(\d{1,6})(?:\.(\d{1,6}))?)?$/.exec(requested);
  // The variant's server answers what it cannot parse, or another major, as if no version was asked for.
  if ((!m || Number(m[1]) !== SUPPORTED_MAJOR) && variants.has('unknown-version-latest')) return { ok: true, version: latest };
  if (!m) return { ok: false, message: `Unparsable API version "${requested.slice(0, 64)}"; use version=<major[.minor]>` };
  const major = Number(m[1]);
  if (major !== SUPPORTED_MAJOR) {
    return { ok: false, message: `API version ${requested} is not served; the major version must be ${SUPPORTED_MAJOR}` };
  }
  if (m[2] === undefined) return { ok: true, version: fault === 'version-major-only-gives-latest' ? latest : served[0]! };
  const minor = Number(m[2]);
  if (fault === 'version-patch-not-ignored' && m[3] !== undefined) {
    // The bug: the whole major.minor.patch is compared with the served versions.
    let byPatch: ApiVersion | undefined;
    for (const v of served) if (compareVersions(v.label, `${major}.${minor}.${m[3]}`) <= 0) byPatch = v;
    return { ok: true, version: byPatch ?? served[0]! };
  }
  let chosen: ApiVersion | undefined;
  for (const v of served) if (v.minor <= minor) chosen = v;
  if (fault === 'unknown-minor-gives-oldest' && chosen?.minor !== minor) chosen = served[0];
  // Every served list starts at minor 0, so chosen is always set.
  return { ok: true, version: chosen ?? served[0]! };
}

/** Compares "a.b.c" version strings numerically. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export interface FieldVersioning {
  /** First version that has the field. */
  since: string;
  /** First version that no longer has the field (optional). */
  removedIn?: string;
}

/**
 * Resource -> field -> versions, from the spec's Change history. Fields not listed exist in
 * every served version. Only fields whose presence differs between served versions (3.0.23,
 * 3.1.3, 3.2.1, and 3.1.1 / 3.2.0 of the implements-* variants) matter; earlier entries are kept
 * for the record. Other resources add their
 * own entries here (e.g. sku: { reviewable: { since: '3.2.0' } }).
 */
export const FIELD_VERSIONS: Readonly<Record<string, Readonly<Record<string, FieldVersioning>>>> = {
  category: {
    path: { since: '3.0.7' },
    layout_mode: { since: '3.0.18' },
    show_in_tiles: { since: '3.0.0', removedIn: '3.0.18' },
    family_id: { since: '3.1.2' },
    reviewable: { since: '3.2.0' },
    adult: { since: '3.2.0' },
    // The Change history spells it "onclick_behavior"; the Category table's name is used.
    onclick_behaviour: { since: '3.2.0' },
    show_spec_summary: { since: '3.2.0' },
    unit_price_label: { since: '3.2.0' },
  },
  sku: {
    favorited: { since: '3.1.0' },
    comparable: { since: '3.1.1' },
    reviewable: { since: '3.2.0' },
    name_source: { since: '3.2.0' },
    unit_price: { since: '3.2.0' },
    description: { since: '3.2.1' },
    sizes: { since: '3.2.1' },
  },
  product: {
    shop_uid: { since: '3.0.1' },
    expenses: { since: '3.0.14' },
    sizes: { since: '3.0.23' },
    immediate_pickup: { since: '3.1.0' },
    blp: { since: '3.2.0' },
  },
  shop: {
    shipping: { since: '3.0.13' },
    latest_reviews_count: { since: '3.0.20' },
    extra_info: { since: '3.0.23' },
    top_positive_reasons: { since: '3.0.23' },
  },
  shop_review: {
    negative: { since: '3.0.23' },
    reasons: { since: '3.0.23' },
  },
  location: {
    format: { since: '3.0.16' },
  },
  filter_group: {
    filter_type: { since: '3.0.6' },
  },
  sku_review: {
    votes_count: { since: '3.0.19' },
    helpful_votes_count: { since: '3.0.17' },
    voted: { since: '3.0.17' },
    flagged: { since: '3.0.21' },
    helpful: { since: '3.0.22' },
    sentiments: { since: '3.1.3' },
    own_review: { since: '3.1.3' },
  },
  specification: {
    order: { since: '3.0.23' },
  },
  user: {
    name: { since: '3.0.0', removedIn: '3.0.23' },
    type: { since: '3.0.23' },
    created_at: { since: '3.2.0' },
    email: { since: '3.2.0' },
    birthyear: { since: '3.2.0' },
    mobile: { since: '3.2.0' },
    stats: { since: '3.2.0' },
    email_notifications: { since: '3.2.0' },
    is_staff: { since: '3.2.1' },
  },
  autocomplete: {
    i: { since: '3.0.23' },
  },
  notification: {
    user_notified: { since: '3.0.0', removedIn: '3.0.9' },
    user_id: { since: '3.0.0', removedIn: '3.0.9' },
    subscription_id: { since: '3.0.0', removedIn: '3.0.9' },
    mail_event: { since: '3.0.0', removedIn: '3.0.9' },
    sku: { since: '3.0.10' },
    category_name: { since: '3.0.10' },
    user: { since: '3.0.10' },
    eventable_name: { since: '3.0.9' },
    eventable_url: { since: '3.0.9' },
    event_text: { since: '3.0.9' },
    review_rating: { since: '3.0.12' },
  },
};

/** True when `v` has every feature introduced in `since` (a "major.minor.patch" string). */
export function versionAtLeast(v: ApiVersion, since: string): boolean {
  return compareVersions(v.label, since) >= 0;
}

export function fieldInVersion(resource: string, field: string, v: ApiVersion, fault: FaultName | null = null): boolean {
  const entry = FIELD_VERSIONS[resource]?.[field];
  if (!entry) return true;
  const since = fault === 'family-id-missing-in-3-1' && resource === 'category' && field === 'family_id' ? '3.2.0' : entry.since;
  if (compareVersions(v.label, since) < 0) return false;
  if (entry.removedIn !== undefined && compareVersions(v.label, entry.removedIn) >= 0) return false;
  return true;
}

/** Removes from `obj` (in place) the fields of `resource` that the version does not have. */
export function applyVersion<T extends Record<string, unknown>>(resource: string, obj: T, v: ApiVersion, fault: FaultName | null = null): T {
  const table = FIELD_VERSIONS[resource];
  if (!table) return obj;
  for (const field of Object.keys(table)) {
    if (field in obj && !fieldInVersion(resource, field, v, fault)) delete obj[field];
  }
  return obj;
}
