// Shared setup of the reference's protocol variant tests (src/reference/variants-protocol*.test.ts):
// a few test-only routes beside those of protocol.testroutes.ts, and servers without and with variants.

import { expect } from 'vitest';
import type { RouteModule } from '../../reference/router.ts';
import type { ReferenceOptions, RunningReference } from '../../reference/server.ts';
import { requestedLinks, respondMany, respondOne, type Link } from '../../reference/shape.ts';
import type { VariantName } from '../../reference/variants.ts';
import { TEST_ROUTES } from './protocol.testroutes.ts';
import { startWithToken, type Reply } from './testkit.ts';

interface Spec {
  id: number;
  name: string;
  groupId: number | null;
}
const SPECS: Spec[] = [
  { id: 1, name: 'width', groupId: 9 },
  { id: 2, name: 'height', groupId: 9 },
];
const groupLink: Link<Spec> = {
  name: 'group',
  plural: 'groups',
  idOf: (s) => s.groupId,
  objectOf: (s) => (s.groupId === null ? null : { id: s.groupId, name: 'size' }),
};
const MANY = Array.from({ length: 60 }, (_, i) => ({ id: i + 1 }));

/** An empty collection, one of 60 items, and one whose link is named group. */
const MORE_ROUTES: RouteModule = (r) => {
  r.get('/test/empty', (ctx) => respondMany(ctx, 'things', [] as { id: number }[], (x) => ({ ...x })));
  r.get('/test/many', (ctx) => respondMany(ctx, 'things', MANY, (x) => ({ ...x })));
  r.get('/test/specs', (ctx) => respondMany(ctx, 'specifications', SPECS, (s) => ({ id: s.id, name: s.name }), { links: [groupLink] }));
  // As the review routes do: the linked names are checked before anything changes.
  r.post('/test/specs', (ctx) => {
    requestedLinks(ctx, [groupLink]);
    return respondOne(ctx, 'specification', SPECS[0]!, (s) => ({ id: s.id, name: s.name }), { links: [groupLink], status: 201 });
  });
};

/** A server with its application token (the options of `call` and `get` take it as it is). */
export interface Server {
  ref: RunningReference;
  token: string;
}

/** A server with the test-only routes and `variants` on. */
export function start(variants: readonly VariantName[], opts: ReferenceOptions = {}): Promise<Server> {
  return startWithToken({ ...opts, variants, testHooks: { extraRoutes: [TEST_ROUTES, MORE_ROUTES] } });
}

/** Runs `fn` with a server without variants and one with `variants` (same options), then closes both. */
export async function compare(variants: readonly VariantName[], fn: (plain: Server, varied: Server) => Promise<void>, opts: ReferenceOptions = {}): Promise<void> {
  const [plain, varied] = await Promise.all([start([], opts), start(variants, opts)]);
  try {
    await fn(plain, varied);
  } finally {
    await Promise.all([plain.ref.close(), varied.ref.close()]);
  }
}

/** The reply of `r`, which must be 200. */
export const ok = async (r: Promise<Reply>, what = ''): Promise<Reply> => {
  const reply = await r;
  expect(reply.status, `${what} ${reply.text.slice(0, 300)}`).toBe(200);
  return reply;
};
