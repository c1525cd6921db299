// A run's care for the deployment's records beyond any one test (issue 19, points 3 and 5):
// before the suites, what earlier runs of this client left is taken back (their journals), and
// whether another run is going on is found out (its journal on this machine, its beacon list from
// another: src/harness/run-beacon.ts); after them, what the tests left is taken back. Its notes go
// to the reports.
import { SWEEP_HOLDER } from '../coordinator/services.ts';
import { HttpError } from '../http/client.ts';
import { kitName } from '../util/kit-names.ts';
import { RunJournal } from './journal.ts';
import { announceRun, BEACON_WHAT, liveBeaconsNow, withdrawRun, type BeaconList } from './run-beacon.ts';
import type { MainServices } from './run-services.ts';
import { describeSweep, nothingWasLeft, sweep } from './sweep.ts';

/** Budget holder of the beacon's requests (counted as the run's, not a suite's). */
const BEACON_HOLDER = 'beacon';

/** Fresh looks for another run's beacon after a failure: at most this many a run, each good for this long. */
const MAX_LOOKS = 5;
const LOOK_GOOD_MS = 15_000;

/** Other runs by their beacons, as a skipped or set-aside test names them. */
function describeOthers(others: readonly BeaconList[]): string {
  return `another run of this client, whose beacon list ${others.map((b) => b.name).join(', ')} is on the deployment`;
}

export class RunRecords {
  /** What was swept, found or left, for the reports. */
  readonly notes: string[] = [];
  /** Another run of the same client against the same target found going on (RunContext.concurrentRun), or null. */
  concurrentRun: string | null = null;
  #journal: RunJournal | null = null;
  #beacon: BeaconList | null = null;
  /** The beacon's path, also once withdrawn (its journal entry is the run's, not a test's). */
  #beaconPath: string | null = null;

  constructor(private readonly main: MainServices) {}

  /** The run's journal, once opened. */
  get journal(): RunJournal | null {
    return this.#journal;
  }

  /**
   * The run's journal of undo actions in `dir` (src/harness/journal.ts), before any test; and first,
   * what earlier runs of this client against this target left pending, taken back. A journal of a
   * run still going is left alone: that run shares the user's data.
   */
  async open(dir: string, identity: { target: string; client: string }): Promise<void> {
    const main = this.main;
    const journal = new RunJournal(dir, identity);
    const { over, live } = RunJournal.leftBehind(dir, identity, journal.run);
    for (const state of over) {
      const outcome = await sweep(main.api(SWEEP_HOLDER), state.pending);
      RunJournal.markDone(state.file, outcome.done);
      this.notes.push(
        `an earlier run (${state.run}, started ${state.startedAt}) left ${state.pending.length} change(s) on the deployment; ${describeSweep(state.pending, outcome, state.file)}`,
      );
    }
    for (const state of live) {
      this.notes.push(
        `another run of this client against this target was going on (${state.run}, process ${state.pid}, started ${state.startedAt}): the rate limit and the daily budget were shared with it, its records were left alone, and the tests that change the user's data were skipped`,
      );
    }
    this.concurrentRun = live.length ? `another run of this client against this target going on (${live.map((s) => `${s.run}, process ${s.pid}`).join('; ')})` : null;
    this.#journal = journal;
    main.services.runJournal = journal;
  }

  /**
   * A run that may change the user's data, and knows of no other run, says so on the deployment
   * with its beacon list, named to be its own until `overBy` (epoch ms), and sees whether a run on
   * another machine said the same. Not for a run without a user token: it changes nothing of a user's.
   */
  async announce(overBy: number): Promise<void> {
    if (this.concurrentRun !== null || !this.#journal) return;
    const { tokens, discovery } = this.main;
    if ('unavailable' in (await tokens.userToken())) return;
    try {
      const announced = await announceRun(this.main.api(BEACON_HOLDER), () => discovery.favoriteListsPage(), kitName(BEACON_WHAT, overBy));
      this.#beacon = announced.beacon;
      this.#beaconPath = announced.beacon ? `/favorite_lists/${announced.beacon.id}` : null;
      this.notes.push(...announced.notes);
      if (announced.others.length) this.concurrentRun = describeOthers(announced.others);
      else if (announced.beacon) this.main.services.otherRunLook = () => this.#lookAgain();
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      this.notes.push(`whether another run of this client is changing this user's data from another machine could not be told: ${error.message}`);
    }
  }

  #looks = 0;
  #lastLook: { at: number; found: Promise<string | null> } | null = null;
  /** Names of the runs a look found, for the reports. */
  readonly #found = new Set<string>();

  /**
   * A run that began after this one announced its beacon (this run's tests change the user's data
   * beside it): a test that read such data and failed asks, and a fresh read of the lists tells.
   * Few looks a run, each good for a while, so a deployment failing many tests costs few requests.
   */
  #lookAgain(): Promise<string | null> {
    const beacon = this.#beacon;
    if (!beacon) return Promise.resolve(null);
    const now = Date.now();
    if (this.#lastLook && now - this.#lastLook.at < LOOK_GOOD_MS) return this.#lastLook.found;
    if (this.#looks >= MAX_LOOKS) return Promise.resolve(null);
    this.#looks++;
    const found = liveBeaconsNow(this.main.api(BEACON_HOLDER), beacon.name)
      .then((live) => {
        if (!live?.length) return null;
        for (const other of live) {
          if (!this.#found.has(other.name))
            this.notes.push(
              `another run of this client began while this one was going (its beacon, the favorite list ${other.name}): the tests of this run that read the user's data and failed meanwhile are shown as warnings, not judged`,
            );
          this.#found.add(other.name);
        }
        return describeOthers(live);
      })
      .catch(() => null);
    this.#lastLook = { at: now, found };
    return found;
  }

  /**
   * The run's writes are over (the passes after the main one change no user data, and one may end
   * the user's session): its beacon is deleted, its DELETE journalled. Not when the target stopped
   * answering: the journal keeps it for the next run.
   */
  async withdraw(): Promise<void> {
    const beacon = this.#beacon;
    if (!beacon || !this.#journal || this.main.watchdog.kind === 'stalled') return;
    this.#beacon = null;
    const left = await withdrawRun(this.main.api(SWEEP_HOLDER), beacon).catch(
      (error: unknown) => `DELETE /favorite_lists/${beacon.id} (the run's beacon list): ${error instanceof Error ? error.message : String(error)}`,
    );
    if (left) this.notes.push(`${left}; the journal keeps it for the next run (${this.#journal.file})`);
  }

  /**
   * After the suites: the beacon deleted if it is not yet, and what the tests changed and did not
   * take back, taken back now (not when the target stopped answering: the next run will, by the
   * journal).
   */
  async sweepOwn(): Promise<void> {
    const journal = this.#journal;
    if (!journal) return;
    await this.withdraw();
    const pending = journal.pending;
    if (this.main.watchdog.kind === 'stalled') {
      if (pending.length)
        this.notes.push(
          `left on the deployment, as it stopped answering: ${pending.map((e) => e.what).join('; ')}; the next run of this client against this target takes them back (journal ${journal.file})`,
        );
      return;
    }
    // A beacon its DELETE could not take back is said once (above), not again as a test's leftover.
    const left = pending.filter((e) => this.#beaconPath === null || e.action?.path !== this.#beaconPath);
    if (left.length === 0) return;
    const outcome = await sweep(this.main.api(SWEEP_HOLDER), left);
    for (const key of outcome.done) journal.done(key);
    // Records already gone (a favorite deleted with its list) were not left: nothing to say.
    if (nothingWasLeft(outcome)) return;
    this.notes.push(`the tests left ${left.length} change(s) on the deployment; ${describeSweep(left, outcome, journal.file)}`);
  }

  /** The journal closed (a journal with nothing pending is removed). */
  end(): void {
    this.#journal?.end();
  }
}
