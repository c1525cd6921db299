// Serializer of Specification (spec "Resources > Specification") and its group, for the category
// specifications (definitions: no values) and the SKU specifications (the SKU's values).

import type { SpecificationRecord } from '../model.ts';
import type { ApiContext } from '../router.ts';
import type { Link } from '../shape.ts';
import { applyVersion, type ApiVersion } from '../versioning.ts';

type Json = Record<string, unknown>;

export function serializeSpecification(s: SpecificationRecord, values: readonly string[], version: ApiVersion): Json {
  return applyVersion('specification', { id: s.id, name: s.name, values: [...values], order: s.order, unit: s.unit }, version);
}

/** The group of a specification (embed / embed_ids / include=group). */
export function specGroupLink(ctx: Pick<ApiContext, 'data'>): Link<SpecificationRecord> {
  return {
    name: 'group',
    plural: 'groups',
    idOf: (s) => (ctx.data.specGroups.has(s.groupId) ? s.groupId : null),
    objectOf: (s) => {
      const g = ctx.data.specGroups.get(s.groupId);
      return g ? { id: g.id, name: g.name, order: g.order } : null;
    },
  };
}
