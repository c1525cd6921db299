// Serializer of the Manufacturer resource (spec "Resources and their fields > Manufacturer"):
// id, name, image_url (null when blank). The same three fields are the manufacturer of search's
// meta.strong_matches.

import type { ManufacturerRecord } from '../model.ts';

export function serializeManufacturer(m: ManufacturerRecord): Record<string, unknown> {
  return { id: m.id, name: m.name, image_url: m.image_url };
}
