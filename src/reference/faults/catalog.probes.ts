// Probes of the faults in ./catalog.ts: each resolves true when the server shows the bug (test-only code).

import type { ProbeTable } from './probe.ts';

export const CATALOG_PROBES: ProbeTable = {};
