// Each account check passes what the spec allows and fails what it forbids.
import { describe, expect, test } from 'vitest';
import type { CheckResult } from './check.ts';
import {
  avatarFileName,
  unchangedExcept,
  avatarFollowsPreset,
  avatarIsPresetUri,
  avatarStaysForUpload,
  avatarTakesUpload,
  bodyIsEmpty,
  carriesCategoryName,
  carriesReviewRating,
  carriesReviewText,
  embedsReviewer,
  embedsSku,
  everyNotification,
  fieldIs,
  hasFields,
  isViewed,
  locationIs,
  regionIsName,
  regionsAreNames,
} from './account.ts';

const ok = (r: CheckResult) => expect(r).toEqual({ ok: true });
const bad = (r: CheckResult, text?: string) => {
  expect(r.ok).toBe(false);
  if (text && !r.ok) expect(r.message).toContain(text);
};

describe('user and addresses', () => {
  test('avatarFileName is the last path segment, query and fragment dropped', () => {
    expect(avatarFileName('https://img.example/avatars/presets/fox.png')).toBe('fox.png');
    expect(avatarFileName('/a/b/owl.svg?size=2#x')).toBe('owl.svg');
    expect(avatarFileName('cat.png')).toBe('cat.png');
  });

  test('hasFields names the absent fields; null counts as present', () => {
    ok(hasFields({ email: null, created_at: 'x' }, ['email', 'created_at'], 'user'));
    bad(hasFields({ created_at: 'x' }, ['email', 'created_at'], 'user'), 'lacks email');
    bad(hasFields(null, ['email'], 'user'), 'expected an object');
  });

  test('fieldIs compares strictly', () => {
    ok(fieldIs({ sex: 'male' }, 'sex', 'male', 'PATCH'));
    bad(fieldIs({ sex: 'female' }, 'sex', 'male', 'PATCH'), 'sex is "female"');
    bad(fieldIs({ birthyear: '1990' }, 'birthyear', 1990, 'PATCH'));
  });

  test('avatar_preset: the preset, or a per-user copy at another address (noted); never the old preset or another one', () => {
    const presets = ['https://cdn.example/p/owl.png', 'https://cdn.example/p/fox.png'];
    ok(avatarFollowsPreset({ avatar: 'https://cdn.example/p/owl.png' }, 'owl.png', presets));
    ok(avatarIsPresetUri({ avatar: 'https://cdn.example/p/owl.png' }, 'owl.png'));
    // A per-user copy: not a failure, a note saying why it is tolerated.
    ok(avatarFollowsPreset({ avatar: 'https://cdn.example/users/77/avatar-3f2a.png' }, 'owl.png', presets));
    bad(avatarIsPresetUri({ avatar: 'https://cdn.example/users/77/avatar-3f2a.png' }, 'owl.png'), 'a per-user copy of the preset');
    // The old preset kept, or another one: no reading allows it.
    bad(avatarFollowsPreset({ avatar: 'https://cdn.example/p/fox.png' }, 'owl.png', presets), 'another preset of GET /user/avatars');
    bad(avatarFollowsPreset({ avatar: null }, 'owl.png', presets));
  });

  test('an upload: a new URI, or the same per-user address (noted); never a preset', () => {
    const presets = ['https://cdn.example/p/owl.png'];
    ok(avatarTakesUpload({ avatar: 'https://cdn.example/uploads/77-ab.png' }, presets));
    ok(avatarStaysForUpload({ avatar: 'https://cdn.example/uploads/77-ab.png' }, 'https://cdn.example/p/owl.png'));
    ok(avatarTakesUpload({ avatar: 'https://cdn.example/users/77/avatar.png' }, presets));
    bad(avatarStaysForUpload({ avatar: 'https://cdn.example/users/77/avatar.png' }, 'https://cdn.example/users/77/avatar.png'), 'a fixed per-user address');
    bad(avatarTakesUpload({ avatar: 'https://cdn.example/p/owl.png' }, presets), 'a preset of GET /user/avatars');
    // The preset shown before, still there while the upload is processed (USER-13): noted by avatarStaysForUpload.
    ok(avatarTakesUpload({ avatar: 'https://cdn.example/p/owl.png' }, presets, 'https://cdn.example/p/owl.png'));
    bad(avatarTakesUpload({ avatar: 'https://cdn.example/p/owl.png' }, presets, 'https://cdn.example/uploads/77-ab.png'), 'a preset of GET /user/avatars');
    // The avatar before the previous PATCH: that change was not stored, its own finding; this one follows from it.
    const after = avatarTakesUpload(
      { avatar: 'https://cdn.example/p/owl.png' },
      [...presets, 'https://cdn.example/p/cat.png'],
      'https://cdn.example/p/cat.png',
      'https://cdn.example/p/owl.png',
    );
    expect([after.ok, !after.ok && after.follows !== undefined]).toEqual([false, true]);
    bad(avatarTakesUpload({ avatar: 7 }, presets));
  });

  test('regionIsName wants the name mapped to the id sent, not the id', () => {
    const regions = { North: 5, South: 6 };
    ok(regionIsName({ region: 'South' }, regions, 6));
    bad(regionIsName({ region: 6 }, regions, 6), 'a string');
    bad(regionIsName({ region: 'North' }, regions, 6), '"South"');
    ok(
      regionsAreNames([
        { id: 1, region: 'North' },
        { id: 2, region: 'Elsewhere' },
      ]),
    );
    bad(
      regionsAreNames([
        { id: 1, region: 'North' },
        { id: 2, region: 6 },
      ]),
      'address 2',
    );
  });

  test('locationIs reads location.address_id', () => {
    ok(locationIs({ location: { address_id: 7 } }, 7, 'PUT'));
    ok(locationIs({ location: { address_id: null } }, null, 'PUT'));
    bad(locationIs({ location: { address_id: 8 } }, 7, 'PUT'), 'expected 7');
    bad(locationIs({}, 7, 'PUT'));
  });

  test('bodyIsEmpty', () => {
    ok(bodyIsEmpty({ status: 200, text: '' }, 'DELETE /user/logout'));
    ok(bodyIsEmpty({ status: 204, text: ' \n' }, 'x'));
    bad(bodyIsEmpty({ status: 200, text: '{"message":"bye"}' }, 'DELETE /user/logout'), 'expected an empty body');
  });
});

describe('notifications (Events embedding rules)', () => {
  const sku = { id: 1, display_name: 'x' };
  test('embedsSku: the five etypes need an object; the others need nothing', () => {
    for (const etype of ['price_up', 'price_drop', 'sku_review', 'availability_true', 'availability_false']) {
      ok(embedsSku({ id: 1, etype, sku }));
      bad(embedsSku({ id: 1, etype, sku: null }), etype);
    }
    ok(embedsSku({ id: 1, etype: 'sku_release', sku: null }));
    ok(embedsSku({ id: 1, etype: 'sku_review_rephrase_request' }));
  });

  test('carriesCategoryName: price_up and price_drop only', () => {
    ok(carriesCategoryName({ id: 1, etype: 'price_drop', category_name: 'Phones' }));
    bad(carriesCategoryName({ id: 1, etype: 'price_drop', category_name: null }), 'price_drop');
    bad(carriesCategoryName({ id: 1, etype: 'price_up' }));
    ok(carriesCategoryName({ id: 1, etype: 'availability_true', category_name: null }));
  });

  test('embedsReviewer: sku_review needs {id, username, avatar}', () => {
    ok(embedsReviewer({ id: 1, etype: 'sku_review', user: { id: 2, username: 'u', avatar: 'a' } }));
    bad(embedsReviewer({ id: 1, etype: 'sku_review', user: null }), 'reviewing user');
    bad(embedsReviewer({ id: 1, etype: 'sku_review', user: { id: 2, username: 'u' } }), 'avatar');
    ok(embedsReviewer({ id: 1, etype: 'price_drop', user: null }));
  });

  test('review_rating on every sku_review; review_text on non-aggregated ones', () => {
    ok(carriesReviewRating({ id: 1, etype: 'sku_review', review_rating: 4 }));
    bad(carriesReviewRating({ id: 1, etype: 'sku_review' }));
    ok(carriesReviewRating({ id: 1, etype: 'price_drop' }));
    ok(carriesReviewText({ id: 1, etype: 'sku_review', aggregated: false, review_text: null }));
    bad(carriesReviewText({ id: 1, etype: 'sku_review', aggregated: false }));
    ok(carriesReviewText({ id: 1, etype: 'sku_review', aggregated: true }));
  });

  test('everyNotification reports each failing item and non-objects', () => {
    ok(everyNotification([{ id: 1, etype: 'price_drop', sku }], embedsSku));
    bad(
      everyNotification(
        [
          { id: 1, etype: 'price_drop', sku },
          { id: 2, etype: 'price_up', sku: null },
        ],
        embedsSku,
      ),
      'notification 2',
    );
    bad(everyNotification([3], embedsSku), 'expected an object');
  });

  test('isViewed', () => {
    ok(isViewed({ is_viewed: true }, 1));
    bad(isViewed({ is_viewed: false }, 1), 'is_viewed false');
  });
});

// GEN-8: "blank fields are present with value null". A null where the spec types a value is blank
// (a warning citing GEN-8); a wrong value that is not null still fails, not blank.
describe('GEN-8: a null is blank, a wrong value a failure', () => {
  const isBlank = (result: CheckResult) => expect(result).toMatchObject({ ok: false, blank: true });
  const isHard = (result: CheckResult) => {
    expect(result.ok).toBe(false);
    expect(result).not.toHaveProperty('blank');
  };

  test('fieldIs: null is blank for a non-null field, a wrong value for a field the spec gives "or null"', () => {
    isBlank(fieldIs({ city: null }, 'city', 'Otherville', 'PUT'));
    isHard(fieldIs({ city: 'Testville' }, 'city', 'Otherville', 'PUT'));
    isHard(fieldIs({ sex: null }, 'sex', 'female', 'PATCH', true));
    isHard(fieldIs({}, 'city', 'Otherville', 'PUT'));
  });

  test('avatar, region, personalization location', () => {
    isBlank(avatarFollowsPreset({ avatar: null }, 'a.png', []));
    isHard(avatarFollowsPreset({ avatar: 5 }, 'a.png', []));
    isBlank(avatarTakesUpload({ avatar: null }, []));
    isBlank(regionIsName({ region: null }, { North: 1 }, 1));
    isHard(regionIsName({ region: 1 }, { North: 1 }, 1));
    isBlank(regionsAreNames([{ id: 1, region: null }]));
    isHard(
      regionsAreNames([
        { id: 1, region: 1 },
        { id: 2, region: null },
      ]),
    );
    isBlank(locationIs({ location: null }, 7, 'PUT'));
    // address_id is "integer or null": null for the address sent is a wrong value.
    isHard(locationIs({ location: { address_id: null } }, 7, 'PUT'));
    isHard(locationIs({ location: { address_id: 8 } }, 7, 'PUT'));
  });

  test('notification embeds and is_viewed', () => {
    isBlank(embedsSku({ id: 1, etype: 'price_drop', sku: null }));
    isHard(embedsSku({ id: 1, etype: 'price_drop', sku: 5 }));
    isBlank(carriesCategoryName({ id: 1, etype: 'price_drop', category_name: null }));
    isHard(carriesCategoryName({ id: 1, etype: 'price_drop', category_name: 5 }));
    isHard(carriesCategoryName({ id: 1, etype: 'price_drop' }));
    isBlank(embedsReviewer({ id: 1, etype: 'sku_review', user: null }));
    isHard(embedsReviewer({ id: 1, etype: 'sku_review', user: 'someone' }));
    isBlank(everyNotification([{ id: 1, etype: 'sku_review', user: null }], embedsReviewer));
    // What POST /notifications/view states: is_viewed true; null is a wrong value (issue 38, point 3).
    isHard(isViewed({ id: 1, is_viewed: null }, 1));
    isHard(isViewed({ id: 1, is_viewed: false }, 1));
  });
});

describe('unchangedExcept: a write changes what it was asked to and nothing else', () => {
  const before = { id: 1, sex: 'female', birthyear: 1988, mobile: '+44 1', zip: '12345', extra: 'own' };
  test('the asked field changed, the others the same (a zip sent as a number is the same text)', () => {
    expect(unchangedExcept(before, { ...before, sex: 'male', zip: 12345 }, ['sex', 'birthyear', 'mobile', 'zip'], ['sex'], 'GET /user').ok).toBe(true);
  });
  test('another field changed or went missing: fails, naming it', () => {
    const r = unchangedExcept(before, { ...before, sex: 'male', birthyear: null }, ['sex', 'birthyear', 'mobile'], ['sex'], 'GET /user');
    expect(r.ok).toBe(false);
    expect((r as { message: string }).message).toMatch(/only sex was to change, but birthyear 1988 -> null/);
    const { mobile: _gone, ...without } = before;
    expect(unchangedExcept(before, without, ['mobile'], [], 'GET /user').ok).toBe(false);
  });
  test('fields not listed, or not there before, are not judged', () => {
    expect(unchangedExcept(before, { ...before, extra: 'changed', created: 'new' }, ['sex', 'created'], [], 'x').ok).toBe(true);
  });
});
