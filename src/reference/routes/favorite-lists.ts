// GET /favorite_lists (see favorites.ts for the choices): the user's lists as listed, with the
// variants that change how they show.

import type { ApiResult } from '../http.ts';
import type { FavoriteListRecord, FavoriteRecord } from '../model.ts';
import type { ApiContext } from '../router.ts';
import { serializeFavoriteList } from '../serializers/favorite.ts';
import { respondMany } from '../shape.ts';
import { versionAtLeast } from '../versioning.ts';

/** The virtual owned list as GET /favorite_lists shows it (variant owned-list-listed): no record, so no id. */
const OWNED_LIST = Object.freeze({ id: null, name: 'Owned', category_id: null, type: 'owned' });

/** Variant custom-list-category-of-first-sku: a custom list shows the category of its oldest favorite's SKU (null while empty). */
function shownList(ctx: ApiContext, l: FavoriteListRecord, favorites: readonly FavoriteRecord[]): FavoriteListRecord {
  if (l.type !== 'custom' || !ctx.variants.has('custom-list-category-of-first-sku')) return l;
  const first = favorites.filter((f) => f.favorite_list_id === l.id).sort((a, b) => a.createdMs - b.createdMs || a.id - b.id)[0];
  return { ...l, category_id: first ? (ctx.data.skus.get(first.sku_id)?.category_id ?? null) : null };
}

/**
 * The listing of the user's lists, oldest first, given the user's favorites. Variants:
 * auto-lists-unlisted lists the custom lists only; favorite-list-type-on-create-only leaves type
 * out; owned-list-listed: from 3.2.0 the virtual owned list comes first.
 */
export function respondFavoriteLists(ctx: ApiContext, userLists: readonly FavoriteListRecord[], favorites: readonly FavoriteRecord[]): ApiResult {
  const withType = !ctx.variants.has('favorite-list-type-on-create-only');
  const lists = (ctx.variants.has('auto-lists-unlisted') ? userLists.filter((l) => l.type === 'custom') : [...userLists]).sort((a, b) => a.createdMs - b.createdMs);
  const owned = ctx.variants.has('owned-list-listed') && versionAtLeast(ctx.version, '3.2.0') ? [OWNED_LIST] : [];
  return respondMany<FavoriteListRecord | typeof OWNED_LIST>(ctx, 'favorite_lists', [...owned, ...lists], (l) => {
    if (l !== OWNED_LIST) return serializeFavoriteList(shownList(ctx, l as FavoriteListRecord, favorites), ctx.version, withType);
    const { type, ...rest } = OWNED_LIST;
    return withType ? { ...rest, type } : rest;
  });
}
