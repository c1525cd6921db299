// The rows the fieldsets suite's properties ask (suites/fieldsets.suite.ts): every GET whose answer
// is a resource of the spec's "Resources and their fields", with ids from discovery (the root
// property), and the resources of a known linked name (the link property).
import { isPlainObject } from '../checks/check.ts';
import type { Json } from '../checks/fieldsets.ts';
import { linksSomething, type LinkedResource } from '../checks/fieldsets-links.ts';
import { firstId, idOf, type Answer, type Resource } from '../checks/fieldsets-oracle.ts';
import type { ConformanceContext, DiscoveryRole } from '../harness/conformance.ts';
import { prefixOf, shopSearchTerm } from '../harness/requests.ts';
import { baseline } from './fieldsets-property.ts';

/** Most rows rootRows and DERIVED_ROWS give (each costs one answer without fieldsets, and one example). */
export const ROOT_ROWS = 41;

/** A SKU with offers and its first products (discovery: a bad answer skips). */
async function productsOfASku(t: ConformanceContext): Promise<{ skuId: number; products: Json[] }> {
  const skuId = await t.discover('skuWithProducts');
  const response = await t.api.get(`/skus/${skuId}/products`);
  if (response.status !== 200) return t.skip(`discovery: GET /skus/${skuId}/products answered ${response.status}`);
  const body = response.json<unknown>();
  const products = isPlainObject(body) && Array.isArray(body['products']) ? body['products'].filter(isPlainObject) : [];
  if (!products.length) return t.skip(`discovery: SKU ${skuId} lists no product`);
  return { skuId, products };
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

  const rows: (Resource | null)[] = [
    // Categories
    { endpoint: 'GET /categories', path: '/categories', key: 'categories', single: false, noun: 'category', schema: 'resources/category.json' },
    { endpoint: 'GET /categories/:id', path: `/categories/${leaf}`, key: 'category', single: true, noun: 'category', schema: 'resources/category-detail.json' },
    { endpoint: 'GET /categories/root', path: '/categories/root', key: 'category', single: true, noun: 'category', schema: 'resources/category-detail.json' },
    { endpoint: 'GET /categories/:id/parent', path: `/categories/${leaf}/parent`, key: 'category', single: true, noun: 'category', schema: 'resources/category-detail.json' },
    { endpoint: 'GET /categories/:id/children', path: `/categories/${root}/children`, key: 'categories', single: false, noun: 'category', schema: 'resources/category.json' },
    { endpoint: 'GET /categories/:id/specifications', path: `/categories/${leaf}/specifications`, key: 'specifications', single: false, noun: 'specification', schema: 'resources/specification.json' },
    { endpoint: 'GET /categories/:id/manufacturers', path: `/categories/${leaf}/manufacturers`, key: 'manufacturers', single: false, noun: 'manufacturer', schema: 'resources/manufacturer.json' },
    { endpoint: 'GET /categories/:category_id/filter_groups', path: `/categories/${leaf}/filter_groups`, key: 'filter_groups', single: false, noun: 'filter group', schema: 'resources/filter-group.json' },
    { endpoint: 'GET /categories/:category_id/skus', path: `/categories/${leaf}/skus`, key: 'skus', single: false, noun: 'SKU', schema: 'resources/sku.json' },
    // SKUs, products, reviews
    { endpoint: 'GET /skus/:id/products', path: `/skus/${skuId}/products`, key: 'products', single: false, noun: 'product', schema: 'resources/product.json' },
    { endpoint: 'GET /skus/:id/product_cards', path: `/skus/${skuId}/product_cards`, key: 'product_cards', single: false, noun: 'product card entry', schema: 'resources/product-card.json' },
    { endpoint: 'GET /skus/:id/specifications', path: `/skus/${skuId}/specifications`, key: 'specifications', single: false, noun: 'specification', schema: 'resources/specification.json' },
    { endpoint: 'GET /skus/:id/price_history', path: `/skus/${skuId}/price_history`, key: 'history', single: true, noun: 'price history', schema: 'resources/price-history.json' },
    productId === null ? null : { endpoint: 'GET /products/:id', path: `/products/${productId}`, key: 'product', single: true, noun: 'product', schema: 'resources/product.json' },
    shopId === null || (typeof product['shop_uid'] !== 'string' && typeof product['shop_uid'] !== 'number')
      ? null
      : { endpoint: 'GET /shops/:shop_id/products/search', path: `/shops/${shopId}/products/search`, query: { shop_uid: String(product['shop_uid']) }, key: 'products', single: false, noun: 'product', schema: 'resources/product.json' },
    reviewed === null ? null : { endpoint: 'GET /skus/:id/reviews', path: `/skus/${reviewed}/reviews`, key: 'reviews', single: false, noun: 'review', schema: 'resources/sku-review.json' },
    { endpoint: 'GET /skus/:id/reviews/new', path: `/skus/${skuId}/reviews/new`, key: 'review_form', single: true, noun: 'review form', schema: 'resources/review-form.json', auth: 'user', lazy: true },
    { endpoint: 'GET /flags', path: '/flags', key: 'flags', single: false, noun: 'flag reason', schema: 'resources/flag-reason.json' },
    // Manufacturers and shops
    { endpoint: 'GET /manufacturers', path: '/manufacturers', key: 'manufacturers', single: false, noun: 'manufacturer', schema: 'resources/manufacturer.json' },
    { endpoint: 'GET /manufacturers/:id/categories', path: `/manufacturers/${manufacturer}/categories`, key: 'categories', single: false, noun: 'category', schema: 'resources/category.json' },
    { endpoint: 'GET /manufacturers/:id/skus', path: `/manufacturers/${manufacturer}/skus`, key: 'skus', single: false, noun: 'SKU', schema: 'resources/sku.json' },
    shopId === null ? null : { endpoint: 'GET /shops/:id', path: `/shops/${shopId}`, key: 'shop', single: true, noun: 'shop', schema: 'resources/shop.json' },
    shopId === null ? null : { endpoint: 'GET /shops/:shop_id/locations', path: `/shops/${shopId}/locations`, key: 'locations', single: false, noun: 'location', schema: 'resources/location.json' },
    shopReviewed === null ? null : { endpoint: 'GET /shops/:id/reviews', path: `/shops/${shopReviewed}/reviews`, key: 'reviews', single: false, noun: 'shop review', schema: 'resources/shop-review.json' },
    // The user's own resources, with the run's user token (left out without one).
    { endpoint: 'GET /user', path: '/user', key: 'user', single: true, noun: 'user', schema: 'resources/user.json', auth: 'user' },
    { endpoint: 'GET /user/addresses', path: '/user/addresses', key: 'addresses', single: false, noun: 'address', schema: 'resources/address.json', auth: 'user', shared: true },
    { endpoint: 'GET /user/addresses/new', path: '/user/addresses/new', key: 'address_form', single: true, noun: 'address form', schema: 'resources/address-form.json', auth: 'user', lazy: true },
    { endpoint: 'GET /user/saved_orders', path: '/user/saved_orders', key: 'saved_orders', single: false, noun: 'saved order', schema: 'resources/saved-order.json', auth: 'user', shared: true },
    { endpoint: 'GET /personalization', path: '/personalization', key: 'personalization', single: true, noun: 'personalization', schema: 'resources/personalization.json', auth: 'user', lazy: true },
    { endpoint: 'GET /favorite_lists', path: '/favorite_lists', key: 'favorite_lists', single: false, noun: 'favorite list', schema: 'resources/favorite-list.json', auth: 'user', shared: true },
    favoriteList === null
      ? null
      : { endpoint: 'GET /favorite_lists/:id/favorites', path: `/favorite_lists/${favoriteList}/favorites`, key: 'favorites', single: false, noun: 'favorite', schema: 'resources/favorite.json', auth: 'user', shared: true },
    { endpoint: 'GET /favorites', path: '/favorites', key: 'favorites', single: false, noun: 'favorite', schema: 'resources/favorite.json', auth: 'user', shared: true },
    favoritesCategory === null
      ? null
      : { endpoint: 'GET /categories/:id/favorites', path: `/categories/${favoritesCategory}/favorites`, key: 'favorites', single: false, noun: 'favorite', schema: 'resources/favorite.json', auth: 'user', shared: true },
    { endpoint: 'GET /notifications', path: '/notifications', key: 'notifications', single: false, noun: 'notification', schema: 'resources/notification.json', auth: 'user', shared: true },
    notification === null
      ? null
      : { endpoint: 'GET /notifications/:id', path: `/notifications/${notification}`, key: 'notification', single: true, noun: 'notification', schema: 'resources/notification.json', auth: 'user', shared: true, lazy: true },
  ];
  return rows.filter((r): r is Resource => r !== null);
}

/**
 * Rows asked with what an answer of the first rows gives: a name to search for, an id to ask
 * alone. Keyed by the endpoint of the row whose items they come from.
 */
export const DERIVED_ROWS: Record<string, (items: readonly Json[], from: Resource) => Resource[]> = {
  // The discovered category's name for search, and its first 3 letters for autocomplete, as the
  // search suite asks them (whether they match it is not judged here): the run asks them once.
  'GET /categories/:id': (items) => {
    const name = items[0]?.['name'];
    if (typeof name !== 'string' || name.trim().length < 2) return [];
    return [
      { endpoint: 'GET /search', path: '/search', query: { q: name.trim() }, key: 'categories', single: false, noun: 'category', schema: 'resources/search-category.json' },
      { endpoint: 'GET /autocomplete', path: '/autocomplete', query: { q: prefixOf(name.trim(), 3) }, key: 'autocomplete', single: false, noun: 'suggestion', schema: 'resources/autocomplete-item.json' },
    ];
  },
  // The first listed manufacturer, as the manufacturers suite asks it.
  'GET /manufacturers': (items) => {
    const id = firstId(items);
    return id === null ? [] : [{ endpoint: 'GET /manufacturers/:id', path: `/manufacturers/${id}`, key: 'manufacturer', single: true, noun: 'manufacturer', schema: 'resources/manufacturer.json' }];
  },
  'GET /shops/:id': (items) => {
    const name = items[0]?.['name'];
    const q = typeof name === 'string' ? shopSearchTerm(name) : '';
    return q === '' ? [] : [{ endpoint: 'GET /shops/search', path: '/shops/search', query: { q }, key: 'shops', single: false, noun: 'shop', schema: 'resources/shop.json' }];
  },
  // The second listed when there is one, as the shops suite asks (a location that is not the shop's first).
  'GET /shops/:shop_id/locations': (items, from) => {
    const id = idOf(items[1]?.['id']) ?? firstId(items);
    return id === null ? [] : [{ ...from, endpoint: 'GET /shops/:shop_id/locations/:id', path: `${from.path}/${id}`, key: 'location', single: true }];
  },
  'GET /favorites': (items, from) => {
    const id = firstId(items);
    return id === null ? [] : [{ ...from, endpoint: 'GET /favorites/:id', path: `/favorites/${id}`, key: 'favorite', single: true, lazy: true }];
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
    candidates.push({ endpoint: 'GET /products/:id', path: `/products/${productId}`, key: 'product', single: true, noun: 'product', schema: 'resources/product.json', link: 'shop', linkSchema: 'resources/shop.json' });
  }
  const product = products[0]!;
  const shopId = idOf(product['shop_id']);
  const shopUid = typeof product['shop_uid'] === 'string' || typeof product['shop_uid'] === 'number' ? String(product['shop_uid']) : null;
  candidates.push(
    { endpoint: 'GET /skus/:id/products', path: `/skus/${skuId}/products`, key: 'products', single: false, noun: 'product', schema: 'resources/product.json', link: 'shop', linkSchema: 'resources/shop.json' },
    { endpoint: 'GET /skus/:id/specifications', path: `/skus/${skuId}/specifications`, key: 'specifications', single: false, noun: 'specification', schema: 'resources/specification.json', link: 'group', linkSchema: 'resources/group.json' },
  );
  // Endpoints of later versions (Change history) are asked only when the run's version has them.
  if (t.has('sparse-fieldsets')) {
    candidates.push({ endpoint: 'GET /categories/:id/specifications', path: `/categories/${await t.discover('leafCategory')}/specifications`, key: 'specifications', single: false, noun: 'specification', schema: 'resources/specification.json', link: 'group', linkSchema: 'resources/group.json' });
  }
  if (shopId !== null && shopUid !== null && t.has('shop-product-search')) {
    candidates.push({ endpoint: 'GET /shops/:shop_id/products/search', path: `/shops/${shopId}/products/search`, query: { shop_uid: shopUid }, key: 'products', single: false, noun: 'product', schema: 'resources/product.json', link: 'shop', linkSchema: 'resources/shop.json' });
  }
  const prefetched = await locationsWithAddress(t, skuId, products, candidates, notes);
  return { candidates, prefetched };
}

const locationsOf = (shopId: number): LinkedResource => ({
  endpoint: 'GET /shops/:shop_id/locations',
  path: `/shops/${shopId}/locations`,
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
    candidates.push({ ...r, endpoint: 'GET /shops/:shop_id/locations/:id', path: `${r.path}/${String(located['id'])}`, key: 'location', single: true });
    break;
  }
  if (!prefetched.size) notes.push(`none of ${shopIds.length} shop(s) of SKU ${skuId}'s offers has a location with an address`);
  return prefetched;
}
