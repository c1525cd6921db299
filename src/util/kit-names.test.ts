import { describe, expect, test } from 'vitest';
import { kitName, overByOf, runIsOver, SPARE_MS } from './kit-names.ts';

describe('kit names', () => {
  const now = Date.UTC(2026, 10, 27, 12);
  test("a name carries its run's over-by time; the run is over an hour after it", () => {
    const overBy = now + 1800_000;
    const name = kitName('list', overBy);
    expect(name).toMatch(/^cc-list-o[0-9a-z]{8,9}-[0-9a-z]{1,6}$/);
    expect(overByOf(name, now)).toBe(overBy);
    expect(runIsOver(name, now)).toBe(false);
    expect(runIsOver(name, overBy + SPARE_MS)).toBe(false);
    expect(runIsOver(name, overBy + SPARE_MS + 1)).toBe(true);
    // A model list (cc-model-<run id>-a) and a review's text (its name as the first word).
    expect(overByOf(`${kitName('model', overBy)}-a`, now)).toBe(overBy);
    expect(overByOf(`${kitName('review', overBy)} review: written by the kit`, now)).toBe(overBy);
  });

  test("an earlier version's name (its creation time) is over an hour after that run's 30-minute deadline", () => {
    const created = now - 3 * 3600_000;
    expect(overByOf(`cc-address-${created.toString(36)}-ab12cd`, now)).toBe(created + 1800_000);
    expect(overByOf(`cc-${created.toString(36)}-ab12cd review: text`, now)).toBe(created + 1800_000);
    expect(runIsOver(`cc-model-${created.toString(36)}-x1y2-a`, now)).toBe(true);
    expect(runIsOver(`cc-model-${(now - 60_000).toString(36)}-x1y2-a`, now)).toBe(false);
  });

  test("not the kit's: no prefix, or no time in it", () => {
    expect(overByOf('Wishlist', now)).toBeNull();
    expect(overByOf('cc-', now)).toBeNull();
    expect(overByOf('cc-my-holiday-list', now)).toBeNull();
    expect(runIsOver('cc-my-holiday-list', now)).toBe(false);
  });
});
