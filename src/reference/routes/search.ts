// GET /search, GET /autocomplete (spec "Endpoints").

import type { RouteModule } from '../router.ts';

export const searchRoutes: RouteModule = () => {
  // Routes are added by the issue-3 work on this area.
};
