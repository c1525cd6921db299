// Faults of search, autocomplete, category specifications/manufacturers/filter groups/SKU listing, manufacturers (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const CATALOG_FAULTS = {} satisfies Record<string, FaultInfo>;
