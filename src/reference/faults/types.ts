export interface FaultInfo {
  /** Id of the requirement the fault violates (src/requirements/catalogue.json). */
  requirement: string;
  /**
   * Other requirements the same wrong behaviour breaks by itself (a root that is its own parent is
   * also a cycle in the tree): a run against the fault may fail these too, and no others
   * (requirement precision, src/selftest/mutation.test.ts).
   */
  consequences?: string[];
  /** One sentence, ending with a full stop: the wrong behaviour. */
  description: string;
  /**
   * The clause of `requirement` (catalogue id, "CAT-10#3") the fault breaks alone: the mutation
   * test requires a failed test that names it (clause mutation score, issue 38).
   */
  clause?: string;
}
