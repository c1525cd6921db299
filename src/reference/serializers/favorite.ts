// Favorite and favorite-list serializers (spec "Favorite list", "Favorite"). Every field is
// always present (blank ones as null); the Change history changes none of them, so
// applyVersion only keeps the convention (versioning.ts has no entry for these resources).

import type { FavoriteListRecord, FavoriteRecord } from '../model.ts';
import { applyVersion, type ApiVersion } from '../versioning.ts';

/**
 * Exactly: id, have_it, user_id, user_notes, sku_id, created_at, updated_at, get_absolute_threshold, favorite_list_id.
 * `withListId` false leaves favorite_list_id out (variant favorite-list-id-on-update-only).
 */
export function serializeFavorite(f: FavoriteRecord, version: ApiVersion, withListId = true): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: f.id,
    have_it: f.have_it,
    user_id: f.user_id,
    user_notes: f.user_notes,
    sku_id: f.sku_id,
    created_at: f.created_at,
    updated_at: f.updated_at,
    get_absolute_threshold: f.get_absolute_threshold,
    favorite_list_id: f.favorite_list_id,
  };
  if (!withListId) delete out['favorite_list_id'];
  return applyVersion('favorite', out, version);
}

/**
 * Exactly: id, name, category_id, type ("custom" or "auto"). `withType` false leaves type out
 * (variant favorite-list-type-on-create-only).
 */
export function serializeFavoriteList(l: FavoriteListRecord, version: ApiVersion, withType = true): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: l.id,
    name: l.name,
    category_id: l.category_id,
    type: l.type,
  };
  if (!withType) delete out['type'];
  return applyVersion('favorite_list', out, version);
}
