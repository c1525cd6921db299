// Finds what a test needs on a deployment whose data the kit has never seen, by walking the API.
// Suites ask for a role ("a leaf category", "a SKU with offers") and never name an id. Results
// are cached for the run; CATALOGUE_HINTS (role -> id) save the walk, and are checked before use
// (category roles: the category itself, or its children; rare data: the listing that shows it).
// Rare data (a future SKU, an unstructured location) is searched past the first pages, within a
// share of the run's budget (rare-data.ts).
// Roles of the user's own data (a favorite list, a category of the user's favorites) walk with the
// run's user token; without one they are unavailable, with the token's reason.
import { KIT_PREFIX } from '../util/kit-names.ts';
import { PrerequisiteMissing, type ApiClient } from '../harness/api.ts';
import { DEFAULT_MAX_REQUESTS } from '../budget/budget.ts';
import type { DiscoveryResult, Discoverer } from '../coordinator/services.ts';
import { pathOf } from '../rules/api-paths.ts';
import { CategoryWalker, DiscoveryShare, type Category, type Json, type Page } from './walker.ts';
import { findShopWithUnstructuredLocation, findSku, FUTURE_SKU, hasUnstructuredLocation, RARE_DATA_SHARE, RareDataNotFound, skuOfKindIn, type SkuKind } from './rare-data.ts';

export { CategoryWalker, DiscoveryError, type Category, type Page } from './walker.ts';

interface Role {
  description: string;
  /** Whether a category fetched by id fills the role (used to check a hint). */
  accepts?: (category: Category, rootId: number) => boolean;
  /** The same, when checking needs more requests. */
  acceptsWith?: (category: Category, rootId: number, walker: CategoryWalker) => Promise<boolean>;
  /** For a role that is not a category: whether a hinted id fills it, checked with one request. */
  checkHint?: (id: number, walker: CategoryWalker) => Promise<boolean>;
  /**
   * A hint under another key, resolved to the role's id (null when it does not fill the role): a
   * SKU cannot be read by its id alone, so a future SKU is hinted by the leaf that lists it.
   */
  hintedAs?: { key: string; resolve: (id: number, walker: CategoryWalker, share: DiscoveryShare) => Promise<number | null> };
  /** Walks the API; `need` gives the id of another role (cached like any role), or throws why there is none. */
  find: (walker: CategoryWalker, need: (role: string) => Promise<number>, share: DiscoveryShare) => Promise<number | null>;
}

/** Names the kit gives what it creates (`cc-<what>-<run>`): such a list may be deleted by the test that made it. */
const KIT_MADE = new RegExp(`^${KIT_PREFIX}`);

/** Most sibling leaves looked at, after the discovered leaf, for a SKU of some kind. */
const SIBLING_LEAVES_SCANNED = 4;
/** Most shops (or favorite lists) asked for their reviews (favorites) before settling. */
const CANDIDATES_ASKED = 4;

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** The SKUs of the discovered leaf, then of its sibling leaves, until `pick` takes one. */
async function skuFromLeaves(w: CategoryWalker, need: (role: string) => Promise<number>, pick: (skus: Json[]) => Json | undefined): Promise<number | null> {
  const leafId = await need('leafCategory');
  const found = pick(await w.skus(leafId));
  if (found) return found['id'] as number;
  for (const sibling of (await w.siblingLeaves(leafId)).slice(0, SIBLING_LEAVES_SCANNED)) {
    const other = pick(await w.skus(sibling));
    if (other) return other['id'] as number;
  }
  return null;
}

/** The item with the largest `field` above 0 (the first of equals). */
function most(skus: Json[], field: string, also: (s: Json) => boolean = () => true): Json | undefined {
  return skus.filter((s) => count(s[field]) > 0 && also(s)).sort((a, b) => count(b[field]) - count(a[field]))[0];
}

/** The first candidate whose collection holds 2 items or more, else the first holding one, else null. */
async function fullest(candidates: number[], size: (id: number) => Promise<number>): Promise<number | null> {
  let fallback: number | null = null;
  for (const id of candidates.slice(0, CANDIDATES_ASKED)) {
    const n = await size(id);
    if (n >= 2) return id;
    if (n >= 1 && fallback === null) fallback = id;
  }
  return fallback;
}

/** A role of rare SKUs: searched on every page of every leaf, hinted by the leaf that lists one. */
function skuOfKind(kind: SkuKind): Role {
  return {
    description: `a ${kind.what}, on any page of any leaf`,
    hintedAs: { key: kind.hintKey, resolve: (id, w, share) => skuOfKindIn(w, kind, id, share) },
    find: async (w, need, share) => findSku(w, kind, await need('leafCategory').catch(() => null), share),
  };
}

/** Roles the suites may ask for. Adding one is adding an entry here. */
export const ROLES = {
  rootCategory: {
    description: 'the root category',
    accepts: (c) => c.parent_id === 0,
    find: async (w) => (await w.root()).id,
  },
  innerCategory: {
    description: 'a category that is neither the root nor a leaf',
    accepts: (c, rootId) => c.id !== rootId && typeof c.children_count === 'number' && c.children_count > 0,
    find: async (w) => {
      const root = await w.root();
      const child = (await w.children(root.id)).find((c) => typeof c.children_count === 'number' && c.children_count > 0);
      return child?.id ?? null;
    },
  },
  leafCategory: {
    description: 'a leaf category (one without children) below the root',
    // A hint is taken when the children listing is empty; children_count is what suites judge,
    // so discovery must not rely on it.
    acceptsWith: async (c, rootId, w) => c.id !== rootId && (await w.children(c.id)).length === 0,
    find: async (w) => {
      // First a hint: the first category of GET /categories (which the preflight asked already)
      // that names a parent and no children, taken when its children listing is empty: one
      // request instead of a walk down the tree (issue 17).
      // Not a child of the root: a deployment listing only the top level (CAT-1.e) would give a
      // top-level leaf, often of a kind apart (books), whose SKUs lack what other roles need.
      // The root as listed (parent_id 0), not asked: the hint costs no request more.
      const listed = await w.listed().catch(() => [] as Category[]);
      const listedRoot = listed.find((c) => c.parent_id === 0)?.id;
      const hinted = listed.find((c) => c.children_count === 0 && Number.isInteger(c.parent_id) && c.parent_id !== 0 && c.parent_id !== listedRoot);
      if (hinted && (await w.children(hinted.id)).length === 0) return hinted.id;
      // Else down the first child at each level until a category lists no children.
      const root = await w.root();
      let current = (await w.children(root.id))[0];
      for (let depth = 0; current && depth < 32; depth++) {
        const next = (await w.children(current.id))[0];
        if (!next) return current.id;
        current = next;
      }
      return null;
    },
  },
  skuWithProducts: {
    description: 'a SKU with offers (not future, shop_count above 0), the most shops among those of a leaf',
    checkHint: async (id, w) => (await w.items(pathOf('GET /skus/:id/products', { id }), 'products')).length > 0,
    find: (w, need) => skuFromLeaves(w, need, (skus) => most(skus, 'shop_count', (s) => s['future'] !== true)),
  },
  skuWithReviews: {
    description: 'a SKU with reviews (reviews_count above 0), the most reviewed among those of a leaf',
    checkHint: async (id, w) => (await w.items(pathOf('GET /skus/:id/reviews', { id }), 'reviews')).length > 0,
    find: (w, need) => skuFromLeaves(w, need, (skus) => most(skus, 'reviews_count')),
  },
  manufacturerWithSkus: {
    description:
      'a manufacturer with SKUs: the first of GET /manufacturers (of the first few) whose SKU and category listings hold 2 or more each (the manufacturers, pagination and fieldsets suites then share their first pages); else the one of most SKUs of a leaf category',
    checkHint: async (id, w) => (await w.items(pathOf('GET /manufacturers/:id/skus', { id }), 'skus')).length > 0,
    find: async (w, need) => {
      for (const m of (await w.items(pathOf('GET /manufacturers'), 'manufacturers')).slice(0, CANDIDATES_ASKED)) {
        const id = m['id'] as number;
        if (
          (await w.items(pathOf('GET /manufacturers/:id/skus', { id }), 'skus')).length >= 2 &&
          (await w.items(pathOf('GET /manufacturers/:id/categories', { id }), 'categories')).length >= 2
        )
          return id;
      }
      const skus = await w.skus(await need('leafCategory'));
      const tally = new Map<number, number>();
      for (const s of skus) if (Number.isInteger(s['manufacturer_id'])) tally.set(s['manufacturer_id'] as number, (tally.get(s['manufacturer_id'] as number) ?? 0) + 1);
      return [...tally.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
    },
  },
  shopWithReviews: {
    description: 'a shop with reviews, among the shops offering a SKU with offers',
    checkHint: async (id, w) => (await w.items(pathOf('GET /shops/:id/reviews', { id }), 'reviews')).length > 0,
    find: async (w, need) => {
      const products = await w.items(pathOf('GET /skus/:id/products', { id: await need('skuWithProducts') }), 'products');
      const shops = [...new Set(products.map((p) => p['shop_id']).filter((id): id is number => Number.isInteger(id)))];
      return fullest(shops, async (id) => (await w.items(pathOf('GET /shops/:id/reviews', { id }), 'reviews')).length);
    },
  },
  favoriteList: {
    description: "a favorite list of the run's user holding favorites (not one the kit made)",
    checkHint: async (id, w) => (await w.answers(pathOf('GET /favorite_lists/:id/favorites', { id }), 'user')) === 200,
    find: async (w) => {
      const lists = (await w.favoriteLists()).filter((l) => !(typeof l['name'] === 'string' && KIT_MADE.test(l['name'])));
      const ids = lists.map((l) => l['id'] as number);
      return (await fullest(ids, async (id) => (await w.favoritesOf(id)).length)) ?? ids[0] ?? null;
    },
  },
  favorite: {
    description: "a favorite of the run's user (the first of the discovered favorite list)",
    checkHint: async (id, w) => (await w.answers(pathOf('GET /favorites/:id', { id }), 'user')) === 200,
    // The list's favorites were asked for when the list was found: no request of its own.
    find: async (w, need) => ((await w.favoritesOf(await need('favoriteList')))[0]?.['id'] as number | undefined) ?? null,
  },
  notification: {
    description: "a notification of the run's user (the first of GET /notifications)",
    checkHint: async (id, w) => (await w.answers(pathOf('GET /notifications/:id', { id }), 'user')) === 200,
    find: async (w) => ((await w.items(pathOf('GET /notifications'), 'notifications', {}, 'user'))[0]?.['id'] as number | undefined) ?? null,
  },
  favoritesCategory: {
    description: "a category of the run's user's favorites (that of an automatic favorite list)",
    checkHint: async (id, w) => (await w.answers(pathOf('GET /categories/:id/favorites', { id }), 'user')) === 200,
    find: async (w) => {
      const lists = (await w.favoriteLists()).filter((l) => Number.isInteger(l['category_id']) && !(typeof l['name'] === 'string' && KIT_MADE.test(l['name'])));
      // An automatic list first: a custom list may name a category too (FAV-1.e), that of one favorite only.
      const list = lists.find((l) => l['type'] === 'auto') ?? lists[0];
      return (list?.['category_id'] as number | undefined) ?? null;
    },
  },
  futureSku: skuOfKind(FUTURE_SKU),
  shopWithUnstructuredLocation: {
    description: 'a shop with an unstructured location (format unstructured), on any page of its locations',
    hintedAs: { key: 'shopWithUnstructuredLocation', resolve: async (id, w, share) => ((await hasUnstructuredLocation(w, id, share)) ? id : null) },
    find: async (w, need, share) => findShopWithUnstructuredLocation(w, await need('skuWithProducts').catch(() => null), share),
  },
} satisfies Record<string, Role>;

/** The keys a hints file may hold: the roles', and the other keys some roles are hinted by. */
export const HINT_KEYS: readonly string[] = Object.entries(ROLES as Record<string, Role>).map(([name, role]) => role.hintedAs?.key ?? name);

/** The roles a suite may ask discovery for (t.discover): a typo is a type error, not a skipped test. */
export type DiscoveryRole = keyof typeof ROLES;

/** Another role's unavailability, carried through the role that needed it. */
class RoleUnavailable extends PrerequisiteMissing {
  override name = 'RoleUnavailable';
}

export class Discovery implements Discoverer {
  readonly #cache = new Map<string, Promise<DiscoveryResult>>();
  readonly #walker: CategoryWalker;
  /** Hints that did not fill their role, for the run summary. */
  readonly wrongHints: string[] = [];

  /** What rare-data searches may spend, all together. */
  readonly share: DiscoveryShare;

  constructor(
    api: ApiClient,
    private readonly hints: Record<string, number> = {},
    maxRequests = DEFAULT_MAX_REQUESTS,
  ) {
    this.#walker = new CategoryWalker(api);
    this.share = new DiscoveryShare(Math.floor(maxRequests * RARE_DATA_SHARE));
    for (const key of Object.keys(hints)) {
      if (!HINT_KEYS.includes(key)) this.wrongHints.push(`${key} is not a hint the kit knows (known: ${HINT_KEYS.join(', ')}); ignored`);
    }
  }

  /** The first page of the user's favorite lists, as the roles read it (one request per run). */
  favoriteListsPage(): Promise<Page> {
    return this.#walker.favoriteListsPage();
  }

  find(role: string): Promise<DiscoveryResult> {
    let result = this.#cache.get(role);
    if (!result) {
      result = this.#find(role);
      this.#cache.set(role, result);
    }
    return result;
  }

  async #need(role: string): Promise<number> {
    const result = await this.find(role);
    if ('unavailable' in result) throw new RoleUnavailable(result.unavailable);
    return result.id;
  }

  async #find(name: string): Promise<DiscoveryResult> {
    const role: Role | undefined = Object.hasOwn(ROLES, name) ? ROLES[name as DiscoveryRole] : undefined;
    if (!role) return { unavailable: `discovery: unknown role ${name}` };
    try {
      const hint = this.hints[role.hintedAs?.key ?? name];
      if (hint !== undefined && role.hintedAs) {
        const id = await role.hintedAs.resolve(hint, this.#walker, this.share).catch(() => null);
        if (id !== null) return { id };
        this.wrongHints.push(`${role.hintedAs.key}=${hint} does not lead to ${role.description}; searched for one`);
      } else if (hint !== undefined && role.checkHint) {
        const fits = await role.checkHint(hint, this.#walker).catch((error: unknown) => {
          if (error instanceof PrerequisiteMissing) throw error;
          return false;
        });
        if (fits) return { id: hint };
        this.wrongHints.push(`${name}=${hint} is not ${role.description}; discovered another`);
      } else if (hint !== undefined && (role.accepts || role.acceptsWith)) {
        const [category, root] = await Promise.all([this.#walker.byId(hint).catch(() => null), this.#walker.root()]);
        const fits = category && (role.accepts ? role.accepts(category, root.id) : await role.acceptsWith!(category, root.id, this.#walker));
        if (fits) return { id: hint };
        this.wrongHints.push(`${name}=${hint} is not ${role.description}; discovered another`);
      }
      const id = await role.find(this.#walker, (other) => this.#need(other), this.share);
      return id === null ? { unavailable: `discovery: the deployment has no ${role.description}` } : { id };
    } catch (error) {
      // No user token (or another role missing): that reason as it is.
      if (error instanceof PrerequisiteMissing || error instanceof RareDataNotFound) return { unavailable: error.message };
      const message = error instanceof Error ? error.message : String(error);
      return { unavailable: `discovery of ${role.description} failed: ${message}` };
    }
  }
}
