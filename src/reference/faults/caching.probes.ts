// Probes of the faults in ./caching.ts: each resolves true when the server shows the bug (test-only code).

import type { ProbeTable } from './probe.ts';

export const CACHING_PROBES: ProbeTable = {};
