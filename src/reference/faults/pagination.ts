// Faults of pagination on every paginated collection (see ../faults.ts). Faults of this area
// defined before this file are in ./protocol.ts and ./core.ts.

import type { FaultInfo } from './types.ts';

export const PAGINATION_FAULTS = {} satisfies Record<string, FaultInfo>;
