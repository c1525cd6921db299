// Faults of OAuth flows, token placement and permissions (see ../faults.ts). Faults of this area
// defined before this file are in ./protocol.ts and ./core.ts.

import type { FaultInfo } from './types.ts';

export const OAUTH_FAULTS = {} satisfies Record<string, FaultInfo>;
