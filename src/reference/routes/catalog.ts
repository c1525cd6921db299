// GET /categories/:id/specifications, /categories/:id/manufacturers, /categories/:category_id/filter_groups, /categories/:category_id/skus (spec "Endpoints").

import type { RouteModule } from '../router.ts';

export const catalogRoutes: RouteModule = () => {
  // Routes are added by the issue-3 work on this area.
};
