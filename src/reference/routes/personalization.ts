// GET/PUT /personalization (spec "Endpoints").

import type { RouteModule } from '../router.ts';

export const personalizationRoutes: RouteModule = () => {
  // Routes are added by the issue-3 work on this area.
};
