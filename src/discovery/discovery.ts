// Finds what a test needs on a deployment whose data the kit has never seen, by walking the API.
// Suites ask for a role ("a leaf category") and never name an id. Results are cached for the run;
// CATALOGUE_FIXTURES hints (role -> id) save the walk, and are checked with one request before use.
import type { ApiClient } from '../harness/api.ts';
import type { DiscoveryResult, Discoverer } from '../coordinator/services.ts';

/** Discovery needs only an id; every other field may be wrong, which is for the suites to judge. */
export interface Category {
  id: number;
  children_count?: unknown;
  parent_id?: unknown;
  [field: string]: unknown;
}

interface Role {
  description: string;
  /** Whether a category fetched by id fills the role (used to check a hint). */
  accepts?: (category: Category, rootId: number) => boolean;
  /** The same, when checking needs more requests. */
  acceptsWith?: (category: Category, rootId: number, walker: CategoryWalker) => Promise<boolean>;
  find: (walker: CategoryWalker) => Promise<number | null>;
}

/** Roles the suites may ask for. Adding one is adding an entry here. */
export const ROLES: Record<string, Role> = {
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
      // Down the first child at each level until a category lists no children.
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
};

export class DiscoveryError extends Error {
  override name = 'DiscoveryError';
}

/** The category walks discovery makes, each answer checked just enough to walk on. */
export class CategoryWalker {
  #root: Promise<Category> | null = null;

  constructor(private readonly api: ApiClient) {}

  root(): Promise<Category> {
    this.#root ??= this.#single('/categories/root');
    return this.#root;
  }

  byId(id: number): Promise<Category> {
    return this.#single(`/categories/${id}`);
  }

  /** The first page of a category's children. */
  async children(id: number): Promise<Category[]> {
    const path = `/categories/${id}/children`;
    const response = await this.api.get(path);
    if (response.status !== 200) throw new DiscoveryError(`GET ${path} answered ${response.status}`);
    const body = response.json<{ categories?: unknown }>();
    if (!Array.isArray(body?.categories)) throw new DiscoveryError(`GET ${path} has no categories array`);
    return body.categories.filter(isCategory);
  }

  async #single(path: string): Promise<Category> {
    const response = await this.api.get(path);
    if (response.status !== 200) throw new DiscoveryError(`GET ${path} answered ${response.status}`);
    const body = response.json<{ category?: unknown }>();
    if (!isCategory(body?.category)) throw new DiscoveryError(`GET ${path} has no category object with an integer id`);
    return body.category;
  }
}

function isCategory(value: unknown): value is Category {
  return typeof value === 'object' && value !== null && Number.isInteger((value as Category).id);
}

export class Discovery implements Discoverer {
  readonly #cache = new Map<string, Promise<DiscoveryResult>>();
  readonly #walker: CategoryWalker;
  /** Hints that did not fill their role, for the run summary. */
  readonly wrongHints: string[] = [];

  constructor(
    api: ApiClient,
    private readonly hints: Record<string, number> = {},
  ) {
    this.#walker = new CategoryWalker(api);
  }

  find(role: string): Promise<DiscoveryResult> {
    let result = this.#cache.get(role);
    if (!result) {
      result = this.#find(role);
      this.#cache.set(role, result);
    }
    return result;
  }

  async #find(name: string): Promise<DiscoveryResult> {
    const role = ROLES[name];
    if (!role) return { unavailable: `discovery: unknown role ${name}` };
    try {
      const hint = this.hints[name];
      if (hint !== undefined && (role.accepts || role.acceptsWith)) {
        const [category, root] = await Promise.all([this.#walker.byId(hint).catch(() => null), this.#walker.root()]);
        const fits = category && (role.accepts ? role.accepts(category, root.id) : await role.acceptsWith!(category, root.id, this.#walker));
        if (fits) return { id: hint };
        this.wrongHints.push(`${name}=${hint} is not ${role.description}; discovered another`);
      }
      const id = await role.find(this.#walker);
      return id === null ? { unavailable: `discovery: the deployment has no ${role.description}` } : { id };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { unavailable: `discovery of ${role.description} failed: ${message}` };
    }
  }
}
