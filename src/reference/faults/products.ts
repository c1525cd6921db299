// Faults of SKU products, product cards, SKU specifications, price history, products, shops, shop reviews and locations (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const PRODUCT_FAULTS = {} satisfies Record<string, FaultInfo>;
