// Probes of the faults in ./reviews.ts: each resolves true when the server shows the bug (test-only code).

import type { ProbeTable } from './probe.ts';

export const REVIEW_PROBES: ProbeTable = {};
