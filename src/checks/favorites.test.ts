// Each favorites check passes what the spec allows and fails what it forbids.
import { VersionScope } from '../rules/version-scope.ts';
import { describe, expect, test } from 'vitest';
import type { CheckResult } from './check.ts';
import {
  allInList,
  autoListInFavorites,
  autoListsApart,
  becameOwned,
  distinctCreationTimes,
  haveItIsNull,
  holdsNoOwnedFavorites,
  holdsOnlyOwnedFavorites,
  inAnAutoList,
  inAutoListByCategory,
  inKnownAutoList,
  isAutoList,
  isAutoListOfCategory,
  autoListIdIsNegative,
  isErrorStatus,
  isInList,
  listIdSentWithHaveItIgnored,
  listIdsUnshown,
  listsFavorite,
  namesListId,
  omitsFavorite,
  oneListNamed,
  orderedByCreation,
  ownership,
  refusesAutoListDeletion,
  showsListId,
} from './favorites.ts';
import { isRefused } from './http.ts';

const failsWith = (result: CheckResult, pattern: RegExp) => {
  expect(result.ok).toBe(false);
  expect(result.ok ? '' : result.message).toMatch(pattern);
};
const owned = { id: 1, have_it: true, favorite_list_id: null };
const listed = { id: 2, have_it: null, favorite_list_id: 7 };
const at = (id: number, created_at: string) => ({ id, created_at });

describe('owned favorites', () => {
  test('holdsNoOwnedFavorites / holdsOnlyOwnedFavorites', () => {
    expect(holdsNoOwnedFavorites([listed, { id: 3, have_it: true, favorite_list_id: 4 }], 'x').ok).toBe(true);
    failsWith(holdsNoOwnedFavorites([listed, owned], 'GET /favorites'), /GET \/favorites lists 1 owned favorites .*: 1/);
    expect(holdsOnlyOwnedFavorites([owned], 'x').ok).toBe(true);
    failsWith(holdsOnlyOwnedFavorites([owned, listed], 'owned=true'), /1 favorites that are not owned: 2 \(have_it null, favorite_list_id 7\)/);
  });
  test('becameOwned and listIdSentWithHaveItIgnored', () => {
    expect(becameOwned(owned).ok).toBe(true);
    failsWith(becameOwned({ id: 1, have_it: null, favorite_list_id: null }), /have_it null, expected true/);
    failsWith(becameOwned({ id: 1, have_it: true, favorite_list_id: 7 }), /favorite_list_id 7, expected null/);
    expect(listIdSentWithHaveItIgnored(owned, 7).ok).toBe(true);
    failsWith(listIdSentWithHaveItIgnored({ id: 1, have_it: true, favorite_list_id: 7 }, 7), /moved into that list/);
  });
  test('version gates: exclusion from 3.2.0, {errors} from 3.1.0; a bare 3 is the oldest', () => {
    const has = (feature: 'owned-excluded-by-default' | 'normalized-errors') => (asked: string) => new VersionScope({ asked }).has(feature);
    expect(['3', '3.0', '3.1'].map(has('owned-excluded-by-default'))).toEqual([false, false, false]);
    expect(['3.2', '3.4'].map(has('owned-excluded-by-default'))).toEqual([true, true]);
    expect(['3', '3.0', '3.1', '3.2'].map(has('normalized-errors'))).toEqual([false, false, true, true]);
  });
});

describe('lists', () => {
  test('allInList, isInList, haveItIsNull', () => {
    expect(allInList([listed], 7).ok).toBe(true);
    failsWith(allInList([listed, owned], 7), /1 in another list: 1 \(favorite_list_id null\)/);
    expect(isInList(listed, 7, 'PUT').ok).toBe(true);
    failsWith(isInList(listed, 8, 'PUT'), /PUT: favorite 2 has favorite_list_id 7, expected 8/);
    expect(haveItIsNull(listed, 'x').ok).toBe(true);
    failsWith(haveItIsNull({ id: 2, have_it: false }, 'move'), /move: favorite 2 has have_it false, expected null/);
  });
  test('inAnAutoList and isAutoListOfCategory', () => {
    expect(inAnAutoList({ id: 1, favorite_list_id: -3 }).ok).toBe(true);
    failsWith(inAnAutoList({ id: 1, favorite_list_id: null }), /favorite_list_id null, expected the \(negative\) id/);
    failsWith(inAnAutoList({ id: 1, favorite_list_id: 5 }), /favorite_list_id 5/);
    expect(isAutoListOfCategory({ id: -3, category_id: 12 }, 12).ok).toBe(true);
    failsWith(isAutoListOfCategory({ id: -3, category_id: 11 }, 12), /auto list -3 of category 11, expected .* category 12/);
    // The id is another clause (FAV-2), judged apart.
    expect(isAutoListOfCategory({ id: 3, category_id: 12 }, 12).ok).toBe(true);
    failsWith(autoListIdIsNegative({ id: 3, category_id: 12 }), /auto list 3 of category 12 does not have a negative id/);
    expect(autoListIdIsNegative({ id: -3, category_id: 11 }).ok).toBe(true);
  });
  test('oneListNamed', () => {
    expect(
      oneListNamed(
        [
          { id: 4, name: 'a' },
          { id: 5, name: 'b' },
        ],
        'a',
        4,
      ).ok,
    ).toBe(true);
    failsWith(oneListNamed([{ id: 5, name: 'b' }], 'a', 4), /no favorite list is named "a"/);
    failsWith(
      oneListNamed(
        [
          { id: 4, name: 'a' },
          { id: 6, name: 'a' },
        ],
        'a',
        4,
      ),
      /2 favorite lists are named "a": 4, 6/,
    );
    failsWith(oneListNamed([{ id: 6, name: 'a' }], 'a', 4), /has id 6, but the favorite is in list 4/);
  });
});

describe('order and statuses', () => {
  test('orderedByCreation: ties in any order, offsets understood', () => {
    const desc = [at(3, '2024-01-03T00:00:00Z'), at(2, '2024-01-02T00:00:00Z'), at(9, '2024-01-02T00:00:00Z'), at(1, '2024-01-02T00:00:00+01:00')];
    expect(orderedByCreation(desc, 'desc').ok).toBe(true);
    expect(orderedByCreation([...desc].reverse(), 'asc').ok).toBe(true);
    failsWith(orderedByCreation([...desc].reverse(), 'desc'), /expected creation date descending/);
    failsWith(orderedByCreation(desc, 'asc'), /expected creation date ascending/);
    expect(distinctCreationTimes(desc)).toBe(3);
    expect(distinctCreationTimes([at(1, 'x')])).toBe(0);
  });
  test('isErrorStatus and isRefused', () => {
    expect(isErrorStatus(422, 'x').ok).toBe(true);
    expect(isErrorStatus(500, 'x').ok).toBe(true);
    failsWith(isErrorStatus(201, 'dup'), /dup answered 201, expected an error status/);
    expect(isRefused(401, 'x').ok && isRefused(403, 'x').ok).toBe(true);
    failsWith(isRefused(200, 'app'), /app answered 200, expected a refusal \(401 or 403\)/);
  });
});

describe('favorite_list_id shown on update only (FAV-8, one reading)', () => {
  const hiddenOwned = { id: 4, have_it: true };
  const hiddenListed = { id: 5, have_it: null };
  test('ownership: have_it not true is never owned; have_it true with no favorite_list_id shown is unknown', () => {
    expect([owned, listed, hiddenOwned, hiddenListed].map(ownership)).toEqual(['owned', 'not owned', 'unknown', 'not owned']);
    expect(showsListId(owned) && showsListId(listed) && !showsListId(hiddenOwned)).toBe(true);
    expect(listIdsUnshown([owned, hiddenOwned, hiddenListed])).toBe(2);
  });
  test('the owned checks judge what can be read and pass over the unknown', () => {
    expect(holdsOnlyOwnedFavorites([owned, hiddenOwned], 'x').ok).toBe(true);
    failsWith(holdsOnlyOwnedFavorites([hiddenOwned, hiddenListed], 'owned=true'), /1 favorites that are not owned: 5 \(have_it null, favorite_list_id undefined \(absent\)\)/);
    expect(holdsNoOwnedFavorites([hiddenOwned, hiddenListed], 'x').ok).toBe(true);
    expect(allInList([listed, hiddenListed], 7).ok).toBe(true);
    failsWith(allInList([hiddenListed, owned], 7), /1 in another list: 1 \(favorite_list_id null\)/);
    expect(becameOwned(hiddenOwned).ok).toBe(true);
    failsWith(becameOwned({ id: 4, have_it: false }), /have_it false, expected true/);
  });
  test("membership through a list's favorites", () => {
    expect(listsFavorite([hiddenListed], 5, 7, 'PUT').ok).toBe(true);
    failsWith(listsFavorite([hiddenOwned], 5, 7, 'PUT'), /PUT: favorite 5 is not among the favorites of list 7/);
    expect(omitsFavorite([hiddenOwned], 5, 7, 'x').ok).toBe(true);
    failsWith(omitsFavorite([hiddenListed], 5, 7, 'have_it=true'), /favorite 5 is among the favorites of list 7/);
  });
});

describe('auto lists not listed by GET /favorite_lists (FAV-18, one reading)', () => {
  test('isAutoList and autoListInFavorites', () => {
    expect([{ id: -3 }, { id: 4, type: 'auto' }, { id: 4, type: 'custom' }, { id: 4 }].map(isAutoList)).toEqual([true, true, false, false]);
    expect(autoListInFavorites([listed, owned, { id: 3, favorite_list_id: -4 }])).toBe(-4);
    expect(autoListInFavorites([listed, { id: 6 }])).toBeNull();
  });
  test('autoListsApart: two categories, two lists', () => {
    const a = { favorite: { id: 1, favorite_list_id: -3 }, categoryId: 11 };
    expect(autoListsApart(a, { favorite: { id: 2, favorite_list_id: -4 }, categoryId: 12 }).ok).toBe(true);
    expect(autoListsApart(a, { favorite: { id: 2, favorite_list_id: -3 }, categoryId: 11 }).ok).toBe(true);
    failsWith(autoListsApart(a, { favorite: { id: 2, favorite_list_id: -3 }, categoryId: 12 }), /favorites 1 and 2, .* categories 11 and 12, are both in list -3/);
  });
  test("inKnownAutoList: the list its category's favorites show, not another category's", () => {
    const known = new Map([
      [11, -3],
      [12, -4],
    ]);
    expect(inKnownAutoList({ id: 1, favorite_list_id: -3 }, 11, known).ok).toBe(true);
    expect(inKnownAutoList({ id: 1, favorite_list_id: -9 }, 13, known).ok).toBe(true);
    failsWith(inKnownAutoList({ id: 1, favorite_list_id: -9 }, 11, known), /category's favorites show its auto list is -3/);
    failsWith(inKnownAutoList({ id: 1, favorite_list_id: -4 }, 13, known), /the auto list of category 12/);
  });
  test('isAutoListOfCategory: a null category_id is blank (a warning)', () => {
    const r = isAutoListOfCategory({ id: -3, category_id: null }, 12);
    expect(r).toMatchObject({ ok: false, blank: true });
    expect(isAutoListOfCategory({ id: -3, category_id: 11 }, 12)).not.toHaveProperty('blank');
  });
});

describe('a favorite of an auto list showing favorite_list_id null (FAV-9, one reading)', () => {
  const byCategory = { id: 8, have_it: null, favorite_list_id: null };
  test("a null on a favorite whose have_it is not true names no list: its SKU's category does; with have_it true it is owned", () => {
    expect([byCategory, { ...byCategory, have_it: false }, owned, listed, { id: 9, have_it: null }].map(inAutoListByCategory)).toEqual([true, true, false, false, false]);
    expect([byCategory, owned, listed, { id: 9, have_it: null }].map(namesListId)).toEqual([false, true, true, false]);
    expect(ownership(byCategory)).toBe('not owned');
  });
  test("allInList: in an auto list's favorites a null by category is in it; in a custom list's it is not", () => {
    expect(allInList([byCategory, { id: 3, have_it: null, favorite_list_id: -3 }], -3).ok).toBe(true);
    expect(allInList([byCategory], 7, { autoList: true }).ok).toBe(true);
    failsWith(allInList([byCategory], 7), /1 in another list: 8 \(favorite_list_id null\)/);
    failsWith(allInList([owned], -3), /1 in another list: 1 \(favorite_list_id null\)/);
  });
  test('autoListsApart: two nulls leave each list to its category', () => {
    const a = { favorite: byCategory, categoryId: 11 };
    expect(autoListsApart(a, { favorite: { id: 2, have_it: null, favorite_list_id: null }, categoryId: 12 }).ok).toBe(true);
  });
});

describe('before 3.2.0 an owned favorite may stay listed in its list (Change history 3.2.0)', () => {
  test('allInList with ownedListed passes owned favorites, and only them', () => {
    expect(allInList([listed, owned], 7, { ownedListed: true }).ok).toBe(true);
    failsWith(allInList([listed, { id: 3, have_it: null, favorite_list_id: 8 }], 7, { ownedListed: true }), /3 \(favorite_list_id 8\)/);
  });
});

describe('deleting an auto list may be refused (FAV-21)', () => {
  test('400, 403 and 422 are refusals; 404, 500 and 2xx are not', () => {
    expect([400, 403, 422, 404, 500, 204].map(refusesAutoListDeletion)).toEqual([true, true, true, false, false, false]);
  });
});
