// The shape of a fault probe (test-only code): given a running reference server and tokens,
// it resolves true when the server shows the bug. Probes run against one server one after the
// other, so a probe that creates something deletes it again before it resolves.

import type { FaultName } from '../../../reference/faults.ts';
import type { RunningReference } from '../../../reference/server.ts';

export interface ProbeTokens {
  /** Application token (scope public). */
  app: string;
  /** User token with every scope: public favorites notifications publish_sku_review_actions. */
  user: string;
}

export type Probe = (ref: RunningReference, tokens: ProbeTokens) => Promise<boolean>;

export type ProbeTable = Partial<Record<FaultName, Probe>>;
