// One conformance run: target (a deployment, or the embedded reference server), preflight
// (reports writable, target reachable, client credentials accepted), the suites under vitest with
// the shared run services, then the reports and the exit code.
//   0 nothing failed; 1 a MUST requirement failed; 2 the run could not be carried out.
import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';
import { AuthError, loopbackConsent } from './auth/tokens.ts';
import type { KitConfig } from './config/config.ts';
import { startCoordinator, type RunningCoordinator } from './coordinator/coordinator.ts';
import { HarWriteError, startHarRecording, type HarRecording } from './har/write.ts';
import type { RunContext } from './harness/run-context.ts';
import { createRunServices } from './harness/run-services.ts';
import { secrets } from './http/redact.ts';
import { startReference, type RunningReference } from './reference/server.ts';
import { ResultsCollector, type RunResults } from './report/results.ts';
import { terminalSummary } from './report/terminal.ts';
import { writeReports, type RunInfo } from './report/write.ts';
import { ensureDir } from './util/fs.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SUITES_DIR = fileURLToPath(new URL('../suites/', import.meta.url));
/**
 * Directories of suites (under SUITES_DIR) run in passes of their own, in this order, each after
 * everything before it has finished: last/ may end the run's user session (logout) and judges
 * the exchanges of the whole run; lockout/ ends every token of the client (the daily limit).
 */
export const LATER_PASSES = ['last', 'lockout'] as const;

export const EXIT = { PASS: 0, FAIL: 1, ERROR: 2 } as const;

/** The run cannot be carried out: one line for the user, exit code 2. */
export class RunError extends Error {
  override name = 'RunError';
}

export interface RunOptions {
  config: KitConfig;
  /** Suite name filters; empty runs every suite. */
  filters: string[];
  print: (text: string) => void;
  /** Someone is at a terminal and can consent in a browser. */
  interactive: boolean;
}

export interface RunOutcome {
  exitCode: number;
  results: RunResults | null;
}

export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const { config, print } = options;
  const startedAt = new Date().toISOString();
  const cleanups: (() => Promise<void>)[] = [];
  let har: HarRecording | null = null;
  try {
    ensureWritable(config.reportDir);
    // Before the first request, so that the HAR holds every one of them (the preflight's token request too).
    if (config.har !== null) {
      try {
        har = startHarRecording(config.har);
      } catch (error) {
        if (error instanceof HarWriteError) throw new RunError(error.message);
        throw error;
      }
    }

    let reference: RunningReference | null = null;
    if (config.baseUrl === null) {
      reference = await startReference({});
      cleanups.push(() => reference!.close());
    }
    const baseUrl = reference?.baseUrl ?? config.baseUrl!;
    const authUrl = reference?.authUrl ?? config.authUrl!;
    const clientId = reference?.client.id ?? config.clientId!;
    const clientSecret = reference?.client.secret ?? config.clientSecret!;
    const redirectUri = reference?.client.redirectUri ?? config.redirectUri;
    secrets.add(clientSecret);
    secrets.add(config.expiredToken);

    const { services, budget, pacer, tokens, discovery } = createRunServices({
      baseUrl,
      tokens: {
        authUrl,
        clientId,
        clientSecret,
        redirectUri,
        userToken: config.userToken,
        userRefreshToken: config.userRefreshToken,
      },
      apiVersion: config.apiVersion,
      mediaType: config.mediaType,
      timeoutMs: config.timeoutMs,
      maxRequests: config.maxRequests,
      hints: config.fixtures,
      interactive: options.interactive ? loopbackConsent((line) => print(line)) : null,
    });

    // Preflight: an application token proves the auth server is reachable and the credentials good.
    try {
      await tokens.appToken();
    } catch (error) {
      if (error instanceof AuthError) throw new RunError(error.message);
      throw error;
    }
    if (options.interactive && !config.userToken && !config.userRefreshToken && redirectUri) {
      // Consent now, before the suites start, rather than while a test's clock runs.
      await tokens.userToken();
    }

    const expiredToken = config.expiredToken ?? reference?.expiredToken() ?? null;
    secrets.add(expiredToken);
    const coordinator: RunningCoordinator = await startCoordinator(services);
    cleanups.push(() => coordinator.close());
    const runContext: RunContext = {
      coordinator: { url: coordinator.url, key: coordinator.key },
      baseUrl,
      authUrl,
      apiVersion: config.apiVersion,
      implements: config.implements,
      mediaType: config.mediaType,
      versions: config.versions,
      client: { id: clientId, secret: clientSecret, redirectUri },
      profiles: config.profiles,
      timeoutMs: config.timeoutMs,
      expiredToken,
      seed: config.seed,
      maxRequests: config.maxRequests,
      harParts: har?.partsDir ?? null,
    };

    const collector = new ResultsCollector();
    // Passes: every suite, then those under each of LATER_PASSES (see there why).
    const suitesDir = config.suitesDir ?? SUITES_DIR;
    const passes = [{ include: ['**/*.suite.ts'], exclude: LATER_PASSES.map((dir) => `**/${dir}/**`) }];
    for (const dir of LATER_PASSES) if (existsSync(join(suitesDir, dir))) passes.push({ include: [`${dir}/**/*.suite.ts`], exclude: [] });
    for (const pass of passes) {
      const vitest = await startVitest(
        'test',
        options.filters,
        {
          watch: false,
          config: false,
          root: PROJECT_ROOT,
          dir: suitesDir,
          include: pass.include,
          exclude: ['**/node_modules/**', ...pass.exclude],
          reporters: [collector],
          provide: { conformanceRun: runContext },
          passWithNoTests: true,
          // Console output of suites would interleave with the summary; the reports carry everything.
          silent: true,
          // Suite files share their worker's modules, so the schemas compile once per worker, not
          // once per suite file (the suites keep no state of their own in modules).
          isolate: false,
        },
        {},
        { stdout: process.stdout, stderr: process.stderr },
      );
      await vitest.close();
    }

    const results = collector.results;
    if (!results) throw new RunError('the suites did not run (vitest reported no results)');
    if (results.tests.length === 0 && results.problems.length === 0) {
      results.problems.push(
        options.filters.length
          ? `no suite matches ${options.filters.join(' ')} in ${config.suitesDir ?? SUITES_DIR}`
          : `no conformance test found in ${config.suitesDir ?? SUITES_DIR}`,
      );
    }
    results.problems.push(...services.problems);

    // After every pass: no worker appends any more.
    const harNotes: string[] = [];
    let harWritten: string | null = null;
    if (har) {
      try {
        const merged = har.finish();
        harWritten = har.path;
        if (merged.brokenLines) harNotes.push(`HAR: ${merged.brokenLines} unreadable recorded lines left out of ${har.path}`);
        if (merged.lost) results.problems.push(`HAR: ${merged.lost} exchanges could not be recorded in ${har.path}`);
      } catch (error) {
        results.problems.push(error instanceof HarWriteError ? error.message : `HAR file ${har.path} cannot be written: ${(error as Error).message}`);
      }
    }

    const exitCode = results.summary.failed > 0 ? EXIT.FAIL : results.problems.length > 0 ? EXIT.ERROR : EXIT.PASS;
    const notes = [...discovery.wrongHints.map((h) => `discovery hint ${h}`), ...harNotes];
    if (pacer.waitedMs > 0) notes.push(`waited ${Math.round(pacer.waitedMs / 1000)} s in all to stay inside the rate limit`);
    const run: RunInfo = {
      target: baseUrl,
      authUrl,
      referenceServer: reference !== null,
      apiVersion: config.apiVersion,
      implements: config.implements,
      mediaType: config.mediaType,
      profiles: config.profiles,
      startedAt,
      finishedAt: new Date().toISOString(),
      requests: { total: budget.spent, budget: budget.max },
      exitCode,
      notes,
    };
    const paths = writeReports(config.reportDir, results, run);
    print(terminalSummary(results, run, harWritten ? { ...paths, har: harWritten } : paths));
    return { exitCode, results };
  } finally {
    // A run that stopped early still leaves the exchanges it made.
    if (har && !har.finished) {
      try {
        har.finish();
        print(`HAR: ${har.path}`);
      } catch (error) {
        print(`HAR: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

function ensureWritable(dir: string): void {
  try {
    ensureDir(dir);
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new RunError(`report directory ${dir} is not writable (${(error as NodeJS.ErrnoException).code ?? 'error'}): set CATALOGUE_REPORT_DIR`);
  }
}
