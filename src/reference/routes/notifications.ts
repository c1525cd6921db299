// GET /notifications, /notifications/:id, POST /notifications/view (spec "Endpoints").

import type { RouteModule } from '../router.ts';

export const notificationRoutes: RouteModule = () => {
  // Routes are added by the issue-3 work on this area.
};
