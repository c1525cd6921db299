// What PUT /favorites/:id and POST /favorites leave behind when they move a favorite (States and
// transitions, rows 3 and 4): the list a new_list_name made, and a custom list holding SKUs of
// two categories. Used by the favorites suite (suites/favorites.suite.ts).
import { fail, pass, show } from '../checks/check.ts';
import { autoListInFavorites, listsFavorite, listsNamed, oneListNamed, showsListId, type FavoriteLike } from '../checks/favorites.ts';
import { firstLargePage } from '../harness/large-pages.ts';
import { PrerequisiteMissing } from '../harness/api.ts';
import type { ConformanceContext } from '../harness/conformance.ts';
import { pathOf } from '../rules/api-paths.ts';
import { alsoDelete, allLists, createFavorite, listFavorites, mustHoldBoth, type Favorite, type FavoriteList, type FreeSkus } from './favorites.ts';

/**
 * The list a favorite POSTed with new_list_name `named` went to (row 4 of States and transitions):
 * its favorite_list_id, or (shown on update only, FAV-8) the list of that name GET /favorite_lists
 * lists, which must hold it. Either way one list has that name. Lists made go to `cleanup`.
 */
export async function listOfNamedFavorite(t: ConformanceContext, favorite: Favorite, named: string, cleanup: string[]): Promise<number> {
  if (showsListId(favorite)) {
    t.require(Number.isInteger(favorite.favorite_list_id) ? pass() : fail(`POST with new_list_name gave favorite_list_id ${show(favorite.favorite_list_id)}`), 'FAV-14', 'FAV-15');
    const namedId = favorite.favorite_list_id as number;
    await alsoDelete(t, cleanup, namedId);
    const { lists, complete } = await allLists(t);
    if (complete) t.must(oneListNamed(lists, named, namedId), 'FAV-14', 'FAV-15');
    return namedId;
  }
  {
    // favorite_list_id shown on update only (FAV-8, one reading): the list of that name, as
    // GET /favorite_lists lists it, must hold the favorite.
    const { lists, complete } = await allLists(t);
    const made = listsNamed(lists, named).filter((l): l is FavoriteList => Number.isInteger(l.id));
    cleanup.push(...made.map((l) => pathOf('DELETE /favorite_lists/:id', { id: l.id })));
    if (!made.length && !complete)
      t.skip(`POST with new_list_name shows no favorite_list_id, and the user has more lists than the ${lists.length} read: the list of that name cannot be found`);
    t.require(
      made.length ? pass() : fail(`POST with new_list_name ${show(named)} shows no favorite_list_id, and GET /favorite_lists lists no list of that name`),
      'FAV-14',
      'FAV-15',
    );
    const namedId = made[0]!.id;
    t.must(oneListNamed(lists, named, namedId), 'FAV-14', 'FAV-15');
    t.must(listsFavorite(await listFavorites(t, namedId), favorite.id, namedId, `POST with new_list_name ${show(named)} (favorite_list_id not shown)`), 'FAV-14', 'FAV-15');
    return namedId;
  }
}

/**
 * A custom list holds SKUs of different categories (FAV-4): a SKU of another category, favorited
 * straight into the list that holds `moved`, sits there beside it. Judged only where the user has
 * such a SKU free.
 */
export async function mustHoldSkusOfTwoCategories(
  t: ConformanceContext,
  freeSkus: FreeSkus,
  moved: { sku: { category_id: number }; favoriteId: number; movedIn: boolean; listId: number },
  cleanup: string[],
): Promise<void> {
  const other = await freeSkus.find(t, new Set([moved.sku.category_id])).catch((error: unknown) => {
    if (error instanceof PrerequisiteMissing) return null;
    throw error;
  });
  if (!other?.preferred || other.sku.category_id === moved.sku.category_id) return;
  const second = await createFavorite(t, { sku_id: other.sku.id, favorite_list_id: moved.listId }, null, 'FAV-4');
  cleanup.unshift(pathOf('DELETE /favorites/:id', { id: second.id }));
  const what = `custom list ${moved.listId} after favorites of SKUs of categories ${moved.sku.category_id} and ${other.sku.category_id}`;
  await mustHoldBoth(t, moved.listId, { id: moved.favoriteId, movedIn: moved.movedIn }, second.id, what);
}

/**
 * One POST, one favorite: list `listId` holds one favorite of SKU `skuId`, which the user had none
 * of (FAV-9). A twin goes to `cleanup` too, so that the run leaves nothing behind.
 */
export async function mustHoldOneOfSku(t: ConformanceContext, listId: number, favorite: Favorite, skuId: number, cleanup: string[]): Promise<void> {
  const held = (await listFavorites(t, listId)).filter((f) => f.sku_id === skuId);
  for (const twin of held.filter((f) => f.id !== favorite.id)) cleanup.unshift(pathOf('DELETE /favorites/:id', { id: twin.id }));
  t.must(
    held.length <= 1 ? pass() : fail(`one POST /favorites for SKU ${skuId}, and list ${listId} holds ${held.length} favorites of it: ${show(held.map((f) => f.id))}`),
    'FAV-9',
  );
}

/** Whether the category's favorites show an auto list (a negative favorite_list_id), learned into `learned` (category -> list). */
export async function learnAutoList(t: ConformanceContext, categoryId: number, learned: Map<number, number>): Promise<boolean> {
  const { response } = await firstLargePage(t.api, pathOf('GET /categories/:id/favorites', { id: categoryId }), { auth: 'user' });
  const favorites = response.status === 200 ? response.json<{ favorites?: unknown }>()?.favorites : undefined;
  const id = Array.isArray(favorites) ? autoListInFavorites(favorites as FavoriteLike[]) : null;
  if (id !== null) learned.set(categoryId, id);
  return id !== null;
}
