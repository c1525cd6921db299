// The rules of a paginated answer (src/rules/exchange-rules.ts holds them in its table):
// meta.pagination well formed and agreeing with itself and the items, the page and per asked (25
// by default), and the Link header: rel=next and rel=last while other pages exist, URLs that keep
// the request's per and its other parameters.
import { fail, isPlainObject, pass } from '../checks/check.ts';
import {
  countedItemKeys,
  countedUnitsHidden,
  defaultPageSizeIs25,
  linkQueryDropped,
  linkTargets,
  nextAndLastLinksWhileMorePages,
  pageIsTheOneAsked,
  pagesAndCountedItemsAgree,
  paginationMetaIsWellFormed,
  perIsTheOneAsked,
  readPagination,
  type Pagination,
} from '../checks/pagination.ts';
import { checkOutcome, json, ok200, skip, type ExchangeRule } from './exchange-rule.ts';
import type { ExchangeView } from './exchange-view.ts';

/** page or per as asked, when it is a positive integer: what is served for page=0 or per=0 is not shown (the defaults, or a refusal). */
function positiveInt(value: string | null): number | undefined {
  return value !== null && /^[1-9]\d*$/.test(value) ? Number(value) : undefined;
}

/** meta.pagination of a 200, when the body has one. */
function paginationOf(v: ExchangeView): Pagination | null {
  if (!ok200(v)) return null;
  const meta = json(v)['meta'];
  return isPlainObject(meta) && meta['pagination'] !== undefined ? readPagination(v.body) : null;
}

/** The collection of a paginated body: its one top-level array (besides meta), and its key; null when not exactly one. */
function collectionOf(body: Record<string, unknown>): { key: string; items: unknown[] } | null {
  const arrays = Object.entries(body).filter(([key, value]) => key !== 'meta' && Array.isArray(value));
  return arrays.length === 1 ? { key: arrays[0]![0], items: arrays[0]![1] as unknown[] } : null;
}

/** How many units the page holds, as its pagination counts them (countedItemKeys: product cards may count their cards or products); null when not countable. */
function countedItems(v: ExchangeView): number | null {
  const collection = collectionOf(v.body as Record<string, unknown>);
  return collection && countedItemKeys(collection.key, collection.items, paginationOf(v)).length;
}

/** meta.pagination and the Link header, in the order of the table. */
export const PAGINATION_RULES: readonly ExchangeRule[] = [
  {
    id: 'pagination-meta',
    clauses: ['PAG-1#1-3'],
    title: 'meta.pagination is well formed',
    requirements: ['PAG-1'],
    readings: ['PAG-1.a-e'],
    severity: 'MUST',
    applies: (v) => ok200(v) && isPlainObject(json(v)['meta']) && (json(v)['meta'] as Record<string, unknown>)['pagination'] !== undefined,
    check: (v) => checkOutcome(paginationMetaIsWellFormed(v.body), ['PAG-1'], 'MUST'),
  },
  {
    id: 'pagination-arithmetic',
    clauses: ['PAG-1#4-5'],
    title: 'meta.pagination agrees with itself and the items',
    requirements: ['PAG-1'],
    readings: ['PAG-1.a-e'],
    severity: 'MUST',
    applies: (v) => paginationOf(v) !== null,
    check: (v) => {
      const collection = collectionOf(v.body as Record<string, unknown>);
      if (collection === null) return skip('the body has no single collection array to count');
      const result = pagesAndCountedItemsAgree(paginationOf(v)!, collection.key, collection.items);
      // Product cards may count their cards or products, which a sparse fieldset can leave out.
      if (!result.ok && countedUnitsHidden(collection.key, collection.items))
        return skip('the product_cards entries do not show all their cards and products: what meta.pagination counts cannot be told');
      return checkOutcome(result, ['PAG-1'], 'MUST');
    },
  },
  {
    id: 'pagination-page',
    clauses: ['PAG-3#1', 'PAG-3#3'],
    title: 'meta.pagination.page is the page asked (1 by default)',
    requirements: ['PAG-3'],
    readings: ['PAG-3.a-g'],
    severity: 'MUST',
    applies: (v) => paginationOf(v) !== null,
    check: (v) => checkOutcome(pageIsTheOneAsked(paginationOf(v)!, positiveInt(v.query.get('page'))), ['PAG-3'], 'MUST'),
  },
  {
    id: 'pagination-per',
    clauses: ['PAG-4#1'],
    title: "meta.pagination.per is the per asked (above 25, a cap of the deployment's is accepted)",
    requirements: ['PAG-4'],
    readings: ['PAG-4.a-h'],
    severity: 'MUST',
    applies: (v) => paginationOf(v) !== null && positiveInt(v.query.get('per')) !== undefined,
    check: (v) => checkOutcome(perIsTheOneAsked(paginationOf(v)!, positiveInt(v.query.get('per'))), ['PAG-4'], 'MUST'),
  },
  {
    id: 'default-per',
    clauses: ['PAG-2#1'],
    title: '25 items per page when no per is sent',
    requirements: ['PAG-2'],
    readings: ['PAG-2.a-e'],
    severity: 'MUST',
    applies: (v) => paginationOf(v) !== null && v.query.get('per') === null,
    check: (v) => checkOutcome(defaultPageSizeIs25(paginationOf(v)!), ['PAG-2'], 'MUST'),
  },
  {
    id: 'link-while-more-pages',
    clauses: ['PAG-5#1'],
    title: 'a Link header with rel=next and rel=last while other pages exist',
    requirements: ['PAG-5'],
    readings: ['PAG-5.a-j'],
    severity: 'MUST',
    applies: (v) => paginationOf(v) !== null,
    check: (v) => checkOutcome(nextAndLastLinksWhileMorePages(v.exchange.responseHeaders, paginationOf(v)!, countedItems(v)), ['PAG-5'], 'MUST'),
  },
  {
    id: 'link-keeps-per',
    clauses: ['PAG-5#2'],
    title: 'the Link URLs keep per (the size asked, the size a cap gave, or a default 25 left out)',
    requirements: ['PAG-5'],
    readings: ['PAG-5.a-j'],
    severity: 'MUST',
    applies: (v) => paginationOf(v) !== null && !!linkTargets(v.exchange.responseHeaders, v.exchange.url)?.size,
    check: (v) => {
      const p = paginationOf(v)!;
      const dropped = [...linkTargets(v.exchange.responseHeaders, v.exchange.url)!].flatMap(([rel, target]) =>
        linkQueryDropped(target, v.exchange.url, p.per)
          .filter((d) => d.startsWith('per='))
          .map((d) => `rel=${rel} lacks ${d}`),
      );
      return checkOutcome(dropped.length ? fail(`the Link URLs do not carry the request's per: ${dropped.join('; ')}`) : pass(), ['PAG-5'], 'MUST');
    },
  },
  {
    id: 'link-keeps-query',
    title: "the Link URLs keep the request's other parameters",
    requirements: ['PAG-5'],
    readings: ['PAG-5.a-j'],
    severity: 'WARN',
    applies: (v) => paginationOf(v) !== null && !!linkTargets(v.exchange.responseHeaders, v.exchange.url)?.size,
    check: (v) => {
      // Another dropped parameter may change nothing (a default value), so it only warns.
      const dropped = [...linkTargets(v.exchange.responseHeaders, v.exchange.url)!].flatMap(([rel, target]) =>
        linkQueryDropped(target, v.exchange.url, paginationOf(v)!.per)
          .filter((d) => !d.startsWith('per='))
          .map((d) => `rel=${rel} lacks ${d}`),
      );
      return checkOutcome(dropped.length ? fail(`the Link URLs do not carry parameters of the request: ${dropped.join('; ')}`) : pass(), ['PAG-5'], 'WARN');
    },
  },
];
