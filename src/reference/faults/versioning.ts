// Faults of version negotiation (rules 1-5) and the fields of each version (see ../faults.ts). Faults of this area
// defined before this file are in ./protocol.ts and ./core.ts.

import type { FaultInfo } from './types.ts';

export const VERSIONING_FAULTS = {} satisfies Record<string, FaultInfo>;
