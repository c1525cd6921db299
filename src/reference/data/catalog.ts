// The read-only catalogue but the shops (shops.ts): manufacturers, specification groups and
// definitions, SKUs, products, filter groups, and the SKU fields that come from the reviews
// (made in reviews.ts).

import type {
  CategoryRecord,
  FilterGroupRecord,
  ManufacturerRecord,
  ProductRecord,
  ProductSize,
  ShopRecord,
  SkuRecord,
  SkuReviewRecord,
  SpecGroupRecord,
  SpecificationRecord,
} from '../model.ts';
import { DAY_MS, round1, round2, slug, ts, type GenContext, type Rnd } from './context.ts';

/** A SKU whose addedAt is less than this many days before the clock has no price history (routes/skus.ts). */
export const TOO_NEW_DAYS = 7;

export function makeManufacturers(ctx: GenContext): Map<number, ManufacturerRecord> {
  const rnd = ctx.stream('manufacturers');
  const out = new Map<number, ManufacturerRecord>();
  for (const name of ctx.names.manufacturers) {
    const id = ctx.ids.next('manufacturer');
    out.set(id, {
      id,
      name,
      image_url: rnd.chance(0.2) ? null : ctx.url('img', `/manufacturers/${id}.png`),
      popularity: rnd.int(1, 10_000),
      // A few OEMs, so that the tiles-layout rule (Change history 3.2.0) has something to hide.
      oem: rnd.chance(0.15),
    });
  }
  return out;
}

export function makeSpecGroups(ctx: GenContext): Map<number, SpecGroupRecord> {
  const out = new Map<number, SpecGroupRecord>();
  ctx.names.specGroups.forEach((name, i) => {
    const id = ctx.ids.next('spec_group');
    out.set(id, { id, name, order: i + 1 });
  });
  return out;
}

/** 4-7 definitions per leaf from the pool, ordered by group then pool position. */
export function makeSpecifications(
  ctx: GenContext,
  leaves: readonly CategoryRecord[],
  groups: ReadonlyMap<number, SpecGroupRecord>,
): { specs: Map<number, SpecificationRecord>; values: Map<number, string[]> } {
  const rnd = ctx.stream('specifications');
  const groupByName = new Map([...groups.values()].map((g) => [g.name, g]));
  const pool = ctx.names.specPool;
  const specs = new Map<number, SpecificationRecord>();
  const values = new Map<number, string[]>();
  for (const leaf of leaves) {
    const chosen = rnd
      .sample(
        pool.map((_, i) => i),
        rnd.int(4, 7),
      )
      .sort((a, b) => groupByName.get(pool[a]!.group)!.order - groupByName.get(pool[b]!.group)!.order || a - b);
    chosen.forEach((poolIndex, i) => {
      const entry = pool[poolIndex]!;
      const id = ctx.ids.next('specification');
      specs.set(id, { id, name: entry.name, order: i + 1, unit: entry.unit, groupId: groupByName.get(entry.group)!.id, categoryId: leaf.id });
      values.set(id, entry.values);
    });
  }
  return { specs, values };
}

type SkuKind = 'normal' | 'future' | 'too_new';

/** How many SKUs a leaf gets and which kind each is: the big leaf has more than 25. */
function skuPlan(ctx: GenContext, rnd: Rnd, leaf: CategoryRecord, isBig: boolean): SkuKind[] {
  const count = isBig ? (ctx.name === 'default' ? 32 : 29) : ctx.name === 'default' ? rnd.int(2, 7) : rnd.int(1, 6);
  return Array.from({ length: count }, (_, i): SkuKind => {
    if (i === 0) return 'normal'; // every leaf has at least one SKU with products
    if (isBig && i === count - 1) return 'future';
    if (isBig && i === count - 2) return 'too_new';
    const r = rnd.next();
    return r < 0.08 ? 'future' : r < 0.16 ? 'too_new' : 'normal';
  });
}

function ean(rnd: Rnd): string {
  const digits = Array.from({ length: 12 }, () => rnd.int(0, 9));
  const sum = digits.reduce((s, d, i) => s + d * (i % 2 === 0 ? 1 : 3), 0);
  return [...digits, (10 - (sum % 10)) % 10].join('');
}

export function makeSkus(
  ctx: GenContext,
  leaves: readonly CategoryRecord[],
  manufacturers: ReadonlyMap<number, ManufacturerRecord>,
  specs: ReadonlyMap<number, SpecificationRecord>,
  specValues: ReadonlyMap<number, string[]>,
): Map<number, SkuRecord> {
  const rnd = ctx.stream('skus');
  const mans = [...manufacturers.values()];
  const specsByLeaf = new Map<number, SpecificationRecord[]>();
  for (const s of specs.values()) specsByLeaf.set(s.categoryId, [...(specsByLeaf.get(s.categoryId) ?? []), s]);
  const out = new Map<number, SkuRecord>();
  const usedNames = new Set<string>();
  for (const leaf of leaves) {
    const plan = skuPlan(ctx, rnd, leaf, leaf.name === ctx.names.bigLeaf);
    for (const kind of plan) {
      const id = ctx.ids.next('sku');
      const { man, model } = skuModel(ctx, rnd, mans, usedNames);
      const values = skuSpecValues(rnd, specsByLeaf.get(leaf.id) ?? [], specValues);
      out.set(id, skuRecord(ctx, rnd, { id, kind, leaf, man, model, values, summary: specSummary(values, specs) }));
    }
  }
  return out;
}

/** A manufacturer and a model name no other SKU of it has. */
function skuModel(ctx: GenContext, rnd: Rnd, mans: readonly ManufacturerRecord[], usedNames: Set<string>): { man: ManufacturerRecord; model: string } {
  const man = rnd.pick(mans);
  let model = '';
  do model = `${rnd.pick(ctx.names.series)} ${rnd.int(1, 99) * 10}`;
  while (usedNames.has(`${man.id} ${model}`));
  usedNames.add(`${man.id} ${model}`);
  return { man, model };
}

/** A SKU's values of its leaf's specifications: two ports, one value of every other. */
function skuSpecValues(rnd: Rnd, leafSpecs: readonly SpecificationRecord[], specValues: ReadonlyMap<number, string[]>): Map<number, string[]> {
  const values = new Map<number, string[]>();
  for (const spec of leafSpecs) {
    const pool = specValues.get(spec.id) ?? [];
    values.set(spec.id, spec.name === 'Ports' ? rnd.sample(pool, 2) : [rnd.pick(pool)]);
  }
  return values;
}

/** plain_spec_summary: the first three specification values. */
function specSummary(values: ReadonlyMap<number, string[]>, specs: ReadonlyMap<number, SpecificationRecord>): string {
  return [...values.entries()]
    .slice(0, 3)
    .map(([sid, v]) => {
      const s = specs.get(sid)!;
      return `${s.name}: ${v.join('/')}${s.unit ? ` ${s.unit}` : ''}`;
    })
    .join(', ');
}

interface SkuDraft {
  id: number;
  kind: SkuKind;
  leaf: CategoryRecord;
  man: ManufacturerRecord;
  model: string;
  values: Map<number, string[]>;
  summary: string;
}

/** The SKU record; its prices, counts and filters are filled in later (from products, reviews, filter groups). */
function skuRecord(ctx: GenContext, rnd: Rnd, d: SkuDraft): SkuRecord {
  const { id, kind, leaf, man, model, summary } = d;
  const displayName = `${man.name} ${model}`;
  const full = rnd.chance(0.15)
    ? null
    : `The ${displayName} is a ${leaf.name.toLowerCase()} product by ${man.name}. ${summary}. ` +
      `It ships with a ${rnd.pick(['quick start guide', 'two-year warranty card', 'carry pouch', 'recyclable box'])} and is ` +
      `${rnd.pick(['built to last', 'designed for everyday use', 'a popular choice in its range', 'our editors\u2019 pick'])}.`;
  const addedAt =
    kind === 'too_new'
      ? ctx.now - rnd.int(1, (TOO_NEW_DAYS - 4) * 24) * 3_600_000 // within the last 3 days
      : kind === 'future'
        ? ctx.now - rnd.int(1, 20) * DAY_MS
        : ctx.now - rnd.int(30, 900) * DAY_MS;
  return {
    id,
    ean: rnd.chance(0.1) ? '' : ean(rnd),
    pn: rnd.chance(0.3) ? `${model.replace(' ', '-').toUpperCase()}, ${model.replace(' ', '').toUpperCase()}` : model.replace(' ', '-').toUpperCase(),
    name: model,
    display_name: displayName,
    category_id: leaf.id,
    first_product_shop_info: null,
    click_url: null,
    price_max: 0,
    price_min: 0,
    reviewscore: 0,
    shop_count: 0,
    plain_spec_summary: summary,
    manufacturer_id: man.id,
    future: kind === 'future',
    reviews_count: 0,
    virtual: rnd.chance(0.05),
    images: {
      main: ctx.url('img', `/skus/${id}/main.jpg`),
      alternatives: Array.from({ length: rnd.int(0, 3) }, (_, i) => ctx.url('img', `/skus/${id}/alt-${i + 1}.jpg`)),
    },
    web_uri: ctx.url('', `/p/${id}-${slug(displayName)}`),
    comparable: leaf.comparable,
    reviewable: leaf.reviewable,
    name_source: rnd.pick(['manufacturer', 'shop', 'editor']),
    sizes: ctx.names.sizedLeaves.includes(leaf.name) ? [] : null,
    ecommerce_enabled: rnd.chance(0.3),
    unit_price: null,
    description: full === null ? '' : full.length > 80 ? `${full.slice(0, 77).trimEnd()}...` : full,
    fullDescription: full,
    popularity: rnd.int(0, 5000),
    rank: rnd.int(1, 1000),
    addedAt,
    specValues: d.values,
    filterIds: [],
  };
}

function availabilityText(days: number): string {
  if (days === 0) return 'In stock';
  if (days === 1) return 'Ships tomorrow';
  return `Ships in ${days} days`;
}

/** Numeric order of size labels ("40" < "40.5" < "41"). */
export function bySize(a: string, b: string): number {
  return Number(a) - Number(b);
}

/**
 * Products of every SKU that is not future: 1-6 shops each, and for the flagship SKU (first of
 * the big leaf) every shop plus two second offers (so products > shop_count). Then fills the
 * SKU fields that come from its products.
 */
export function makeProducts(
  ctx: GenContext,
  skus: ReadonlyMap<number, SkuRecord>,
  shops: ReadonlyMap<number, ShopRecord>,
  categories: ReadonlyMap<number, CategoryRecord>,
): { products: Map<number, ProductRecord>; flagshipSkuId: number } {
  const rnd = ctx.stream('products');
  const shopList = [...shops.values()];
  const sizeKeys = Object.keys(ctx.names.sizes).sort(bySize);
  const uidCounter = new Map<number, number>(shopList.map((s, i) => [s.id, (i + 1) * 1000 + rnd.int(0, 99) * 10]));
  const bigLeaf = [...categories.values()].find((c) => c.name === ctx.names.bigLeaf && c.childIds.length === 0);
  const flagship = [...skus.values()].find((s) => s.category_id === bigLeaf?.id && !s.future);
  if (!flagship) throw new Error(`dataset ${ctx.name}: big leaf "${ctx.names.bigLeaf}" has no SKU`);
  const out = new Map<number, ProductRecord>();
  const sizedLeavesSeen = new Set<number>();
  for (const sku of skus.values()) {
    if (sku.future) continue;
    // The first SKU of a sized leaf gets many offers, so that the size filter has a choice.
    const sizeShowcase = sku.sizes !== null && !sizedLeavesSeen.has(sku.category_id);
    if (sizeShowcase) sizedLeavesSeen.add(sku.category_id);
    const offers: ShopRecord[] = sku === flagship ? [...shopList, shopList[1]!, shopList[2]!] : rnd.sample(shopList, sizeShowcase ? rnd.int(9, 12) : rnd.int(1, 6));
    const base = ctx.name === 'default' ? Math.exp(rnd.next() * Math.log(1500 / 8)) * 8 : Math.exp(rnd.next() * Math.log(120)) * 1;
    const sized = sku.sizes !== null;
    const skuSizes = new Set<string>();
    for (const shop of offers) {
      const id = ctx.ids.next('product');
      const days = rnd.pick([0, 0, 0, 1, 2, 3, 7, 14]);
      const colour = rnd.pick(ctx.names.colours);
      let sizes: ProductSize[] = [];
      if (sized) {
        const start = rnd.int(0, sizeKeys.length - 3);
        sizes = sizeKeys.slice(start, start + rnd.int(2, 5)).map((value) => ({ value, mapping: { ...ctx.names.sizes[value]! } }));
        for (const s of sizes) skuSizes.add(s.value);
      }
      const uid = uidCounter.get(shop.id)! + 1;
      uidCounter.set(shop.id, uid);
      out.set(id, {
        id,
        name: rnd.chance(0.4) ? `${sku.display_name}, ${colour}` : sku.display_name,
        sku_id: sku.id,
        shop_id: shop.id,
        category_id: sku.category_id,
        availability: availabilityText(days),
        click_url: ctx.url('click', `/r/${id}?shop=${shop.id}`),
        shop_uid: String(uid),
        // About a third of the offers carry an exact shipping cost; the others are priced by the
        // shop's rules and the distance (blp, serializers/product.ts).
        expenses: rnd.chance(0.65) ? null : rnd.money(0, 9.9),
        web_uri: ctx.url('', `/offers/${id}`),
        sizes,
        price: round2(base * (0.85 + rnd.next() * 0.35)),
        immediate_pickup: rnd.chance(0.3),
        color: colour,
        availabilityDays: days,
      });
    }
    if (sized) sku.sizes = [...skuSizes].sort(bySize);
  }
  // Future SKUs of sized leaves announce sizes without offers.
  for (const sku of skus.values()) if (sku.future && sku.sizes !== null) sku.sizes = sizeKeys.slice(2, 6);
  fillFromProducts(ctx, skus, out, shops, categories);
  return { products: out, flagshipSkuId: flagship.id };
}

/** price_min/max, shop_count, click_url, first_product_shop_info and unit_price from the products. */
function fillFromProducts(
  ctx: GenContext,
  skus: ReadonlyMap<number, SkuRecord>,
  products: ReadonlyMap<number, ProductRecord>,
  shops: ReadonlyMap<number, ShopRecord>,
  categories: ReadonlyMap<number, CategoryRecord>,
): void {
  const rnd = ctx.stream('sku-prices');
  const bySku = new Map<number, ProductRecord[]>();
  for (const p of products.values()) bySku.set(p.sku_id, [...(bySku.get(p.sku_id) ?? []), p]);
  for (const sku of skus.values()) {
    const offers = bySku.get(sku.id) ?? [];
    if (offers.length === 0) continue;
    const cheapest = offers.reduce((a, b) => (b.price < a.price ? b : a));
    sku.price_min = cheapest.price;
    sku.price_max = Math.max(...offers.map((p) => p.price));
    sku.shop_count = new Set(offers.map((p) => p.shop_id)).size;
    sku.click_url = cheapest.click_url;
    // "pipe-separated shop info": shop name | availability | shipping of the cheapest offer.
    const shop = shops.get(cheapest.shop_id)!;
    sku.first_product_shop_info = `${shop.name}|${cheapest.availability}|${cheapest.expenses === null ? 'shipping from shop' : `shipping ${cheapest.expenses.toFixed(2)}`}`;
    if (rnd.chance(0.4)) {
      const qty = rnd.pick([0.25, 0.5, 1, 2, 6]);
      sku.unit_price = `${(sku.price_min / qty).toFixed(2)} ${categories.get(sku.category_id)!.unitPriceLabel}`;
    }
  }
}

/**
 * Filter groups of each leaf: price bands (0), keywords (1), one or two spec values (2, 3),
 * customer rating (4, a range on reviewscore) and sizes (5, sized leaves). The SKUs'
 * filterIds are set by assignFilters once review scores are known.
 */
export function makeFilterGroups(
  ctx: GenContext,
  leaves: readonly CategoryRecord[],
  specs: ReadonlyMap<number, SpecificationRecord>,
  specValues: ReadonlyMap<number, string[]>,
): Map<number, FilterGroupRecord> {
  const rnd = ctx.stream('filter-groups');
  const out = new Map<number, FilterGroupRecord>();
  const bands = ctx.names.priceBands;
  const sizeKeys = Object.keys(ctx.names.sizes).sort(bySize);
  const specsByLeaf = new Map<number, SpecificationRecord[]>();
  for (const s of specs.values()) specsByLeaf.set(s.categoryId, [...(specsByLeaf.get(s.categoryId) ?? []), s]);
  for (const leaf of leaves) {
    const leafSpecs = specsByLeaf.get(leaf.id) ?? [];
    const add = (name: string, filterType: number, labels: string[], hint: string): void => {
      const id = ctx.ids.next('filter_group');
      const created = rnd.chance(0.25) ? null : ctx.now - rnd.int(100, 1500) * DAY_MS;
      const updated = created === null || rnd.chance(0.3) ? null : created + rnd.int(1, 90) * DAY_MS;
      const filters = new Map<number, string>();
      for (const label of labels) filters.set(ctx.ids.next('filter'), label);
      out.set(id, {
        id,
        name,
        // Keyword groups are sometimes switched off by the editors.
        active: filterType !== 1 || rnd.chance(0.7),
        category_id: leaf.id,
        created_at: created === null ? null : ts(created),
        updated_at: updated === null ? null : ts(updated),
        hint,
        combined: filterType === 1 || filterType === 5,
        filter_type: filterType,
        filters,
      });
    };
    add('Price', 0, [`Up to ${bands[0]}`, ...bands.slice(1).map((b, i) => `${bands[i]} - ${b}`), `Over ${bands[bands.length - 1]}`], 'Lowest price of the SKU');
    if (rnd.chance(0.7)) add('Keywords', 1, rnd.sample(ctx.names.keywords, rnd.int(2, ctx.names.keywords.length)), 'Matches product names');
    leafSpecs.slice(0, 2).forEach((spec, i) => {
      add(spec.name, i === 0 ? 2 : 3, specValues.get(spec.id) ?? [], spec.unit ? `In ${spec.unit}` : '');
    });
    add('Customer rating', 4, ['4 and up', '3 and up', '2 and up'], 'Average review score');
    if (ctx.names.sizedLeaves.includes(leaf.name)) add('Size', 5, sizeKeys, 'Shop sizes');
  }
  return out;
}

/** Which filters each SKU matches: its price band, random keywords, its spec values, its rating and its sizes. */
export function assignFilters(
  ctx: GenContext,
  skus: ReadonlyMap<number, SkuRecord>,
  groups: ReadonlyMap<number, FilterGroupRecord>,
  specs: ReadonlyMap<number, SpecificationRecord>,
): void {
  const rnd = ctx.stream('sku-filters');
  const bands = ctx.names.priceBands;
  const groupsByLeaf = new Map<number, FilterGroupRecord[]>();
  for (const g of groups.values()) groupsByLeaf.set(g.category_id, [...(groupsByLeaf.get(g.category_id) ?? []), g]);
  const specByLeafAndName = new Map<string, SpecificationRecord>();
  for (const s of specs.values()) specByLeafAndName.set(`${s.categoryId}/${s.name}`, s);
  for (const sku of skus.values()) {
    const ids: number[] = [];
    for (const g of groupsByLeaf.get(sku.category_id) ?? []) {
      const entries = [...g.filters.entries()];
      if (g.filter_type === 0) {
        if (sku.future) continue;
        const band = bands.findIndex((b) => sku.price_min <= b);
        ids.push(entries[band === -1 ? bands.length : band]![0]);
      } else if (g.filter_type === 1) {
        for (const [fid] of entries) if (rnd.chance(0.35)) ids.push(fid);
      } else if (g.filter_type === 2 || g.filter_type === 3) {
        const spec = specByLeafAndName.get(`${sku.category_id}/${g.name}`);
        const values = spec ? (sku.specValues.get(spec.id) ?? []) : [];
        for (const [fid, label] of entries) if (values.includes(label)) ids.push(fid);
      } else if (g.filter_type === 4) {
        const thresholds = [4, 3, 2];
        entries.forEach(([fid], i) => {
          if (sku.reviews_count > 0 && sku.reviewscore >= thresholds[i]!) ids.push(fid);
        });
      } else if (g.filter_type === 5) {
        for (const [fid, label] of entries) if (sku.sizes?.includes(label)) ids.push(fid);
      }
    }
    sku.filterIds = ids.sort((a, b) => a - b);
  }
}

/** reviews_count and reviewscore (mean rating, 1 decimal) of each SKU from its reviews. */
export function applySkuReviews(skus: ReadonlyMap<number, SkuRecord>, reviews: Iterable<SkuReviewRecord>): void {
  const ratings = new Map<number, number[]>();
  for (const r of reviews) ratings.set(r.sku_id, [...(ratings.get(r.sku_id) ?? []), r.rating]);
  for (const sku of skus.values()) {
    const list = ratings.get(sku.id) ?? [];
    sku.reviews_count = list.length;
    sku.reviewscore = list.length === 0 ? 0 : round1(list.reduce((a, b) => a + b, 0) / list.length);
  }
}
