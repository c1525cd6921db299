// The API's route modules, one per group of the spec's Endpoints section.

import type { RouteModule } from '../router.ts';
import { categoryRoutes } from './categories.ts';
import { searchRoutes } from './search.ts';
import { catalogRoutes } from './catalog.ts';
import { manufacturerRoutes } from './manufacturers.ts';
import { skuRoutes } from './skus.ts';
import { productRoutes } from './products.ts';
import { shopRoutes } from './shops.ts';
import { reviewRoutes } from './reviews.ts';
import { userRoutes } from './user.ts';
import { personalizationRoutes } from './personalization.ts';
import { notificationRoutes } from './notifications.ts';
import { favoriteRoutes } from './favorites.ts';

export const ROUTE_MODULES: readonly RouteModule[] = [
  categoryRoutes,
  searchRoutes,
  catalogRoutes,
  manufacturerRoutes,
  skuRoutes,
  productRoutes,
  shopRoutes,
  reviewRoutes,
  userRoutes,
  personalizationRoutes,
  notificationRoutes,
  favoriteRoutes,
];
