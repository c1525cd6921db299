// The generator of the fieldsets suite's properties (suites/fieldsets.suite.ts, run by
// src/engines/fieldsets.ts): fast-check arbitraries of sparse fieldsets (fields[t],
// fields_except[t], both) drawn from the fields a resource serves, of the root and link cases,
// and the examples each property tries before its random cases. Pure: no request, no context.
import fc from 'fast-check';
import type { Fieldset } from './fieldsets.ts';
import type { LinkCase, LinkMode, LinkServed } from './fieldsets-links.ts';
import type { RootCase, Served } from './fieldsets-oracle.ts';

/** What the root cases of a row are drawn from. */
export type RootRow = Pick<Served, 'single' | 'shared' | 'fields'>;
/** What the link cases of a row are drawn from. */
export type LinkRow = Pick<LinkServed, 'single' | 'link' | 'included' | 'rootFields' | 'linkFields'>;

/** A fieldset drawn from `fields`: fields[t], fields_except[t], or both; `kept` (when served) always stays. */
export function fieldsetArbitrary(fields: readonly string[], kept: string | null = null): fc.Arbitrary<Fieldset> {
  if (kept !== null && fields.includes(kept)) {
    const others = fields.filter((f) => f !== kept);
    const only = fc.subarray(others).map((a) => [kept, ...a]);
    if (!others.length) return fc.record({ only });
    const except = fc.subarray(others, { minLength: 1 });
    return fc.oneof(fc.record({ only }), fc.record({ except }), fc.record({ only, except }));
  }
  const some = fc.subarray([...fields], { minLength: 1 });
  return fc.oneof(fc.record({ only: some }), fc.record({ except: some }), fc.record({ only: some, except: some }));
}

/**
 * Both parameters, the exclusion naming some of the included fields: what stays shows the
 * inclusion, the exclusion and their order at once (`kept`, when served, is included and never excluded).
 */
export function bothArbitrary(fields: readonly string[], kept: string | null = null): fc.Arbitrary<Fieldset> {
  const keep = kept !== null && fields.includes(kept) ? [kept] : [];
  const others = fields.filter((f) => !keep.includes(f));
  if (!others.length) return fc.constant({ only: keep });
  return fc.subarray(others, { minLength: 1 }).chain((a) => fc.subarray(a, { minLength: 1 }).map((b) => ({ only: [...keep, ...a], except: b })));
}

/** id is never drawn out of a shared row's fieldsets: its items are paired by id. */
const keptOf = (s: RootRow): string | null => (s.shared ? 'id' : null);

/** A root case: any row, a fieldset drawn from its fields. */
export function rootArbitrary(served: readonly RootRow[]): fc.Arbitrary<RootCase> {
  return fc.oneof(...served.map((s, r) => fc.record({ r: fc.constant(r), set: fieldsetArbitrary(s.fields, keptOf(s)) })));
}

/**
 * The same field in both parameters, on a single resource and on a collection; fields[root]
 * alone on a single resource and fields_except[root] alone on a collection; then one case of
 * both parameters on every row (drawn from the seed), so every endpoint is judged on inclusion
 * and exclusion before the random cases.
 */
export function rootExamples(served: readonly RootRow[], seed: number): RootCase[] {
  const examples: RootCase[] = [];
  for (const single of [true, false]) {
    const r = served.findIndex((s) => s.single === single && !s.shared && s.fields.length >= 2);
    if (r < 0) continue;
    const [a, b, c] = served[r]!.fields;
    examples.push({ r, set: { only: [a!, b!, ...(c ? [c] : [])], except: [b!] } });
    examples.push({ r, set: single ? { only: [a!] } : { except: [b!] } });
  }
  served.forEach((s, r) => {
    if (!examples.some((e) => e.r === r)) examples.push({ r, set: fc.sample(bothArbitrary(s.fields, keptOf(s)), { seed: seed + r, numRuns: 1 })[0]! });
  });
  return examples;
}

/** A link case: any row, any parameter it takes (include on collections), fieldsets when the run's version has them. */
export function linkArbitrary(served: readonly LinkRow[], fieldsets: boolean): fc.Arbitrary<LinkCase> {
  const none = fc.constant<Fieldset | null>(null);
  return fc.oneof(
    ...served.map((s, r) =>
      fc.record({
        r: fc.constant(r),
        mode: fc.constantFrom<LinkMode>(...(s.included ? (['embed', 'embed_ids', 'include'] as const) : (['embed', 'embed_ids'] as const))),
        root: fieldsets && s.rootFields.length ? fc.option(fieldsetArbitrary(s.rootFields), { nil: null }) : none,
        assoc: fieldsets && s.linkFields.length ? fc.option(fieldsetArbitrary(s.linkFields), { nil: null }) : none,
      }),
    ),
  );
}

/**
 * embed_ids alone; a root fieldset next to an embedded association it does not name; include
 * alone; fields[<name>] with include and fields_except[<name>] with embed.
 */
export function linkExamples(served: readonly LinkRow[], fieldsets: boolean): LinkCase[] {
  const examples: LinkCase[] = [];
  const single = served.findIndex((s) => s.single);
  const collection = served.findIndex((s) => s.included);
  const first = single >= 0 ? single : 0;
  examples.push({ r: first, mode: 'embed_ids', root: null, assoc: null });
  if (fieldsets) {
    const s = served[first]!;
    const rootOnly = s.rootFields.filter((f, i) => f === s.link || i === s.rootFields.findIndex((g) => g !== s.link));
    examples.push({ r: first, mode: 'embed', root: { only: rootOnly }, assoc: null });
  }
  if (collection >= 0) {
    examples.push({ r: collection, mode: 'include', root: null, assoc: null });
    const s = served[collection]!;
    if (fieldsets && s.linkFields.length >= 2) {
      examples.push({ r: collection, mode: 'include', root: null, assoc: { only: s.linkFields.slice(0, 2) } });
      examples.push({ r: collection, mode: 'embed', root: null, assoc: { except: s.linkFields.slice(1, 2) } });
    }
  }
  return examples;
}
