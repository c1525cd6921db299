// GET /skus/:id/products, /skus/:id/product_cards, /skus/:id/specifications, /skus/:id/price_history (spec "Endpoints").

import type { RouteModule } from '../router.ts';

export const skuRoutes: RouteModule = () => {
  // Routes are added by the issue-3 work on this area.
};
