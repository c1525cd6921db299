import type { DeploymentOptions } from '../options.ts';

/**
 * A legal variant: another answer the spec allows where the reference makes a choice
 * (docs/reference-choices.md), or another reading of a statement that admits two. The kit's
 * self-test (src/selftest/legal-variants.test.ts) runs every suite against the reference with
 * variants switched on and requires no MUST failure: a check that fails one of them fails a
 * correct deployment.
 */
export interface VariantInfo {
  /** The point of docs/reference-choices.md, or the spec's statement and its two readings, that allows this answer. */
  choice: string;
  /** One sentence, ending with a full stop: what the server does instead of its default. */
  description: string;
  /** Ids of the requirements (src/requirements/catalogue.json) whose open point or reading this is. */
  requirements: string[];
  /** Ids of the catalogue's readings this variant serves ("SRCH-6.b"): the proof that the kit accepts them (src/selftest/readings.test.ts). */
  readings?: string[];
  /** Variants that answer the same point another way: never switched on together. */
  conflicts?: string[];
  /** What a certifier tells the kit about such a deployment (CATALOGUE_* keys), e.g. the patch level it implements. */
  kitEnv?: Record<string, string>;
  /** Server options the variant stands for (a base path, auth on another origin, logout's effect). */
  options?: Pick<DeploymentOptions, 'basePath' | 'authOrigin' | 'authBasePath' | 'logoutEnds' | 'reviewActionsScope'>;
  /**
   * It takes away behaviour that fault switches exercise (an older patch level serves no 3.2
   * fields): left out of the bundle the mutation test runs the faults with.
   */
  narrows?: boolean;
}
