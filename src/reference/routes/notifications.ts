// GET /notifications, /notifications/:id, POST /notifications/view (spec "Endpoints >
// Notifications", "Notification", "Events", "States and transitions").
//
// Choices where the spec is silent:
// - Every route needs a user token with the notifications scope: an application token, or a
//   user token without that scope, gets 401.
// - GET /notifications lists the user's notifications newest first (created_at descending,
//   then id descending), paginated.
// - Another user's notification is 404 RecordNotFound, like an unknown id.
// - Keys by etype (see serializers/notification.ts): sku, category_name and user are always
//   present, null where the Events section embeds nothing (variant notification-keys-absent:
//   absent there); review_rating and review_text are keys only where the table says "present
//   when". The embedded Sku has category_id and first_product_shop_info (variant
//   notification-sku-minimal: not).
// - POST /notifications/view takes {ids: [integer, ...]} (JSON numbers or digit strings; a form
//   body's ids[]=... works too): 1 to 1000 ids. A missing, empty, non-array or non-integer ids
//   is 400 (ParameterMissing / InvalidParameter). Ids that name no notification of the user are
//   ignored (still 204): marking as viewed is idempotent and a vanished notification does not
//   fail the batch. A notification that changes to viewed gets updated_at = the time of the
//   request; one already viewed is left alone.

import { formatTimestamp, recordNotFound } from '../http.ts';
import type { NotificationRecord } from '../model.ts';
import type { ApiContext, RouteModule } from '../router.ts';
import { serializeNotification } from '../serializers/notification.ts';
import { respondMany, respondOne } from '../shape.ts';
import { invalidParameter, parameterMissing, parseId } from './params.ts';
import { userIdOf } from './user.ts';

const NOTIFICATIONS = { scope: 'notifications', user: true } as const;
/** Most ids in one POST /notifications/view (the spec gives no limit). */
export const MAX_VIEW_IDS = 1000;

function mine(ctx: ApiContext): NotificationRecord[] {
  const uid = userIdOf(ctx);
  return [...ctx.data.notifications.values()].filter((n) => n.userId === uid).sort((a, b) => b.createdMs - a.createdMs || b.id - a.id);
}

function serializer(ctx: ApiContext) {
  return (n: NotificationRecord) => serializeNotification(n, ctx.data, ctx.version, ctx.fault, ctx.variants);
}

/** The ids of a view request; 400 for anything but a non-empty array of integers. */
function viewIds(ctx: ApiContext): number[] {
  const raw = ctx.body?.['ids'];
  if (raw === undefined || raw === null) throw parameterMissing('ids');
  if (!Array.isArray(raw)) throw invalidParameter('ids must be an array of integers');
  // Variant view-empty-ids-204: an empty list is a request to mark nothing, answered 204.
  if (raw.length === 0 && !ctx.variants.has('view-empty-ids-204')) throw invalidParameter('ids must hold at least one id');
  if (raw.length > MAX_VIEW_IDS) throw invalidParameter(`ids may hold at most ${MAX_VIEW_IDS} ids`);
  return raw.map((v) => {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
    if (typeof v === 'string' && /^\d{1,15}$/.test(v)) return Number(v);
    throw invalidParameter(`ids must hold integers, got ${JSON.stringify(v).slice(0, 64)}`);
  });
}

export const notificationRoutes: RouteModule = (router) => {
  router.get('/notifications', (ctx) => respondMany(ctx, 'notifications', mine(ctx), serializer(ctx)), NOTIFICATIONS);

  router.get(
    '/notifications/:id',
    (ctx) => {
      const id = parseId(ctx.params['id'], 'Notification');
      const n = ctx.data.notifications.get(id);
      if (!n || n.userId !== userIdOf(ctx)) throw recordNotFound('Notification', id);
      return respondOne(ctx, 'notification', n, serializer(ctx));
    },
    NOTIFICATIONS,
  );

  router.post(
    '/notifications/view',
    (ctx) => {
      const uid = userIdOf(ctx);
      const ids = viewIds(ctx);
      const now = formatTimestamp(ctx.now());
      const viewed: NotificationRecord[] = [];
      // The bug: the ids are read, but the update marks every notification of the user.
      const marked = ctx.fault === 'notifications-view-marks-all' ? [...ctx.data.notifications.values()].filter((n) => n.userId === uid).map((n) => n.id) : ids;
      for (const id of new Set(marked)) {
        const n = ctx.data.notifications.get(id);
        if (!n || n.userId !== uid) continue;
        viewed.push(n);
        if (n.is_viewed) continue;
        // The bug: the flag is set on a copy, never on the stored notification.
        const target = ctx.fault === 'notifications-view-not-persisted' ? { ...n } : n;
        target.is_viewed = true;
        target.updated_at = now;
      }
      // The bug: the updated notifications are sent back, where the spec says 204 with no body.
      if (ctx.fault === 'notifications-view-returns-body') return respondMany(ctx, 'notifications', viewed, serializer(ctx), { paginate: false });
      return { status: 204 };
    },
    { ...NOTIFICATIONS, since: '3.0.11' },
  );
};
