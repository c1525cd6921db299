// The dataset as a deployment making a catalogue variant's choice holds it (see variant-data.ts):
// autocomplete-i-utf8-bytes counts i in UTF-8 bytes, which differ from characters only where a
// name holds non-ASCII letters before the typed word, and the generated names are all ASCII: the
// deployment also lists a manufacturer with a Greek name (no SKUs yet).

import type { Dataset } from './data.ts';
import type { ManufacturerRecord } from './model.ts';
import type { Variants } from './variants.ts';

/** A Greek word, then a Latin one: typing the Latin word, i is 6 in characters and 11 in UTF-8 bytes. */
export const GREEK_MANUFACTURER_NAME = 'Ωμέγα Audio';

/** Applies the catalogue variants' data choices to a freshly created dataset. */
export function withCatalogVariantData(data: Dataset, variants: Variants): void {
  if (variants.has('autocomplete-i-utf8-bytes')) {
    const manufacturers = data.manufacturers as Map<number, ManufacturerRecord>;
    const id = Math.max(...manufacturers.keys()) + 1;
    manufacturers.set(id, { id, name: GREEK_MANUFACTURER_NAME, image_url: null, popularity: 1, oem: false });
  }
}
