// What a run's reports say of the run itself (results.json's `run`, junit's properties, the
// summary's last lines, report.html's header): written by src/runner/target.ts, read by every report.
import type { RuleCounts } from '../results/model.ts';

export interface RunInfo {
  target: string;
  authUrl: string;
  referenceServer: boolean;
  apiVersion: string;
  /** CATALOGUE_IMPLEMENTS: the patch level the deployment was judged at. */
  implements?: string;
  /** CATALOGUE_MEDIA_TYPE. */
  mediaType?: string;
  profiles: string[];
  startedAt: string;
  finishedAt: string;
  /**
   * Requests made, the budget, and the requests by suite (most first); `(run)` is what no test
   * made: token requests and discovery, shared by every suite.
   */
  requests: { total: number; budget: number; bySuite?: Record<string, number> };
  exitCode: number;
  /** Why the run stopped before its end (deadline, a target that stopped answering); absent when it ran to its end. */
  stopped?: string;
  /** The user interrupted the run (SIGINT, SIGTERM): `stopped` says by which. */
  interrupted?: boolean;
  /** Hints that did not fit, pacing waits and the like. */
  notes: string[];
  /** The versions the run checked (CATALOGUE_VERSIONS, or what the embedded reference serves). */
  versions?: string[];
  /** The run's seed (CATALOGUE_SEED's, else the one drawn): CATALOGUE_SEED=<seed> replays the run's random cases. */
  seed?: { seed: number; path?: string; replayPath?: string; given: boolean };
  /** The suite names, ids or requirement ids that picked the tests; empty: all. */
  filters?: string[];
  /** Why the run ended with its exit code, one line (the summary's last). */
  exitReason?: string;
  /** Every observed rule's tally at the end of the run, by rule id: what `verify` re-judges from the HAR (src/report/verify.ts). */
  observed?: Record<string, RuleCounts>;
}
