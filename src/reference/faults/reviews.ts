// Faults of SKU reviews, review forms, votes, flags (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const REVIEW_FAULTS = {} satisfies Record<string, FaultInfo>;
