// One target's run around the suites (TargetRun): target (a deployment, or the embedded
// reference server), preflight, services and coordinator, HAR, beacon and journal; then the
// reports, the bundle and the exit code.
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthError, loopbackConsent } from '../auth/tokens.ts';
import type { KitConfig } from '../config/config.ts';
import { startCoordinator, type RunningCoordinator } from '../coordinator/coordinator.ts';
import { HarWriteError, startHarRecording, type HarRecording } from '../har/write.ts';
import { NOT_JUDGED, type RunContext } from '../harness/run-context.ts';
import { preflight } from '../harness/preflight.ts';
import { findServedVersions, SUITES_JUDGING_VERSIONS, type FoundVersions } from '../harness/served-versions.ts';
import { createRunServices, type MainServices } from '../harness/run-services.ts';
import type { RunWatchdog } from '../budget/watchdog.ts';
import { RunRecords } from '../harness/run-records.ts';
import { suiteNameOf } from '../harness/selection.ts';
import { secrets } from '../http/redact.ts';
import { EMBEDDED_WINDOW_MS, startReference, type RunningReference } from '../reference/server.ts';
import { BUNDLE_HAR, writeBundle } from '../report/bundle.ts';
import { applyExpectedFailures } from '../report/expected.ts';
import { markNotRun, type RunResults } from '../report/results.ts';
import { terminalSummary, verdictLine } from '../report/terminal.ts';
import { writeReports, type RunInfo } from '../report/write.ts';
import { ensureDir } from '../util/fs.ts';

import { EXIT, RunError, SUITES_DIR } from './base.ts';
import { changesUserData, pickedSuiteFiles } from './passes.ts';

/**
 * One target's run around the suites: target (a deployment, or the embedded reference server),
 * preflight (reports writable, target reachable, client credentials accepted), services and
 * coordinator, HAR; then the reports and the exit code.
 */
export class TargetRun {
  readonly #config: KitConfig;
  readonly #print: (text: string) => void;
  readonly #cleanups: (() => Promise<void>)[] = [];
  readonly #startedAt = new Date().toISOString();
  #har: HarRecording | null = null;
  #reference: RunningReference | null = null;
  /** How the versions judged were got, for the run's notes. */
  #versionsNote: string | null = null;
  #main: MainServices | null = null;
  #context: RunContext | null = null;
  #baseUrl = '';
  #authUrl = '';
  #scaledMinuteMs: number | null = null;
  /** The journal, the beacon, the sweeps (src/harness/run-records.ts). */
  #records: RunRecords | null = null;

  constructor(
    config: KitConfig,
    print: (text: string) => void,
    /** --bundle: the HAR it takes in (moved when written for it alone). */
    private readonly bundleHar: { path: string; move: boolean } | null = null,
  ) {
    this.#config = config;
    this.#print = print;
  }

  /** Whether the suites may have begun (the run has its journal): a signal then stops the run in order. */
  get started(): boolean {
    return this.#records?.journal != null;
  }

  /** The run's deadline and stall detector. */
  get watchdog(): RunWatchdog {
    if (!this.#main) throw new Error('the target is not prepared');
    return this.#main.watchdog;
  }

  get context(): RunContext {
    if (!this.#context) throw new Error('the target is not prepared');
    return this.#context;
  }

  /** `harOrigins`: the origins whose exchanges this target's HAR keeps (null: every exchange of the process); `filters`: the suites picked. */
  async prepare(interactive: boolean, harOrigins: readonly string[] | null, scaledMinuteMs: number | null = null, filters: readonly string[] = []): Promise<void> {
    const config = this.#config;
    ensureWritable(config.reportDir);
    // Before the first request, so that the HAR holds every one of them (the preflight's token request too).
    this.#startHar(harOrigins);
    const target = await this.#startTarget(scaledMinuteMs);
    const { reference, baseUrl, authUrl, clientId, clientSecret, redirectUri } = target;
    const main = createRunServices({
      baseUrl,
      tokens: { authUrl, clientId, clientSecret, redirectUri, userToken: config.userToken, userRefreshToken: config.userRefreshToken },
      apiVersion: config.apiVersion,
      mediaType: config.mediaType,
      timeoutMs: config.timeoutMs,
      maxRequests: config.maxRequests,
      hints: config.hints,
      interactive: interactive ? loopbackConsent((line) => this.#print(line)) : null,
      implements: config.implements,
      // A deployment: the defaults (the spec's minute, a second's slack for clock skew).
      ...(target.scaledMinuteMs !== null ? { pacer: { windowMs: target.scaledMinuteMs, resetSlackMs: 0 } } : {}),
    });
    this.#main = main;
    this.#scaledMinuteMs = target.scaledMinuteMs;
    await this.#preflight(main, interactive && !config.userToken && !config.userRefreshToken && redirectUri !== null);
    // The answers that find the versions are judged knowing them, as the tests' answers are.
    main.holdJudgement();
    const found = await this.#servedVersions(main, filters);
    main.judgeKnowing(found.versions);
    this.#versionsNote = found.note;
    const records = await this.#openRecords(main, reference, baseUrl, clientId, filters);
    const expiredToken = config.expiredToken ?? reference?.expiredToken() ?? null;
    secrets.add(expiredToken);
    const coordinator: RunningCoordinator = await startCoordinator(main.services);
    this.#cleanups.push(() => coordinator.close());
    this.#context = {
      coordinator: { url: coordinator.url, key: coordinator.key },
      baseUrl,
      authUrl,
      apiVersion: config.apiVersion,
      implements: config.implements,
      mediaType: config.mediaType,
      versions: found.versions,
      versionsFrom: found.note,
      client: { id: clientId, secret: clientSecret, redirectUri },
      profiles: config.profiles,
      timeoutMs: config.timeoutMs,
      expiredToken,
      seed: config.seed,
      // Drawn once for the run when CATALOGUE_SEED is not given, so that the reports can say how to replay it.
      runSeed: config.seed?.seed ?? randomInt(0x7fffffff),
      maxRequests: config.maxRequests,
      dailyLimit: config.dailyLimit,
      harParts: this.#har?.partsDir ?? null,
      concurrentRun: records.records.concurrentRun,
      recordsOverBy: records.overBy,
    };
    // The run's clock starts with the suites (a user's consent in a browser is not counted).
    main.watchdog.startDeadline(config.deadlineS);
  }

  #startHar(harOrigins: readonly string[] | null): void {
    if (this.#config.har === null) return;
    try {
      this.#har = startHarRecording(this.#config.har, harOrigins);
    } catch (error) {
      if (error instanceof HarWriteError) throw new RunError(error.message);
      throw error;
    }
  }

  /** The deployment named, or the embedded reference started: its URLs and client. */
  async #startTarget(scaledMinuteMs: number | null): Promise<{
    reference: RunningReference | null;
    baseUrl: string;
    authUrl: string;
    clientId: string;
    clientSecret: string;
    redirectUri: string | null;
    scaledMinuteMs: number | null;
  }> {
    const config = this.#config;
    let reference: RunningReference | null = null;
    if (config.baseUrl === null) {
      // A scaled clock: the reference's rate-limit minute lasts a second, and the pacer
      // keeps to that minute, so the run paces as against a deployment without waiting minutes.
      reference = await startReference({ limits: { windowMs: EMBEDDED_WINDOW_MS } });
      this.#reference = reference;
      scaledMinuteMs = reference.rateWindowMs;
      const started = reference;
      this.#cleanups.push(() => started.close());
    }
    this.#baseUrl = reference?.baseUrl ?? config.baseUrl!;
    this.#authUrl = reference?.authUrl ?? config.authUrl!;
    const clientSecret = reference?.client.secret ?? config.clientSecret!;
    secrets.add(clientSecret);
    secrets.add(config.expiredToken);
    return {
      reference,
      baseUrl: this.#baseUrl,
      authUrl: this.#authUrl,
      clientId: reference?.client.id ?? config.clientId!,
      clientSecret,
      redirectUri: reference?.client.redirectUri ?? config.redirectUri,
      scaledMinuteMs,
    };
  }

  /**
   * The versions the deployment serves: as CATALOGUE_VERSIONS lists them, else found from its
   * answers (src/harness/served-versions.ts) when a suite that judges them runs; the embedded
   * reference is asked like any deployment, so its variants and faults prove the finding.
   */
  async #servedVersions(main: MainServices, filters: readonly string[]): Promise<FoundVersions> {
    const config = this.#config;
    if (config.versionsGiven) return { versions: config.versions, note: `versions: ${config.versions.join(', ')}, as CATALOGUE_VERSIONS lists them` };
    const suites = pickedSuiteFiles(config.suitesDir ?? SUITES_DIR, filters).map(suiteNameOf);
    if (!suites.some((suite) => SUITES_JUDGING_VERSIONS.includes(suite)))
      return { versions: [config.apiVersion], note: `versions: ${config.apiVersion}, the run's own (no suite picked judges others)` };
    return findServedVersions(main.api('discovery'), main.discovery, { mediaType: config.mediaType, implements: config.implements, fallback: config.apiVersion });
  }

  /** An application token proves the auth server reachable and the credentials good; then whether the base URL is this API at all (src/harness/preflight.ts). */
  async #preflight(main: MainServices, askConsentNow: boolean): Promise<void> {
    try {
      await main.tokens.appToken();
    } catch (error) {
      if (error instanceof AuthError) throw new RunError(error.message);
      throw error;
    }
    const checked = await preflight(main.api('preflight'));
    if (!checked.ok) throw new RunError(checked.problem);
    // Consent now, before the suites start, rather than while a test's clock runs.
    if (askConsentNow) await main.tokens.userToken();
  }

  /**
   * The run's journal (a deployment's in CATALOGUE_JOURNAL_DIR; the embedded reference's, which
   * ends with the run, in a directory that goes with it), then its beacon: only a deployment may
   * be shared with a run on another machine.
   */
  async #openRecords(
    main: MainServices,
    reference: RunningReference | null,
    baseUrl: string,
    clientId: string,
    filters: readonly string[],
  ): Promise<{ records: RunRecords; overBy: number }> {
    const config = this.#config;
    const records = new RunRecords(main);
    const journalDir = reference ? mkdtempSync(join(tmpdir(), 'cc-journal-')) : config.journalDir;
    if (reference) this.#cleanups.push(async () => rmSync(journalDir, { recursive: true, force: true }));
    await records.open(journalDir, { target: baseUrl, client: clientId });
    this.#records = records;
    const overBy = Date.now() + config.deadlineS * 1000;
    if (!reference && config.profiles.includes('write') && changesUserData(config.suitesDir ?? SUITES_DIR, filters)) await records.announce(overBy);
    return { records, overBy };
  }

  /** Requests used so far, and the budget (for the progress line). */
  requestsUsed(): { used: number; budget: number } {
    return this.#main ? { used: this.#main.budget.spent, budget: this.#main.budget.max } : { used: 0, budget: 0 };
  }

  /** The run's writes are over: its beacon withdrawn (src/harness/run-records.ts). */
  async endWrites(): Promise<void> {
    await this.#records?.withdraw();
  }

  /** After the suites: the run's beacon and what the tests left, taken back (src/harness/run-records.ts). */
  async sweepOwn(): Promise<void> {
    await this.#records?.sweepOwn();
  }

  /** After every pass (no worker appends any more): the HAR, the reports, the summary and the exit code. */
  finish(collected: RunResults | null, filters: readonly string[]): { exitCode: number; results: RunResults; summary: string } {
    const config = this.#config;
    const { services, budget, pacer, discovery } = this.#main!;
    const reference = this.#reference;
    const results = collected;
    if (!results) throw new RunError('the suites did not run (vitest reported no results)');
    if (results.tests.length === 0 && results.problems.length === 0) {
      results.problems.push(
        filters.length ? `no suite matches ${filters.join(' ')} in ${config.suitesDir ?? SUITES_DIR}` : `no conformance test found in ${config.suitesDir ?? SUITES_DIR}`,
      );
    }
    results.problems.push(...services.problems);
    // Known deviations (CATALOGUE_EXPECTED_FAILURES): their failures are reported, not counted.
    const expectedNotes = applyExpectedFailures(
      results,
      config.expectedFailures,
      new Date().toISOString().slice(0, 10),
      config.expectedFailuresFile ?? 'CATALOGUE_EXPECTED_FAILURES',
    );

    const { written: harWritten, notes: harNotes } = this.#finishHar(results);
    if (this.bundleHar && harWritten === null) results.problems.push('--bundle: the run has no HAR, so no bundle was made');
    const { watchdog } = this.#main!;
    watchdog.clearDeadline();
    const stopped = watchdog.stopped ?? undefined;
    if (stopped !== undefined) markNotRun(results, stopped, pickedSuiteFiles(config.suitesDir ?? SUITES_DIR, filters).map(suiteNameOf));
    this.#records?.end();
    // A run that stopped early gives no verdict on the deployment: its failures may be the stop's.
    const interrupted = watchdog.kind === 'interrupted';
    const exitCode = interrupted
      ? EXIT.INTERRUPTED
      : stopped !== undefined
        ? EXIT.ERROR
        : results.summary.failed > 0
          ? EXIT.FAIL
          : results.problems.length > 0
            ? EXIT.ERROR
            : EXIT.PASS;
    const notes = [
      ...expectedNotes,
      ...(this.#records?.notes ?? []),
      ...discoveryNotes(discovery),
      ...(this.#versionsNote ? [this.#versionsNote] : []),
      ...harNotes,
      ...this.#runNotes(results, pacer.waitedMs),
    ];
    const run: RunInfo = {
      target: this.#baseUrl,
      authUrl: this.#authUrl,
      referenceServer: reference !== null,
      apiVersion: config.apiVersion,
      implements: config.implements,
      mediaType: config.mediaType,
      profiles: config.profiles,
      startedAt: this.#startedAt,
      finishedAt: new Date().toISOString(),
      requests: { total: budget.spent, budget: budget.max, bySuite: requestsBySuite(results, budget.spent) },
      exitCode,
      ...(stopped !== undefined ? { stopped } : {}),
      ...(interrupted ? { interrupted } : {}),
      notes,
      versions: [...this.context.versions],
      seed: {
        seed: this.context.runSeed,
        ...(this.context.seed?.path ? { path: this.context.seed.path } : {}),
        ...(this.context.seed?.replayPath ? { replayPath: this.context.seed.replayPath } : {}),
        given: this.context.seed !== null,
      },
      filters: [...filters],
      observed: services.observedCounts(),
    };
    run.exitReason = verdictLine(run);
    const paths = writeReports(config.reportDir, results, run);
    const bundle = this.bundleHar && harWritten ? makeBundle(paths.dir, this.bundleHar) : null;
    const harShown = bundle?.made && this.bundleHar?.move ? join(paths.dir, BUNDLE_HAR) : harWritten;
    const summary = terminalSummary(results, run, { ...paths, ...(harShown ? { har: harShown } : {}), ...(bundle?.made ? { bundle: paths.dir } : {}) });
    // The bundle is made after the reports it holds: its failure can only be said after them.
    if (bundle?.problem) return { exitCode: EXIT.ERROR, results, summary: `${summary}\nERROR ${bundle.problem}` };
    return { exitCode, results, summary };
  }

  /** The HAR merged from the parts of every process: its path, or null; what went wrong goes to the problems or the notes. */
  #finishHar(results: RunResults): { written: string | null; notes: string[] } {
    const har = this.#har;
    const notes: string[] = [...(har?.notes ?? [])];
    if (!har) return { written: null, notes };
    try {
      const merged = har.finish();
      if (merged.brokenLines) notes.push(`HAR: ${merged.brokenLines} unreadable recorded lines left out of ${har.path}`);
      if (merged.lost) results.problems.push(`HAR: ${merged.lost} exchanges could not be recorded in ${har.path}`);
      return { written: har.path, notes };
    } catch (error) {
      results.problems.push(error instanceof HarWriteError ? error.message : `HAR file ${har.path} cannot be written: ${(error as Error).message}`);
      return { written: null, notes };
    }
  }

  /** Notes of the run itself: the tests set aside beside another run, the time waited for the rate limit. */
  #runNotes(results: RunResults, waitedMs: number): string[] {
    const notes: string[] = [];
    const setAside = results.tests.filter((t) => t.warnings.some((w) => w.message.startsWith(NOT_JUDGED))).length;
    if (setAside) notes.push(`${setAside} test(s) failed on answers another run of this client may have changed: shown as warnings, not judged; run alone to judge them`);
    if (waitedMs > 0) {
      const seconds = waitedMs < 10_000 ? (waitedMs / 1000).toFixed(1) : String(Math.round(waitedMs / 1000));
      const minute = this.#scaledMinuteMs !== null ? ` (the ${this.#reference ? 'embedded ' : ''}reference's rate-limit minute lasts ${this.#scaledMinuteMs / 1000} s)` : '';
      notes.push(`waited ${seconds} s in all to stay inside the rate limit${minute}`);
    }
    return notes;
  }

  /** Always, also after a failure: a run that stopped early still leaves the exchanges it made. */
  async cleanUp(): Promise<void> {
    const har = this.#har;
    if (har && !har.finished) {
      try {
        har.finish();
        this.#print(`HAR: ${har.path}`);
      } catch (error) {
        this.#print(`HAR: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    this.#main?.watchdog.clearDeadline();
    for (const cleanup of this.#cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  }
}

/** The report directory made a bundle, or why not (a disk that failed: the reports stay as they are). */
function makeBundle(dir: string, har: { path: string; move: boolean }): { made: boolean; problem?: string } {
  try {
    writeBundle(dir, har);
    return { made: true };
  } catch (error) {
    return { made: false, problem: `--bundle: ${dir} could not be made a bundle (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
}

/** Requests by suite, most first; `(run)`: those of no test (tokens, discovery, shared by all). */
export function requestsBySuite(results: RunResults, total: number): Record<string, number> {
  const counts = new Map<string, number>();
  for (const test of results.tests) counts.set(test.suite, (counts.get(test.suite) ?? 0) + test.requests);
  const byTests = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total > byTests) counts.set('(run)', total - byTests);
  return Object.fromEntries([...counts].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

function ensureWritable(dir: string): void {
  try {
    ensureDir(dir);
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new RunError(`report directory ${dir} is not writable (${(error as NodeJS.ErrnoException).code ?? 'error'}): set CATALOGUE_REPORT_DIR`);
  }
}

/** What discovery has to say about the run: hints that did not fit, and what the rare-data searches spent. */
function discoveryNotes(discovery: MainServices['discovery']): string[] {
  const { spent, limit } = discovery.share;
  return [
    ...discovery.wrongHints.map((h) => `discovery hint ${h}`),
    ...(spent > 0 ? [`discovery: the searches for rare data made ${spent} request${spent === 1 ? '' : 's'} (at most ${limit}: a fifth of the budget)`] : []),
  ];
}
