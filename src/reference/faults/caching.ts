// Faults of ETag and conditional requests, rate-limit headers and enforcement (see ../faults.ts). Faults of this area
// defined before this file are in ./protocol.ts and ./core.ts.

import type { FaultInfo } from './types.ts';

export const CACHING_FAULTS = {} satisfies Record<string, FaultInfo>;
