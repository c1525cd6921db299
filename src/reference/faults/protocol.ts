// Faults of OAuth, versioning, ETag, sparse fieldsets and embedding, rate limits (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const PROTOCOL_FAULTS = {} satisfies Record<string, FaultInfo>;
