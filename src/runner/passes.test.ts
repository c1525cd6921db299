// The runner reads a suite's role from its source (src/runner/passes.ts: a write request or a test
// of the write profile makes a writer; markers move a suite before or after the others). Moving
// code out of a suite can change its role without a word (the oauth suite's token POST did): the
// kit's suites' roles are pinned here, and a change must be meant.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { SUITES_DIR } from './base.ts';
import { roleIn, type SuiteRole } from './passes.ts';

const ROLES: Record<string, SuiteRole> = {
  categories: 'reader',
  'category-listings': 'reader',
  'conditional-requests': 'writer',
  errors: 'writer',
  'favorites-model': 'writer',
  favorites: 'early writer',
  fieldsets: 'late reader',
  manufacturers: 'reader',
  notifications: 'writer',
  oauth: 'late writer',
  pagination: 'reader',
  'rate-limits': 'reader',
  reviews: 'writer',
  search: 'reader',
  shops: 'reader',
  skus: 'reader',
  user: 'writer',
  versioning: 'reader',
};

test("each of the kit's suites has the role it is meant to (a suite that sends writes is a writer)", () => {
  const found = Object.fromEntries(
    readdirSync(SUITES_DIR)
      .filter((f) => f.endsWith('.suite.ts'))
      .map((f) => [f.slice(0, -'.suite.ts'.length), roleIn(join(SUITES_DIR, f))]),
  );
  expect(found).toEqual(ROLES);
});
