// GET /products/:id, GET /shops/:shop_id/products/search (spec "Endpoints").

import type { RouteModule } from '../router.ts';

export const productRoutes: RouteModule = () => {
  // Routes are added by the issue-3 work on this area.
};
