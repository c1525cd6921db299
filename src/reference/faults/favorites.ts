// Faults of favorite lists and favorites (the States and transitions table) (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const FAVORITE_FAULTS = {} satisfies Record<string, FaultInfo>;
