// The walks discovery makes over a deployment it has never seen: categories, SKU listings, shops'
// locations, the user's lists. Each answer is checked just enough to walk on (an id, an array
// under the expected key): judging it is for the suites. First pages are asked once per run.
import { linkTargets, readPagination } from '../checks/pagination.ts';
import type { ApiClient, Auth } from '../harness/api.ts';
import type { HttpResponse } from '../http/client.ts';
import { pathOf } from '../rules/api-paths.ts';

export type Json = Record<string, unknown>;

/** Discovery needs only an id; every other field may be wrong, which is for the suites to judge. */
export interface Category {
  id: number;
  children_count?: unknown;
  parent_id?: unknown;
  [field: string]: unknown;
}

/** A page of a collection: its items (objects with an integer id) and the URL of the next page, or null. */
export interface Page {
  items: Json[];
  next: string | null;
}

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Pages of GET /categories read at most for the list of leaves (a deployment that caps per below 100). */
const CATEGORY_PAGES = 5;

/** Requests a search may still make, shared by every rare-data role of the run. */
export class DiscoveryShare {
  #spent = 0;
  constructor(readonly limit: number) {}
  get spent(): number {
    return this.#spent;
  }
  get left(): number {
    return Math.max(0, this.limit - this.#spent);
  }
  /** Counts one request; false when none is left (the caller stops). */
  take(): boolean {
    if (this.#spent >= this.limit) return false;
    this.#spent++;
    return true;
  }
}

export class DiscoveryError extends Error {
  override name = 'DiscoveryError';
}

/** The walks discovery makes (categories, SKU listings, the user's lists), each answer checked just enough to walk on. */
export class CategoryWalker {
  #root: Promise<Category> | null = null;

  constructor(private readonly api: ApiClient) {}

  root(): Promise<Category> {
    this.#root ??= this.#single(pathOf('GET /categories/root'));
    return this.#root;
  }

  byId(id: number): Promise<Category> {
    return this.#single(pathOf('GET /categories/:id', { id }));
  }

  /** The first page of a category's children. */
  async children(id: number): Promise<Category[]> {
    const path = pathOf('GET /categories/:id/children', { id });
    const response = await this.api.get(path);
    // A leaf may have no children resource at all (404): what its listing answers is not shown.
    if (response.status === 404) return [];
    if (response.status !== 200) throw new DiscoveryError(`GET ${path} answered ${response.status}`);
    const body = response.json<{ categories?: unknown }>();
    if (!Array.isArray(body?.categories)) throw new DiscoveryError(`GET ${path} has no categories array`);
    return body.categories.filter(isCategory);
  }

  /** The first page of GET /categories (asked once per run). */
  async listed(): Promise<Category[]> {
    return (await this.#once('categories', () => this.items(pathOf('GET /categories'), 'categories'))).filter(isCategory);
  }

  /** The first page of a category's SKU listing (asked once per run). */
  async skus(categoryId: number): Promise<Json[]> {
    return (await this.skuPage(categoryId)).items;
  }

  /** The same, with the URL of the next page. */
  skuPage(categoryId: number): Promise<Page> {
    return this.#oncePage(`skus ${categoryId}`, () => this.page(pathOf('GET /categories/:category_id/skus', { category_id: categoryId }), 'skus'));
  }

  /** Whether the first page of a category's SKU listing was asked already. */
  hasSkuPage(categoryId: number): boolean {
    return this.#pages.has(`skus ${categoryId}`);
  }

  /** Every SKU of the SKU pages read so far. */
  seenSkus(): Promise<Json[]> {
    return Promise.all(
      [...this.#pages.entries()]
        .filter(([key]) => key.startsWith('skus '))
        .map(([, page]) =>
          page.then(
            (p) => p.items,
            () => [] as Json[],
          ),
        ),
    ).then((lists) => lists.flat());
  }

  /** The first page of a SKU's products (asked once per run). */
  async productsOf(skuId: number): Promise<Json[]> {
    return (await this.#oncePage(`products ${skuId}`, () => this.page(pathOf('GET /skus/:id/products', { id: skuId }), 'products'))).items;
  }

  hasProducts(skuId: number): boolean {
    return this.#pages.has(`products ${skuId}`);
  }

  /** A next-page URL's items: only on the API's origin (a URL the server hands over gets no token elsewhere). */
  async pageAt(url: string, key: string, auth: Auth = 'app'): Promise<Page> {
    if (new URL(url).origin !== new URL(this.api.baseUrl).origin) throw new DiscoveryError(`the next page ${url} is on another origin`);
    return this.#pageOf(await this.api.requestUrl('GET', url, { auth }), url, key);
  }

  /**
   * Every leaf category (children_count 0, not the root): GET /categories pages, per=100 (the
   * default page when refused), then the children of listed categories whose children the listing
   * leaves out (a deployment listing the top level only, CAT-1.e). Each request takes the share.
   */
  async allLeaves(share: DiscoveryShare): Promise<number[]> {
    this.#leaves ??= this.#walkLeaves(share);
    return this.#leaves;
  }

  #leaves: Promise<number[]> | null = null;

  async #walkLeaves(share: DiscoveryShare): Promise<number[]> {
    const path = pathOf('GET /categories');
    const categories: Category[] = [];
    if (!share.take()) return [];
    let query: Record<string, number> = { per: 100 };
    let response = await this.api.get(path, { query });
    if ((response.status === 400 || response.status === 422) && share.take()) response = await this.api.get(path, { query: (query = {}) });
    for (let page = 1; ; page++) {
      const read = response.status === 200 ? this.#pageOf(response, response.url, 'categories') : null;
      if (!read) break;
      categories.push(...read.items.filter(isCategory));
      if (!read.next || page === CATEGORY_PAGES || !share.take()) break;
      response = await this.api.requestUrl('GET', read.next, { auth: 'app' });
    }
    const known = new Set(categories.map((c) => c.id));
    const listedChildren = (id: number) => categories.filter((c) => c.parent_id === id).length;
    // Only parents the listing shows fewer children of than children_count says are walked.
    const parents = categories.filter((c) => typeof c.children_count === 'number' && c.children_count > listedChildren(c.id));
    for (let i = 0; i < parents.length && share.take(); i++) {
      for (const child of await this.children(parents[i]!.id).catch(() => [] as Category[])) {
        if (known.has(child.id)) continue;
        known.add(child.id);
        categories.push(child);
        if (typeof child.children_count === 'number' && child.children_count > 0) parents.push(child);
      }
    }
    return categories.filter((c) => c.children_count === 0 && c.parent_id !== 0).map((c) => c.id);
  }

  /** Leaf categories beside `leafId` (children of its parent that list no children themselves by children_count). */
  async siblingLeaves(leafId: number): Promise<number[]> {
    const leaf = await this.byId(leafId);
    if (!Number.isInteger(leaf.parent_id) || leaf.parent_id === 0) return [];
    return (await this.children(leaf.parent_id as number)).filter((c) => c.id !== leafId && c.children_count === 0).map((c) => c.id);
  }

  /** The user's favorite lists, first page (asked once per run, with the user token). */
  async favoriteLists(): Promise<Json[]> {
    return (await this.favoriteListsPage()).items;
  }

  /** The same, with the URL of the page after it (the Link header's rel=next, else page 2 when meta.pagination shows more), or null. */
  favoriteListsPage(): Promise<Page> {
    this.#listsPage ??= this.page(pathOf('GET /favorite_lists'), 'favorite_lists', {}, 'user');
    return this.#listsPage;
  }

  #listsPage: Promise<Page> | null = null;

  /** The first page of a favorite list's favorites (asked once per run, with the user token). */
  favoritesOf(listId: number): Promise<Json[]> {
    return this.#once(`favorites ${listId}`, () => this.items(pathOf('GET /favorite_lists/:id/favorites', { id: listId }), 'favorites', {}, 'user'));
  }

  /** The objects with an integer id under `key` of a 200 answer; a DiscoveryError otherwise. */
  async items(path: string, key: string, query: Record<string, number> = {}, auth: Auth = 'app'): Promise<Json[]> {
    return (await this.page(path, key, query, auth)).items;
  }

  /** `items`, with the URL of the next page (null when the answer shows none). */
  async page(path: string, key: string, query: Record<string, number> = {}, auth: Auth = 'app'): Promise<Page> {
    return this.#pageOf(await this.api.get(path, { query, auth }), path, key);
  }

  #pageOf(response: HttpResponse, path: string, key: string): Page {
    if (response.status !== 200) throw new DiscoveryError(`GET ${path} answered ${response.status}`);
    const body = response.json<Json | null>();
    const list = isObject(body) ? body[key] : undefined;
    if (!Array.isArray(list)) throw new DiscoveryError(`GET ${path} has no ${key} array`);
    const items = list.filter((item): item is Json => isObject(item) && Number.isInteger(item['id']));
    const pagination = readPagination(body);
    const next =
      linkTargets(response.headers, response.url)?.get('next') ?? (pagination && pagination.page < pagination.total_pages ? nextPageUrl(response.url, pagination.page + 1) : null);
    return { items, next };
  }

  /** The status of a GET (a hint check). */
  async answers(path: string, auth: Auth = 'app'): Promise<number> {
    return (await this.api.get(path, { auth })).status;
  }

  readonly #pages = new Map<string, Promise<Page>>();
  #oncePage(key: string, load: () => Promise<Page>): Promise<Page> {
    let result = this.#pages.get(key);
    if (!result) {
      result = load();
      this.#pages.set(key, result);
    }
    return result;
  }

  readonly #memo = new Map<string, Promise<Json[]>>();
  #once(key: string, load: () => Promise<Json[]>): Promise<Json[]> {
    let result = this.#memo.get(key);
    if (!result) {
      result = load();
      this.#memo.set(key, result);
    }
    return result;
  }

  async #single(path: string): Promise<Category> {
    const response = await this.api.get(path);
    if (response.status !== 200) throw new DiscoveryError(`GET ${path} answered ${response.status}`);
    const body = response.json<{ category?: unknown }>();
    if (!isCategory(body?.category)) throw new DiscoveryError(`GET ${path} has no category object with an integer id`);
    return body.category;
  }
}

/** The URL of page `page` of the answer at `url`, its other query parameters kept. */
function nextPageUrl(url: string, page: number): string {
  const next = new URL(url);
  next.searchParams.set('page', String(page));
  return next.toString();
}

export function isCategory(value: unknown): value is Category {
  return typeof value === 'object' && value !== null && Number.isInteger((value as Category).id);
}
