// Rare data past the first pages (issue 38, point 4): a reference whose one future SKU sits in the
// last leaf and whose one unstructured location is on the last page of the one shop with more than
// a page of locations (the rareDataLast setting). Discovery must still find both and the tests judge
// them at the default budget; a hints file naming them finds them with fewer requests; a fault on
// the rare item alone is caught; and a budget too small for the search skips with what was looked
// at and the hint that would save it.
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDataset } from '../reference/data.ts';
import { withRareDataLast } from '../reference/rare-data-last.ts';
import { startReference, type ReferenceOptions } from '../reference/server.ts';
import { runCli, SELFTEST_LIMITS, targetArgs, type CliRun } from '../testing/cli.ts';

/** A CLI run of its own process against a reference of its own (a batched run picks whole suites, not test ids). */
async function runAgainstOwnReference(args: string[], options: ReferenceOptions): Promise<CliRun> {
  const ref = await startReference({ limits: SELFTEST_LIMITS, ...options });
  try {
    return await runCli([...targetArgs(ref), ...args]);
  } finally {
    await ref.close();
  }
}

const RARE_TESTS = ['skus/future-sku-no-products', 'shops/locations-embed-address'];

/** The ids a certifier who knows the data would name: the leaf listing the future SKU, the shop of the unstructured location. */
function knownItems(): { futureSkuCategory: number; shopWithUnstructuredLocation: number } {
  const data = withRareDataLast(createDataset('default'));
  const future = [...data.skus.values()].filter((s) => s.future);
  const unstructured = [...data.locations.values()].filter((l) => l.format === 'unstructured');
  expect(future).toHaveLength(1);
  expect(unstructured).toHaveLength(1);
  return { futureSkuCategory: future[0]!.category_id, shopWithUnstructuredLocation: unstructured[0]!.shopId };
}

const statusOf = (run: CliRun, id: string) => run.results?.tests.find((t) => t.id === id);

describe('rare items moved to the last pages of the last leaves and shops', () => {
  let dir: string;
  let searched: CliRun;
  let hinted: CliRun;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cc-rare-'));
    const hints = join(dir, 'hints.json');
    writeFileSync(hints, JSON.stringify(knownItems()));
    [searched, hinted] = await Promise.all([
      runAgainstOwnReference([...RARE_TESTS], { rareDataLast: true }),
      runAgainstOwnReference(['--hints', hints, ...RARE_TESTS], { rareDataLast: true }),
    ]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('are found and judged at the default budget', () => {
    for (const id of RARE_TESTS) expect(statusOf(searched, id), `${id}\n${searched.stdout}`).toMatchObject({ status: 'passed' });
    expect(searched.code).toBe(0);
  });

  test('with the hints file, are found with fewer requests', () => {
    for (const id of RARE_TESTS) expect(statusOf(hinted, id), `${id}\n${hinted.stdout}`).toMatchObject({ status: 'passed' });
    const [withHints, without] = [hinted.results!.requests.total, searched.results!.requests.total];
    expect(withHints, `${withHints} requests with the hints, ${without} without`).toBeLessThan(without);
    console.log(`rare data: ${without} requests found by search, ${withHints} with the hints file`);
  });
});

test('a fault on the rare item alone is caught when it is on the last pages', async () => {
  const [history, address] = await Promise.all([
    runAgainstOwnReference([RARE_TESTS[0]!], { rareDataLast: true, fault: 'future-sku-price-history' }),
    runAgainstOwnReference([RARE_TESTS[1]!], { rareDataLast: true, fault: 'unstructured-address-fields-not-null' }),
  ]);
  expect(statusOf(history, RARE_TESTS[0]!), history.stdout).toMatchObject({ status: 'failed' });
  expect(statusOf(history, RARE_TESTS[0]!)!.findings.some((f) => f.requirements.includes('HIST-4'))).toBe(true);
  expect(statusOf(address, RARE_TESTS[1]!), address.stdout).toMatchObject({ status: 'failed' });
  expect(statusOf(address, RARE_TESTS[1]!)!.findings.some((f) => f.requirements.includes('SHOP-13'))).toBe(true);
});

test('a budget too small for the search skips, saying what was looked at and which hint saves it', async () => {
  const run = await runAgainstOwnReference(['--max-requests', '60', RARE_TESTS[0]!], { rareDataLast: true });
  const future = statusOf(run, RARE_TESTS[0]!);
  expect(future, run.stdout).toMatchObject({ status: 'skipped' });
  expect(future!.message).toMatch(
    /no future SKU \(future true\) in \d+ leaf categories looked at \(\d+ pages, \d+ items, \d+ requests of its own; the run's discovery share \(12 requests/,
  );
  expect(future!.message).toMatch(/CATALOGUE_HINTS file as \{"futureSkuCategory"/);
});
