// A conformance test's declaration (its id, the requirements, readings and clauses it judges, its
// severity, profile and request estimate) and the metadata made of it, checked when the suite
// loads: a typo in an id stops the suite instead of citing nothing.
import { assertKnownRequirements, clausesProblem, expandClauses, expandReadings } from '../requirements/catalogue.ts';
import type { Profile } from '../config/keys.ts';
import type { ConformanceMeta, Severity } from './run-context.ts';

export interface TestDeclaration {
  /**
   * Short, kebab-case, unique in the suite file, saying what the test checks ('root-is-root'):
   * the test's id is <suite>/<id>. Known deviations, `compare` and the filters name tests by it,
   * so it stays when the title is reworded.
   */
  id: string;
  requirements: string[];
  /**
   * The readings of those requirements the test's checks accept (catalogue ids, "SRCH-6.a" or a
   * range "SRCH-6.a-c"): every one (src/selftest/readings.test.ts holds the kit's suites to it), so
   * that a reading added to the catalogue names each test to look at again.
   */
  readings?: string[];
  /** The clauses of those requirements its checks judge ("CAT-10#3", a range "CAT-4#1-9"; issue 38). */
  clauses?: string[];
  /** Default MUST. */
  severity?: Severity;
  /** Default read. */
  profile?: Profile;
  /** Estimated requests (default 5); reserved before the test starts. */
  requests?: number;
  /** Test timeout in ms (default 5 minutes: pacing may wait for a rate-limit window). */
  timeoutMs?: number;
  /**
   * Whether a GET another test already made may be answered from the kept answer (default true,
   * src/harness/reuse.ts). False for tests about repetition: every request is sent.
   */
  reuse?: boolean;
}

/** What a declared test id looks like: kebab-case, at most MAX_TEST_ID_LENGTH characters. */
export const DECLARED_TEST_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const MAX_TEST_ID_LENGTH = 48;

/** What is wrong with a declared test id, or null when it is well formed. */
export function declaredIdProblem(id: unknown): string | null {
  if (typeof id !== 'string' || id === '') return 'declares no id';
  if (!DECLARED_TEST_ID.test(id)) return `declares id ${JSON.stringify(id)}, which is not kebab-case (lower-case letters and digits joined by single hyphens)`;
  if (id.length > MAX_TEST_ID_LENGTH) return `declares id ${JSON.stringify(id)}, longer than ${MAX_TEST_ID_LENGTH} characters`;
  return null;
}

/** The test's metadata from its declaration, whose ids are checked first (a typo stops the suite from loading). */
export function declaredMeta(title: string, declaration: TestDeclaration): ConformanceMeta {
  const idProblem = declaredIdProblem(declaration.id);
  if (idProblem) throw new Error(`test "${title}" ${idProblem}: give it { id: 'what-it-checks', ... }, unique in its suite file`);
  assertKnownRequirements(declaration.requirements);
  if (declaration.requirements.length === 0) throw new Error(`test "${title}" names no requirement`);
  const clauses = declaration.clauses ? expandClauses(declaration.clauses) : null;
  const clauseProblem = clauses ? clausesProblem(clauses, declaration.requirements) : null;
  if (clauseProblem) throw new Error(`test "${title}" ${clauseProblem}`);
  return {
    id: declaration.id,
    requirements: declaration.requirements,
    ...(declaration.readings ? { readings: expandReadings(declaration.readings) } : {}),
    ...(clauses ? { clauses } : {}),
    severity: declaration.severity ?? 'MUST',
    profile: declaration.profile ?? 'read',
    requests: declaration.requests ?? 5,
  };
}
