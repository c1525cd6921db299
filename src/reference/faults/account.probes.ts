// Probes of the faults in ./account.ts: each resolves true when the server shows the bug (test-only code).

import type { ProbeTable } from './probe.ts';

export const ACCOUNT_PROBES: ProbeTable = {};
