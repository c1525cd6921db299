// GET/PATCH /user, /user/avatars, /user/addresses*, /user/saved_orders, DELETE /user/logout (spec "Endpoints").

import type { RouteModule } from '../router.ts';

export const userRoutes: RouteModule = () => {
  // Routes are added by the issue-3 work on this area.
};
