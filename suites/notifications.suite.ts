// Spec: Resources and their fields > Notification; Events (etypes, embedding rules, view);
// States and transitions (notification is_viewed false -> true, status 204); Endpoints >
// Notifications; Authentication > Permissions (notifications); Versioning > Change history (3.0.10
// embedded associations, 3.0.11 POST /notifications/view, 3.0.12 review_rating); Errors.
// The default run changes nothing: POST /notifications/view is sent with the id of a notification
// that is already viewed. Viewing an unviewed one cannot be undone: profile destructive only.
import { describe } from 'vitest';
import { bodyIsEmpty, carriesCategoryName, carriesReviewRating, carriesReviewText, embedsReviewer, embedsSku, everyNotification, isViewed } from '../src/checks/account.ts';
import { blank, fail, isPlainObject, pass, show, statedValue } from '../src/checks/check.ts';
import { hasCollectionEnvelope, hasSingleEnvelope, hasStatus, refusalJudgement } from '../src/checks/http.ts';
import {
  defaultPageSizeIs25,
  morePagesShown,
  nextAndLastLinksWhileMorePages,
  paginationClauses,
  paginationMetaIsWellFormed,
  readPagination,
  smallPageSize,
  type Pagination,
} from '../src/checks/pagination.ts';
import { conformanceTest, type ConformanceContext } from '../src/harness/conformance.ts';
import type { HttpResponse, Query } from '../src/http/client.ts';
import { firstLargePage, LARGE_PER } from '../src/harness/large-pages.ts';
import { pathOf } from '../src/rules/api-paths.ts';
import { judgeNotFoundBody } from '../src/engines/not-found.ts';
import { judgeRefusal } from '../src/engines/oauth.ts';

type Json = Record<string, unknown>;

const USER = { auth: 'user' as const };

type NotificationPage = { notifications: Json[]; pagination: Pagination; headers: Record<string, string> };

/** GET /notifications; stops unless 200 {notifications, meta.pagination}. */
async function listNotifications(t: ConformanceContext, query: Query = {}): Promise<NotificationPage> {
  return judgeListing(t, await t.api.get(pathOf('GET /notifications'), { ...USER, query }));
}

/**
 * The user's first LARGE_PER notifications, where the suite looks for notifications of a kind: one
 * page at per=100, or, where the deployment refuses that per (its maximum is not shown, PAG-4),
 * its default pages on to as many.
 */
async function firstNotifications(t: ConformanceContext): Promise<Json[]> {
  const { response, query } = await firstLargePage(t.api, pathOf('GET /notifications'), USER);
  const first = judgeListing(t, response);
  const notifications = [...first.notifications];
  // On while total_pages and the page read both show more (a full page, results beyond it): a
  // total_pages too large, PAG-1's error, must not ask for a page past the last.
  let last = first;
  for (let page = 2; notifications.length < LARGE_PER && page <= first.pagination.total_pages && morePagesShown(last.pagination, last.notifications.length); page++) {
    last = await listNotifications(t, { ...query, page });
    notifications.push(...last.notifications);
  }
  return notifications;
}

/** A listing's answer; stops the test unless it is 200 {notifications, meta.pagination}. */
function judgeListing(t: ConformanceContext, response: HttpResponse): NotificationPage {
  t.require(hasStatus(response, 200), 'NOTIF-8', 'EVT-1', 'SCOPE-4');
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasCollectionEnvelope(body, 'notifications'), 'GEN-7', 'NOTIF-8');
  t.require(paginationMetaIsWellFormed(body), 'PAG-1', 'NOTIF-8');
  t.response('GET /notifications', response, 'NOTIF-8', 'NOTIF-1');
  return { notifications: (body['notifications'] as unknown[]).filter(isPlainObject), pagination: readPagination(body)!, headers: response.headers };
}

async function getNotification(t: ConformanceContext, id: number): Promise<Json> {
  const response = await t.api.get(pathOf('GET /notifications/:id', { id }), USER);
  t.require(hasStatus(response, 200), 'NOTIF-9', 'EVT-1');
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasSingleEnvelope(body, 'notification'), 'GEN-7', 'NOTIF-9');
  t.response('GET /notifications/:id', response, 'NOTIF-9', 'NOTIF-1');
  return body['notification'] as Json;
}

/** POST /notifications/view {ids: [id]}: 204 with an empty body, then GET shows is_viewed true. */
async function viewAndCheck(t: ConformanceContext, id: number): Promise<void> {
  const response = await t.api.request('POST', pathOf('POST /notifications/view'), { ...USER, json: { ids: [id] } });
  t.must(hasStatus(response, 204), 'NOTIF-10', 'NOTIF-6');
  t.must(bodyIsEmpty(response, 'POST /notifications/view'), 'NOTIF-10');
  const after = await getNotification(t, id);
  t.must(isViewed(after, id), 'EVT-13', 'NOTIF-6');
}

/** Only the notification sent is marked (NOTIF-6): another that was unviewed stays unviewed. */
async function othersStayUnviewed(t: ConformanceContext, before: readonly Json[], sent: number): Promise<void> {
  const other = before.find((n) => n['is_viewed'] === false && Number.isInteger(n['id']) && n['id'] !== sent);
  if (!other) return;
  const marked = (await getNotification(t, other['id'] as number))?.['is_viewed'] === true;
  t.must(marked ? fail(`POST /notifications/view with ids [${sent}] also marked notification ${show(other['id'])} viewed`) : pass(), 'NOTIF-6');
}

describe('GET /notifications', () => {
  conformanceTest(
    'answers {notifications, meta}, 25 per page by default, and page/per select a page',
    {
      id: 'notifications-listing',
      clauses: ['PAG-1#1-5', 'PAG-2#1', 'PAG-3#1', 'PAG-3#3', 'PAG-4#1', 'PAG-5#1', 'NOTIF-1#1-13', 'NOTIF-8#1-2', 'EVT-1#1'],
      requirements: ['NOTIF-8', 'NOTIF-1', 'EVT-1', 'PAG-1', 'PAG-2', 'PAG-3', 'PAG-4', 'PAG-5'],
      readings: ['NOTIF-8.a-d', 'NOTIF-1.a-j', 'EVT-1.a-g', 'PAG-1.a-e', 'PAG-2.a-e', 'PAG-3.a-g', 'PAG-4.a-h', 'PAG-5.a-j'],
      requests: 2,
    },
    async (t) => {
      const first = await listNotifications(t);
      t.must(defaultPageSizeIs25(first.pagination), 'PAG-2');
      for (const [check, id] of paginationClauses(first.pagination, first.notifications.length)) t.must(check, id);
      t.must(nextAndLastLinksWhileMorePages(first.headers, first.pagination, first.notifications.length), 'PAG-5');
      // The pagination suite's per for this collection: the same second page, asked once (issue 17).
      const per = smallPageSize(first.pagination.total_results);
      if (per === null) return;
      const second = await listNotifications(t, { per, page: 2 });
      for (const [check, id] of paginationClauses(second.pagination, second.notifications.length, { page: 2, per })) t.must(check, id);
    },
  );

  conformanceTest(
    'an application token is refused (401 or 403): the notifications permission is needed',
    { id: 'app-token-refused', clauses: ['NOTIF-7#1'], requirements: ['NOTIF-7', 'SCOPE-2', 'SCOPE-4'], readings: ['NOTIF-7.a-d', 'SCOPE-2.a-c', 'SCOPE-4.a-e'], requests: 1 },
    async (t) => {
      const refused = await t.api.get(pathOf('GET /notifications'), { auth: 'app', renewOn401: false });
      judgeRefusal(t, refusalJudgement(refused.status, 'GET /notifications with an application token'), 'NOTIF-7', 'SCOPE-2');
    },
  );

  conformanceTest(
    'embeds per etype as the Events section says: sku, category_name for price kinds, the reviewing user and review_rating for sku_review',
    {
      id: 'embeds-per-etype',
      clauses: ['NOTIF-2#1-2', 'NOTIF-3#1', 'NOTIF-4#1', 'NOTIF-5#1-2', 'EVT-2#1', 'EVT-10#1-2', 'EVT-11#1', 'EVT-12#1-2', 'CHG-18#1', 'CHG-20#1-3'],
      requirements: ['EVT-10', 'EVT-11', 'EVT-12', 'NOTIF-2', 'NOTIF-3', 'NOTIF-4', 'NOTIF-5', 'EVT-2', 'CHG-18', 'CHG-20'],
      readings: ['EVT-10.a-h', 'EVT-11.a-c', 'EVT-12.a-f', 'NOTIF-2.a-d', 'NOTIF-3.a-d', 'NOTIF-4.a-c', 'NOTIF-5.a-e', 'EVT-2.a-e', 'CHG-18.a-d', 'CHG-20.a-e'],
      requests: 1,
    },
    async (t) => {
      t.requireFeature('notification-embeds', 'Embedded notification associations');
      const notifications = await firstNotifications(t);
      if (notifications.length === 0) t.skip('the user has no notification');
      t.must(everyNotification(notifications, embedsSku), 'EVT-10', 'CHG-20');
      t.must(everyNotification(notifications, carriesCategoryName), 'EVT-11', 'NOTIF-2');
      t.must(everyNotification(notifications, embedsReviewer), 'EVT-12', 'NOTIF-5');
      if (t.has('notification-review-rating')) t.must(everyNotification(notifications, carriesReviewRating), 'NOTIF-3', 'CHG-18');
      t.must(everyNotification(notifications, carriesReviewText), 'NOTIF-4');
    },
  );
});

describe('GET /notifications/:id', () => {
  conformanceTest(
    'answers {notification} for a listed id; an unknown id is 404 RecordNotFound',
    {
      id: 'notification-by-id',
      clauses: ['ERR-9#1', 'ERR-14#1', 'NOTIF-1#1-13', 'NOTIF-9#1-2', 'EVT-1#1-2'],
      requirements: ['NOTIF-9', 'NOTIF-1', 'EVT-1', 'ERR-9', 'ERR-14'],
      readings: ['NOTIF-9.a-g', 'NOTIF-1.a-j', 'EVT-1.a-g', 'ERR-9.a-j', 'ERR-14.a-g'],
      requests: 3,
    },
    async (t) => {
      const { notifications } = await listNotifications(t);
      const listed = notifications.find((n) => Number.isInteger(n['id']));
      if (listed) {
        const id = listed['id'] as number;
        const notification = await getNotification(t, id);
        t.must(statedValue(notification['id'] === id, `GET /notifications/${id} answered notification ${show(notification['id'])}`), 'NOTIF-9');
        // A blank etype on either side (GEN-8) cannot be compared: it only warns.
        const etypes = `notification ${id} has etype ${show(notification['etype'])}, listed as ${show(listed['etype'])}`;
        t.must(notification['etype'] === listed['etype'] ? pass() : notification['etype'] === null || listed['etype'] === null ? blank(etypes) : fail(etypes), 'NOTIF-9');
      }
      const missing = 2_000_000_000 + Math.floor(Math.random() * 100_000_000);
      const response = await t.api.get(pathOf('GET /notifications/:id', { id: missing }), USER);
      if (response.status === 200) t.skip(`the user has a notification with id ${missing}; no unknown id to ask for`);
      t.must(hasStatus(response, 404), 'ERR-9');
      judgeNotFoundBody(t, response);
      if (!listed) t.skip('the user has no notification to read by id');
    },
  );
});

describe('POST /notifications/view', () => {
  conformanceTest(
    'with the id of an already viewed notification: 204, empty body, and is_viewed stays true (nothing changes)',
    {
      id: 'view-already-viewed',
      clauses: ['NOTIF-6#1-2', 'NOTIF-10#2', 'EVT-13#1', 'CHG-19#1'],
      requirements: ['NOTIF-10', 'NOTIF-6', 'EVT-13', 'CHG-19'],
      readings: ['NOTIF-10.a-h', 'NOTIF-6.a-e', 'EVT-13.a-g', 'CHG-19.a-f'],
      profile: 'write',
      requests: 4,
    },
    async (t) => {
      t.requireFeature('notifications-view', 'POST /notifications/view');
      const notifications = await firstNotifications(t);
      const viewed = notifications.find((n) => n['is_viewed'] === true && Number.isInteger(n['id']));
      if (!viewed) {
        return t.skip(`none of the first ${notifications.length} notifications is viewed; viewing an unviewed one cannot be undone (the destructive profile's test does it)`);
      }
      await viewAndCheck(t, viewed['id'] as number);
      await othersStayUnviewed(t, notifications, viewed['id'] as number);
    },
  );

  conformanceTest(
    'makes an unviewed notification viewed (is_viewed false -> true, 204); cannot be undone',
    {
      id: 'view-marks-viewed',
      clauses: ['NOTIF-6#1-2', 'NOTIF-10#1-2', 'EVT-13#1'],
      requirements: ['EVT-13', 'NOTIF-6', 'NOTIF-10'],
      readings: ['EVT-13.a-g', 'NOTIF-6.a-e', 'NOTIF-10.a-h'],
      profile: 'destructive',
      requests: 4,
    },
    async (t) => {
      t.requireFeature('notifications-view', 'POST /notifications/view');
      const notifications = await firstNotifications(t);
      const unviewed = notifications.find((n) => n['is_viewed'] === false && Number.isInteger(n['id']));
      if (!unviewed) return t.skip(`none of the first ${notifications.length} notifications is unviewed`);
      await viewAndCheck(t, unviewed['id'] as number);
      await othersStayUnviewed(t, notifications, unviewed['id'] as number);
    },
  );
});
