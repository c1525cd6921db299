// What a vitest worker keeps per target for the tests it runs (src/harness/conformance.ts): the
// run's context handed over by the main process, the shared run services, the schemas, the
// observer of the exchange rules and the version served; and which target the suite file being
// loaded belongs to (runConformanceMany).
import { inject } from 'vitest';
import { earlierVersion } from '../checks/versioning.ts';
import { remoteServices } from '../coordinator/coordinator.ts';
import type { RunServices } from '../coordinator/services.ts';
import { recordHopsInto } from '../har/write.ts';
import { secrets } from '../http/redact.ts';
import { ExchangeObserver } from '../rules/observations.ts';
import { VersionScope } from '../rules/version-scope.ts';
import { SchemaRegistry } from '../schemas/validator.ts';
import type { RunContext } from './run-context.ts';

export interface WorkerState {
  run: RunContext;
  services: RunServices;
  schemas: SchemaRegistry;
  observer: ExchangeObserver;
  version: VersionScope;
}

/** One state per target this worker has run suites for ('' is the run's only target). */
const workers = new Map<string, WorkerState>();

/**
 * The target of the suite file being loaded. A run of one target leaves it ''. A run of several
 * (runConformanceMany, src/run.ts and src/runner/passes.ts) loads each suite once per target through a generated file that
 * calls useTarget first: the tests a suite file declares belong to the target set while it loads.
 */
let loadingTarget = '';

/** For the files runConformanceMany generates: the suite imported next is run against `target`. */
export function useTarget(target: string): void {
  loadingTarget = target;
}

/** The target the tests declared now belong to. */
export function targetBeingLoaded(): string {
  return loadingTarget;
}

/**
 * Ctrl-C in a terminal signals the whole process group: a worker that died of it would leave its
 * test's changes on the deployment. The run's main process handles the signal (it stops the run,
 * and the tests in flight end at their next request); the worker carries on until told.
 */
let signalsLeftToTheRun = false;
function leaveSignalsToTheRun(): void {
  if (signalsLeftToTheRun) return;
  signalsLeftToTheRun = true;
  process.on('SIGINT', () => undefined);
}

export function workerState(target: string): WorkerState {
  let worker = workers.get(target);
  if (!worker) {
    const run = target === '' ? inject('conformanceRun') : inject('conformanceRuns')?.[target];
    if (!run) throw new Error('the conformance suites run through the CLI (npm run conformance), not vitest directly');
    leaveSignalsToTheRun();
    secrets.add(run.expiredToken);
    secrets.add(run.client.secret);
    if (run.harParts) recordHopsInto(run.harParts, secrets, target === '' ? null : [run.baseUrl, run.authUrl]);
    worker = {
      run,
      services: remoteServices(run.coordinator),
      schemas: SchemaRegistry.shared(),
      version: runScope(run, run.apiVersion),
      observer: new ExchangeObserver({ baseUrl: run.baseUrl, authUrl: run.authUrl, implements: run.implements, servedSeries: run.versions }),
    };
    workers.set(target, worker);
  }
  return worker;
}

/**
 * The version a deployment serves to a request asking `asked` (null: no version parameter): its
 * patch level (CATALOGUE_IMPLEMENTS), and the oldest series it is known to serve (the earliest of
 * CATALOGUE_VERSIONS and the version the run asks for), which a major alone gets at most.
 */
export function runScope(run: RunContext, asked: string | null): VersionScope {
  const oldest = [run.apiVersion, ...run.versions].filter((v) => v.includes('.')).reduce((a, b) => earlierVersion(a, b), run.apiVersion);
  return new VersionScope({ asked, implements: run.implements, oldest, servedSeries: run.versions });
}
