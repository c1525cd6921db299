// Probes of the faults in ./pagination.ts: each resolves true when the server shows the bug (test-only code).

import type { ProbeTable } from './probe.ts';

export const PAGINATION_PROBES: ProbeTable = {};
