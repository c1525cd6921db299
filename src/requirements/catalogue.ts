// The requirement catalogue (catalogue.json beside this file): every normative statement of the
// spec, quoted with its section, under a stable id. Tests cite these ids; reports show them.
import { readFileSync } from 'node:fs';

export type Level = 'MUST' | 'OPEN';

export interface Requirement {
  id: string;
  section: string;
  /** MUST: stated behaviour, fails a run. OPEN: left open by the spec, may only warn. */
  level: Level;
  /** Verbatim excerpts of the spec, each from one line. */
  quote: string[];
  summary: string;
  /**
   * Where the statement admits two meanings, or disagrees with another: each reading, one
   * sentence. The kit accepts every one (a FAIL breaks them all); the reference's legal variants
   * prove it (src/reference/variants/).
   */
  readings?: string[];
  testable: boolean;
  untestableReason?: string;
}

const CATALOGUE_FILE = new URL('./catalogue.json', import.meta.url);

let cached: Map<string, Requirement> | null = null;

export function requirements(): Map<string, Requirement> {
  if (!cached) {
    const data = JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8')) as { requirements: Requirement[] };
    cached = new Map(data.requirements.map((r) => [r.id, r]));
  }
  return cached;
}

export function requirement(id: string): Requirement {
  const found = requirements().get(id);
  if (!found) throw new Error(`unknown requirement id ${id}: not in src/requirements/catalogue.json`);
  return found;
}

/** Throws on the first id the catalogue does not know. */
export function assertKnownRequirements(ids: readonly string[]): void {
  for (const id of ids) requirement(id);
}
