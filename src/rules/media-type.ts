// The API's media type. The spec writes `application/vnd.service+json`, with "a neutral word in
// place of the service's name" (VER-3): a deployment uses its own vendor word, which the kit is
// told with CATALOGUE_MEDIA_TYPE. Every rule that reads Accept or Content-Type takes it from here.

/** The spec's media type, with its neutral word. */
export const SPEC_MEDIA_TYPE = 'application/vnd.service+json';

/** The type/subtype of a media type or media range, lower case, without parameters. */
export function essence(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

/** Whether a header (Accept or Content-Type) names the vendor media type. */
export function namesMediaType(header: string | undefined, mediaType: string): boolean {
  if (!header) return false;
  const wanted = essence(mediaType);
  return header.split(',').some((range) => essence(range) === wanted);
}

/** Whether a header names any vendor JSON media type (application/vnd.<word>+json), whatever the word. */
export function namesVendorJson(header: string | undefined): boolean {
  return !!header && header.split(',').some((range) => /^application\/vnd\.[a-z0-9][a-z0-9.!#$&^_-]*\+json$/.test(essence(range)));
}
