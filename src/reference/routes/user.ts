// GET/PATCH /user, /user/avatars, /user/addresses*, /user/saved_orders, DELETE /user/logout
// (spec "Endpoints > User"; resources "User", "User address", "Saved order").
//
// Choices where the spec is silent:
// - Permissions ("not shown"): every route needs a user token (an application token gets 401)
//   and accepts any scope; no scope value is required.
// - Versions: PATCH /user, POST/PUT/DELETE /user/addresses and GET /user/saved_orders are
//   served from 3.2.0 (Change history: profile update, address create/update/delete, saved
//   orders list); older versions get 404. GET /user, /user/avatars, /user/addresses and
//   /user/addresses/new are served in every version (variant address-form-from-3.2.0: the form
//   from 3.2.0, with address create).
// - Validation failures are 422 with code RecordInvalid and one message per problem; a body
//   with none of the updatable fields is 400 ParameterMissing. Fields not named below are
//   ignored (like Rails strong parameters), so read-only fields such as email are not changed.
// - PATCH /user updates sex (male, female or null), birthyear (an integer 1900..the current
//   year, or null; a digit string is accepted), avatar_preset (a file name, the last path
//   segment of a URI from /user/avatars; the full URI is refused) and avatar (bare base64 of a
//   PNG, JPEG or GIF of at most 1 MiB; whitespace ignored). "" means null for sex and
//   birthyear (form bodies cannot send null). avatar and avatar_preset together: 422. All or
//   nothing: one invalid field means no change.
// - An uploaded avatar gets the URI <origin of the avatar presets>/avatars/uploads/<user id>-<hash>.<ext>,
//   a preset chosen the preset's URI (variant avatar-per-user-address: both are served at
//   <origin>/avatars/users/<user id>/avatar, the one address of the user's avatar).
// - GET /user/addresses is not paginated (the spec shows no meta): every address of the user,
//   ordered by id; page and per are ignored.
// - Address bodies are flat (as the address_form describes them). Text fields must be non-empty
//   strings of at most 255 characters; zip may be a non-negative integer number (stored as its
//   decimal string); street_number must be a string; region_id an id of the form's regions
//   (a digit string is accepted); phone and mobile a string or null ("" means null). region (a
//   name) is not an input; use region_id. A missing required field on create is 422 naming
//   each missing field (variant validation-as-400: 400 ParameterMissing naming each).
// - lat/lng of a created or moved address come from a simulated geocoder, never null: a
//   deterministic point within about 20 km of its region's point (the regions tile the map, about
//   100 km apart), so an address in another region lands far away; the generated addresses are
//   placed the same way. (Variant address-coordinates-null: addresses show lat and lng null; the
//   personalization still takes its coordinates from the geocoder.)
// - Another user's address is 404 RecordNotFound, like an unknown id.
// - Deleting the address the personalization points at keeps the personalization's label and
//   coordinates but sets its address_id to null and its type to quick_address (variant
//   personalization-reset-on-address-delete: the personalization becomes the default one).
// - GET /user/saved_orders (the spec's reference text says DELETE; the reference serves GET and
//   answers DELETE with 405): the user's orders, newest first (variant
//   saved-orders-oldest-first: oldest first), paginated.
// - DELETE /user/logout ends the access token that made the request (later calls with it get
//   401); the user's other access tokens and its refresh tokens stay valid. The server option
//   logoutEnds: 'all-user-tokens' ends all of them instead (the effect is not shown).

import { createHash } from 'node:crypto';
import { geocodeAddress, type GeocodeInput } from '../data.ts';
import { locationLabel } from '../data/people.ts';
import { ApiError, recordNotFound, type ApiResult } from '../http.ts';
import type { AddressRecord, PersonalizationRecord, UserRecord } from '../model.ts';
import type { ApiContext, RouteModule } from '../router.ts';
import { defaultPersonalization } from '../serializers/product.ts';
import { avatarUri, serializeAddress, serializeSavedOrder, serializeUser } from '../serializers/user.ts';
import { respondMany, respondOne } from '../shape.ts';
import { parseId } from './params.ts';
import { refuseMissingFields } from './validation.ts';
import { versionAtLeast } from '../versioning.ts';

const USER_ONLY = { scope: null, user: true } as const;
const USER_ONLY_32 = { ...USER_ONLY, since: '3.2.0' } as const;

/** 422 with one message per problem. */
export function recordInvalid(messages: string[]): ApiError {
  return new ApiError(422, 'RecordInvalid', messages);
}

function noUpdatableField(fields: readonly string[]): ApiError {
  return new ApiError(400, 'ParameterMissing', [`The body names none of the updatable fields: ${fields.join(', ')}`]);
}

/** The user of the request's (user) token. */
export function userIdOf(ctx: ApiContext): number {
  if (ctx.userId === null) throw new ApiError(401, 'Unauthorized', ['This endpoint needs a user token (authorization code grant)']);
  return ctx.userId;
}

/** The token's user; for an application token (`notFound`) 404 RecordNotFound, there being no user. */
function currentUserOr404(ctx: ApiContext, notFound: boolean): UserRecord {
  if (notFound && ctx.userId === null) throw new ApiError(404, 'RecordNotFound', ['There is no user behind an application token']);
  return currentUser(ctx);
}

export function currentUser(ctx: ApiContext): UserRecord {
  const id = userIdOf(ctx);
  const u = ctx.data.users.get(id);
  if (!u) throw recordNotFound('User', id);
  settleAvatar(ctx, u);
  return u;
}

/** Variant avatar-processed-later: an uploaded image becomes the avatar once processed, a minute later; the old one shows meanwhile. */
const AVATAR_PROCESSING_MS = 60_000;
const pendingAvatars = new WeakMap<UserRecord, { avatar: string; dueMs: number }>();

function settleAvatar(ctx: ApiContext, u: UserRecord): void {
  const pending = pendingAvatars.get(u);
  if (!pending || pending.dueMs > ctx.now()) return;
  u.avatar = pending.avatar;
  pendingAvatars.delete(u);
}

function has(body: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, key);
}

// ---------------------------------------------------------------------------------------------
// PATCH /user

const USER_FIELDS = ['sex', 'birthyear', 'avatar_preset', 'avatar'] as const;
const MIN_BIRTHYEAR = 1900;
/** Largest decoded avatar (the spec gives no limit). */
export const MAX_AVATAR_BYTES = 1024 * 1024;

/** Where uploaded avatars are served: the origin of the presets. */
function avatarOrigin(ctx: ApiContext, user: UserRecord): string {
  return originOf(ctx.data.avatars[0]) ?? originOf(user.avatar ?? undefined) ?? 'https://img.catalogue.example';
}

/**
 * Variant avatar-per-user-address: the user's avatar is served at one address of their own, where
 * a preset chosen is copied and an uploaded image stored; null: the reference's URIs.
 */
function ownAvatarAddress(ctx: ApiContext, user: UserRecord): string | null {
  return ctx.variants.has('avatar-per-user-address') ? `${avatarOrigin(ctx, user)}/avatars/users/${user.id}/avatar` : null;
}

/** File name of an avatar URI: its last path segment. */
export function avatarFileName(uri: string): string {
  const path = uri.split(/[?#]/)[0]!;
  return path.slice(path.lastIndexOf('/') + 1);
}

const IMAGE_SIGNATURES: readonly { ext: string; bytes: readonly number[] }[] = [
  { ext: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { ext: 'jpg', bytes: [0xff, 0xd8, 0xff] },
  { ext: 'gif', bytes: [0x47, 0x49, 0x46, 0x38, 0x37, 0x61] }, // GIF87a
  { ext: 'gif', bytes: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61] }, // GIF89a
];

/** Decodes a bare-base64 avatar: the image bytes and extension, or the problem. */
function decodeAvatar(ctx: ApiContext, raw: unknown): { bytes: Buffer; ext: string } | string {
  if (typeof raw !== 'string') return 'avatar must be a string of base64 image data';
  // Variant avatar-data-uri-stripped: a data-URI preamble ("data:image/png;base64,") is tolerated and dropped.
  const text = ctx.variants.has('avatar-data-uri-stripped') ? raw.replace(/^\s*data:[^,]*;base64,/i, '') : raw;
  if (/^\s*data:/i.test(text)) return 'avatar must be bare base64 image data, without a data-URI preamble ("data:...;base64,")';
  const compact = text.replace(/\s+/g, '');
  if (compact === '' || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return 'avatar is not valid base64';
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > MAX_AVATAR_BYTES) return `avatar is larger than ${MAX_AVATAR_BYTES} bytes`;
  const sig = IMAGE_SIGNATURES.find((s) => s.bytes.length <= bytes.length && s.bytes.every((b, i) => bytes[i] === b));
  if (!sig) return 'avatar is not a PNG, JPEG or GIF image';
  return { bytes, ext: sig.ext };
}

function originOf(uri: string | undefined): string | null {
  if (uri === undefined) return null;
  try {
    const u = new URL(uri);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

function patchUser(ctx: ApiContext): UserRecord {
  const user = currentUser(ctx);
  const body = ctx.body;
  if (body === null || !USER_FIELDS.some((k) => has(body, k))) throw noUpdatableField(USER_FIELDS);
  const errors: string[] = [];
  const changes: Partial<Pick<UserRecord, 'sex' | 'birthyear' | 'avatar'>> = {};

  if (has(body, 'sex')) {
    const v = body['sex'];
    if (v === null || v === '') changes.sex = null;
    else if (v === 'male' || v === 'female') changes.sex = v;
    else errors.push('sex must be male, female or null');
  }
  if (has(body, 'birthyear')) {
    const v = body['birthyear'];
    const maxYear = new Date(ctx.now()).getUTCFullYear();
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,4}$/.test(v) ? Number(v) : NaN;
    if (v === null || v === '') changes.birthyear = null;
    else if (!Number.isInteger(n)) errors.push('birthyear must be an integer year or null');
    else if (n < MIN_BIRTHYEAR || n > maxYear) errors.push(`birthyear must be between ${MIN_BIRTHYEAR} and ${maxYear}`);
    else changes.birthyear = n;
  }
  if (has(body, 'avatar') && has(body, 'avatar_preset')) {
    errors.push('send either avatar or avatar_preset, not both');
  } else if (has(body, 'avatar_preset')) {
    const v = body['avatar_preset'];
    // Variant avatar-preset-full-uri: the URI itself, as GET /user/avatars lists it, names the preset too.
    const fullUri = (uri: string): boolean => ctx.variants.has('avatar-preset-full-uri') && (v === uri || v === avatarUri(uri, ctx.variants));
    const preset = typeof v === 'string' && v !== '' ? ctx.data.avatars.find((uri) => avatarFileName(uri) === v || fullUri(uri)) : undefined;
    if (preset === undefined) errors.push('avatar_preset must be a file name from GET /user/avatars');
    else changes.avatar = ownAvatarAddress(ctx, user) ?? preset;
  } else if (has(body, 'avatar')) {
    const decoded = decodeAvatar(ctx, body['avatar']);
    if (typeof decoded === 'string') errors.push(decoded);
    else {
      const hash = createHash('sha256').update(decoded.bytes).digest('hex').slice(0, 16);
      const uploaded = ownAvatarAddress(ctx, user) ?? `${avatarOrigin(ctx, user)}/avatars/uploads/${user.id}-${hash}.${decoded.ext}`;
      if (ctx.variants.has('avatar-processed-later')) pendingAvatars.set(user, { avatar: uploaded, dueMs: ctx.now() + AVATAR_PROCESSING_MS });
      else changes.avatar = uploaded;
    }
  }
  // A preset chosen meanwhile replaces an upload still being processed.
  if (changes.avatar !== undefined) pendingAvatars.delete(user);
  if (errors.length > 0) throw recordInvalid(errors);
  // The bug: the profile fields are read as one form, so the one not sent becomes null.
  if (ctx.fault === 'user-patch-clears-unsent-fields') {
    if (!has(body, 'sex')) changes.sex = null;
    if (!has(body, 'birthyear')) changes.birthyear = null;
  }
  // The bug: the answer shows the change, which is never written.
  if (ctx.fault === 'user-patch-not-stored') return { ...user, ...changes };
  Object.assign(user, changes);
  return user;
}

// ---------------------------------------------------------------------------------------------
// Addresses

const TEXT_FIELDS = ['label', 'first_name', 'last_name', 'street_name', 'street_number', 'city'] as const;
export const ADDRESS_REQUIRED = [...TEXT_FIELDS, 'zip', 'region_id'] as const;
export const ADDRESS_OPTIONAL = ['phone', 'mobile'] as const;
const ADDRESS_FIELDS: readonly string[] = [...ADDRESS_REQUIRED, ...ADDRESS_OPTIONAL];
const MAX_TEXT = 255;

type AddressInput = Partial<Pick<AddressRecord, (typeof TEXT_FIELDS)[number] | 'zip' | 'region' | 'phone' | 'mobile'>>;

/** The address fields: the flat body, or (variant address-body-wrapped) the {address: {...}} object when the body is so wrapped. */
function addressBody(ctx: ApiContext): Record<string, unknown> | null {
  const wrapped = ctx.body?.['address'];
  if (ctx.variants.has('address-body-wrapped') && typeof wrapped === 'object' && wrapped !== null && !Array.isArray(wrapped)) return wrapped as Record<string, unknown>;
  return ctx.body;
}

/** Reads and validates the address fields of a flat body; `partial`: missing fields are fine. */
function readAddress(ctx: ApiContext, partial: boolean): AddressInput {
  const body = addressBody(ctx) ?? {};
  if (!partial)
    refuseMissingFields(
      ctx,
      ADDRESS_REQUIRED.filter((k) => !has(body, k)),
    );
  const errors: string[] = [];
  const out: AddressInput = {};
  for (const k of TEXT_FIELDS) {
    if (!has(body, k)) {
      if (!partial) errors.push(`${k} is required`);
      continue;
    }
    const v = body[k];
    if (typeof v !== 'string' || v.trim() === '') errors.push(`${k} must be a non-empty string`);
    else if (v.length > MAX_TEXT) errors.push(`${k} must be at most ${MAX_TEXT} characters`);
    else out[k] = v.trim();
  }
  if (!has(body, 'zip')) {
    if (!partial) errors.push('zip is required');
  } else {
    const v = body['zip'];
    // The bug: a numeric zip is refused, although the spec lets clients send it as a number.
    if (typeof v === 'number' && ctx.fault === 'address-numeric-zip-rejected') errors.push('zip must be a string');
    else if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) out.zip = String(v);
    else if (typeof v === 'string' && v.trim() !== '' && v.length <= MAX_TEXT) out.zip = v.trim();
    else errors.push('zip must be a non-empty string or a non-negative integer');
  }
  if (!has(body, 'region_id')) {
    if (!partial) errors.push('region_id is required');
  } else {
    const v = body['region_id'];
    const id = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : NaN;
    const name = Object.keys(ctx.data.regions).find((r) => ctx.data.regions[r] === id);
    if (name === undefined) errors.push('region_id must be one of the region ids of GET /user/addresses/new');
    else out.region = name;
  }
  for (const k of ADDRESS_OPTIONAL) {
    if (!has(body, k)) continue;
    const v = body[k];
    if (v === null || v === '') out[k] = null;
    else if (typeof v === 'string' && v.length <= MAX_TEXT) out[k] = v.trim();
    else errors.push(`${k} must be a string of at most ${MAX_TEXT} characters, or null`);
  }
  if (errors.length > 0) throw recordInvalid(errors);
  return out;
}

/**
 * The simulated geocoder (data/people.ts geocodeAddress): a deterministic point within about
 * 20 km of the point of the address's region; regions lie about 100 km apart or more, so an
 * address in another region lands elsewhere. (An address whose region has no point, which
 * validation prevents, lands near the map centre.) The user does not matter; the parameter stays
 * for the callers.
 */
export function geocode(ctx: ApiContext, _userId: number, a: GeocodeInput): { lat: string; lng: string } {
  const centre = defaultPersonalization(ctx.data).location;
  return geocodeAddress(ctx.data.regionCentres, a, { lat: Number(centre.lat), lng: Number(centre.lng) });
}

function findOwnAddress(ctx: ApiContext): AddressRecord {
  const id = parseId(ctx.params['id'], 'Address');
  const a = ctx.data.addresses.get(id);
  if (!a || a.userId !== userIdOf(ctx)) throw recordNotFound('Address', id);
  return a;
}

/** Another address of the same user (the lowest id), or the address itself when it is the only one. */
function otherAddressOf(ctx: ApiContext, a: AddressRecord): AddressRecord {
  const others = [...ctx.data.addresses.values()].filter((x) => x.userId === a.userId && x.id !== a.id).sort((x, y) => x.id - y.id);
  return others[0] ?? a;
}

/** The personalization loses its deleted address: kept as a quick address, or (variant) reset to the default. */
function forgetAddress(ctx: ApiContext, p: PersonalizationRecord): void {
  if (ctx.variants.has('personalization-reset-on-address-delete')) {
    const d = defaultPersonalization(ctx.data);
    p.location = { ...d.location };
    p.payment_method = { ...d.payment_method };
    return;
  }
  p.location = { ...p.location, address_id: null, type: 'quick_address' };
}

function addressResult(ctx: ApiContext, a: AddressRecord, status = 200) {
  return respondOne(ctx, 'address', a, (x) => serializeAddress(x, ctx.data, ctx.fault, ctx.variants), { status });
}

// ---------------------------------------------------------------------------------------------

export const userRoutes: RouteModule = (router, variants) => {
  // Variant user-app-token-404: GET /user is the current user's record; an application token has none, so it is not found.
  const noUserNotFound = variants.has('user-app-token-404');
  router.get(
    '/user',
    (ctx) => respondOne(ctx, 'user', currentUserOr404(ctx, noUserNotFound), (u) => serializeUser(u, ctx.version, ctx.fault, ctx.variants)),
    noUserNotFound ? { scope: null } : USER_ONLY,
  );
  router.patch('/user', (ctx) => respondOne(ctx, 'user', patchUser(ctx), (u) => serializeUser(u, ctx.version, ctx.fault, ctx.variants)), USER_ONLY_32);
  router.get('/user/avatars', (ctx) => ({ status: 200, body: { avatars: ctx.data.avatars.map((uri) => avatarUri(uri, ctx.variants)) } }), USER_ONLY);
  router.get('/user/addresses', listAddresses, USER_ONLY);
  router.get('/user/addresses/new', showAddressForm, USER_ONLY);
  router.post('/user/addresses', createAddress, USER_ONLY_32);
  router.put('/user/addresses/:id', updateAddress, USER_ONLY_32);
  router.delete('/user/addresses/:id', deleteAddress, USER_ONLY_32);
  router.get('/user/saved_orders', listSavedOrders, USER_ONLY_32);
  // Variant saved-orders-on-delete: the listing is served on DELETE too, as the spec's endpoint table labels it.
  if (variants.has('saved-orders-on-delete')) router.delete('/user/saved_orders', listSavedOrders, USER_ONLY_32);
  router.delete('/user/logout', logout, USER_ONLY);
};

function listAddresses(ctx: ApiContext): ApiResult {
  const uid = userIdOf(ctx);
  const mine = [...ctx.data.addresses.values()].filter((a) => a.userId === uid).sort((a, b) => a.id - b.id);
  // Variant addresses-paginated: a paginated collection like the others, with meta.pagination.
  return respondMany(ctx, 'addresses', mine, (a) => serializeAddress(a, ctx.data, ctx.fault, ctx.variants), { paginate: ctx.variants.has('addresses-paginated') });
}

function showAddressForm(ctx: ApiContext): ApiResult {
  // Variant address-form-from-3.2.0: the form comes with address create (3.2.0); an older version gets 404, as for an unknown route.
  if (ctx.variants.has('address-form-from-3.2.0') && !versionAtLeast(ctx.version, '3.2.0')) {
    throw new ApiError(404, 'NotFound', [`GET /user/addresses/new is served from version 3.2.0; this request got ${ctx.version.label}`]);
  }
  return respondOne(ctx, 'address_form', null, () => ({
    required: [...ADDRESS_REQUIRED],
    optional: [...ADDRESS_OPTIONAL],
    regions: { ...ctx.data.regions },
  }));
}

function createAddress(ctx: ApiContext): ApiResult {
  const uid = userIdOf(ctx);
  const input = readAddress(ctx, false) as Required<AddressInput>;
  const base = {
    id: ctx.data.nextId('address'),
    label: input.label,
    first_name: input.first_name,
    last_name: input.last_name,
    street_name: input.street_name,
    street_number: input.street_number,
    city: input.city,
    zip: input.zip,
    region: input.region,
    phone: input.phone ?? null,
    mobile: input.mobile ?? null,
    userId: uid,
  };
  const record: AddressRecord = { ...base, ...geocode(ctx, uid, base) };
  ctx.data.addresses.set(record.id, record);
  // The bug: a retried insert stores the address a second time, under another id.
  if (ctx.fault === 'address-created-twice') {
    const twin = { ...record, id: ctx.data.nextId('address') };
    ctx.data.addresses.set(twin.id, twin);
  }
  return addressResult(ctx, record, 201);
}

function updateAddress(ctx: ApiContext): ApiResult {
  const asked = findOwnAddress(ctx);
  // The bug: the update is written to another address of the user (the lowest other id).
  const a = ctx.fault === 'address-update-applied-to-other-address' ? otherAddressOf(ctx, asked) : asked;
  const body = addressBody(ctx);
  if (body === null || !ADDRESS_FIELDS.some((k) => has(body, k))) throw noUpdatableField(ADDRESS_FIELDS);
  const input = readAddress(ctx, true);
  // The bug: the partial body replaces the address; the fields not sent (but the label) become empty.
  if (ctx.fault === 'address-update-clears-unsent-fields') {
    for (const k of TEXT_FIELDS) if (k !== 'label' && input[k] === undefined) input[k] = '';
  }
  // The bug: the answer shows the change, which is never written.
  if (ctx.fault === 'address-update-not-stored') return addressResult(ctx, { ...a, ...input });
  const moved = (['street_name', 'street_number', 'city', 'zip', 'region'] as const).some((k) => input[k] !== undefined && input[k] !== a[k]);
  Object.assign(a, input);
  if (moved || a.lat === null || a.lng === null) Object.assign(a, geocode(ctx, a.userId, a));
  // The personalization shows the label and coordinates of its address.
  const p = ctx.data.personalization.get(a.userId);
  if (p && p.location.address_id === a.id) {
    p.location = { ...p.location, label: locationLabel(a), lat: a.lat!, lng: a.lng! };
  }
  return addressResult(ctx, a);
}

function deleteAddress(ctx: ApiContext): ApiResult {
  const a = findOwnAddress(ctx);
  // The bug: the delete is answered but never applied.
  if (ctx.fault === 'address-delete-not-stored') return { status: 204 };
  ctx.data.addresses.delete(a.id);
  const p = ctx.data.personalization.get(a.userId);
  if (p && p.location.address_id === a.id) forgetAddress(ctx, p);
  return { status: 204 };
}

function listSavedOrders(ctx: ApiContext): ApiResult {
  const uid = userIdOf(ctx);
  const sign = ctx.variants.has('saved-orders-oldest-first') ? -1 : 1;
  const mine = ctx.data.savedOrders.filter((o) => o.userId === uid).sort((a, b) => sign * (Date.parse(b.date) - Date.parse(a.date)) || a.order_code.localeCompare(b.order_code));
  return respondMany(ctx, 'saved_orders', mine, serializeSavedOrder);
}

function logout(ctx: ApiContext): ApiResult {
  ctx.logout();
  // The bug: a confirmation body where the spec says the body is empty.
  if (ctx.fault === 'logout-returns-body') return { status: 200, body: { message: 'Logged out' } };
  return { status: 200, headers: { 'Content-Length': '0' } };
}
