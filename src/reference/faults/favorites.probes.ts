// Probes of the faults in ./favorites.ts: each resolves true when the server shows the bug (test-only code).

import type { ProbeTable } from './probe.ts';

export const FAVORITE_PROBES: ProbeTable = {};
