// GET /manufacturers, /manufacturers/:id, /manufacturers/:id/categories, /manufacturers/:id/skus (spec "Endpoints").

import type { RouteModule } from '../router.ts';

export const manufacturerRoutes: RouteModule = () => {
  // Routes are added by the issue-3 work on this area.
};
