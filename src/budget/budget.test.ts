// The run-wide request budget: reservations, spending (own reservation first, then the free pool),
// settling, and the hard cap.
import { describe, expect, test } from 'vitest';
import { BudgetExhaustedError, RequestBudget } from './budget.ts';

describe('RequestBudget', () => {
  test('rejects a max that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new RequestBudget(bad)).toThrow(/positive integer/);
  });

  test('a fresh budget has everything available', () => {
    expect(new RequestBudget(10).snapshot()).toEqual({ max: 10, spent: 0, reserved: 0, available: 10 });
  });

  test('reserve within the budget succeeds and sets the requests aside', () => {
    const budget = new RequestBudget(10);
    expect(budget.reserve('a', 4)).toEqual({ ok: true });
    expect(budget.reserve('b', 6)).toEqual({ ok: true });
    expect(budget.snapshot()).toEqual({ max: 10, spent: 0, reserved: 10, available: 0 });
    expect(budget.reserve('a', 1)).toEqual({
      ok: false,
      reason: 'request budget: needs about 1 requests, 0 left of CATALOGUE_MAX_REQUESTS=10',
    });
  });

  test('reserve beyond what is available gives a reason naming CATALOGUE_MAX_REQUESTS', () => {
    const budget = new RequestBudget(10);
    budget.reserve('a', 7);
    const result = budget.reserve('b', 4);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toContain('CATALOGUE_MAX_REQUESTS=10');
    expect(result.reason).toContain('needs about 4 requests, 3 left');
    // Nothing was reserved by the refused call.
    expect(budget.snapshot().reserved).toBe(7);
  });

  test('a negative, fractional or NaN estimate is refused and cannot raise the cap', () => {
    const budget = new RequestBudget(2);
    for (const bad of [-5, 1.5, Number.NaN]) {
      const result = budget.reserve('a', bad);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(/whole number of requests/);
    }
    expect(budget.snapshot()).toEqual({ max: 2, spent: 0, reserved: 0, available: 2 });
    budget.spend('b');
    budget.spend('b');
    expect(() => budget.spend('b')).toThrow(BudgetExhaustedError);
    expect(budget.reserve('a', 0)).toEqual({ ok: true });
  });

  test('reservations of one holder add up', () => {
    const budget = new RequestBudget(10);
    budget.reserve('a', 2);
    budget.reserve('a', 3);
    expect(budget.snapshot().reserved).toBe(5);
    for (let i = 0; i < 5; i++) budget.spend('a');
    expect(budget.snapshot()).toEqual({ max: 10, spent: 5, reserved: 0, available: 5 });
  });

  test('spend draws from the own reservation first, then from the free pool', () => {
    const budget = new RequestBudget(10);
    budget.reserve('a', 2);
    budget.spend('a');
    expect(budget.snapshot()).toEqual({ max: 10, spent: 1, reserved: 1, available: 8 });
    budget.spend('a');
    expect(budget.snapshot()).toEqual({ max: 10, spent: 2, reserved: 0, available: 8 });
    budget.spend('a'); // over its estimate: from the pool
    expect(budget.snapshot()).toEqual({ max: 10, spent: 3, reserved: 0, available: 7 });
    budget.spend('nobody'); // no reservation at all: from the pool
    expect(budget.snapshot()).toEqual({ max: 10, spent: 4, reserved: 0, available: 6 });
    expect(budget.spent).toBe(4);
  });

  test("spend never takes another holder's reservation and never passes max", () => {
    const budget = new RequestBudget(5);
    budget.reserve('a', 3);
    budget.reserve('b', 1);
    budget.spend('c'); // the one free request
    expect(() => budget.spend('c')).toThrow(BudgetExhaustedError);
    expect(() => budget.spend('c')).toThrow(/CATALOGUE_MAX_REQUESTS=5/);
    expect(budget.snapshot()).toEqual({ max: 5, spent: 1, reserved: 4, available: 0 });
    // The holders still get what they reserved ...
    for (let i = 0; i < 3; i++) budget.spend('a');
    budget.spend('b');
    expect(budget.spent).toBe(5);
    // ... and nobody gets more.
    for (const holder of ['a', 'b', 'c']) expect(() => budget.spend(holder)).toThrow(BudgetExhaustedError);
    expect(budget.snapshot()).toEqual({ max: 5, spent: 5, reserved: 0, available: 0 });
  });

  test('spent never exceeds max under any interleaving of reserve, spend and settle', () => {
    const budget = new RequestBudget(7);
    const holders = ['a', 'b', 'c'];
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let step = 0; step < 500; step++) {
      const holder = holders[rand(3)]!;
      const action = rand(3);
      if (action === 0) budget.reserve(holder, rand(4));
      else if (action === 1) {
        try {
          budget.spend(holder);
        } catch (error) {
          expect(error).toBeInstanceOf(BudgetExhaustedError);
        }
      } else budget.settle(holder);
      const snapshot = budget.snapshot();
      expect(snapshot.spent).toBeLessThanOrEqual(7);
      expect(snapshot.spent + snapshot.reserved).toBeLessThanOrEqual(7);
      expect(snapshot.available).toBeGreaterThanOrEqual(0);
    }
    expect(budget.spent).toBe(7);
  });

  test('settle returns the unused part of a reservation', () => {
    const budget = new RequestBudget(10);
    budget.reserve('a', 6);
    budget.spend('a');
    budget.spend('a');
    budget.settle('a');
    expect(budget.snapshot()).toEqual({ max: 10, spent: 2, reserved: 0, available: 8 });
    expect(budget.reserve('b', 8)).toEqual({ ok: true });
    budget.settle('unknown-holder');
    expect(budget.snapshot()).toEqual({ max: 10, spent: 2, reserved: 8, available: 0 });
  });
});
