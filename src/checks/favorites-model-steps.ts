// The reducer of the favorites model (src/checks/favorites-model.ts holds the model, its actions
// and the readers of answers): `step(model, action, answer)` judges the deployment's answer to one
// action against the model and returns the next model; `verdict` turns a step into a check result.
// The steps themselves: on lists (favorites-model-list-steps.ts), on one favorite
// (favorites-model-favorite-steps.ts) and on the listings of favorites (favorites-model-listing-steps.ts).
import { fail, pass, type CheckResult } from './check.ts';
import { formatCall, requestOf, type Action, type Answer, type FavoritesModel, type StepResult } from './favorites-model.ts';
import { createFavorite, deleteFavorite, getFavorite, updateFavorite } from './favorites-model-favorite-steps.ts';
import { createList, deleteList, listLists } from './favorites-model-list-steps.ts';
import { listFavorites, listListFavorites } from './favorites-model-listing-steps.ts';

/** Judges the answer to `action` and returns the next model (also when the answer broke a rule). */
export function step(m: FavoritesModel, action: Action, answer: Answer): StepResult {
  const where = formatCall(requestOf(action)).split(' {')[0]!;
  switch (action.type) {
    case 'createList':
      return createList(m, action, answer, where);
    case 'deleteList':
      return deleteList(m, action, answer, where);
    case 'createFavorite':
      return createFavorite(m, action, answer, where);
    case 'updateFavorite':
      return updateFavorite(m, action, answer, where);
    case 'deleteFavorite':
      return deleteFavorite(m, action, answer, where);
    case 'getFavorite':
      return getFavorite(m, action, answer, where);
    case 'listLists':
      return listLists(m, answer, where);
    case 'listFavorites':
      return listFavorites(m, action, answer, where);
    case 'listListFavorites':
      return listListFavorites(m, action, answer, where);
  }
}

/** Passes when a step's answer kept the rules (for unit tests and messages). */
export function verdict(result: StepResult): CheckResult {
  return result.failure ? fail(`[${result.failure.requirements.join(', ')}] ${result.failure.message}`) : pass();
}
