// What the main process hands to every vitest worker (through vitest's provide/inject), and the
// metadata each test carries back to the reporter (through task meta).
import type { RunSeed } from '../config/config.ts';
import type { Profile } from '../config/keys.ts';
import type { CoordinatorAddress } from '../coordinator/coordinator.ts';
import type { ConformanceMeta, Outcome } from '../results/model.ts';
import type { TestSelection } from './selection.ts';

export interface RunContext {
  coordinator: CoordinatorAddress;
  baseUrl: string;
  authUrl: string;
  apiVersion: string;
  /** CATALOGUE_IMPLEMENTS: the patch level the deployment implements (a version of the Change history). */
  implements: string;
  /** CATALOGUE_MEDIA_TYPE: the vendor media type of the Accept header. */
  mediaType: string;
  /** Versions the deployment serves (CATALOGUE_VERSIONS, else found from its answers), for the versioning suite. */
  versions: string[];
  /** How `versions` were got, and why other minors were not found (src/harness/served-versions.ts): for skip reasons. */
  versionsFrom?: string;
  /** The OAuth client, for the suites that test the OAuth flows themselves; the secret is redacted. */
  client: { id: string; secret: string; redirectUri: string | null };
  profiles: Profile[];
  timeoutMs: number;
  /** CATALOGUE_SEED: the seed of the property-based suites as given (null: not given). */
  seed: RunSeed | null;
  /** The run's seed: CATALOGUE_SEED's, else one drawn for the run (recorded in results.json: CATALOGUE_SEED=<it> replays the run's random cases). */
  runSeed: number;
  /** CATALOGUE_MAX_REQUESTS: the run's request budget, which the number of property runs follows. */
  maxRequests: number;
  /** CATALOGUE_DAILY_LIMIT: the deployment's daily call limit per client. */
  dailyLimit: number;
  /** CATALOGUE_EXPIRED_TOKEN (the embedded reference mints one), for the expired-token checks; a secret. */
  expiredToken: string | null;
  /**
   * Another run of the same client against the same target going on at the same time (its
   * journal's process is alive): the user's data is shared with it, so the tests that change it
   * are skipped with this reason rather than risk a false failure. Absent or null: none found.
   */
  concurrentRun?: string | null;
  /**
   * When the run must be over (its start plus CATALOGUE_DEADLINE_S, epoch ms): the names of what
   * it creates carry it (src/util/kit-names.ts), so that no other run sweeps them before then.
   * Absent: now plus the default deadline.
   */
  recordsOverBy?: number;
  /** CATALOGUE_HAR: the directory where each worker appends its exchanges as HAR entries; absent or null: nothing recorded. */
  harParts?: string | null;
  /**
   * Only the tests that check one of these requirement ids run; the others are skipped with that
   * reason (runConformanceMany's `requirements`: a self-test that needs one requirement's tests).
   * Absent: every test.
   */
  requirementsOnly?: readonly string[];
  /**
   * The command line's filters named tests or requirements (src/harness/selection.ts): only the
   * tests they pick run; the others are skipped with that reason. Absent: every test of the files.
   */
  selection?: TestSelection;
}

export type { ConformanceMeta, Finding, Outcome, Severity } from '../results/model.ts';

/** The start of a finding's message that another run's writes may have caused: a warning, not a verdict (src/harness/conformance.ts). */
export const NOT_JUDGED = 'not judged, as ';

declare module 'vitest' {
  interface ProvidedContext {
    conformanceRun: RunContext;
    /** A run of several targets at once (runConformanceMany): each target's context by its id. */
    conformanceRuns: Record<string, RunContext>;
  }
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conformance?: ConformanceMeta;
    outcome?: Outcome;
  }
}
