export interface FaultInfo {
  /** Id of the requirement the fault violates (src/requirements/catalogue.json). */
  requirement: string;
  /** One sentence, ending with a full stop: the wrong behaviour. */
  description: string;
}
