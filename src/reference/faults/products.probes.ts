// Probes of the faults in ./products.ts: each resolves true when the server shows the bug (test-only code).

import type { ProbeTable } from './probe.ts';

export const PRODUCT_PROBES: ProbeTable = {};
