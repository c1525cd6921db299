// Probes of the faults in ./protocol.ts: each resolves true when the server shows the bug (test-only code).

import type { ProbeTable } from './probe.ts';

export const PROTOCOL_PROBES: ProbeTable = {};
