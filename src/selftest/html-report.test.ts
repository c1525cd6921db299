// Issue 20, point 5: report.html checked in a real browser (Debian's chromium, driven by
// playwright-core; its own browser download is not reachable from these machines). The report
// of a run with a fault switched on: it opens offline with no request but its own file and no
// script error, shows the verdict, the failure with its spec quote and exchange, hides passed
// tests when asked, and lists the requirements with their status. Without Chromium the test
// skips, saying why (.ci/run installs it).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { requirement } from '../requirements/catalogue.ts';
import { runAgainstReference } from '../testing/cli.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const FAULT = 'children-count-off-by-one';

describe('report.html in a browser', () => {
  test.skipIf(!existsSync(CHROMIUM))(`opens offline and reads as a diagnosis (needs Chromium at ${CHROMIUM}: Debian's chromium package)`, { timeout: 120_000 }, async () => {
    const { run } = await runAgainstReference(['categories', 'search'], { fault: FAULT });
    expect(run.code).toBe(1);
    const failed = run.results!.tests.filter((t) => t.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    const broken = failed[0]!.findings.find((f) => f.severity === 'MUST')!.requirements[0]!;
    const file = join(run.reportDir, 'latest', 'report.html');
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      const requested: string[] = [];
      const errors: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.goto(pathToFileURL(file).href);
      expect(requested).toEqual([pathToFileURL(file).href]);
      expect(await page.textContent('#verdict')).toBe('FAIL: MUST requirements failed');
      expect(await page.textContent('#count-failed')).toBe(String(failed.length));

      // The failure, open, with the spec's words for the requirement it broke and the exchange.
      const failure = page.locator('details.st-failed').first();
      expect(await failure.getAttribute('open')).not.toBeNull();
      const text = (await failure.textContent()) ?? '';
      expect(text).toContain(requirement(broken).quote[0]!.slice(0, 40));
      expect(text).toMatch(/> GET http:\/\/127\.0\.0\.1:\d+\/categories\//);

      // Filters: passed tests hidden, failures still shown.
      expect(await page.locator('details.st-passed').first().isVisible()).toBe(true);
      await page.uncheck('input[data-status=passed]');
      expect(await page.locator('details.st-passed').first().isVisible()).toBe(false);
      expect(await failure.isVisible()).toBe(true);

      // By requirement: the broken one's row says FAIL; its link leads back to the test.
      await page.check('input[name=view][value=requirements]');
      const row = page.locator(`#r-${broken}`);
      expect(await row.isVisible()).toBe(true);
      expect(await row.locator('.badge').textContent()).toBe('FAIL');
      await row.locator('a').first().click();
      expect(await page.locator('#by-suite').isVisible()).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
