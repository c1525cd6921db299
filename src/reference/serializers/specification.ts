// Serializer of Specification (spec "Resources > Specification") and its group, for the category
// specifications (definitions: no values) and the SKU specifications (the SKU's values).
//
// Legal variants (variants/catalog-readings.ts): category-spec-values-null (a definition's values
// null, not []), spec-unit-null (unit null, not ""), spec-group-id-always (group_id on every
// specification, include=group or not), specification-without-group (some specifications belong
// to no group: group_id null, embed=group null), spec-groups-all-of-category (include=group lists
// every group, used by the answer's specifications or not: groups are shared by all categories).

import type { SpecificationRecord } from '../model.ts';
import type { ApiContext } from '../router.ts';
import type { Link } from '../shape.ts';
import { applyVersion } from '../versioning.ts';

type Json = Record<string, unknown>;

/** What the serializer reads from the request. */
export type SpecificationContext = Pick<ApiContext, 'data' | 'version' | 'variants'>;

/** Variant specification-without-group: every fourth specification (by id) stands outside any group. */
const UNGROUPED_EVERY = 4;

/** The specification's group id, or null when it has none. */
export function specGroupId(ctx: SpecificationContext, s: SpecificationRecord): number | null {
  if (ctx.variants.has('specification-without-group') && s.id % UNGROUPED_EVERY === 0) return null;
  return ctx.data.specGroups.has(s.groupId) ? s.groupId : null;
}

/**
 * `values` null stands for a category specification's values (definitions: none), [] under the
 * reference. unit "" ("may be empty") under the reference.
 */
export function serializeSpecification(ctx: SpecificationContext, s: SpecificationRecord, values: readonly string[] | null): Json {
  const shownValues = values === null ? (ctx.variants.has('category-spec-values-null') ? null : []) : [...values];
  const unit = s.unit === '' && ctx.variants.has('spec-unit-null') ? null : s.unit;
  const out: Json = { id: s.id, name: s.name, values: shownValues, order: s.order, unit };
  if (ctx.variants.has('spec-group-id-always')) out['group_id'] = specGroupId(ctx, s);
  return applyVersion('specification', out, ctx.version);
}

function groupJson(ctx: SpecificationContext, id: number): Json | null {
  const g = ctx.data.specGroups.get(id);
  return g ? { id: g.id, name: g.name, order: g.order } : null;
}

/**
 * Every group a specification of the category may be placed in, by group order: the groups are
 * shared by all categories, so these are all of them.
 */
function categoryGroups(ctx: SpecificationContext): { id: number; object: Json }[] {
  return [...ctx.data.specGroups.values()].sort((a, b) => a.order - b.order || a.id - b.id).map((g) => ({ id: g.id, object: groupJson(ctx, g.id)! }));
}

/** The group of a specification (embed / embed_ids / include=group). */
export function specGroupLink(ctx: SpecificationContext): Link<SpecificationRecord> {
  const link: Link<SpecificationRecord> = {
    name: 'group',
    plural: 'groups',
    idOf: (s) => specGroupId(ctx, s),
    objectOf: (s) => {
      const id = specGroupId(ctx, s);
      return id === null ? null : groupJson(ctx, id);
    },
  };
  if (ctx.variants.has('spec-groups-all-of-category')) link.alsoIncluded = () => categoryGroups(ctx);
  return link;
}
