// Spec: Endpoints > SKUs and their products (/skus/:id/products, /skus/:id/product_cards,
// /skus/:id/specifications, /skus/:id/price_history, /products/:id), Resources and their fields >
// Product, Product card, Specification and group, Price history, Personalization, Filter meta,
// General conventions 5-6 (embed, include), Limits > price history window, Change history (3.0.5
// future SKUs, 3.0.23 order on specifications), Errors.
// SKUs come from the category SKU listings of discovered leaves: no id, name or count of any data
// set is written here.
import { describe } from 'vitest';
import { blank, fail, isPlainObject, pass, show, statedValue, typed } from '../src/checks/check.ts';
import { hasCollectionEnvelope, hasSingleEnvelope, hasStatus } from '../src/checks/http.ts';
import { readPagination } from '../src/checks/pagination.ts';
import {
  chooseSizeProbe,
  embedsItsShop,
  finalPriceIncludesCosts,
  finalPriceNullsGrouped,
  historyDatesAreDays,
  historyNotOfAFewDays,
  listWithin,
  offeredFilterValues,
  productsByFinalPrice,
  productsByNetPrice,
  productsHave,
  sizeFilterKeepsExactly,
  specificationsInOrder,
  zeroInstallmentsFalseReading,
  type Json,
} from '../src/checks/products.ts';
import { allOf, type CheckResult } from '../src/checks/check.ts';
import type { HttpResponse } from '../src/http/client.ts';
import { conformanceTest } from '../src/harness/conformance.ts';
import { getOk } from '../src/harness/requests.ts';
import { pathOf } from '../src/rules/api-paths.ts';
import { expectRecordNotFound, filteredList, findSku, productsOf, skuWithProducts, someProducts, unfilteredWithFilterMeta, unknownId } from '../src/engines/sku-products.ts';

describe('GET /skus/:id/products', () => {
  conformanceTest(
    'answers {products, meta}: every item a Product of that SKU, meta with ordered_by, pagination and personalization',
    {
      id: 'products-listing',
      clauses: ['PRD-1#2', 'PRD-2#1-11', 'PRD-5#1-4', 'PRD-9#1-5', 'SKU-10#3-4', 'PERS-1#1', 'PERS-1#3-7'],
      requirements: ['SKU-10', 'PRD-1', 'PRD-2', 'PRD-9', 'PERS-1', 'PRD-5'],
      readings: ['SKU-10.a-d', 'PRD-1.a-b', 'PRD-2.a-f', 'PRD-9.a-g', 'PERS-1.a-g', 'PRD-5.a-e'],
      requests: 3,
    },
    async (t) => {
      const { sku, products, meta, response } = await someProducts(t);
      t.response('GET /skus/:id/products', response, 'SKU-10', 'PRD-2', 'PRD-9', 'PERS-1', 'PRD-5');
      t.must(productsHave(products, 'sku_id', sku['id']), 'SKU-10', 'PRD-1');
      t.must(typed(meta['ordered_by'], typeof meta['ordered_by'] === 'string', `meta.ordered_by is ${show(meta['ordered_by'])}`), 'PRD-9');
      // personalization is what blp is computed from, and blp came with 3.2.0: before it, it may be absent.
      if (t.has('product-blp') || meta['personalization'] !== undefined) {
        t.must(typed(meta['personalization'], isPlainObject(meta['personalization']), `meta.personalization is ${show(meta['personalization'])}`), 'PRD-9', 'PERS-1');
      }
      if (products[0]) t.undocumentedFields('resources/product.json', products[0], 'a listed product', 'PRD-2');
    },
  );

  conformanceTest(
    'the default order is net_price: prices never go down',
    { id: 'products-default-order', clauses: ['PRD-14#2'], requirements: ['PRD-14'], readings: ['PRD-14.a-i'], requests: 3 },
    async (t) => {
      const { products, meta } = await someProducts(t);
      t.must(productsByNetPrice(products), 'PRD-14');
      t.warn(typed(meta['ordered_by'], meta['ordered_by'] === 'net_price', `meta.ordered_by is ${show(meta['ordered_by'])} for the default order (net_price)`), 'PRD-9', 'PRD-14');
    },
  );

  conformanceTest(
    'order_by=final_price orders by blp.final_price, which includes shipping and payment method cost',
    { id: 'products-final-price-order', clauses: ['PRD-5#3', 'PRD-14#3-4'], requirements: ['PRD-14', 'PRD-5'], readings: ['PRD-14.a-i', 'PRD-5.a-e'], requests: 3 },
    async (t) => {
      t.requireFeature('product-blp', 'blp on Product');
      const { products, meta } = await someProducts(t, { order_by: 'final_price' });
      t.must(productsByFinalPrice(products), 'PRD-14');
      // A blp that is no object breaks its own statement (PRD-5); a final_price below price and costs, PRD-14's "includes".
      t.must(allOf(products.filter((p) => !isPlainObject(p['blp'])).map(finalPriceIncludesCosts)), 'PRD-5');
      t.must(allOf(products.filter((p) => isPlainObject(p['blp'])).map(finalPriceIncludesCosts)), 'PRD-14');
      // Where products without a final price go is not stated.
      t.warn(finalPriceNullsGrouped(products), 'PRD-14');
      t.warn(typed(meta['ordered_by'], meta['ordered_by'] === 'final_price', `meta.ordered_by is ${show(meta['ordered_by'])} for order_by=final_price`), 'PRD-9', 'PRD-14');
    },
  );

  conformanceTest(
    'a future SKU has an empty product list, and (3.2.0) no price history: not yet released, it is too new for one',
    {
      id: 'future-sku-no-products',
      clauses: ['SKU-5#2', 'HIST-4#1', 'SKU-11#1', 'CHG-26#1'],
      requirements: ['SKU-11', 'SKU-5', 'CHG-26', 'HIST-4'],
      readings: ['SKU-11.a-b', 'SKU-5.a-e', 'CHG-26.a-c', 'HIST-4.a-f'],
      requests: 3,
    },
    async (t) => {
      t.requireFeature('future-skus-no-products', 'An empty product list for future SKUs');
      // Discovery reads every leaf's listing, page by page, within its share (or the hinted leaf's).
      const sku = { id: await t.discover('futureSku') };
      const { products, meta } = await productsOf(t, sku['id']);
      t.must(products.length === 0 ? pass() : fail(`future SKU ${show(sku['id'])} lists ${products.length} products`), 'SKU-11', 'SKU-5', 'CHG-26');
      const total = readPagination({ meta })?.total_results;
      t.must(total === 0 ? pass() : fail(`future SKU ${show(sku['id'])} has total_results ${show(total)}`), 'SKU-11', 'PAG-1');
      // "Too-new SKUs return no data" (3.2.0): how new is too new is not stated, but a SKU not yet
      // released is too new by every reading. No data may be an empty series or an error answer.
      if (!t.has('price-history') || !t.has('too-new-no-history')) return;
      const path = pathOf('GET /skus/:id/price_history', { id: String(sku['id']) });
      const response = await t.api.get(path);
      // A 4xx (no such resource) and a 204 (no content) are "no data" too; a server error is no answer at all.
      t.must(response.status < 500 ? pass() : fail(`GET ${path} (a future SKU) answered ${response.status}: a server error, not "no data"`), 'HIST-4');
      if (response.status < 200 || response.status >= 300) return;
      // {history: null} is a blank (a warning, GEN-8); {history: {}} leaves average out, which blank fields never are.
      t.response('GET /skus/:id/price_history', response, 'HIST-4', 'SKU-15');
      if (response.status === 204) return;
      const body = t.json<Json>(response, 'GEN-4');
      const history = isPlainObject(body) ? body['history'] : undefined;
      const average = isPlainObject(history) ? history['average'] : undefined;
      const points = Array.isArray(average) ? average.length : 0;
      t.must(points === 0 ? pass() : fail(`GET ${path} (a future SKU) answered ${response.status} with ${points} price point(s); a too-new SKU returns no data`), 'HIST-4');
    },
  );

  conformanceTest(
    'size=x keeps exactly the products with a size from x up to but excluding x+1',
    { id: 'products-size-filter', clauses: ['PRD-15#1-2', 'CHG-1#4'], requirements: ['PRD-15', 'CHG-1'], readings: ['PRD-15.a-i', 'CHG-1.a-e'], requests: 18 },
    async (t) => {
      t.requireFeature('product-filters', 'The size filter of SKU products');
      const sku = await findSku(t, 'SKU with sizes', (skus) => skus.find((s) => s['future'] !== true && Array.isArray(s['sizes']) && s['sizes'].length > 0), true);
      const all = await productsOf(t, sku['id'] as number);
      const probe = chooseSizeProbe(all.products);
      if (!probe) return t.skip(`the products of SKU ${show(sku['id'])} have no numeric size`);
      const filtered = await productsOf(t, sku['id'] as number, { size: String(probe.size) });
      const complete = readPagination(all.body)!.total_pages <= 1 && readPagination(filtered.body)!.total_pages <= 1;
      // Products left out can be told only when both lists fit on one page.
      t.must(sizeFilterKeepsExactly(filtered.products, probe.size, complete ? probe.expected : []), 'PRD-15');
    },
  );

  conformanceTest(
    'distance (km), availability=0 and zero_installments=true/false answer 200 with a part of the list, every product of that SKU',
    {
      id: 'products-other-filters',
      clauses: ['PRD-16#1', 'PRD-17#1', 'PRD-18#1', 'CHG-1#5-7'],
      requirements: ['PRD-16', 'PRD-17', 'PRD-18', 'CHG-1'],
      readings: ['PRD-16.a-g', 'PRD-17.a-g', 'PRD-18.a-d', 'CHG-1.a-e'],
      requests: 10,
    },
    async (t) => {
      t.requireFeature('product-filters', 'The distance, availability and zero_installments filters of SKU products');
      const skuId = (await skuWithProducts(t))['id'] as number;
      const { list: whole, filterMeta } = await unfilteredWithFilterMeta(t, skuId);
      // What a filter keeps cannot be told from outside (shop locations, delivery days and
      // installment offers are not in the resources): each filter keeps a part of the list. What the
      // meta.filters maps hold is not stated: values they offer as numbers are used when there are.
      const offered = offeredFilterValues(filterMeta['distance_ranges']);
      // The smallest and the largest distance offered, else two of the documented kind.
      const [near, far] = offered.length ? [offered[0]!, offered.length > 1 ? offered.at(-1) : undefined] : ['10', '50'];
      const nearList = await filteredList(t, skuId, whole, { distance: near }, 'MUST', 'PRD-16', 'CHG-1');
      if (far !== undefined) {
        const farList = await filteredList(t, skuId, whole, { distance: far }, 'MUST', 'PRD-16', 'CHG-1');
        // That a larger distance keeps at least what a smaller one keeps is implied, not stated.
        if (nearList && farList) t.warn(listWithin(nearList, `the list with distance=${near}`, farList, `the list with distance=${far}`), 'PRD-16');
      }

      const immediate = await filteredList(t, skuId, whole, { availability: '0' }, 'MUST', 'PRD-17', 'CHG-1');
      const later = offeredFilterValues(filterMeta['availability_wordings'])
        .filter((v) => Number(v) > 0)
        .at(-1);
      if (later !== undefined) {
        // Other availability values are not documented: the largest meta.filters offers is tried
        // (a refusal only noted), and that it keeps at least the immediate ones only noted.
        const laterList = await filteredList(t, skuId, whole, { availability: later }, 'WARN', 'PRD-17');
        if (immediate && laterList) t.warn(listWithin(immediate, 'the list with availability=0', laterList, `the list with availability=${later}`), 'PRD-17');
      }

      const withZero = await filteredList(t, skuId, whole, { zero_installments: 'true' }, 'MUST', 'PRD-18', 'CHG-1');
      const withoutZero = await filteredList(t, skuId, whole, { zero_installments: 'false' }, 'MUST', 'PRD-18', 'CHG-1');
      if (withZero && withoutZero) t.warn(zeroInstallmentsFalseReading(withoutZero, whole, withZero), 'PRD-18');
    },
  );

  conformanceTest(
    'include_meta[]=filters adds meta.filters',
    { id: 'products-filters-meta', clauses: ['PRD-19#1', 'FILT-5#1-4'], requirements: ['PRD-19', 'FILT-5'], readings: ['PRD-19.a-g', 'FILT-5.a-i'], requests: 3 },
    async (t) => {
      t.requireFeature('product-filters', 'The filters of SKU products');
      const sku = await skuWithProducts(t);
      const { meta, body } = await productsOf(t, sku['id'] as number, { 'include_meta[]': ['filters'] });
      t.require(typed(meta['filters'], isPlainObject(meta['filters']), `include_meta[]=filters: meta.filters is ${show(meta['filters'])}`), 'PRD-19', 'FILT-5');
      t.schema('responses/products.json', body, 'FILT-5', 'PRD-9');
    },
  );
});

describe('GET /skus/:id/product_cards', () => {
  conformanceTest(
    'answers {product_cards, meta}: cards of products of that SKU, each with its shop and blp',
    {
      id: 'product-cards',
      clauses: ['PRD-7#1-2', 'PRD-10#1-6', 'SKU-12#1', 'SKU-12#3'],
      requirements: ['SKU-12', 'PRD-10', 'PRD-7'],
      readings: ['SKU-12.a-g', 'PRD-10.a-g', 'PRD-7.a-c'],
      requests: 3,
    },
    async (t) => {
      const sku = await skuWithProducts(t);
      const { body, response } = await getOk(t, pathOf('GET /skus/:id/product_cards', { id: String(sku['id']) }), {}, 'SKU-12');
      t.require(hasCollectionEnvelope(body, 'product_cards'), 'GEN-7', 'SKU-12');
      t.must(typed(body['meta'], isPlainObject(body['meta']), `meta is ${show(body['meta'])}`), 'SKU-12');
      t.response('GET /skus/:id/product_cards', response, 'SKU-12', 'PRD-10', 'PRD-7');
      const cards = (body['product_cards'] as unknown[]).filter(isPlainObject).flatMap((entry) => (Array.isArray(entry['cards']) ? entry['cards'].filter(isPlainObject) : []));
      const productsOfCard = (card: Json) => (Array.isArray(card['products']) ? card['products'].filter(isPlainObject) : []);
      t.must(allOf(cards.map((card) => productsHave(productsOfCard(card), 'sku_id', sku['id']))), 'SKU-12', 'PRD-10');
      // That a card's products are those of the card's shop is implied, not stated.
      // A card whose shop (or its id) is null (a blank, GEN-8) names no shop to compare with.
      const shopOf = (card: Json): CheckResult => {
        const shop = card['shop'];
        if (shop === null || (isPlainObject(shop) && shop['id'] === null)) return blank(`a card has shop ${show(shop, 60)}: its products' shop_id are not compared`);
        return productsHave(productsOfCard(card), 'shop_id', isPlainObject(shop) ? shop['id'] : undefined);
      };
      t.warn(allOf(cards.map(shopOf)), 'PRD-10');
    },
  );
});

describe('GET /skus/:id/specifications', () => {
  conformanceTest(
    'answers {specifications, meta} in the order of the order field, full_description a string when present',
    {
      id: 'specifications-order',
      clauses: ['SKU-1#1', 'SPEC-6#1', 'SKU-13#2', 'CHG-7#3-4'],
      requirements: ['SKU-13', 'SKU-1', 'CHG-7', 'SKU-9', 'SPEC-6'],
      readings: ['SKU-13.a-g', 'SKU-1.a-e', 'CHG-7.a-h', 'SKU-9.a-f', 'SPEC-6.a-h'],
      requests: 3,
    },
    async (t) => {
      t.requireFeature('specifications-ordered', 'Order on specifications');
      const sku = await skuWithProducts(t);
      const { body, response } = await getOk(t, pathOf('GET /skus/:id/specifications', { id: String(sku['id']) }), {}, 'SKU-13', 'SKU-1');
      t.require(hasCollectionEnvelope(body, 'specifications'), 'GEN-7', 'SKU-13');
      // meta's only member, full_description, is "present if available" and came with 3.2.0: before
      // 3.2.0 meta has nothing to hold, and a SKU without a full description may send none, {} or
      // full_description null. Only a meta that is there is judged.
      const meta = body['meta'];
      if (meta !== undefined) t.must(typed(meta, isPlainObject(meta), `meta is ${show(meta)}, expected an object`), 'SKU-13');
      t.response('GET /skus/:id/specifications', response, 'SKU-13', 'SKU-9', 'SPEC-6');
      t.must(specificationsInOrder((body['specifications'] as unknown[]).filter(isPlainObject)), 'CHG-7');
    },
  );

  conformanceTest(
    'is not paginated: no meta.pagination, and per does not cut the list',
    { id: 'specifications-not-paginated', clauses: ['SKU-14#1-2'], requirements: ['SKU-14'], readings: ['SKU-14.a-c'], requests: 4 },
    async (t) => {
      const sku = await skuWithProducts(t);
      const path = pathOf('GET /skus/:id/specifications', { id: String(sku['id']) });
      const whole = await getOk(t, path, {}, 'SKU-13');
      t.require(hasCollectionEnvelope(whole.body, 'specifications'), 'GEN-7', 'SKU-13');
      t.rules(whole.response, 'specifications-not-paginated');
      const count = (whole.body['specifications'] as unknown[]).length;
      if (count < 2) return;
      const response = await t.api.get(path, { query: { per: 1 } });
      if (response.status !== 200) return; // refusing a parameter it does not take is allowed
      const cut = (t.json<Json>(response, 'GEN-4') ?? {})['specifications'];
      t.must(
        Array.isArray(cut) && cut.length === count ? pass() : fail(`with per=1 the list has ${Array.isArray(cut) ? cut.length : show(cut)} specifications, without it ${count}`),
        'SKU-14',
      );
    },
  );

  conformanceTest(
    'include=group adds a top-level groups array and a group_id on each specification',
    {
      id: 'specifications-include-group',
      clauses: ['LINK-3#1-4', 'LINK-4#2', 'LINK-5#1-3'],
      requirements: ['LINK-5', 'LINK-4', 'LINK-3'],
      readings: ['LINK-5.a-g', 'LINK-4.a-e', 'LINK-3.a-h'],
      requests: 3,
    },
    async (t) => {
      const sku = await skuWithProducts(t);
      const { body, response } = await getOk(t, pathOf('GET /skus/:id/specifications', { id: String(sku['id']) }), { include: 'group' }, 'SKU-13', 'LINK-4');
      t.require(hasCollectionEnvelope(body, 'specifications'), 'GEN-7', 'SKU-13');
      if (!(body['specifications'] as unknown[]).length) t.skip(`SKU ${show(sku['id'])} has no specifications`);
      t.rules(response, 'include-group');
      t.response('GET /skus/:id/specifications', response, 'SKU-13', 'LINK-5');
    },
  );
});

/** Whether a 200 answer is {history: null}, a blank history; false for anything else (a body that is not JSON is judged as such later). */
function blankHistory(response: HttpResponse): boolean {
  if (response.status !== 200) return false;
  try {
    const body = response.json<unknown>();
    return isPlainObject(body) && body['history'] === null;
  } catch {
    return false;
  }
}

describe('GET /skus/:id/price_history', () => {
  conformanceTest(
    'answers {history: {average}} of YYYY-MM-DD dates within the last 6 months',
    {
      id: 'price-history',
      clauses: ['SKU-1#2', 'HIST-1#1', 'HIST-2#1-4', 'HIST-3#1', 'SKU-15#1', 'HIST-6#1', 'CHG-15#1'],
      requirements: ['SKU-15', 'SKU-1', 'CHG-15', 'HIST-1', 'HIST-2', 'HIST-3', 'HIST-6', 'HIST-4'],
      readings: ['SKU-15.a-f', 'SKU-1.a-e', 'CHG-15.a-d', 'HIST-1.a-g', 'HIST-2.a-f', 'HIST-3.a-e', 'HIST-6.a-g', 'HIST-4.a-f'],
      requests: 3,
    },
    async (t) => {
      t.requireFeature('price-history', 'The price_history endpoint');
      const sku = await skuWithProducts(t);
      // Served from 3.0.15 (Change history): asked only where the run's version has it.
      const path = pathOf('GET /skus/:id/price_history', { id: String(sku['id']) });
      const response = await t.api.get(path);
      // "Too-new SKUs return no data" (3.2.0), and how new is too new is not stated: a SKU with
      // offers may be too new for a history. No data (from 3.2.0 a 204; a blank history null, a
      // GEN-8 warning) has no points to judge.
      const noContent = response.status === 204 && t.has('too-new-no-history');
      if (noContent || blankHistory(response)) {
        t.response('GET /skus/:id/price_history', response, 'SKU-15', 'HIST-4');
        return t.skip(`GET ${path} answered ${noContent ? '204 No Content' : '{history: null}'}: no points to judge (SKU ${show(sku['id'])} may be too new for a price history)`);
      }
      t.require(hasStatus(response, 200), 'SKU-15', 'SKU-1', 'CHG-15');
      const body = t.json<Json>(response, 'GEN-4');
      t.require(hasSingleEnvelope(body, 'history'), 'GEN-7', 'SKU-15');
      const average = (body['history'] as Json)['average'];
      t.require(typed(average, Array.isArray(average), `history.average is ${show(average)}, expected an array`), 'SKU-15', 'HIST-2');
      t.response('GET /skus/:id/price_history', response, 'SKU-15', 'HIST-2');
      const points = (average as unknown[]).filter(isPlainObject);
      t.must(historyDatesAreDays(points), 'HIST-1', 'HIST-2');
      t.rules(response, 'price-history-window');
      // What makes a SKU "too new" is not stated: a history of a few days is only noted.
      if (t.has('too-new-no-history')) t.warn(historyNotOfAFewDays(points), 'HIST-4');
    },
  );
});

describe('GET /products/:id', () => {
  conformanceTest(
    'answers {product, meta: {personalization}}; embed=shop embeds the shop of shop_id',
    {
      id: 'product-by-id',
      clauses: ['LINK-1#1-2', 'LINK-4#3', 'PRD-8#1-2', 'PRD-13#1-4', 'PERS-1#1', 'PERS-1#3-7'],
      requirements: ['PRD-13', 'PRD-8', 'LINK-1', 'LINK-4', 'PERS-1'],
      readings: ['PRD-13.a-d', 'PRD-8.a-d', 'LINK-1.a-f', 'LINK-4.a-e', 'PERS-1.a-g'],
      requests: 4,
    },
    async (t) => {
      const { products } = await someProducts(t);
      const listed = products[0]!;
      const { body, response } = await getOk(t, pathOf('GET /products/:id', { id: String(listed['id']) }), { embed: 'shop' }, 'PRD-13', 'LINK-4');
      t.require(hasSingleEnvelope(body, 'product'), 'GEN-7', 'PRD-13');
      const product = body['product'] as Json;
      t.must(statedValue(product['id'] === listed['id'], `asked for product ${show(listed['id'])}, got ${show(product['id'])}`), 'PRD-13');
      const meta = body['meta'];
      const personalization = isPlainObject(meta) ? meta['personalization'] : meta;
      // personalization, meta's only member, is what blp is computed from, and blp came with 3.2.0: before it, both may be absent.
      if (t.has('product-blp') || personalization !== undefined) {
        t.must(typed(personalization, isPlainObject(personalization), `meta is ${show(meta)}, expected {personalization}`), 'PRD-13', 'PERS-1');
      }
      t.must(embedsItsShop(product), 'PRD-13', 'PRD-8', 'LINK-1');
      t.response('GET /products/:id', response, 'PRD-13', 'PRD-2', 'PERS-1');
      if (isPlainObject(product['shop'])) t.schema('resources/shop.json', product['shop'], 'PRD-8', 'SHOP-1');
    },
  );
});

describe('unknown ids', () => {
  conformanceTest(
    'a SKU or product that does not exist answers 404 with RecordNotFound',
    {
      id: 'unknown-sku-product-404',
      clauses: ['ERR-2#1-3', 'ERR-9#1', 'ERR-14#1'],
      requirements: ['ERR-9', 'ERR-2', 'ERR-14'],
      readings: ['ERR-9.a-j', 'ERR-2.a-h', 'ERR-14.a-g'],
      requests: 5,
    },
    async (t) => {
      const id = unknownId();
      const paths = [pathOf('GET /skus/:id/products', { id }), pathOf('GET /skus/:id/product_cards', { id }), pathOf('GET /skus/:id/specifications', { id })];
      for (const path of [...paths, ...(t.has('price-history') ? [pathOf('GET /skus/:id/price_history', { id })] : []), pathOf('GET /products/:id', { id })]) {
        expectRecordNotFound(t, await t.api.get(path), path);
      }
    },
  );
});
