// Response shaping shared by every endpoint (spec "General conventions" 1, 2, 5, 6, 7):
// the singular / plural envelope, pagination, linked resources (embed, embed_ids, include) and
// sparse fieldsets (fields[<target>], fields_except[<target>]).
//
// Choices where the spec is silent (listed in docs/reference-choices.md):
// - embed=<name> sets <name> to the full object (null when the record has none);
//   embed_ids=<name> sets <name>_ids to an array of ids ([] when none);
//   include=<name> sets <name>_id on each parent (null when none) and a top-level array under
//   the plural key with each linked object once, in order of first appearance. include is
//   accepted on single resources too.
// - Several names may be given comma-separated or by repeating the parameter. A name that the
//   endpoint does not link gives 400 InvalidParameter.
// - The keys that embed/embed_ids/include add are governed by those parameters, not by
//   fields[root] / fields_except[root]: a root fieldset never removes them.
// - fields[<name>] / fields_except[<name>] apply to the embedded objects and to the entries of
//   the top-level included array. A fieldset naming a target that is neither root nor a linked
//   name of the request is ignored, as are unknown field names.
// - Sparse fieldsets arrived in 3.1.1: a 3.0 request gets complete objects.
//
// Legal variants (variants.ts): include-keyed-by-name (the top-level array under the name as
// written; group keeps groups), unknown-link-name-ignored (an unknown linked name is ignored, not
// 400), include-single-ignored (include on a single resource is ignored),
// fieldsets-in-every-version (fieldsets honoured in 3.0 too), extra-fields (undocumented keys
// on every resource and linked object, added before the fieldsets so that these trim them),
// embed-ids-keyed-by-name (the id array under <name>), root-fieldset-governs-links (fields[root]
// and fields_except[root] govern the keys the links add).

import { ApiError, withExtraFields, type ApiResult, type HeaderMap } from './http.ts';
import { paginate } from './pagination.ts';
import type { FaultName } from './faults.ts';
import type { ApiContext } from './router.ts';
import { versionAtLeast } from './versioning.ts';

type Json = Record<string, unknown>;

/** A linked resource an endpoint offers (spec "Known linked names"). */
export interface Link<T> {
  /** The name used in embed / embed_ids / include / fields[...]: 'address'. */
  name: string;
  /** Key of the top-level array that include adds: 'addresses'. */
  plural: string;
  /** Id of the record linked from `item`, or null when it has none. */
  idOf(item: T): number | null;
  /** The linked record, serialized for this request, or null when it has none. */
  objectOf(item: T): Json | null;
  /** Linked records include lists even when no parent links them (variant spec-groups-all-of-category). */
  alsoIncluded?: () => readonly { id: number; object: Json }[];
}

export interface ShapeOptions<T> {
  /** Linked names this endpoint offers. */
  links?: readonly Link<T>[];
  /** Meta of the response; for paginated collections pagination is added to it. */
  meta?: Json;
  /** Collections only; default true. false: every item, and no meta.pagination. */
  paginate?: boolean;
  /** Default 200. */
  status?: number;
  headers?: HeaderMap;
}

type LinkMode = 'embed' | 'embed_ids' | 'include';
const LINK_MODES: readonly LinkMode[] = ['embed', 'embed_ids', 'include'];

interface LinkRequest<T> {
  link: Link<T>;
  mode: LinkMode;
}

function listParam(query: URLSearchParams, name: string): string[] {
  const values = [...query.getAll(name), ...query.getAll(`${name}[]`)];
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/**
 * The links this request asks for; 400 InvalidParameter for a name the endpoint lacks (variant
 * unknown-link-name-ignored: left out). `single`: the answer is one resource, where variant
 * include-single-ignored leaves include out. The answers to other methods than GET are single
 * resources (or empty), so routes that check the names before they change anything need not say.
 */
export function requestedLinks<T>(ctx: ApiContext, links: readonly Link<T>[], single = false): LinkRequest<T>[] {
  const out: LinkRequest<T>[] = [];
  const oneResource = single || (ctx.method !== 'GET' && ctx.method !== 'HEAD');
  const modes = oneResource && ctx.variants.has('include-single-ignored') ? LINK_MODES.filter((m) => m !== 'include') : LINK_MODES;
  for (const mode of modes) {
    for (const name of listParam(ctx.query, mode)) {
      const link = links.find((l) => l.name === name);
      if (!link && ctx.variants.has('unknown-link-name-ignored')) continue;
      if (!link) {
        const known = links.map((l) => l.name);
        throw new ApiError(400, 'InvalidParameter', [
          known.length === 0 ? `${mode}=${name}: this endpoint has no linked resources` : `${mode}=${name}: unknown linked resource; this endpoint links ${known.join(', ')}`,
        ]);
      }
      if (!out.some((r) => r.link.name === name && r.mode === mode)) out.push({ link, mode });
    }
  }
  return out;
}

interface Fieldset {
  only: string[] | null;
  except: string[];
}

/**
 * fields[<target>] / fields_except[<target>] of the request, for one target (also spelled
 * fields[<target>][]=a&fields[<target>][]=b). A fields[...] parameter that is present but
 * empty keeps no field of the target.
 */
export function fieldsetFor(ctx: ApiContext, target: string): Fieldset {
  const name = `fields[${target}]`;
  const only = ctx.query.has(name) || ctx.query.has(`${name}[]`) ? listParam(ctx.query, name) : null;
  return { only, except: listParam(ctx.query, `fields_except[${target}]`) };
}

/**
 * Applies a fieldset to one object: the inclusion first, then the exclusion (General
 * conventions 7). Keys in `protectedKeys` are left alone.
 */
export function applyFieldset(obj: Json, set: Fieldset, protectedKeys: ReadonlySet<string> = new Set(), fault: FaultName | null = null): Json {
  if (fault === 'fields-except-applied-before-fields') {
    // The bug: the exclusion runs first, then the inclusion picks its fields from the complete
    // object instead of the excluded one, so a field named in both stays.
    const excluded = pick(obj, (k) => protectedKeys.has(k) || !set.except.includes(k));
    if (set.only === null) return excluded;
    const only = set.only;
    return pick(obj, (k) => protectedKeys.has(k) || only.includes(k));
  }
  return pick(obj, (k) => protectedKeys.has(k) || ((set.only === null || set.only.includes(k)) && !set.except.includes(k)));
}

/** The entries of `obj` whose key passes `keep`, in their order. */
function pick(obj: Json, keep: (key: string) => boolean): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) if (keep(k)) out[k] = v;
  return out;
}

/** Sparse fieldsets arrived in 3.1.1 (Change history); variant fieldsets-in-every-version: in 3.0 too. */
export function fieldsetsApply(ctx: Pick<ApiContext, 'version' | 'fault' | 'variants'>): boolean {
  // The bug: the 3.1 series is left out of the versions that apply fieldsets, so its requests get complete objects.
  if (ctx.fault === 'fieldsets-ignored-in-3-1' && ctx.version.major === 3 && ctx.version.minor === 1) return false;
  return ctx.variants.has('fieldsets-in-every-version') || versionAtLeast(ctx.version, '3.1.1');
}

/** Key of the top-level array of include=<name>: the plural, or (variant include-keyed-by-name) the name, except group's groups. */
function includedKey<T>(ctx: ApiContext, link: Link<T>): string {
  return ctx.variants.has('include-keyed-by-name') && link.name !== 'group' ? link.name : link.plural;
}

/** Serializes root items, adds the requested links, applies the fieldsets. */
function shapeItems<T>(ctx: ApiContext, items: readonly T[], serialize: (item: T) => Json, links: readonly Link<T>[], single: boolean): { roots: Json[]; top: Json } {
  const requests = requestedLinks(ctx, links, single);
  // The fault's bug: the forms are serialized whole.
  const useFieldsets = fieldsetsApply(ctx) && !(ctx.fault === 'fieldsets-ignored-on-forms' && /\/(reviews|addresses)\/new$/.test(ctx.path));
  // The fault's bug: the search endpoints read fields[...] only.
  const exceptIgnored = ctx.fault === 'fields-except-ignored-on-search' && /(^|\/)(search|autocomplete)$/.test(ctx.path);
  const fieldsetOf = (target: string): Fieldset => (exceptIgnored ? { ...fieldsetFor(ctx, target), except: [] } : fieldsetFor(ctx, target));
  const rootSet = fieldsetOf('root');
  // The fault's bug: fieldsets are read for the root target only.
  const linkSets = new Map(requests.map((r) => [r.link.name, ctx.fault === 'association-fieldset-ignored' ? { only: null, except: [] } : fieldsetOf(r.link.name)]));
  // The fault's bug: the root fieldset is applied to the embedded object as well.
  const setFor = (name: string): Fieldset => (ctx.fault === 'embedded-trimmed-by-root-fieldset' ? rootSet : linkSets.get(name)!);
  // The variant's deployment adds its undocumented keys when it serializes, so the fieldsets see them.
  const withExtra = (obj: Json): Json => (ctx.variants.has('extra-fields') ? withExtraFields(obj) : obj);
  const shapeLinked = (name: string, obj: Json | null): Json | null =>
    obj === null ? obj : !useFieldsets ? withExtra(obj) : applyFieldset(withExtra(obj), setFor(name), undefined, ctx.fault);

  const included = new Map<string, Map<number, Json>>();
  const roots = items.map((item) => {
    const base = withExtra(serialize(item));
    const added: Json = {};
    for (const { link, mode } of requests) {
      if (mode === 'embed') added[link.name] = shapeLinked(link.name, link.objectOf(item));
      else if (mode === 'embed_ids') {
        const id = link.idOf(item);
        // Variant embed-ids-keyed-by-name: the array under the linked name itself.
        const key = ctx.variants.has('embed-ids-keyed-by-name') ? link.name : `${link.name}_ids`;
        if (ctx.fault === 'embed-ids-not-array') added[key] = id;
        else added[key] = id === null ? [] : [id];
      } else {
        const id = link.idOf(item);
        added[`${link.name}_id`] = id;
        const bucket = included.get(link.name) ?? new Map<number, Json>();
        included.set(link.name, bucket);
        // The fault's bug: the top-level array is filled while shaping the first parent only.
        const collecting = ctx.fault !== 'included-array-misses-linked-objects' || item === items[0];
        if (id !== null && !bucket.has(id) && collecting) {
          const obj = shapeLinked(link.name, link.objectOf(item));
          if (obj !== null) bucket.set(id, obj);
        }
      }
    }
    // Variant root-fieldset-governs-links: the keys the links add are root fields like any other.
    if (ctx.variants.has('root-fieldset-governs-links')) return useFieldsets ? applyFieldset({ ...base, ...added }, rootSet, undefined, ctx.fault) : { ...base, ...added };
    const shaped = useFieldsets ? applyFieldset(base, rootSet, undefined, ctx.fault) : base;
    return { ...shaped, ...added };
  });
  const top: Json = {};
  for (const { link, mode } of requests) {
    if (mode !== 'include') continue;
    const bucket = included.get(link.name) ?? new Map<number, Json>();
    for (const { id, object } of link.alsoIncluded?.() ?? []) if (!bucket.has(id)) bucket.set(id, shapeLinked(link.name, object)!);
    top[includedKey(ctx, link)] = [...bucket.values()];
  }
  return { roots, top };
}

/** `{ <key>: object, ...included, meta? }` for one resource. */
export function respondOne<T>(ctx: ApiContext, key: string, item: T, serialize: (item: T) => Json, opts: ShapeOptions<T> = {}): ApiResult {
  const { roots, top } = shapeItems(ctx, [item], serialize, opts.links ?? [], true);
  const body: Json = { [key]: roots[0], ...top };
  if (opts.meta !== undefined) body['meta'] = opts.meta;
  return { status: opts.status ?? 200, body, ...(opts.headers ? { headers: opts.headers } : {}) };
}

/**
 * `{ <key>: [objects], ...included, meta: { ...meta, pagination } }` for a collection: the page
 * the request selects (page / per, Link header), unless `paginate` is false.
 */
export function respondMany<T>(ctx: ApiContext, key: string, all: readonly T[], serialize: (item: T) => Json, opts: ShapeOptions<T> = {}): ApiResult {
  const paginated = opts.paginate ?? true;
  const page = paginated ? paginate(ctx, all) : null;
  const { roots, top } = shapeItems(ctx, page ? page.items : all, serialize, opts.links ?? [], false);
  const body: Json = { [key]: roots, ...top };
  if (page) body['meta'] = { ...(opts.meta ?? {}), pagination: page.pagination };
  else if (opts.meta !== undefined) body['meta'] = opts.meta;
  const headers = { ...(page?.headers ?? {}), ...(opts.headers ?? {}) };
  return { status: opts.status ?? 200, body, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
}
