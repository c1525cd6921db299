// favorite lists, favorites, GET /categories/:id/favorites (spec "Endpoints").

import type { RouteModule } from '../router.ts';

export const favoriteRoutes: RouteModule = () => {
  // Routes are added by the issue-3 work on this area.
};
