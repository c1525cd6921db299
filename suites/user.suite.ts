// Spec: Resources and their fields > User, User address (and its Address form), Saved order,
// Personalization; Endpoints > User, Endpoints > Personalization; Versioning > Change history
// (3.0.23 type on User, 3.2.0 User fields, profile update, address create/update/delete and saved
// orders, 3.2.1 is_staff); Errors. DELETE /user/logout is in suites/last/logout.suite.ts.
// Every write is undone: PATCH /user and PUT /personalization put the original value back, and
// an address the suite creates carries a run id in its label and is deleted in a finally block.
// Every write is read back: the next GET shows the change, and the fields not written unchanged.
import { describe } from 'vitest';
import {
  avatarFileName,
  avatarFollowsPreset,
  avatarIsPresetUri,
  avatarStaysForUpload,
  avatarTakesUpload,
  fieldIs,
  unchangedExcept,
  hasFields,
  locationIs,
  regionIsName,
  regionsAreNames,
} from '../src/checks/account.ts';
import { fail, inContext, isPlainObject, pass, show, typed } from '../src/checks/check.ts';
import { errorBodyIsWellFormed } from '../src/checks/errors.ts';
import { hasCollectionEnvelope, hasStatus } from '../src/checks/http.ts';
import { defaultPageSizeIs25, nextAndLastLinksWhileMorePages, paginationClauses, paginationMetaIsWellFormed, readPagination } from '../src/checks/pagination.ts';
import { pathOf } from '../src/rules/api-paths.ts';
import { changeRow } from '../src/rules/change-history.ts';
import { versionedFieldsOf } from '../src/schemas/versioned-fields.ts';
import { conformanceTest } from '../src/harness/conformance.ts';
import { KIT_PREFIX, runIsOver } from '../src/util/kit-names.ts';
import type { HttpResponse } from '../src/http/client.ts';
import { judgeNotFoundBody } from '../src/engines/not-found.ts';
import { getAddressForm, getAddresses, getPersonalization, readAddresses, readUser, getUser, newTwins, patchUser, removeAddresses, single } from '../src/engines/account.ts';

type Json = Record<string, unknown>;

const USER = { auth: 'user' as const };
/** Labels of the addresses this suite creates start with it; leftovers of an interrupted run are swept. */
const ADDRESS_PREFIX = `${KIT_PREFIX}address-`;
/** Personalization is what blp is computed from, and blp came with 3.2.0: before it, a deployment may have none. */
const PERSONALIZATION = 'the personalization (what blp on Product is computed from)';
/** A 1x1 PNG, bare base64 (no data-URI preamble). */
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/**
 * The User fields a PATCH of one profile field leaves as they were. Not stats, points, tier or
 * resend_verification_email: the service keeps those, and other activity may move them; nor the
 * avatar, whose URI a service may sign anew on every answer.
 */
const PROFILE_FIELDS = ['id', 'username', 'type', 'sex', 'birthyear', 'created_at', 'email', 'mobile', 'email_notifications', 'is_staff'];
/** The fields of an address the kit sends; lat and lng follow the address (a service may geocode it again). */
const ADDRESS_FIELDS = ['label', 'first_name', 'last_name', 'street_name', 'street_number', 'city', 'zip', 'region', 'phone', 'mobile'];

describe('GET /user', () => {
  conformanceTest(
    'answers {user} with the User fields of the version asked for',
    {
      id: 'user-fields-by-version',
      clauses: ['USER-2#1-15', 'USER-4#1', 'USER-5#1', 'USER-6#1-2', 'USER-7#1-4', 'USER-12#1', 'CHG-1#9', 'CHG-2#12', 'CHG-7#7'],
      requirements: ['USER-12', 'USER-2', 'USER-4', 'USER-5', 'USER-6', 'USER-7', 'CHG-2', 'CHG-1', 'CHG-7'],
      readings: ['USER-12.a-d', 'USER-2.a-d', 'USER-4.a-b', 'USER-5.a-d', 'USER-6.a-d', 'USER-7.a-f', 'CHG-2.a-o', 'CHG-1.a-e', 'CHG-7.a-h'],
      requests: 1,
    },
    async (t) => {
      const user = await getUser(t);
      // User fields by the Change history row that added them (the schema's x-since).
      const bySince = new Map<string, string[]>();
      for (const f of versionedFieldsOf('resources/user.json')) if (f.path.length === 1) bySince.set(f.since, [...(bySince.get(f.since) ?? []), f.path[0]!]);
      for (const [since, fields] of bySince) {
        if (t.version.serves(since)) t.must(hasFields(user, fields, `the user (${t.version.describe()}, fields of ${since})`), changeRow(since)?.requirement ?? 'USER-2', 'USER-2');
      }
      t.undocumentedFields('resources/user.json', user, 'the user', 'USER-2', 'CHG-7');
    },
  );
});

describe('PATCH /user', () => {
  conformanceTest(
    'changes sex (or birthyear), answers 200 {user} with the change, and GET /user shows it and nothing else changed; the original value is put back',
    {
      id: 'patch-user-sex',
      clauses: ['ERR-3#1', 'USER-13#1', 'USER-13#3-5', 'CHG-2#12-13'],
      requirements: ['USER-13', 'CHG-2', 'ERR-3'],
      readings: ['USER-13.a-i', 'CHG-2.a-o', 'ERR-3.a-h'],
      profile: 'write',
      requests: 4,
    },
    async (t) => {
      t.requireFeature('profile-update', 'PATCH /user (profile update)');
      const { user: original, response: before } = await readUser(t);
      let field: 'sex' | 'birthyear';
      let value: unknown;
      if (original['sex'] === 'male' || original['sex'] === 'female') {
        field = 'sex';
        value = original['sex'] === 'male' ? 'female' : 'male';
      } else if (Number.isInteger(original['birthyear']) && (original['birthyear'] as number) > 1901) {
        field = 'birthyear';
        value = (original['birthyear'] as number) - 1;
      } else {
        return t.skip(`the user has sex ${show(original['sex'])} and birthyear ${show(original['birthyear'])}: no value to change and put back exactly`);
      }
      const patched = await patchUser(t, { [field]: value }, { undo: { [field]: original[field] } });
      try {
        const user = single(t, patched, 200, 'user', 'USER-13');
        t.response('PATCH /user', patched, 'USER-13', 'USER-2');
        // sex and birthyear are "or null": a null for the value sent is a wrong value, not a blank.
        t.must(fieldIs(user, field, value, `PATCH /user {${field}: ${show(value)}}`, true), 'USER-13');
        t.must(unchangedExcept(original, user, PROFILE_FIELDS, [field], `PATCH /user {${field}: ${show(value)}}`), 'USER-13');
        // The change is stored: the next GET shows it, and only it.
        // Asked with the ETag from before the PATCH: a 304 now would be a stale tag (ERR-3).
        const { user: stored } = await readUser(t, { before, change: `PATCH /user {${field}: ${show(value)}}` });
        t.must(fieldIs(stored, field, value, `GET /user after PATCH /user {${field}: ${show(value)}}`, true), 'USER-13');
        t.must(unchangedExcept(original, stored, PROFILE_FIELDS, [field], `GET /user after PATCH /user {${field}: ${show(value)}}`), 'USER-13');
      } finally {
        if (patched.status >= 200 && patched.status < 300) {
          const restored = await patchUser(t, { [field]: original[field] }, { undoes: true });
          const back = restored.status === 200 ? restored.json<{ user?: Json }>()?.user : undefined;
          t.warn(fieldIs(back, field, original[field], `putting ${field} back with PATCH /user (status ${restored.status})`, true), 'USER-13');
        }
      }
    },
  );

  conformanceTest(
    'takes avatar_preset (a file name from /user/avatars) and avatar (bare base64 of an image); the original preset is put back',
    {
      id: 'patch-user-avatar',
      clauses: ['USER-5#1', 'USER-13#3', 'USER-14#1', 'USER-15#1', 'USER-17#1-2'],
      requirements: ['USER-13', 'USER-14', 'USER-15', 'USER-17', 'USER-5'],
      readings: ['USER-13.a-i', 'USER-14.a-e', 'USER-15.a-g', 'USER-17.a-d', 'USER-5.a-d'],
      profile: 'write',
      requests: 6,
    },
    async (t) => {
      t.requireFeature('profile-update', 'PATCH /user (profile update)');
      const original = await getUser(t);
      const response = await t.api.get(pathOf('GET /user/avatars'), USER);
      t.require(hasStatus(response, 200), 'USER-17');
      const body = t.json<Json>(response, 'GEN-4');
      t.require(hasCollectionEnvelope(body, 'avatars'), 'GEN-7', 'USER-17');
      t.response('GET /user/avatars', response, 'USER-17');
      const avatars = (body['avatars'] as unknown[]).filter((a): a is string => typeof a === 'string');
      const before = original['avatar'];
      if (typeof before !== 'string' || !avatars.includes(before)) {
        return t.skip(`the user's avatar ${show(before)} is not one of GET /user/avatars: it could not be put back after a change`);
      }
      const other = avatars.find((a) => avatarFileName(a) !== avatarFileName(before));
      if (!other) return t.skip('GET /user/avatars offers no preset other than the current avatar');

      let changed = false;
      try {
        const preset = avatarFileName(other);
        const putBack = { avatar_preset: avatarFileName(before) };
        const byPreset = await patchUser(t, { avatar_preset: preset }, { undo: putBack });
        changed ||= byPreset.status >= 200 && byPreset.status < 300;
        const user = single(t, byPreset, 200, 'user', 'USER-14', 'USER-13');
        t.response('PATCH /user', byPreset, 'USER-13');
        // The preset's URI, or a per-user copy of it at another address (noted); never the old preset.
        t.must(avatarFollowsPreset(user, preset, avatars), 'USER-14');
        t.warn(avatarIsPresetUri(user, preset), 'USER-14');

        const upload = await patchUser(t, { avatar: PNG_B64 }, { undo: putBack });
        changed ||= upload.status >= 200 && upload.status < 300;
        const uploaded = single(t, upload, 200, 'user', 'USER-15', 'USER-13');
        t.response('PATCH /user', upload, 'USER-13', 'USER-5');
        // A new URI, or the same address of the user's own with the new image behind it (noted); never a preset.
        t.must(avatarTakesUpload(uploaded, avatars, user['avatar'], before), 'USER-15');
        t.warn(avatarStaysForUpload(uploaded, user['avatar']), 'USER-15');

        // "without a data-URI preamble": whether a server must refuse one is not stated (a
        // lenient server may strip it), so only a warning.
        const dataUri = await patchUser(t, { avatar: `data:image/png;base64,${PNG_B64}` }, { undo: putBack });
        changed ||= dataUri.status >= 200 && dataUri.status < 300;
        t.warn(
          dataUri.status >= 400 && dataUri.status < 500
            ? pass()
            : fail(`PATCH /user with an avatar sent as a data: URI (with its preamble) answered ${dataUri.status}; the spec asks for base64 without a data-URI preamble`),
          'USER-15',
        );
        if (dataUri.status >= 400 && dataUri.status < 500 && t.has('normalized-errors')) t.must(errorBodyIsWellFormed(t.json(dataUri, 'GEN-4')), 'ERR-2');
      } finally {
        if (changed) {
          const restored = await patchUser(t, { avatar_preset: avatarFileName(before) }, { undoes: true });
          const back = restored.status === 200 ? restored.json<{ user?: Json }>()?.user : undefined;
          // The original preset again (or a per-user copy of it, as for any preset).
          t.warn(
            inContext(`putting the avatar back with PATCH /user {avatar_preset} (status ${restored.status})`, avatarFollowsPreset(back, avatarFileName(before), avatars)),
            'USER-14',
          );
        }
      }
    },
  );
});

describe('GET /user/addresses, GET /user/addresses/new', () => {
  conformanceTest(
    'answer {addresses} (region a name) and {address_form} (required, optional, regions)',
    {
      id: 'addresses-and-form',
      clauses: ['USER-9#1-5', 'USER-10#1-3', 'USER-18#1', 'USER-19#1'],
      requirements: ['USER-18', 'USER-9', 'USER-19', 'USER-10', 'CHG-2'],
      readings: ['USER-18.a-d', 'USER-9.a-f', 'USER-19.a-c', 'USER-10.a-c', 'CHG-2.a-o'],
      requests: 2,
    },
    async (t) => {
      const addresses = await getAddresses(t);
      t.must(regionsAreNames(addresses), 'USER-9');
      // The form serves address create (3.2.0): an older version need not have it.
      t.requireFeature('address-writes', 'GET /user/addresses/new (the address form, with address create)');
      const form = await getAddressForm(t);
      const regions = form['regions'];
      t.must(
        typed(regions, isPlainObject(regions) && Object.keys(regions).length > 0, `address_form.regions is ${show(regions)}: no region to choose, so no address can be created`),
        'USER-10',
      );
    },
  );
});

describe('POST, PUT, DELETE /user/addresses', () => {
  conformanceTest(
    'POST with a numeric zip is 201 {address} with the region name; PUT is 200 with the change, which GET shows with nothing else changed; DELETE is 204, then 404',
    {
      id: 'address-lifecycle',
      clauses: ['ERR-3#1', 'ERR-9#1', 'USER-9#1-5', 'USER-20#1-2', 'USER-21#1', 'USER-22#1-5', 'USER-23#1-2', 'CHG-2#4-6'],
      requirements: ['USER-20', 'USER-21', 'USER-9', 'USER-22', 'USER-23', 'ERR-9', 'CHG-2', 'ERR-3'],
      readings: ['USER-20.a-g', 'USER-21.a-d', 'USER-9.a-f', 'USER-22.a-g', 'USER-23.a-g', 'ERR-9.a-j', 'CHG-2.a-o', 'ERR-3.a-h'],
      profile: 'write',
      requests: 10,
    },
    async (t) => {
      t.requireFeature('address-writes', 'Address create, update and delete');
      const { addresses: existing, response: listedBefore } = await readAddresses(t);
      // Leftovers of earlier runs that are over (by their label's time): never those of a run still going, here or elsewhere.
      const stale = existing.filter((a) => typeof a['label'] === 'string' && a['label'].startsWith(ADDRESS_PREFIX) && runIsOver(a['label']) && Number.isInteger(a['id']));
      if (stale.length)
        await removeAddresses(
          t,
          stale.map((a) => a['id'] as number),
        );
      const form = await getAddressForm(t);
      const regions = isPlainObject(form['regions']) ? form['regions'] : {};
      const [regionName, regionId] = Object.entries(regions).find(([, id]) => Number.isInteger(id)) ?? [];
      if (regionName === undefined) return t.skip('address_form.regions names no region id');

      const label = t.kitName('address');
      const address: Json = {
        label,
        first_name: 'Conformance',
        last_name: 'Kit',
        street_name: 'Test Street',
        street_number: '1',
        city: 'Testville',
        zip: 12345,
        region_id: regionId,
      };
      const created: number[] = [];
      const keep = (response: HttpResponse) => {
        const id = response.status === 201 ? response.json<{ address?: { id?: unknown } }>()?.address?.id : undefined;
        if (Number.isInteger(id)) created.push(id as number);
      };
      try {
        const post = await t.api.request('POST', pathOf('POST /user/addresses'), { ...USER, json: address });
        keep(post);
        if (post.status !== 201) {
          // Which part was refused: the same body with the zip as a string tells.
          const asString = await t.api.request('POST', pathOf('POST /user/addresses'), { ...USER, json: { ...address, zip: '12345' } });
          keep(asString);
          t.require(
            fail(
              `POST /user/addresses with zip 12345 (a number) answered ${post.status}${asString.status === 201 ? ', with zip "12345" (a string) 201' : `, and ${asString.status} with the zip as a string`}`,
            ),
            asString.status === 201 ? 'USER-21' : 'USER-20',
          );
        }
        const made = single(t, post, 201, 'address', 'USER-20');
        t.response('POST /user/addresses', post, 'USER-20', 'USER-9');
        t.require(typed(made['id'], Number.isInteger(made['id']), `the created address has id ${show(made['id'])}`), 'USER-9');
        const id = made['id'] as number;
        t.must(fieldIs(made, 'label', label, 'POST /user/addresses'), 'USER-20');
        t.must(regionIsName(made, regions, regionId as number), 'USER-9');

        const put = await t.api.request('PUT', pathOf('PUT /user/addresses/:id', { id }), { ...USER, json: { city: 'Otherville' } });
        const updated = single(t, put, 200, 'address', 'USER-22');
        t.response('PUT /user/addresses/:id', put, 'USER-22', 'USER-9');
        t.must(fieldIs(updated, 'city', 'Otherville', `PUT /user/addresses/${id} {city}`), 'USER-22');
        t.must(unchangedExcept(made, updated, ADDRESS_FIELDS, ['city'], `PUT /user/addresses/${id} {city} (a partial body)`), 'USER-22');
        // A name (USER-9); the region the address had is kept, or not, by the update (USER-22, above).
        t.must(regionsAreNames([updated]), 'USER-9');

        // The change is stored: the listing shows it, and only it; one POST made one address (a twin is removed too).
        // Asked with the listing's ETag from before: a 304 now would be a stale tag (ERR-3).
        const { addresses: after } = await readAddresses(t, { before: listedBefore, change: `POST /user/addresses and PUT /user/addresses/${id}` });
        const listed = after.find((a) => a['id'] === id);
        t.must(listed ? pass() : fail(`GET /user/addresses does not list the created address ${id}`), 'USER-18', 'USER-20');
        const twins = newTwins(existing, after, id, label);
        created.push(...twins);
        t.must(
          twins.length
            ? fail(`one POST /user/addresses, and GET /user/addresses lists ${twins.length + 1} new addresses labelled ${show(label)}: ${show([id, ...twins])}`)
            : pass(),
          'USER-20',
        );
        if (listed) {
          t.must(fieldIs(listed, 'city', 'Otherville', `GET /user/addresses after PUT /user/addresses/${id} {city}`), 'USER-22');
          t.must(unchangedExcept(made, listed, ADDRESS_FIELDS, ['city'], `GET /user/addresses after PUT /user/addresses/${id} {city}`), 'USER-22');
        }

        const deleted = await t.api.request('DELETE', pathOf('DELETE /user/addresses/:id', { id }), USER);
        t.must(hasStatus(deleted, 204), 'USER-23');
        t.response('DELETE /user/addresses/:id', deleted, 'USER-23');
        if (deleted.status === 204) created.splice(created.indexOf(id), 1);
        const twice = await t.api.request('DELETE', pathOf('DELETE /user/addresses/:id', { id }), USER);
        // Deleted again: a missing address not 404 (ERR-9 too), or one never deleted (USER-23 only): the listing tells.
        const still = twice.status >= 200 && twice.status < 300 ? (await getAddresses(t)).some((a) => a['id'] === id) : false;
        if (still)
          t.must(
            fail(`DELETE /user/addresses/${id} answered ${deleted.status}, and ${twice.status} again, and GET /user/addresses still lists it: the delete was not stored`),
            'USER-23',
          );
        else t.must(hasStatus(twice, 404), 'ERR-9', 'USER-23');
        judgeNotFoundBody(t, twice);
      } finally {
        await removeAddresses(t, created);
      }
    },
  );
});

describe('GET /user/saved_orders', () => {
  conformanceTest(
    'answers {saved_orders, meta} of Saved orders, 25 per page by default',
    {
      id: 'saved-orders',
      clauses: ['PAG-1#1-5', 'PAG-2#1', 'PAG-5#1', 'USER-11#1-10', 'USER-24#1', 'CHG-2#14'],
      requirements: ['USER-24', 'USER-11', 'PAG-1', 'PAG-2', 'PAG-5', 'CHG-2'],
      readings: ['USER-24.a-c', 'USER-11.a-e', 'PAG-1.a-e', 'PAG-2.a-e', 'PAG-5.a-j', 'CHG-2.a-o'],
      requests: 1,
    },
    async (t) => {
      t.requireFeature('saved-orders', 'The saved orders list');
      const response = await t.api.get(pathOf('GET /user/saved_orders'), USER);
      t.require(hasStatus(response, 200), 'USER-24');
      const body = t.json<Json>(response, 'GEN-4');
      t.require(hasCollectionEnvelope(body, 'saved_orders'), 'GEN-7', 'USER-24');
      t.require(paginationMetaIsWellFormed(body), 'PAG-1', 'USER-24');
      t.response('GET /user/saved_orders', response, 'USER-24', 'USER-11');
      const pagination = readPagination(body)!;
      const orders = body['saved_orders'] as unknown[];
      t.must(defaultPageSizeIs25(pagination), 'PAG-2');
      for (const [check, id] of paginationClauses(pagination, orders.length)) t.must(check, id);
      t.must(nextAndLastLinksWhileMorePages(response.headers, pagination, orders.length), 'PAG-5');
    },
  );
});

describe('GET /personalization, PUT /personalization', () => {
  conformanceTest(
    'GET answers {personalization}',
    { id: 'get-personalization', clauses: ['PERS-1#1-7', 'PERS-2#1'], requirements: ['PERS-2', 'PERS-1'], readings: ['PERS-2.a-i', 'PERS-1.a-g'], requests: 1 },
    async (t) => {
      t.requireFeature('product-blp', PERSONALIZATION);
      await getPersonalization(t);
    },
  );

  conformanceTest(
    "PUT with another of the user's addresses answers 200 {personalization} pointing at it, and GET shows it, as does the meta of a product list the costs are computed for; the original address is put back",
    {
      id: 'put-personalization',
      clauses: ['PRD-6#1', 'PRD-9#4', 'PERS-1#1-7', 'PERS-2#1-2', 'PERS-3#1-4'],
      requirements: ['PERS-3', 'PERS-2', 'PERS-1', 'PRD-6', 'PRD-9'],
      readings: ['PERS-3.a-f', 'PERS-2.a-i', 'PERS-1.a-g', 'PRD-6.a-e', 'PRD-9.a-g'],
      profile: 'write',
      requests: 6,
    },
    async (t) => {
      t.requireFeature('product-blp', PERSONALIZATION);
      const before = await getPersonalization(t);
      const location = isPlainObject(before['location']) ? before['location'] : {};
      const originalId = location['address_id'];
      if (!Number.isInteger(originalId)) {
        return t.skip(`the personalization's address_id is ${show(originalId)}: PUT /personalization takes an address_id, so the original could not be put back`);
      }
      const addresses = await getAddresses(t);
      const target = addresses.find((a) => Number.isInteger(a['id']) && a['id'] !== originalId);
      if (!target) return t.skip("the user has no address other than the personalization's own");
      const bodyOf = (addressId: unknown) => ({ personalization: { location: { address_id: addressId } } });
      const put = (addressId: unknown, journal: { undo: true } | { undoes: true }) =>
        t.api.request('PUT', pathOf('PUT /personalization'), {
          ...USER,
          json: bodyOf(addressId),
          ...('undo' in journal
            ? {
                undo: [
                  {
                    action: { method: 'PUT' as const, path: pathOf('PUT /personalization'), json: bodyOf(originalId) },
                    what: `the personalization's address ${String(originalId)}, as before the run`,
                  },
                ],
              }
            : { undoes: true }),
        });

      const changed = await put(target['id'], { undo: true });
      try {
        const answered = single(t, changed, 200, 'personalization', 'PERS-3');
        t.response('PUT /personalization', changed, 'PERS-3', 'PERS-1');
        t.must(locationIs(answered, target['id'], 'PUT /personalization (the answer)'), 'PERS-3');
        const read = await getPersonalization(t);
        // The PUT's effect ("later GETs use it"): a GET showing the old one shows what is stored.
        t.must(locationIs(read, target['id'], 'GET /personalization after PUT'), 'PERS-3');
        // blp is "computed from personalization", and a product list's meta carries the one used:
        // for the user's token, theirs, as GET /personalization shows it (whether the PUT was stored is judged above).
        const skuId = await t.discover('skuWithProducts').catch(() => null);
        if (skuId !== null) {
          const path = pathOf('GET /skus/:id/products', { id: skuId });
          const listed = await t.api.get(path, { ...USER, query: { per: 1 } });
          // The address GET /personalization shows (none: a location not judged here, but above).
          const shown = isPlainObject(read['location']) ? read['location']['address_id'] : undefined;
          if (listed.status === 200 && shown !== undefined) {
            const meta = listed.json<{ meta?: Json }>()?.meta;
            const used = isPlainObject(meta) ? meta['personalization'] : undefined;
            t.must(
              locationIs(
                used,
                shown,
                `GET ${path} with the user's token after PUT /personalization (meta.personalization, the one blp is computed from, against GET /personalization's)`,
              ),
              // Another personalization than the user's: blp computed from it (PRD-6); none at all, the meta's own statement (PRD-9).
              isPlainObject(used) ? 'PRD-6' : 'PRD-9',
            );
          }
        }
      } finally {
        if (changed.status >= 200 && changed.status < 300) {
          const restored = await put(originalId, { undoes: true });
          const back = restored.status === 200 ? restored.json<{ personalization?: Json }>()?.personalization : undefined;
          t.warn(locationIs(back, originalId, `putting the personalization back (status ${restored.status})`), 'PERS-3');
          if (back && JSON.stringify(back) !== JSON.stringify(before)) {
            t.warn(fail(`the personalization put back differs from the original: ${show(back, 300)} instead of ${show(before, 300)}`), 'PERS-3');
          }
        }
      }
    },
  );
});
