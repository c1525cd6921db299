// SKU reviews (list, forms, create, update, delete), votes, flags, GET /flags (spec "Endpoints").

import type { RouteModule } from '../router.ts';

export const reviewRoutes: RouteModule = () => {
  // Routes are added by the issue-3 work on this area.
};
