// What a schema validation finds wrong in a body: its own module, so that the presence rules
// (presence.ts) and the validator (validator.ts) share it without importing each other.

export interface Violation {
  /** JSON pointer into the validated body. */
  pointer: string;
  expected: string;
  actual: string;
  /** The value is null where the schema's type does not allow null. */
  nullValue: boolean;
  /** A required field is absent. */
  absent: boolean;
  /** A choice between alternatives (anyOf, oneOf, if) failed: the other violations at or below the pointer say why. */
  alternatives?: boolean;
  /**
   * The spec statements the broken schema part encodes: the `x-requirements` of the innermost
   * schema node at or above the failing keyword (for an absent field, its property's own).
   */
  requirements?: string[];
  /** An absent field that a later version added: the Change history's version (its schema's x-since). */
  since?: string;
}
