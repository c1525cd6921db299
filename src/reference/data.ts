// Reference data: deterministic datasets generated from a seed.
//
// The category tree's shape and names come from fixtures/reference/category-trees.json (one
// name tree per dataset); ids and every other attribute come from a seeded PRNG, so a dataset
// is the same on every start. Each startReference() gets its own Dataset object, so later
// resources that change state (favorites, reviews...) can keep it here without leaking
// between servers.
//
// The rest of the catalogue and the users' records are made by data/catalog.ts, data/shops.ts,
// data/people.ts, data/reviews.ts and data/favorites.ts, with names from
// fixtures/reference/catalog-names.json. Timestamps are
// relative to `now` (the server clock at start): the same clock gives the same dataset.
//
// 'default': ids 1, 2, 3... in depth-first order; 59 categories, 5 levels (root + 4), the
//            "Home & Garden" category has 28 children. Other kinds: consecutive ids from a
//            base per kind (manufacturer 1001, shop 2001, sku 10001, product 20001, user
//            40001...; see data/context.ts).
// 'alt':     ids from 5000 with irregular steps (never overlapping 'default'); 61 categories,
//            5 levels, "Groceries" has 31 children. Other kinds: bases 310000 and up, steps of
//            1-13.
//
// Rough sizes (default / alt; for reasoning, never for tests): 40/33 manufacturers, 32/28
// shops, ~100 locations (one shop with 28/27), ~150/~135 shop reviews (one shop with 31/28),
// ~240/~210 SKUs (the big leaf "Smartphones"/"Coffee" with 32/29), ~790/~710 products (one
// SKU with 34/30), 44/38 users, ~335/~275 SKU reviews (one SKU with 34/27), 32/29
// notifications and 40/38 favorites (7 lists) of the demo user.
//
// Ids of records created by requests: ds.nextId(kind) with a kind of IdKind ('favorite',
// 'favorite_list', 'sku_review', 'vote', 'flag', 'address', 'notification'...), which starts
// just above the largest generated id of that kind. Auto favorite lists have NEGATIVE ids:
// nextId('auto_list') returns -(|smallest generated|+1), then counts further down. Unknown
// kinds count from 900001.

import { readFileSync } from 'node:fs';
import type {
  AddressRecord,
  CategoryRecord,
  FavoriteListRecord,
  FavoriteRecord,
  FilterGroupRecord,
  FlagReason,
  FlagRecord,
  LayoutMode,
  LocationRecord,
  ManufacturerRecord,
  NotificationRecord,
  PersonalizationRecord,
  ProductRecord,
  ReviewQuestionRecord,
  SavedOrderRecord,
  ShopRecord,
  ShopReviewRecord,
  SkuRecord,
  SkuReviewRecord,
  SpecGroupRecord,
  SpecificationRecord,
  UserRecord,
  VoteRecord,
} from './model.ts';
import { DAY_MS, makeContext, prng, Rnd, slug, type DatasetName, type GenContext, type IdKind } from './data/context.ts';
import { applySkuReviews, assignFilters, makeFilterGroups, makeManufacturers, makeProducts, makeSkus, makeSpecGroups, makeSpecifications, TOO_NEW_DAYS } from './data/catalog.ts';
import { makeFavorites, makeNotifications } from './data/favorites.ts';
import { makeAddresses, makeAvatars, makePersonalization, makeRegions, makeSavedOrders, makeUsers } from './data/people.ts';
import { applyUserStats, FLAG_REASONS, makeFlags, makeReviewQuestions, makeShopReviews, makeSkuReviews, makeVotes } from './data/reviews.ts';
import { applyShopReviews, centreOf, makeLocations, makeShops, regionCentres, type Point } from './data/shops.ts';

export { TOO_NEW_DAYS } from './data/catalog.ts';
export { PAYMENT_METHODS } from './data/shops.ts';
export type { Point } from './data/shops.ts';
export { geocodeAddress, type GeocodeInput } from './data/people.ts';
export { SKU_EMBED_ETYPES } from './data/favorites.ts';
export { FLAG_REASONS, sentimentsFromAnswers } from './data/reviews.ts';
export { prng } from './data/context.ts';
export type { DatasetName, IdKind } from './data/context.ts';

export type * from './model.ts';

export const DATASET_NAMES: readonly DatasetName[] = ['default', 'alt'];

export interface Dataset {
  readonly name: DatasetName;
  readonly rootId: number;
  readonly categories: ReadonlyMap<number, CategoryRecord>;
  /** Every category, ordered by id. */
  readonly categoryList: readonly CategoryRecord[];

  // Read-only catalogue (maps keyed by id; lists ordered by id).
  readonly manufacturers: ReadonlyMap<number, ManufacturerRecord>;
  readonly shops: ReadonlyMap<number, ShopRecord>;
  readonly locations: ReadonlyMap<number, LocationRecord>;
  readonly shopReviews: ReadonlyMap<number, ShopReviewRecord>;
  readonly skus: ReadonlyMap<number, SkuRecord>;
  readonly products: ReadonlyMap<number, ProductRecord>;
  readonly specGroups: ReadonlyMap<number, SpecGroupRecord>;
  /** Specification definitions of leaf categories. */
  readonly specifications: ReadonlyMap<number, SpecificationRecord>;
  readonly filterGroups: ReadonlyMap<number, FilterGroupRecord>;
  /** The review form's questions (the same for every SKU). */
  readonly reviewQuestions: readonly ReviewQuestionRecord[];
  readonly flagReasons: readonly FlagReason[];
  /** Region name -> region id (address form). */
  readonly regions: Readonly<Record<string, number>>;
  /**
   * Region name -> where the region lies (data/shops.ts regionCentres): the geocoder places an
   * address near its region's point; the regions tile the map, so regions lie far apart.
   */
  readonly regionCentres: Readonly<Record<string, Point>>;
  /** Avatar preset URIs (GET /user/avatars); the file name is the last path segment. */
  readonly avatars: readonly string[];
  /** Newest first. */
  readonly savedOrders: readonly SavedOrderRecord[];
  /** The user every authorization-code token belongs to (the one who consents). */
  readonly demoUserId: number;

  // Mutable state of this server (requests change it).
  readonly users: Map<number, UserRecord>;
  readonly skuReviews: Map<number, SkuReviewRecord>;
  readonly votes: Map<number, VoteRecord>;
  readonly flags: Map<number, FlagRecord>;
  readonly addresses: Map<number, AddressRecord>;
  /** user id -> personalization. */
  readonly personalization: Map<number, PersonalizationRecord>;
  readonly favoriteLists: Map<number, FavoriteListRecord>;
  readonly favorites: Map<number, FavoriteRecord>;
  readonly notifications: Map<number, NotificationRecord>;
  /**
   * Next id for a record created by a request, per kind (an IdKind, e.g. nextId('favorite')):
   * above every generated id of the kind; nextId('auto_list') is negative and decreasing.
   */
  nextId(kind: IdKind | (string & {})): number;
  /** The clock (ms) the dataset was generated for, truncated to whole seconds. */
  readonly generatedAt: number;
}

interface GeneratorConfig {
  seed: number;
  firstId: number;
  /** Each next id is previous + 1 + rnd(0..maxExtraStep). */
  maxExtraStep: number;
  /** Family ids are familyBase + index of the top-level ancestor (root: familyBase). */
  familyBase: number;
  webUri: (id: number, code: string) => string;
  imageUrl: (id: number) => string;
}

const CONFIGS: Record<DatasetName, GeneratorConfig> = {
  default: {
    seed: 0x0c47a106,
    firstId: 1,
    maxExtraStep: 0,
    familyBase: 100,
    webUri: (id, code) => `https://www.catalogue.example/cat/${id}-${code}`,
    imageUrl: (id) => `https://img.catalogue.example/categories/${id}.jpg`,
  },
  alt: {
    seed: 0x5eed5000,
    firstId: 5000,
    maxExtraStep: 12,
    familyBase: 900,
    webUri: (id, code) => `https://alt.catalogue.example/c/${code}/${id}`,
    imageUrl: (id) => `https://cdn.alt.catalogue.example/img/c${id}.png`,
  },
};

type NameTree = { [name: string]: NameTree };

function isNameTree(v: unknown): v is NameTree {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(isNameTree);
}

let treesCache: Record<string, unknown> | undefined;
function loadNameTree(name: DatasetName): NameTree {
  if (!treesCache) {
    const url = new URL('../../fixtures/reference/category-trees.json', import.meta.url);
    treesCache = JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
  }
  const tree = treesCache[name];
  if (!isNameTree(tree) || Object.keys(tree).length !== 1) {
    throw new Error(`fixtures/reference/category-trees.json: "${name}" must be an object with exactly one root`);
  }
  return tree;
}

const LAYOUTS: readonly LayoutMode[] = ['list', 'tiles', 'wide_tiles'];
const MANUFACTURER_TITLES = ['Manufacturer', 'Manufacturer', 'Brand', 'Maker'] as const;
const UNIT_PRICE_LABELS = ['per piece', 'per kg', 'per litre', 'per metre', 'per pack'] as const;

/**
 * Builds a fresh dataset for a server whose clock reads `now` (ms) at start; the same name and
 * `now` give a deep-equal dataset.
 */
export function createDataset(name: DatasetName = 'default', now: number = Date.now()): Dataset {
  const cfg = CONFIGS[name];
  const rnd = new Rnd(prng(cfg.seed));
  const tree = loadNameTree(name);
  const records: CategoryRecord[] = [];
  let nextId = cfg.firstId;

  // Depth-first, pre-order: a category's id is smaller than its descendants' ids.
  const build = (nodeName: string, subtree: NameTree, parentPath: readonly number[], family: number): number => {
    const id = nextId;
    nextId += 1 + Math.floor(rnd.next() * (cfg.maxExtraStep + 1));
    const depth = parentPath.length;
    const pathIds = [...parentPath, id];
    const code = slug(nodeName);
    const childNames = Object.keys(subtree);
    const isLeaf = childNames.length === 0;
    // Attributes drawn in a fixed order, before the children, so the result is deterministic.
    const attrs = {
      imageUrl: rnd.chance(0.3) ? null : cfg.imageUrl(id),
      fashion: rnd.chance(0.2),
      layoutMode: rnd.pick(LAYOUTS),
      showSpecifications: isLeaf ? true : rnd.chance(0.5),
      manufacturerTitle: rnd.pick(MANUFACTURER_TITLES),
      showManufacturersFilter: rnd.chance(0.7),
      adult: rnd.chance(0.05) && depth > 0, // the root is never adult: it would hide the whole tree before 3.2.0
      showSpecSummary: rnd.chance(0.6),
      unitPriceLabel: rnd.pick(UNIT_PRICE_LABELS),
      reviewable: rnd.chance(0.8),
      comparable: rnd.chance(0.7),
    };
    const index = records.length;
    records.push(undefined as unknown as CategoryRecord); // placeholder keeps pre-order position
    const childIds: number[] = [];
    childNames.forEach((childName, i) => {
      const childFamily = depth === 0 ? cfg.familyBase + i + 1 : family;
      childIds.push(build(childName, subtree[childName]!, pathIds, childFamily));
    });
    records[index] = Object.freeze({
      id,
      name: nodeName,
      parentId: depth === 0 ? 0 : parentPath[parentPath.length - 1]!,
      childIds: Object.freeze(childIds),
      depth,
      pathIds: Object.freeze(pathIds),
      code,
      webUri: cfg.webUri(id, code),
      familyId: family,
      onclickBehaviour: isLeaf ? 'show_skus' : 'show_children',
      ...attrs,
    });
    return id;
  };

  const [rootName, rootTree] = Object.entries(tree)[0]!;
  const rootId = build(rootName, rootTree, [], cfg.familyBase);
  const categoryList = Object.freeze([...records].sort((a, b) => a.id - b.id));
  return Object.freeze({
    name,
    rootId,
    categories: new Map(categoryList.map((c) => [c.id, c])),
    categoryList,
    ...generateRest(name, cfg, categoryList, now),
  });
}

type Rest = Omit<Dataset, 'name' | 'rootId' | 'categories' | 'categoryList'>;

/** Everything but the categories, in dependency order (each step only reads earlier ones). */
function generateRest(name: DatasetName, cfg: GeneratorConfig, categoryList: readonly CategoryRecord[], now: number): Rest {
  const ctx = makeContext(name, cfg.seed, cfg.maxExtraStep, now);
  const categories = new Map(categoryList.map((c) => [c.id, c]));
  const catalog = generateCatalog(ctx, categoryList, categories);
  const people = generatePeople(ctx, catalog);
  const owned = generateBelongings(ctx, categories, catalog, people);
  return {
    manufacturers: catalog.manufacturers,
    shops: catalog.shops,
    locations: catalog.locations,
    shopReviews: people.shopReviews,
    skus: catalog.skus,
    products: catalog.products,
    specGroups: catalog.specGroups,
    specifications: catalog.specifications,
    filterGroups: catalog.filterGroups,
    reviewQuestions: people.reviewQuestions,
    flagReasons: FLAG_REASONS,
    regions: people.regions,
    regionCentres: owned.centres,
    avatars: people.avatars,
    savedOrders: owned.savedOrders,
    demoUserId: people.demoUserId,
    users: people.users,
    skuReviews: people.skuReviews,
    votes: people.votes,
    flags: people.flags,
    addresses: owned.addresses,
    personalization: owned.personalization,
    favoriteLists: owned.favoriteLists,
    favorites: owned.favorites,
    notifications: owned.notifications,
    nextId: idCounter(generatedIds(categories, catalog, people, owned), (kind) => ctx.ids.base(kind as Exclude<IdKind, 'category'>)),
    generatedAt: ctx.now,
  };
}

/** The read-only catalogue: manufacturers, specifications, shops and locations, SKUs, products, filter groups. */
function generateCatalog(ctx: GenContext, categoryList: readonly CategoryRecord[], categories: ReadonlyMap<number, CategoryRecord>) {
  const leaves = categoryList.filter((c) => c.childIds.length === 0);
  const manufacturers = makeManufacturers(ctx);
  const specGroups = makeSpecGroups(ctx);
  const { specs: specifications, values: specValues } = makeSpecifications(ctx, leaves, specGroups);
  const shops = makeShops(ctx);
  const { locations } = makeLocations(ctx, shops);
  const skus = makeSkus(ctx, leaves, manufacturers, specifications, specValues);
  const { products } = makeProducts(ctx, skus, shops, categories);
  const filterGroups = makeFilterGroups(ctx, leaves, specifications, specValues);
  return { manufacturers, specGroups, specifications, shops, locations, skus, products, filterGroups };
}

type GeneratedCatalog = ReturnType<typeof generateCatalog>;

/** The users, their reviews, votes and flags, and the catalogue fields that come from the reviews. */
function generatePeople(ctx: GenContext, catalog: GeneratedCatalog) {
  const { shops, skus, filterGroups, specifications } = catalog;
  const regions = makeRegions(ctx);
  const avatars = makeAvatars(ctx);
  const reviewQuestions = makeReviewQuestions(ctx);
  const { users, demoUserId } = makeUsers(ctx, avatars);
  const { reviews: shopReviews } = makeShopReviews(ctx, shops, users, demoUserId);
  applyShopReviews(shops, shopReviews.values());
  const { reviews: skuReviews, heavySkuId } = makeSkuReviews(ctx, skus, users, demoUserId, reviewQuestions);
  applySkuReviews(skus, skuReviews.values());
  assignFilters(ctx, skus, filterGroups, specifications);
  const votes = makeVotes(ctx, skuReviews, users, demoUserId, heavySkuId);
  const flags = makeFlags(ctx, skuReviews, users, demoUserId);
  applyUserStats(users, skuReviews, shopReviews);
  return { regions, avatars, reviewQuestions, users, demoUserId, shopReviews, skuReviews, heavySkuId, votes, flags };
}

type GeneratedPeople = ReturnType<typeof generatePeople>;

/** What the users own: addresses, personalization, saved orders, favorite lists and favorites, notifications. */
function generateBelongings(ctx: GenContext, categories: ReadonlyMap<number, CategoryRecord>, catalog: GeneratedCatalog, people: GeneratedPeople) {
  const { skus, shops, products } = catalog;
  const { users, demoUserId, heavySkuId, skuReviews } = people;
  const centre = centreOf(ctx);
  const centres = regionCentres(ctx);
  const addresses = makeAddresses(ctx, users, demoUserId, centre, centres);
  const personalization = makePersonalization(ctx, addresses, users, demoUserId, centre);
  const savedOrders = makeSavedOrders(ctx, products, skus, shops, users, demoUserId);
  const tooNew = [...skus.values()].filter((s) => !s.future && s.addedAt > ctx.now - TOO_NEW_DAYS * DAY_MS).map((s) => s.id);
  const { lists: favoriteLists, favorites } = makeFavorites(ctx, skus, categories, users, demoUserId, heavySkuId, tooNew);
  const notifications = makeNotifications(ctx, skus, favorites, skuReviews, demoUserId);
  return { centres, addresses, personalization, savedOrders, favoriteLists, favorites, notifications };
}

/** The generated records of each kind of id (IdKind), from which nextId counts on. */
function generatedIds(
  categories: ReadonlyMap<number, CategoryRecord>,
  c: GeneratedCatalog,
  p: GeneratedPeople,
  o: ReturnType<typeof generateBelongings>,
): Record<string, ReadonlyMap<number, unknown>> {
  return {
    category: categories,
    manufacturer: c.manufacturers,
    shop: c.shops,
    location: c.locations,
    location_address: new Map([...c.locations.values()].map((l) => [l.address.id, l])),
    shop_review: p.shopReviews,
    sku: c.skus,
    product: c.products,
    spec_group: c.specGroups,
    specification: c.specifications,
    filter_group: c.filterGroups,
    filter: new Map([...c.filterGroups.values()].flatMap((g) => [...g.filters.keys()].map((k) => [k, g] as const))),
    answer: new Map(p.reviewQuestions.flatMap((q) => q.answers.map((a) => [a.id, a] as const))),
    region: new Map(Object.values(p.regions).map((id) => [id, id])),
    user: p.users,
    sku_review: p.skuReviews,
    vote: p.votes,
    flag: p.flags,
    address: o.addresses,
    favorite_list: new Map([...o.favoriteLists].filter(([id]) => id > 0)),
    auto_list: new Map([...o.favoriteLists].filter(([id]) => id < 0)),
    favorite: o.favorites,
    notification: o.notifications,
  };
}

/**
 * nextId: per kind, one above the largest id generated (auto lists: one below the smallest),
 * so a created record never takes a generated id. Unknown kinds count from 900001.
 */
function idCounter(maps: Record<string, ReadonlyMap<number, unknown>>, base: (kind: string) => number): (kind: string) => number {
  const last = new Map<string, number>();
  return (kind) => {
    const down = kind === 'auto_list';
    let prev = last.get(kind);
    if (prev === undefined) {
      const ids = [...(maps[kind]?.keys() ?? [])];
      if (ids.length > 0) prev = down ? Math.min(...ids) : Math.max(...ids);
      else if (kind in maps) prev = base(kind) + (down ? 1 : -1);
      else prev = 900_000;
    }
    const id = down ? prev - 1 : prev + 1;
    last.set(kind, id);
    return id;
  };
}

export function childrenOf(ds: Dataset, id: number): CategoryRecord[] {
  const c = ds.categories.get(id);
  if (!c) return [];
  return c.childIds.map((cid) => ds.categories.get(cid)!);
}
