// The fields a later version added to a resource (its schema's x-since, walked by
// checks/versioning.ts), read once per schema: the live versioning suite and the passive judge
// of recorded traffic share them.
import { versionedFields, type SchemaDocument, type VersionedField } from '../checks/versioning.ts';
import { SCHEMA_BASE, SchemaRegistry } from './validator.ts';

const cache = new Map<string, VersionedField[]>();

/** The version a field of a resource came with (its schema's x-since), or null when it has been there from the start. */
export function fieldSince(schemaId: string, field: string): string | null {
  return versionedFieldsOf(schemaId).find((f) => f.path.length === 1 && f.path[0] === field)?.since ?? null;
}

/** The versioned fields of a schema ("resources/category.json"), with their paths and versions. */
export function versionedFieldsOf(schemaId: string): VersionedField[] {
  let fields = cache.get(schemaId);
  if (!fields) {
    const registry = SchemaRegistry.shared();
    fields = versionedFields(SCHEMA_BASE + schemaId, (fullId) => registry.doc(fullId.slice(SCHEMA_BASE.length)) as unknown as SchemaDocument);
    cache.set(schemaId, fields);
  }
  return fields;
}
