// Which favorites GET /categories/:id/favorites lists beside the category test (routes/favorites.ts):
// every one under the reference; variant category-favorites-auto-list-only: only those of the
// category's own auto list (none for a category without one).

import type { FavoriteRecord } from '../model.ts';
import type { ApiContext } from '../router.ts';

export function listedForCategory(ctx: Pick<ApiContext, 'data' | 'variants'>, f: FavoriteRecord, categoryId: number): boolean {
  if (!ctx.variants.has('category-favorites-auto-list-only')) return true;
  return f.favorite_list_id !== null && ctx.data.favoriteLists.get(f.favorite_list_id)?.category_id === categoryId;
}
