// Legal variants: other answers the spec allows where the reference makes a choice
// (docs/reference-choices.md), and other readings of statements that admit two. The kit's
// self-test src/selftest/legal-variants.test.ts runs every suite against the reference with the
// variants switched on, a bundle at a time, and requires no MUST failure: the proof that no check
// requires a choice of the reference's.
//
// Unlike a fault (at most one, a bug), any set of variants without a conflict can be on at once.
// Each is guarded by a literal `variants.has('<name>')` at the one place where that choice lives
// in the reference. Definitions live in variants/<area>.ts, next to the faults of that area.

import { ACCOUNT_READING_VARIANTS } from './variants/account-readings.ts';
import { ACCOUNT_VARIANTS } from './variants/account.ts';
import { CATALOG_READING_VARIANTS } from './variants/catalog-readings.ts';
import { CATALOG_VARIANTS } from './variants/catalog.ts';
import { PRODUCT_READING_VARIANTS } from './variants/products-readings.ts';
import { PROTOCOL_READING_VARIANTS } from './variants/protocol-readings.ts';
import { PROTOCOL_VARIANTS } from './variants/protocol.ts';
import type { VariantInfo } from './variants/types.ts';

export type { VariantInfo } from './variants/types.ts';

const VARIANT_DEFINITIONS = {
  ...PROTOCOL_VARIANTS,
  ...CATALOG_VARIANTS,
  ...ACCOUNT_VARIANTS,
  ...PROTOCOL_READING_VARIANTS,
  ...CATALOG_READING_VARIANTS,
  ...PRODUCT_READING_VARIANTS,
  ...ACCOUNT_READING_VARIANTS,
};

/** Name of a known variant. */
export type VariantName = keyof typeof VARIANT_DEFINITIONS;

/** The variants a server runs with. */
export type Variants = ReadonlySet<VariantName>;

/** Every known variant, by name. */
export const VARIANTS: Readonly<Record<VariantName, VariantInfo>> = VARIANT_DEFINITIONS;

/** Names of all variants, in definition order. */
export const VARIANT_NAMES: readonly VariantName[] = Object.freeze(Object.keys(VARIANT_DEFINITIONS) as VariantName[]);

/** No variant: the reference's own choices. */
export const NO_VARIANTS: Variants = new Set<VariantName>();

export function isVariantName(name: string): name is VariantName {
  return Object.prototype.hasOwnProperty.call(VARIANT_DEFINITIONS, name);
}

function conflictsOf(name: VariantName): readonly string[] {
  return (VARIANTS[name] as VariantInfo).conflicts ?? [];
}

/** Whether two variants answer the same point (either names the other). */
export function conflict(a: VariantName, b: VariantName): boolean {
  return conflictsOf(a).includes(b) || conflictsOf(b).includes(a);
}

/** Validates variant names; throws an Error naming the known ones for an unknown name, or naming a conflicting pair. */
export function resolveVariants(names: readonly string[] | undefined): Variants {
  const out = new Set<VariantName>();
  for (const name of names ?? []) {
    if (name === '') continue;
    if (!isVariantName(name)) throw new Error(`Unknown variant "${name}". Known variants: ${VARIANT_NAMES.join(', ')}`);
    for (const other of out) if (conflict(name, other)) throw new Error(`Variants "${other}" and "${name}" answer the same point another way: switch on one of them`);
    out.add(name);
  }
  return out;
}

/**
 * Every variant in exactly one bundle, no conflict within a bundle: the few server
 * configurations that, together, show the kit each variant. Greedy, in definition order, so the
 * bundles are the same on every machine. Variants that narrow what a server does (an older patch
 * level) go in bundles of their own kind, apart from the others, so that every other variant is
 * also seen with the full feature set.
 */
export function variantBundles(): VariantName[][] {
  const bundles: VariantName[][] = [];
  for (const narrows of [false, true]) {
    const own: VariantName[][] = [];
    for (const name of VARIANT_NAMES) {
      if (Boolean((VARIANTS[name] as VariantInfo).narrows) !== narrows) continue;
      const fits = own.find((bundle) => bundle.every((other) => !conflict(name, other)));
      if (fits) fits.push(name);
      else own.push([name]);
    }
    bundles.push(...own);
  }
  return bundles;
}

/**
 * The variants the mutation test switches on with every fault: the first bundle, which holds
 * every variant that does not narrow the server and does not conflict with an earlier one.
 */
export function mutationBundle(): VariantName[] {
  return variantBundles()[0] ?? [];
}

/** The kit's configuration (CATALOGUE_* keys) for a deployment making these choices. */
export function kitEnvOf(variants: Iterable<VariantName>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of variants) Object.assign(env, (VARIANTS[name] as VariantInfo).kitEnv ?? {});
  return env;
}
