// The rows the fieldsets suite's properties ask (suites/fieldsets.suite.ts): every GET whose answer
// is a resource of the spec's "Resources and their fields", with ids from discovery (the root
// property), and the resources of a known linked name (the link property).
import { isPlainObject } from '../checks/check.ts';
import type { Json } from '../checks/fieldsets.ts';
import { linksSomething, type LinkedResource } from '../checks/fieldsets-links.ts';
import { firstId, idOf, type Answer, type Resource } from '../checks/fieldsets-oracle.ts';
import type { ConformanceContext, DiscoveryRole } from '../harness/conformance.ts';
import { prefixOf, shopSearchTerm } from '../harness/requests.ts';
import { pathIn, pathOf, type ApiEndpoint, type PathValues } from '../rules/api-paths.ts';
import { baseline } from './fieldsets-property.ts';

/** Most rows rootRows and DERIVED_ROWS give (each costs one answer without fieldsets, and one example). */
export const ROOT_ROWS = 41;

/** A row's endpoint, the values of its :params in order, and the path made from them. */
const rowAt = (endpoint: ApiEndpoint, params: readonly (string | number)[]): Pick<Resource, 'endpoint' | 'params' | 'path'> => ({
  endpoint,
  params,
  path: pathIn(endpoint, params),
});
/** rowAt with the values typed: one per :param of the endpoint. */
const at = <E extends ApiEndpoint>(endpoint: E, ...params: PathValues<E>) => rowAt(endpoint, params);

/** A SKU with offers and its first products (discovery: a bad answer skips). */
async function productsOfASku(t: ConformanceContext): Promise<{ skuId: number; products: Json[] }> {
  const skuId = await t.discover('skuWithProducts');
  const response = await t.api.get(pathOf('GET /skus/:id/products', { id: skuId }));
  if (response.status !== 200) return t.skip(`discovery: GET /skus/${skuId}/products answered ${response.status}`);
  const body = response.json<unknown>();
  const products = isPlainObject(body) && Array.isArray(body['products']) ? body['products'].filter(isPlainObject) : [];
  if (!products.length) return t.skip(`discovery: SKU ${skuId} lists no product`);
  return { skuId, products };
}

/** The ids the root property's rows are asked with: discovery's, null where a role the deployment cannot fill leaves rows out. */
interface RootIds {
  leaf: number;
  root: number;
  manufacturer: number;
  skuId: number;
  /** The first product of the SKU's offers. */
  product: Json;
  productId: number | null;
  shopId: number | null;
  reviewed: number | null;
  shopReviewed: number | null;
  favoriteList: number | null;
  favoritesCategory: number | null;
  notification: number | null;
}

/**
 * The rows of the root property: every GET whose answer is a resource of the spec's "Resources
 * and their fields" (where the general conventions put sparse fieldsets), asked with ids from
 * discovery. A role the deployment cannot fill leaves its rows out.
 */
export async function rootRows(t: ConformanceContext): Promise<Resource[]> {
  const leaf = await t.discover('leafCategory');
  const root = await t.discover('rootCategory');
  const manufacturer = await t.discover('manufacturerWithSkus');
  const { skuId, products } = await productsOfASku(t);
  const product = products[0]!;
  const productId = idOf(product['id']);
  const shopId = idOf(product['shop_id']);
  const optional = async (role: DiscoveryRole): Promise<number | null> => t.discover(role).catch(() => null);
  const reviewed = await optional('skuWithReviews');
  const shopReviewed = await optional('shopWithReviews');
  const favoriteList = await optional('favoriteList');
  const favoritesCategory = await optional('favoritesCategory');
  // Discovery's notification (the first listed, as the oauth suite's probes use it): found now,
  // from the listing the readers got, it costs no request, here or later.
  const notification = await optional('notification');
  const ids: RootIds = { leaf, root, manufacturer, skuId, product, productId, shopId, reviewed, shopReviewed, favoriteList, favoritesCategory, notification };
  return [...catalogRows(ids), ...userRows(ids)].filter((r): r is Resource => r !== null);
}

/** The catalogue's rows: categories; SKUs, products and reviews; manufacturers and shops (null: a row left out). */
function catalogRows({ leaf, root, manufacturer, skuId, product, productId, shopId, reviewed, shopReviewed }: RootIds): (Resource | null)[] {
  return [
    // Categories
    { ...at('GET /categories'), key: 'categories', single: false, noun: 'category', schema: 'resources/category.json' },
    { ...at('GET /categories/:id', leaf), key: 'category', single: true, noun: 'category', schema: 'resources/category-detail.json' },
    { ...at('GET /categories/root'), key: 'category', single: true, noun: 'category', schema: 'resources/category-detail.json' },
    { ...at('GET /categories/:id/parent', leaf), key: 'category', single: true, noun: 'category', schema: 'resources/category-detail.json' },
    { ...at('GET /categories/:id/children', root), key: 'categories', single: false, noun: 'category', schema: 'resources/category.json' },
    { ...at('GET /categories/:id/specifications', leaf), key: 'specifications', single: false, noun: 'specification', schema: 'resources/specification.json' },
    { ...at('GET /categories/:id/manufacturers', leaf), key: 'manufacturers', single: false, noun: 'manufacturer', schema: 'resources/manufacturer.json' },
    { ...at('GET /categories/:category_id/filter_groups', leaf), key: 'filter_groups', single: false, noun: 'filter group', schema: 'resources/filter-group.json' },
    { ...at('GET /categories/:category_id/skus', leaf), key: 'skus', single: false, noun: 'SKU', schema: 'resources/sku.json' },
    // SKUs, products, reviews
    { ...at('GET /skus/:id/products', skuId), key: 'products', single: false, noun: 'product', schema: 'resources/product.json' },
    { ...at('GET /skus/:id/product_cards', skuId), key: 'product_cards', single: false, noun: 'product card entry', schema: 'resources/product-card.json' },
    { ...at('GET /skus/:id/specifications', skuId), key: 'specifications', single: false, noun: 'specification', schema: 'resources/specification.json' },
    { ...at('GET /skus/:id/price_history', skuId), key: 'history', single: true, noun: 'price history', schema: 'resources/price-history.json' },
    productId === null ? null : { ...at('GET /products/:id', productId), key: 'product', single: true, noun: 'product', schema: 'resources/product.json' },
    shopId === null || (typeof product['shop_uid'] !== 'string' && typeof product['shop_uid'] !== 'number')
      ? null
      : {
          ...at('GET /shops/:shop_id/products/search', shopId),
          query: { shop_uid: String(product['shop_uid']) },
          key: 'products',
          single: false,
          noun: 'product',
          schema: 'resources/product.json',
        },
    reviewed === null ? null : { ...at('GET /skus/:id/reviews', reviewed), key: 'reviews', single: false, noun: 'review', schema: 'resources/sku-review.json' },
    { ...at('GET /skus/:id/reviews/new', skuId), key: 'review_form', single: true, noun: 'review form', schema: 'resources/review-form.json', auth: 'user', lazy: true },
    { ...at('GET /flags'), key: 'flags', single: false, noun: 'flag reason', schema: 'resources/flag-reason.json' },
    // Manufacturers and shops
    { ...at('GET /manufacturers'), key: 'manufacturers', single: false, noun: 'manufacturer', schema: 'resources/manufacturer.json' },
    { ...at('GET /manufacturers/:id/categories', manufacturer), key: 'categories', single: false, noun: 'category', schema: 'resources/category.json' },
    { ...at('GET /manufacturers/:id/skus', manufacturer), key: 'skus', single: false, noun: 'SKU', schema: 'resources/sku.json' },
    shopId === null ? null : { ...at('GET /shops/:id', shopId), key: 'shop', single: true, noun: 'shop', schema: 'resources/shop.json' },
    shopId === null ? null : { ...at('GET /shops/:shop_id/locations', shopId), key: 'locations', single: false, noun: 'location', schema: 'resources/location.json' },
    shopReviewed === null ? null : { ...at('GET /shops/:id/reviews', shopReviewed), key: 'reviews', single: false, noun: 'shop review', schema: 'resources/shop-review.json' },
  ];
}

/** The user's own resources, with the run's user token (left out without one; null: a row left out). */
function userRows({ favoriteList, favoritesCategory, notification }: RootIds): (Resource | null)[] {
  return [
    { ...at('GET /user'), key: 'user', single: true, noun: 'user', schema: 'resources/user.json', auth: 'user' },
    { ...at('GET /user/addresses'), key: 'addresses', single: false, noun: 'address', schema: 'resources/address.json', auth: 'user', shared: true },
    { ...at('GET /user/addresses/new'), key: 'address_form', single: true, noun: 'address form', schema: 'resources/address-form.json', auth: 'user', lazy: true },
    { ...at('GET /user/saved_orders'), key: 'saved_orders', single: false, noun: 'saved order', schema: 'resources/saved-order.json', auth: 'user', shared: true },
    { ...at('GET /personalization'), key: 'personalization', single: true, noun: 'personalization', schema: 'resources/personalization.json', auth: 'user', lazy: true },
    { ...at('GET /favorite_lists'), key: 'favorite_lists', single: false, noun: 'favorite list', schema: 'resources/favorite-list.json', auth: 'user', shared: true },
    favoriteList === null
      ? null
      : {
          ...at('GET /favorite_lists/:id/favorites', favoriteList),
          key: 'favorites',
          single: false,
          noun: 'favorite',
          schema: 'resources/favorite.json',
          auth: 'user',
          shared: true,
        },
    { ...at('GET /favorites'), key: 'favorites', single: false, noun: 'favorite', schema: 'resources/favorite.json', auth: 'user', shared: true },
    favoritesCategory === null
      ? null
      : {
          ...at('GET /categories/:id/favorites', favoritesCategory),
          key: 'favorites',
          single: false,
          noun: 'favorite',
          schema: 'resources/favorite.json',
          auth: 'user',
          shared: true,
        },
    { ...at('GET /notifications'), key: 'notifications', single: false, noun: 'notification', schema: 'resources/notification.json', auth: 'user', shared: true },
    notification === null
      ? null
      : {
          ...at('GET /notifications/:id', notification),
          key: 'notification',
          single: true,
          noun: 'notification',
          schema: 'resources/notification.json',
          auth: 'user',
          shared: true,
          lazy: true,
        },
  ];
}

/**
 * Rows asked with what an answer of the first rows gives: a name to search for, an id to ask
 * alone. Keyed by the endpoint of the row whose items they come from.
 */
export const DERIVED_ROWS: Partial<Record<ApiEndpoint, (items: readonly Json[], from: Resource) => Resource[]>> = {
  // The discovered category's name for search, and its first 3 letters for autocomplete, as the
  // search suite asks them (whether they match it is not judged here): the run asks them once.
  'GET /categories/:id': (items) => {
    const name = items[0]?.['name'];
    if (typeof name !== 'string' || name.trim().length < 2) return [];
    return [
      { ...at('GET /search'), query: { q: name.trim() }, key: 'categories', single: false, noun: 'category', schema: 'resources/search-category.json' },
      { ...at('GET /autocomplete'), query: { q: prefixOf(name.trim(), 3) }, key: 'autocomplete', single: false, noun: 'suggestion', schema: 'resources/autocomplete-item.json' },
    ];
  },
  // The first listed manufacturer, as the manufacturers suite asks it.
  'GET /manufacturers': (items) => {
    const id = firstId(items);
    return id === null ? [] : [{ ...at('GET /manufacturers/:id', id), key: 'manufacturer', single: true, noun: 'manufacturer', schema: 'resources/manufacturer.json' }];
  },
  'GET /shops/:id': (items) => {
    const name = items[0]?.['name'];
    const q = typeof name === 'string' ? shopSearchTerm(name) : '';
    return q === '' ? [] : [{ ...at('GET /shops/search'), query: { q }, key: 'shops', single: false, noun: 'shop', schema: 'resources/shop.json' }];
  },
  // The second listed when there is one, as the shops suite asks (a location that is not the shop's first): the listing's shop id, then its own.
  'GET /shops/:shop_id/locations': (items, from) => {
    const id = idOf(items[1]?.['id']) ?? firstId(items);
    return id === null ? [] : [{ ...from, ...rowAt('GET /shops/:shop_id/locations/:id', [...(from.params ?? []), id]), key: 'location', single: true }];
  },
  'GET /favorites': (items, from) => {
    const id = firstId(items);
    return id === null ? [] : [{ ...from, ...at('GET /favorites/:id', id), key: 'favorite', single: true, lazy: true }];
  },
};

/** The link property's resources, and the answers with embed=address already asked to find a location. */
export interface LinkCandidates {
  candidates: LinkedResource[];
  prefetched: Map<string, Answer>;
}

/**
 * The resources of a known linked name: a product (shop), a SKU's products (shop) and
 * specifications (group), a category's specifications and a shop's product search when the run's
 * version has them, and the locations (address) of the first shop of the SKU's offers with a
 * location that has an address.
 */
export async function linkCandidates(t: ConformanceContext, notes: string[]): Promise<LinkCandidates> {
  const { skuId, products } = await productsOfASku(t);
  const candidates: LinkedResource[] = [];
  const productId = idOf(products[0]!['id']);
  if (productId !== null) {
    candidates.push({
      ...at('GET /products/:id', productId),
      key: 'product',
      single: true,
      noun: 'product',
      schema: 'resources/product.json',
      link: 'shop',
      linkSchema: 'resources/shop.json',
    });
  }
  const product = products[0]!;
  const shopId = idOf(product['shop_id']);
  const shopUid = typeof product['shop_uid'] === 'string' || typeof product['shop_uid'] === 'number' ? String(product['shop_uid']) : null;
  candidates.push(
    { ...at('GET /skus/:id/products', skuId), key: 'products', single: false, noun: 'product', schema: 'resources/product.json', link: 'shop', linkSchema: 'resources/shop.json' },
    {
      ...at('GET /skus/:id/specifications', skuId),
      key: 'specifications',
      single: false,
      noun: 'specification',
      schema: 'resources/specification.json',
      link: 'group',
      linkSchema: 'resources/group.json',
    },
  );
  // Endpoints of later versions (Change history) are asked only when the run's version has them.
  if (t.has('sparse-fieldsets')) {
    candidates.push({
      ...at('GET /categories/:id/specifications', await t.discover('leafCategory')),
      key: 'specifications',
      single: false,
      noun: 'specification',
      schema: 'resources/specification.json',
      link: 'group',
      linkSchema: 'resources/group.json',
    });
  }
  if (shopId !== null && shopUid !== null && t.has('shop-product-search')) {
    candidates.push({
      ...at('GET /shops/:shop_id/products/search', shopId),
      query: { shop_uid: shopUid },
      key: 'products',
      single: false,
      noun: 'product',
      schema: 'resources/product.json',
      link: 'shop',
      linkSchema: 'resources/shop.json',
    });
  }
  const prefetched = await locationsWithAddress(t, skuId, products, candidates, notes);
  return { candidates, prefetched };
}

const locationsOf = (shopId: number): LinkedResource => ({
  ...at('GET /shops/:shop_id/locations', shopId),
  key: 'locations',
  single: false,
  noun: 'location',
  schema: 'resources/location.json',
  link: 'address',
  linkSchema: 'resources/location-address.json',
});

/** Locations: the first shop of the SKU's offers with a location that has an address (its listing and one location join `candidates`). */
async function locationsWithAddress(t: ConformanceContext, skuId: number, products: readonly Json[], candidates: LinkedResource[], notes: string[]): Promise<Map<string, Answer>> {
  const shopIds = [...new Set(products.map((p) => idOf(p['shop_id'])).filter((id): id is number => id !== null))].slice(0, 3);
  const prefetched = new Map<string, Answer>();
  for (const shopId of shopIds) {
    const r = locationsOf(shopId);
    const answer = await baseline(t, r, { embed: 'address' }, notes);
    if (!answer) continue;
    if (!linksSomething(answer.items, 'address')) continue;
    prefetched.set(r.path, answer);
    candidates.push(r);
    // The second location when it links an address (the one the shops suite asks with embed=address), else the first that does.
    const linking = answer.items.filter((l) => linksSomething([l], 'address') && idOf(l['id']) !== null);
    const located = (linking.includes(answer.items[1]!) ? answer.items[1] : linking[0])!;
    const locatedId = idOf(located['id']); // never null: `linking` holds locations with an id
    if (locatedId !== null) candidates.push({ ...r, ...at('GET /shops/:shop_id/locations/:id', shopId, locatedId), key: 'location', single: true });
    break;
  }
  if (!prefetched.size) notes.push(`none of ${shopIds.length} shop(s) of SKU ${skuId}'s offers has a location with an address`);
  return prefetched;
}
