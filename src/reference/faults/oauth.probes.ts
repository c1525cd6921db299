// Probes of the faults in ./oauth.ts: each resolves true when the server shows the bug (test-only code).

import type { ProbeTable } from './probe.ts';

export const OAUTH_PROBES: ProbeTable = {};
