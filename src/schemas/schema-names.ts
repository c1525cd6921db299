// The names of the schemas: one per schema, shared by the OpenAPI components (generate.ts) and
// the TypeScript types (types-module.ts), and how a $ref resolves between them.

import { SCHEMA_BASE } from './validator.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Names that would shadow a global of TypeScript or JavaScript. */
const GLOBALS = new Set(['Array', 'Boolean', 'Date', 'Error', 'Function', 'Map', 'Number', 'Object', 'Promise', 'Record', 'Set', 'String', 'Symbol']);

export function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/**
 * resources/category-detail.json -> CategoryDetail; responses/categories.json -> CategoriesResponse
 * (ResponseBody when a resource already holds that name, e.g. resources/token-response.json);
 * common/pagination.json -> Pagination, and Api<Name> for a name that is a global (ApiError, ApiDate).
 */
export function componentNames(ids: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Map<string, string>();
  const claim = (id: string, name: string) => {
    const other = taken.get(name);
    if (other) throw new Error(`schemas ${other} and ${id} would both be named ${name}: rename one of them`);
    taken.set(name, id);
    names.set(id, name);
  };
  const base = (id: string) => pascal(id.replace(/^[^/]+\//, '').replace(/\.json$/, ''));
  const folder = (id: string) => id.split('/')[0];
  for (const id of ids.filter((i) => folder(i) !== 'responses')) {
    const name = base(id);
    claim(id, folder(id) === 'common' && GLOBALS.has(name) ? `Api${name}` : name);
  }
  for (const id of ids.filter((i) => folder(i) === 'responses')) {
    const name = `${base(id)}Response`;
    claim(id, taken.has(name) ? `${name}Body` : name);
  }
  return names;
}

/** A $ref of schema `fromId` -> the referenced schema id and the JSON pointer inside it ("" for the whole). */
export function resolveRef(ref: string, fromId: string): { id: string; pointer: string } {
  const url = new URL(ref, SCHEMA_BASE + fromId);
  const target = `${url.origin}${url.pathname}`;
  if (!target.startsWith(SCHEMA_BASE)) throw new Error(`${fromId}: $ref ${ref} leaves ${SCHEMA_BASE}`);
  return { id: target.slice(SCHEMA_BASE.length), pointer: decodeURIComponent(url.hash.replace(/^#/, '')) };
}
