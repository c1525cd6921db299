// The API's route modules. The whole API grows by adding a module here.

import type { RouteModule } from '../router.ts';
import { categoryRoutes } from './categories.ts';

export const ROUTE_MODULES: readonly RouteModule[] = [categoryRoutes];
