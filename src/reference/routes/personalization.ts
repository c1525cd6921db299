// GET/PUT /personalization (spec "Endpoints > Personalization", resource "Personalization").
//
// Choices where the spec is silent:
// - Permissions ("not shown"): a user token with any scope; an application token gets 401.
// - PUT takes only location.address_id (an integer; a digit string is accepted). A missing
//   body, personalization, location or address_id is 400 ParameterMissing; a non-integer
//   address_id is 400 InvalidParameter; an address_id that names no address of the user is 422
//   RecordInvalid (the body failed validation; /personalization itself exists, so not 404).
//   Other keys (payment_method, label...) are ignored.
// - After PUT the location is taken from the address: type address, label = the address's
//   label, lat/lng = its coordinates, country_code unchanged (addresses carry no country).
//   payment_method is unchanged.
// - Served in every version (variant personalization-endpoints-from-3.2.0: from 3.2.0, which
//   brought blp, computed from the personalization; older versions get 404).

import { locationLabel } from '../data/people.ts';
import { ApiError, recordNotFound } from '../http.ts';
import type { PersonalizationRecord } from '../model.ts';
import type { ApiContext, RouteModule } from '../router.ts';
import { serializePersonalization } from '../serializers/user.ts';
import { respondOne } from '../shape.ts';
import { bodyObject, parameterMissing, toInteger } from './params.ts';
import { geocode, recordInvalid, userIdOf } from './user.ts';
import { versionAtLeast } from '../versioning.ts';

const USER_ONLY = { scope: null, user: true } as const;

function personalizationOf(ctx: ApiContext): PersonalizationRecord {
  if (ctx.variants.has('personalization-endpoints-from-3.2.0') && !versionAtLeast(ctx.version, '3.2.0')) {
    throw new ApiError(404, 'NotFound', [`${ctx.method} /personalization is served from version 3.2.0; this request got ${ctx.version.label}`]);
  }
  const uid = userIdOf(ctx);
  const p = ctx.data.personalization.get(uid);
  if (!p) throw recordNotFound('Personalization', uid);
  return p;
}

function respond(ctx: ApiContext, p: PersonalizationRecord) {
  return respondOne(ctx, 'personalization', p, serializePersonalization);
}

function putPersonalization(ctx: ApiContext): PersonalizationRecord {
  const current = personalizationOf(ctx);
  const body = bodyObject(ctx, 'personalization');
  const location = body['location'];
  if (typeof location !== 'object' || location === null || Array.isArray(location)) throw parameterMissing('personalization[location]');
  const raw = (location as Record<string, unknown>)['address_id'];
  if (raw === undefined || raw === null || raw === '') throw parameterMissing('personalization[location][address_id]');
  const addressId = toInteger(raw, 'personalization[location][address_id]')!;
  const address = ctx.data.addresses.get(addressId);
  if (!address || address.userId !== userIdOf(ctx)) {
    throw recordInvalid([`address_id: Couldn't find Address with id=${addressId} among the user's addresses`]);
  }
  // The bug: the answer is built before (and instead of) saving the change.
  if (ctx.fault === 'personalization-put-ignored') return current;
  const coords = address.lat !== null && address.lng !== null ? { lat: address.lat, lng: address.lng } : geocode(ctx, address.userId, address);
  const next: PersonalizationRecord = {
    location: { address_id: address.id, label: locationLabel(address), lat: coords.lat, lng: coords.lng, type: 'address', country_code: current.location.country_code },
    payment_method: { ...current.payment_method },
  };
  // The bug: the answer shows the change, which is never written.
  if (ctx.fault !== 'personalization-put-not-stored') ctx.data.personalization.set(userIdOf(ctx), next);
  return next;
}

export const personalizationRoutes: RouteModule = (router) => {
  router.get('/personalization', (ctx) => respond(ctx, personalizationOf(ctx)), USER_ONLY);
  router.put('/personalization', (ctx) => respond(ctx, putPersonalization(ctx)), USER_ONLY);
};
