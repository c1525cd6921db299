// Which requirements a schema violation breaks, read from the schemas themselves: the live suites
// (ConformanceContext#violations) and the passive judge of recorded traffic (src/har/judge.ts)
// cite the same ids for the same broken body.
import { changeRow } from '../rules/change-history.ts';
import { SchemaRegistry, type Violation } from './validator.ts';

/**
 * The ids the violations break: each one's schema node's `x-requirements`, and for an absent field
 * that a later version added, that version's Change history row.
 */
export function violationRequirements(violations: readonly Violation[]): string[] {
  const ids = new Set<string>();
  for (const v of violations) {
    for (const id of v.requirements ?? []) ids.add(id);
    const row = v.since ? changeRow(v.since)?.requirement : undefined;
    if (row) ids.add(row);
  }
  return [...ids];
}

let documented: string[] | null = null;

/**
 * Every id a schema violation can cite (violationRequirements): the `x-requirements` of every
 * schema node, and the Change history row of every field a later version added (`x-since`). The
 * rule that judges every body against its schema (src/rules/exchange-rules.ts, documented-body)
 * checks these statements, so it names them all.
 */
export function schemaRequirements(): string[] {
  if (documented) return documented;
  const ids = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const own = record['x-requirements'];
    if (Array.isArray(own)) for (const id of own) if (typeof id === 'string') ids.add(id);
    const since = record['x-since'];
    if (since && typeof since === 'object') {
      for (const version of Object.values(since as Record<string, unknown>)) {
        const row = typeof version === 'string' ? changeRow(version)?.requirement : undefined;
        if (row) ids.add(row);
      }
    }
    for (const value of Object.values(record)) walk(value);
  };
  const registry = SchemaRegistry.shared();
  for (const id of registry.ids()) walk(registry.doc(id));
  return (documented = [...ids].sort());
}
