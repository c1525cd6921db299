// Checks of the user account, personalization and notifications (spec: Resources and their fields >
// User, User address, Personalization, Notification; Events; Endpoints > User, Personalization,
// Notifications). Pure functions over what the server sent; the suites pick severity and ids.
import { allOf, blank, fail, following, isPlainObject, pass, show, statedValue, typed, type CheckResult } from './check.ts';

type Json = Record<string, unknown>;

/** The last path segment of an avatar URI: the "filename" PATCH /user takes as avatar_preset. */
export function avatarFileName(uri: string): string {
  const path = uri.split(/[?#]/)[0]!;
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Every field in `fields` is a key of `object` (blank fields are null, never omitted). */
export function hasFields(object: unknown, fields: readonly string[], what: string): CheckResult {
  if (!isPlainObject(object)) return fail(`${what} is ${show(object)}, expected an object`);
  const absent = fields.filter((f) => !(f in object));
  return absent.length ? fail(`${what} lacks ${absent.join(', ')}`) : pass();
}

/**
 * `object[field]` equals `expected` after an update that sent it. A null is blank (GEN-8) where the
 * spec types the field non-null; `nullable` (the spec's "or null", e.g. sex, birthyear) makes a
 * null a value like any other, so a null for a value sent fails.
 */
export function fieldIs(object: unknown, field: string, expected: unknown, what: string, nullable = false): CheckResult {
  const actual = isPlainObject(object) ? object[field] : undefined;
  const message = `${what}: ${field} is ${show(actual)}, expected ${show(expected)}`;
  return nullable ? (actual === expected ? pass() : fail(message)) : typed(actual, actual === expected, message);
}

/**
 * A write changes what it was asked to change and nothing else: each of `fields` the object had
 * before (other than `changed`) has the same value after (deep equality). `what` names the answer.
 * Values compared as text where the spec allows a number for a string (a zip sent as 12345 is "12345").
 */
export function unchangedExcept(before: unknown, after: unknown, fields: readonly string[], changed: readonly string[], what: string): CheckResult {
  if (!isPlainObject(before)) return pass();
  if (!isPlainObject(after)) return fail(`${what}: no object to compare with what was there before`);
  const same = (a: unknown, b: unknown): boolean =>
    JSON.stringify(a) === JSON.stringify(b) || ((typeof a === 'number' || typeof a === 'string') && (typeof b === 'number' || typeof b === 'string') && String(a) === String(b));
  const moved = fields.filter((f) => !changed.includes(f) && f in before && !same(before[f], after[f]));
  if (moved.length === 0) return pass();
  const detail = moved.map((f) => `${f} ${show(before[f], 60)} -> ${show(after[f], 60)}`).join(', ');
  return fail(`${what}: ${changed.length ? `only ${changed.join(', ')} was to change, but ` : ''}${detail}`);
}

/**
 * After PATCH /user {avatar_preset: filename}, what no reading allows: an avatar that is not a URI,
 * or another preset of GET /user/avatars than the one sent (the old one: the change was not made).
 * Any other URI may be the preset's own or a per-user copy of it (avatarIsPresetUri notes a copy).
 */
export function avatarFollowsPreset(user: unknown, fileName: string, presets: readonly string[]): CheckResult {
  const avatar = isPlainObject(user) ? user['avatar'] : undefined;
  const what = `avatar is ${show(avatar)} after PATCH /user with avatar_preset ${show(fileName)}`;
  if (typeof avatar !== 'string') return typed(avatar, false, what);
  if (avatarFileName(avatar) === fileName || !presets.includes(avatar)) return pass();
  return fail(`${what}: another preset of GET /user/avatars than the one sent`);
}

/**
 * After PATCH /user {avatar_preset: filename}, the avatar is the preset's URI (same file name). A
 * deployment may keep a per-user copy of the preset at an address of its own: the spec does not
 * say the avatar becomes the preset's URI, so another URI is only noted (avatarFollowsPreset
 * fails the readings none allows).
 */
export function avatarIsPresetUri(user: unknown, fileName: string): CheckResult {
  const avatar = isPlainObject(user) ? user['avatar'] : undefined;
  if (typeof avatar !== 'string' || avatarFileName(avatar) === fileName) return pass();
  return fail(
    `avatar is ${show(avatar)} after PATCH /user with avatar_preset ${show(fileName)}, not that preset's URI: a per-user copy of the preset at an address of its own, which the spec does not rule out (it does not say the avatar becomes the preset's URI)`,
  );
}

/**
 * After PATCH /user {avatar: base64 image}, what no reading allows: an avatar that is not a URI, or
 * another preset of GET /user/avatars than the one before (an uploaded image is not at a preset's
 * shared address). The avatar left as it was (`previous`: an address of the user's own, or the
 * old image showing while the upload is processed, USER-13) is avatarStaysForUpload's note.
 */
export function avatarTakesUpload(user: unknown, presets: readonly string[], previous?: unknown, beforePrevious?: unknown): CheckResult {
  const avatar = isPlainObject(user) ? user['avatar'] : undefined;
  const what = `avatar is ${show(avatar)} after PATCH /user with a base64 image`;
  if (typeof avatar !== 'string') return typed(avatar, false, what);
  if (!presets.includes(avatar) || avatar === previous) return pass();
  const result = fail(`${what}: a preset of GET /user/avatars, not an address for the image uploaded`);
  // An upload processed later shows the avatar stored (USER-13.g): the one before the previous
  // change means that change was not stored, which is the previous PATCH's finding, not this one.
  return avatar === beforePrevious ? following(`the avatar before the previous PATCH /user: that change was not stored`, result) : result;
}

/**
 * After an upload, the avatar URI is new. A deployment may serve each user's avatar at one fixed
 * address whose image changes, or process the upload later, the old image showing meanwhile: the
 * spec says neither that the URI changes nor when, so the same URI is only noted.
 */
export function avatarStaysForUpload(user: unknown, previous: unknown): CheckResult {
  const avatar = isPlainObject(user) ? user['avatar'] : undefined;
  if (typeof avatar !== 'string' || avatar !== previous) return pass();
  return fail(
    `PATCH /user with a base64 image answered 200 with the avatar still ${show(avatar)}: a fixed per-user address whose image changed, or an upload processed later, which the spec does not rule out (it says neither that the URI changes nor when)`,
  );
}

/** User address: region is the region name (the key of address_form.regions mapping to the id sent). */
export function regionIsName(address: unknown, regions: Record<string, unknown>, regionId: number): CheckResult {
  const region = isPlainObject(address) ? address['region'] : undefined;
  const names = Object.keys(regions).filter((name) => regions[name] === regionId);
  if (typeof region !== 'string') return typed(region, false, `address region is ${show(region)}, expected the region name ${show(names[0])} (a string)`);
  return names.includes(region) ? pass() : fail(`address region is ${show(region)}, but region_id ${regionId} is ${show(names[0])} in address_form.regions`);
}

/** Every address has a string region (a name, not the form's integer region_id). */
export function regionsAreNames(addresses: readonly unknown[]): CheckResult {
  return allOf(
    addresses.map((a) => {
      const region = isPlainObject(a) ? a['region'] : undefined;
      return typed(region, typeof region === 'string', `address ${show(isPlainObject(a) ? a['id'] : a)} has region ${show(region)}, expected a region name`);
    }),
  );
}

/**
 * The personalization's location points at `addressId`. A null location is blank (GEN-8); address_id
 * is "integer or null", so a null address_id for an address sent is a wrong value.
 */
export function locationIs(personalization: unknown, addressId: unknown, what: string): CheckResult {
  const location = isPlainObject(personalization) ? personalization['location'] : undefined;
  if (location === null) return blank(`${what}: location is null, expected {address_id: ${show(addressId)}, ...}`);
  const actual = isPlainObject(location) ? location['address_id'] : undefined;
  return actual === addressId ? pass() : fail(`${what}: location.address_id is ${show(actual)}, expected ${show(addressId)}`);
}

/** A documented empty body: no bytes (whitespace aside). */
export function bodyIsEmpty(answer: { status: number; text: string }, what: string): CheckResult {
  return answer.text.trim() === '' ? pass() : fail(`${what} answered ${answer.status} with a body, expected an empty body: ${show(answer.text.slice(0, 80))}`);
}

// ---------------------------------------------------------------------------------------------
// Notifications (Events: embedding rules)

export const SKU_ETYPES: ReadonlySet<string> = new Set(['price_up', 'price_drop', 'sku_review', 'availability_true', 'availability_false']);
export const PRICE_ETYPES: ReadonlySet<string> = new Set(['price_up', 'price_drop']);

const idOf = (n: Json) => show(n['id']);

/** Events: "for price_up, price_drop, sku_review, availability_true and availability_false a Sku is embedded". */
export function embedsSku(n: Json): CheckResult {
  if (!SKU_ETYPES.has(n['etype'] as string)) return pass();
  return typed(n['sku'], isPlainObject(n['sku']), `notification ${idOf(n)} (${String(n['etype'])}) has sku ${show(n['sku'])}, expected the embedded SKU`);
}

/** Events: "For price_up and price_drop, category_name is added." */
export function carriesCategoryName(n: Json): CheckResult {
  if (!PRICE_ETYPES.has(n['etype'] as string)) return pass();
  return typed(
    n['category_name'],
    typeof n['category_name'] === 'string',
    `notification ${idOf(n)} (${String(n['etype'])}) has category_name ${show(n['category_name'])}, expected the category name`,
  );
}

/** Events: "For sku_review the reviewing user (id, username, avatar) is embedded." */
export function embedsReviewer(n: Json): CheckResult {
  if (n['etype'] !== 'sku_review') return pass();
  const user = n['user'];
  if (!isPlainObject(user)) return typed(user, false, `notification ${idOf(n)} (sku_review) has user ${show(user)}, expected the embedded reviewing user`);
  return hasFields(user, ['id', 'username', 'avatar'], `the user embedded in notification ${idOf(n)}`);
}

/** Notification: review_rating "present when etype is sku_review". */
export function carriesReviewRating(n: Json): CheckResult {
  if (n['etype'] !== 'sku_review') return pass();
  return 'review_rating' in n ? pass() : fail(`notification ${idOf(n)} (sku_review) has no review_rating`);
}

/** Notification: review_text "present on non-aggregated sku_review notifications". */
export function carriesReviewText(n: Json): CheckResult {
  if (n['etype'] !== 'sku_review' || n['aggregated'] !== false) return pass();
  return 'review_text' in n ? pass() : fail(`notification ${idOf(n)} (sku_review, not aggregated) has no review_text`);
}

/** Applies a per-notification check to a listing. */
export function everyNotification(notifications: readonly unknown[], check: (n: Json) => CheckResult): CheckResult {
  return allOf(notifications.map((n) => (isPlainObject(n) ? check(n) : fail(`a notification is ${show(n)}, expected an object`))));
}

/** After POST /notifications/view with its id, the notification has is_viewed true. */
export function isViewed(n: unknown, id: number): CheckResult {
  const viewed = isPlainObject(n) ? n['is_viewed'] : undefined;
  return statedValue(viewed === true, `notification ${id} has is_viewed ${show(viewed)} after POST /notifications/view with its id`);
}
