// Probes of the faults in ./versioning.ts: each resolves true when the server shows the bug (test-only code).

import type { ProbeTable } from './probe.ts';

export const VERSIONING_PROBES: ProbeTable = {};
