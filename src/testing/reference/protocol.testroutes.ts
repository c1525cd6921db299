// Test-only routes for the reference's protocol tests (src/reference/protocol.test.ts,
// robustness.test.ts, variants-protocol.test.ts), registered through
// startReference({ testHooks: { extraRoutes: [TEST_ROUTES] } }): a small resource with one linked
// resource for the response shaping, routes with each scope, a user-only route, a route added in
// 3.2.0, a body echo, and routes that fail on purpose. Not served otherwise.

import { ApiError } from '../../reference/http.ts';
import type { RouteModule } from '../../reference/router.ts';
import { respondMany, respondOne, type Link } from '../../reference/shape.ts';

interface Part {
  id: number;
  name: string;
  weight: number;
  material: string;
}
interface Thing {
  id: number;
  name: string;
  color: string;
  size: number;
  partId: number | null;
}
export const PARTS = new Map<number, Part>([
  [71, { id: 71, name: 'bolt', weight: 3, material: 'steel' }],
  [72, { id: 72, name: 'nut', weight: 1, material: 'brass' }],
]);
const THINGS: Thing[] = [
  { id: 1, name: 'one', color: 'red', size: 10, partId: 71 },
  { id: 2, name: 'two', color: 'blue', size: 20, partId: 72 },
  { id: 3, name: 'three', color: 'green', size: 30, partId: 71 },
  { id: 4, name: 'four', color: 'black', size: 40, partId: null },
];
const partLink: Link<Thing> = {
  name: 'part',
  plural: 'parts',
  idOf: (t) => t.partId,
  objectOf: (t) => (t.partId === null ? null : { ...PARTS.get(t.partId)! }),
};
const serializeThing = (t: Thing): Record<string, unknown> => ({ id: t.id, name: t.name, color: t.color, size: t.size });

export const TEST_ROUTES: RouteModule = (r) => {
  r.get('/test/things', (ctx) => respondMany(ctx, 'things', THINGS, serializeThing, { links: [partLink] }));
  r.get('/test/things/:id', (ctx) => {
    const t = THINGS.find((x) => String(x.id) === ctx.params['id']);
    if (!t) throw new ApiError(404, 'RecordNotFound', [`Couldn't find Thing with id=${ctx.params['id']}`]);
    return respondOne(ctx, 'thing', t, serializeThing, { links: [partLink] });
  });
  r.get('/test/plain', (ctx) => respondMany(ctx, 'things', THINGS, serializeThing));
  r.get('/test/version', (ctx) => ({ status: 200, body: { version: ctx.version.label } }));
  r.post('/test/echo', (ctx) => ({ status: 201, body: { body: ctx.body } }));
  r.get('/test/favorites', () => ({ status: 200, body: { ok: 'favorites' } }), { scope: 'favorites' });
  r.get('/test/notifications', () => ({ status: 200, body: { ok: 'notifications' } }), { scope: 'notifications' });
  r.post('/test/votes', () => ({ status: 201, body: { ok: 'vote' } }), { scope: 'publish_sku_review_actions' });
  r.get('/test/any-token', () => ({ status: 200, body: { ok: true } }), { scope: null });
  r.get('/test/user-only', (ctx) => ({ status: 200, body: { user_id: ctx.userId } }), { user: true });
  r.get('/test/since-3-2', () => ({ status: 200, body: { ok: true } }), { since: '3.2.0' });
  r.get('/test/boom', () => {
    throw new Error('kaboom');
  });
  r.get('/test/unserializable', () => ({ status: 200, body: { n: 1n } }));
};
