// The pure parts of the model-based favorites suite's random sequences (src/engines/favorites-model.ts
// runs them): what a command may pick, what a call may cost and the allowance that caps it, the lists
// earlier runs left, the seed a failure prints and the finding it makes.
import { blank, fail, type CheckResult } from './check.ts';
import { autoListOf, liveLists, type Action, type Failure, type FavoritesModel } from './favorites-model.ts';
import { KIT_PREFIX, runIsOver } from '../util/kit-names.ts';

export interface Sku {
  id: number;
  categoryId: number;
}

/** Run-wide inputs of the commands: the SKUs and the list names of this run. */
export interface World {
  skus: Sku[];
  names: string[];
}

/** The start of the names of the suite's lists (t.kitName('model')). */
export const MODEL_LIST_PREFIX = `${KIT_PREFIX}model-`;

/** The `n`th of `items`, round and round; undefined when there is none. */
export const pick = <T>(items: readonly T[], n: number): T | undefined => (items.length ? items[n % items.length] : undefined);
/** The model's favorites not known to be gone. */
export const active = (m: FavoritesModel) => m.favorites.filter((f) => f.state !== 'gone');
/** The lists the run made, gone or not. */
export const ourLists = (m: FavoritesModel) => m.lists.filter((l) => l.ours);

/** Lists a favorite may be moved to: the run's live lists and the known auto list of its category. */
export function targets(m: FavoritesModel, categoryId: number, except: number | null | undefined): number[] {
  const ids = liveLists(m)
    .filter((l) => l.ours && (l.kind === 'custom' || (l.kind === 'auto' && l.categoryId === categoryId)))
    .map((l) => l.id);
  const auto = autoListOf(m, categoryId);
  if (auto && !ids.includes(auto.id)) ids.push(auto.id);
  return ids.filter((id) => id !== except);
}

/** The deletes a sequence's cleanup sends for model `m`: its live favorites and the run's live lists. */
export const cleanupCost = (m: FavoritesModel): number => active(m).length + ourLists(m).filter((l) => l.state !== 'gone').length;

/**
 * The most one action can add to the run's requests: the call, the GET /favorite_lists that may
 * follow it (a new list not shown), and the deletes of a favorite and a list it may create.
 */
export function worstCost(action: Action): number {
  switch (action.type) {
    case 'createFavorite':
      return 4;
    case 'updateFavorite':
      return 'newListName' in action || 'favoriteListId' in action ? 3 : 2;
    case 'createList':
      return 2;
    default:
      return 1;
  }
}

/** The requests the sequences of a passing run may spend (the suite's SEQUENCE_ALLOWANCE), lifted once one fails. */
export class Allowance {
  constructor(
    readonly counter: { spent: number },
    public cap: number,
  ) {}
  allows(m: FavoritesModel, action: Action): boolean {
    return this.counter.spent + worstCost(action) + cleanupCost(m) <= this.cap;
  }
}

/** Lists of earlier runs of this suite that are over (cc-model-...: src/util/kit-names.ts), never those of a run still going. */
export function staleLists(lists: readonly Record<string, unknown>[], now: number): number[] {
  return lists
    .filter((l) => typeof l['name'] === 'string' && l['name'].startsWith(MODEL_LIST_PREFIX) && runIsOver(l['name'], now) && Number.isInteger(l['id']))
    .map((l) => l['id'] as number);
}

/** "@<replay path>" of a shrunk fc.commands value (its toString carries it as /*replayPath="..."*\/), or "". */
export function replayPathOf(commands: unknown): string {
  const found = /replayPath="([^"]*)"/.exec(String(commands ?? ''));
  return found?.[1] ? `@${found[1]}` : '';
}

/** CATALOGUE_SEED as the run read it (src/config/config.ts RunSeed). */
export interface GivenSeed {
  seed: number;
  path: string | null;
  replayPath?: string;
}

/** CATALOGUE_SEED as "<seed>", "<seed>:<path>" or "<seed>:<path>@<replay path>" (the forms a failure prints), or undefined. */
export const seedSource = (given: GivenSeed | null): string | undefined =>
  given ? [given.seed, ...(given.path ? [given.path] : [])].join(':') + (given.replayPath ? `@${given.replayPath}` : '') : undefined;

/**
 * The seed, path and replay path the sequences run with: CATALOGUE_SEED's (`text`, as
 * seedSource gives it), else the run's seed. `seed` is not an integer when the text is not a seed.
 */
export function sequenceSeed(text: string | undefined, runSeed: number): { seed: number; path: string; replayPath: string | undefined } {
  const [seedAndPath = '', replayPath] = (text ?? '').split('@');
  const colon = seedAndPath.indexOf(':');
  const [seedPart, pathPart] = colon < 0 ? [seedAndPath, ''] : [seedAndPath.slice(0, colon), seedAndPath.slice(colon + 1)];
  return { seed: text ? Number(seedPart) : runSeed, path: pathPart, replayPath };
}

/** What fc.check told of a failed property: its seed and counterexample, and what it ran. */
export interface FailedCheck {
  seed: number;
  counterexamplePath: string | null;
  /** The counterexample's fc.commands value (its toString carries the replay path). */
  commands: unknown;
  numRuns: number;
  numShrinks: number;
}

/**
 * The finding of a failed sequence: the rule it broke, the shortest failing sequence as HTTP calls
 * (`log`), and how to replay it (the run's seed, or this sequence alone). A null where a value is
 * typed (failure.blank) is a blank, recorded as a warning.
 */
export function sequenceFailure(failure: Failure, log: readonly string[], details: FailedCheck): CheckResult {
  const calls = log.map((line, i) => `  ${i + 1}. ${line}`).join('\n');
  const sequence = `${details.seed}:${details.counterexamplePath ?? ''}${replayPathOf(details.commands)}`;
  const replay = `seed ${details.seed}, path ${details.counterexamplePath ?? ''}: replay with CATALOGUE_SEED=${details.seed} (or CATALOGUE_SEED=${sequence} for this sequence only)`;
  const verdict = failure.blank ? blank : fail;
  return verdict(
    `${failure.message}\nthe shortest failing sequence found (${log.length} calls, user token; the last one broke the rule; ids are this run's):\n${calls}\n${replay}; ${details.numRuns} sequences run, ${details.numShrinks} shrinks`,
  );
}
