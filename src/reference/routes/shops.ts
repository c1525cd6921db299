// GET /shops/:id, /shops/search, /shops/:id/reviews, /shops/:shop_id/locations, /shops/:shop_id/locations/:id (spec "Endpoints").

import type { RouteModule } from '../router.ts';

export const shopRoutes: RouteModule = () => {
  // Routes are added by the issue-3 work on this area.
};
