// The suites' API: `conformanceTest(title, {requirements, severity, profile, requests}, fn)`.
// A test calls small pure checks and says, per call, which requirement the check stands for and
// how much a failure weighs:
//   t.must(check, ids)    - a failure fails the test (and the run); the test goes on;
//   t.require(check, ids) - the same, but the test stops (what follows would be meaningless);
//   t.warn(check, ids)    - a failure is a warning: the spec leaves the point open.
// Skips (profile off, budget, no user token, nothing to discover) always carry their reason.
import { violationRequirements } from '../schemas/cited-requirements.ts';
import { inject, test } from 'vitest';
import { BudgetExhaustedError } from '../budget/budget.ts';
import { RateLimitWaitError } from '../budget/pacing.ts';
import type { CheckResult } from '../checks/check.ts';
import { bodyIsJson } from '../checks/http.ts';
import { remoteServices } from '../coordinator/coordinator.ts';
import type { RunServices } from '../coordinator/services.ts';
import { recordHopsInto } from '../har/write.ts';
import { HttpError, type HttpResponse } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { secrets } from '../http/redact.ts';
import { assertKnownRequirements } from '../requirements/catalogue.ts';
import { formatViolation, SchemaRegistry, type Violation } from '../schemas/validator.ts';
import type { Profile } from '../config/keys.ts';
import type { Feature } from '../rules/change-history.ts';
import { VersionScope } from '../rules/version-scope.ts';
import { earlierVersion } from '../checks/versioning.ts';
import { ApiClient, PrerequisiteMissing } from './api.ts';
import { ExchangeObserver, type Observations } from './observations.ts';
import type { ConformanceMeta, Finding, Outcome, RunContext, Severity } from './run-context.ts';

export interface TestDeclaration {
  requirements: string[];
  /** Default MUST. */
  severity?: Severity;
  /** Default read. */
  profile?: Profile;
  /** Estimated requests (default 5); reserved before the test starts. */
  requests?: number;
  /** Test timeout in ms (default 5 minutes: pacing may wait for a rate-limit window). */
  timeoutMs?: number;
}

const MAX_EXCHANGES_KEPT = 40;

/** Ends a test after a failed `require`; the failure is already recorded. */
class StopTest extends Error {
  override name = 'StopTest';
}

/** Thrown at the end of a test with MUST failures, so vitest counts it failed. */
class ConformanceFailure extends Error {
  override name = 'ConformanceFailure';
}

let worker: { run: RunContext; services: RunServices; schemas: SchemaRegistry; observer: ExchangeObserver; version: VersionScope } | null = null;

function workerState() {
  if (!worker) {
    const run = inject('conformanceRun');
    if (!run) throw new Error('the conformance suites run through the CLI (npm run conformance), not vitest directly');
    secrets.add(run.expiredToken);
    secrets.add(run.client.secret);
    if (run.harParts) recordHopsInto(run.harParts);
    worker = {
      run,
      services: remoteServices(run.coordinator),
      schemas: SchemaRegistry.shared(),
      version: runScope(run, run.apiVersion),
      observer: new ExchangeObserver({ baseUrl: run.baseUrl, authUrl: run.authUrl, version: runScope(run, run.apiVersion) }),
    };
  }
  return worker;
}

/**
 * The version a deployment serves to a request asking `asked` (null: no version parameter): its
 * patch level (CATALOGUE_IMPLEMENTS), and the oldest series it is known to serve (the earliest of
 * CATALOGUE_VERSIONS and the version the run asks for), which a major alone gets at most.
 */
function runScope(run: RunContext, asked: string | null): VersionScope {
  const oldest = [run.apiVersion, ...run.versions].filter((v) => v.includes('.')).reduce((a, b) => earlierVersion(a, b), run.apiVersion);
  return new VersionScope({ asked, implements: run.implements, oldest });
}

export class ConformanceContext {
  readonly api: ApiClient;
  readonly run: RunContext;
  readonly #outcome: Outcome;
  readonly #meta: ConformanceMeta;
  readonly #services: RunServices;
  readonly #schemas: SchemaRegistry;
  /**
   * The version the run's requests are served (the version asked, CATALOGUE_API_VERSION, at the
   * patch level the deployment implements, CATALOGUE_IMPLEMENTS): every version-dependent check
   * asks it, through `has` and `requireFeature`, never a version number of its own.
   */
  readonly version: VersionScope;

  constructor(meta: ConformanceMeta, outcome: Outcome, holder: string, title: string) {
    const state = workerState();
    this.run = state.run;
    this.version = state.version;
    this.#meta = meta;
    this.#outcome = outcome;
    this.#services = state.services;
    this.#schemas = state.schemas;
    this.api = new ApiClient({
      baseUrl: state.run.baseUrl,
      apiVersion: state.run.apiVersion,
      mediaType: state.run.mediaType,
      timeoutMs: state.run.timeoutMs,
      services: state.services,
      holder,
      onExchange: (exchange) => {
        this.#keep(exchange);
        state.observer.see(exchange, title);
      },
    });
  }

  #keep(exchange: Exchange): void {
    this.#outcome.requests++;
    this.#outcome.exchanges.push(exchange);
    if (this.#outcome.exchanges.length > MAX_EXCHANGES_KEPT) {
      this.#outcome.exchanges.shift();
      this.#outcome.omittedExchanges++;
      for (const finding of [...this.#outcome.failures, ...this.#outcome.warnings]) {
        if (finding.exchange !== undefined) finding.exchange = finding.exchange > 0 ? finding.exchange - 1 : undefined;
      }
    }
  }

  #record(result: CheckResult, ids: string[], severity: Severity, details?: string[]): boolean {
    if (result.ok) return true;
    const requirements = ids.length ? ids : this.#meta.requirements;
    assertKnownRequirements(requirements);
    // A WARN test cannot fail the run, whatever its checks say.
    const effective: Severity = this.#meta.severity === 'WARN' ? 'WARN' : severity;
    const finding: Finding = { requirements, severity: effective, message: secrets.scrub(result.message) };
    if (details?.length) finding.details = details.map((d) => secrets.scrub(d));
    if (this.#outcome.exchanges.length) finding.exchange = this.#outcome.exchanges.length - 1;
    (effective === 'MUST' ? this.#outcome.failures : this.#outcome.warnings).push(finding);
    return false;
  }

  /** Records a failure if the check failed; the test goes on. Returns whether it passed. */
  must(result: CheckResult, ...requirementIds: string[]): boolean {
    return this.#record(result, requirementIds, 'MUST');
  }

  /** Like must, but stops the test when the check failed. */
  require(result: CheckResult, ...requirementIds: string[]): void {
    if (!this.#record(result, requirementIds, 'MUST')) throw new StopTest();
  }

  /** Records a warning if the check failed (the spec leaves the point open). */
  warn(result: CheckResult, ...requirementIds: string[]): boolean {
    return this.#record(result, requirementIds, 'WARN');
  }

  skip(reason: string): never {
    throw new PrerequisiteMissing(reason);
  }

  /** The version served to a request of this run that asks `asked` instead (null: no version parameter). */
  versionFor(asked: string | null): VersionScope {
    return runScope(this.run, asked);
  }

  /** Whether the version served has a behaviour or endpoint of the Change history. */
  has(feature: Feature): boolean {
    return this.version.has(feature);
  }

  /** Skips the test, with the reason, when the version served lacks `feature` ("X came with 3.1.3 ..."). */
  requireFeature(feature: Feature, what: string): void {
    if (!this.version.has(feature)) this.skip(this.version.missing(feature, what));
  }

  /** The id of a resource filling `role` on this deployment; skips the test when there is none. */
  async discover(role: string): Promise<number> {
    const result = await this.#services.discover(role);
    if ('unavailable' in result) throw new PrerequisiteMissing(result.unavailable);
    return result.id;
  }

  /**
   * A user token of this test's own (for a test that may end its session, such as logout);
   * skips the test when the deployment cannot give one without a person at a browser.
   */
  async ownUserToken(): Promise<string> {
    const result = await this.#services.ownUserToken();
    if ('unavailable' in result) throw new PrerequisiteMissing(result.unavailable);
    secrets.add(result.token);
    return result.token;
  }

  /** The run's tally of the observed rules so far (suites/last/observed.suite.ts reads it). */
  observations(): Promise<Observations> {
    return this.#services.observations();
  }

  /**
   * Shows an exchange of another test as evidence of this test's next finding; it is not
   * counted as a request of this test.
   */
  evidence(exchange: Exchange): void {
    this.#outcome.exchanges.push(exchange);
  }

  /** The body as JSON; a body that is not JSON fails the given requirements and stops the test. */
  json<T = unknown>(response: HttpResponse, ...requirementIds: string[]): T {
    this.require(bodyIsJson(response), ...requirementIds);
    return response.json<T>();
  }

  /**
   * Validates `data` against a schema for the run's API version. Wrong types, absent fields and
   * bad values fail the given requirements; a null where the spec's table gives a non-null type
   * only warns, since "blank fields are present with value null" (GEN-8) allows blanks anywhere.
   * Messages name the endpoint of the test's latest exchange ("GET /skus/12/reviews: /reviews/3/
   * rating: expected integer, got "4" (string)"): the first violation in the message, all of them
   * in the finding's details (results.json, junit.xml).
   */
  schema(schemaId: string, data: unknown, ...requirementIds: string[]): boolean {
    const violations = this.#schemas.validate(schemaId, data, this.version);
    return this.#violations(schemaId, violations, this.#latestEndpoint(), requirementIds);
  }

  /**
   * Validates a response by what schemas/endpoints.json documents for `endpoint` (the spec's
   * string, e.g. "GET /skus/:id/reviews") and the response's status: the body's kind (JSON, empty)
   * and its schema, with the same severities as `schema`.
   */
  response(endpoint: string, response: HttpResponse, ...requirementIds: string[]): boolean {
    const verdict = this.#schemas.validateExchange(endpoint, response.status, response.text, this.version);
    const last = response.exchanges[response.exchanges.length - 1];
    const where = last ? `${last.method} ${this.#apiPath(last.url)}` : endpoint;
    return this.#violations(verdict.schema ?? `${endpoint} ${response.status}`, verdict.violations, where, requirementIds);
  }

  /** One readable line per finding (the first violation), every violation in the finding's details. */
  #violations(schemaId: string, violations: Violation[], where: string | undefined, requirementIds: string[]): boolean {
    const hard = violations.filter((v) => !v.nullValue);
    const nulls = violations.filter((v) => v.nullValue);
    const finding = (vs: Violation[]) => {
      const lines = vs.map((v) => formatViolation(v, where));
      const more = vs.length > 1 ? `; ${vs.length - 1} more in the report` : '';
      return { message: `${lines[0]} (${schemaId}${more})`, details: vs.length > 1 ? lines : undefined };
    };
    // The test's ids, and what the broken schema parts name (x-requirements, a later version's row): as the passive judge cites them.
    const base = requirementIds.length ? requirementIds : this.#meta.requirements;
    const cited = (vs: Violation[], extra: string[]): string[] => [...new Set([...base, ...violationRequirements(vs), ...extra])];
    if (nulls.length) {
      const { message, details } = finding(nulls);
      this.#record({ ok: false, message: `null where the spec gives a non-null type: ${message}` }, cited(nulls, ['GEN-8']), 'WARN', details);
    }
    if (!hard.length) return true;
    // An absent field breaks "blank fields are present with value null; they are never omitted" too.
    const ids = cited(hard, hard.some((v) => v.absent) ? ['GEN-8'] : []);
    const { message, details } = finding(hard);
    return this.#record({ ok: false, message }, ids, 'MUST', details);
  }

  /** "GET /skus/12/reviews" for the test's latest exchange (path below the base URL, no query). */
  #latestEndpoint(): string | undefined {
    const last = this.#outcome.exchanges[this.#outcome.exchanges.length - 1];
    return last ? `${last.method} ${this.#apiPath(last.url)}` : undefined;
  }

  #apiPath(url: string): string {
    try {
      const target = new URL(url);
      const base = new URL(this.run.baseUrl);
      const prefix = base.pathname.replace(/\/+$/, '');
      if (target.origin === base.origin && (target.pathname === prefix || target.pathname.startsWith(`${prefix}/`))) {
        return target.pathname.slice(prefix.length) || '/';
      }
      return `${target.origin}${target.pathname}`;
    } catch {
      return url;
    }
  }

  /** Fields of `object` the schema does not document: real deployments add fields, so only a warning. */
  undocumentedFields(schemaId: string, object: unknown, where: string, ...requirementIds: string[]): void {
    if (!object || typeof object !== 'object' || Array.isArray(object)) return;
    const known = new Set(this.#schemas.documentedFields(schemaId));
    const extra = Object.keys(object).filter((k) => !known.has(k));
    if (extra.length) this.warn({ ok: false, message: `${where} has fields the spec does not document: ${extra.join(', ')}` }, ...requirementIds);
  }
}

/** Declares one conformance test. */
export function conformanceTest(title: string, declaration: TestDeclaration, fn: (t: ConformanceContext) => Promise<void>): void {
  assertKnownRequirements(declaration.requirements);
  if (declaration.requirements.length === 0) throw new Error(`test "${title}" names no requirement`);
  const meta: ConformanceMeta = {
    requirements: declaration.requirements,
    severity: declaration.severity ?? 'MUST',
    profile: declaration.profile ?? 'read',
    requests: declaration.requests ?? 5,
  };
  test(title, { meta: { conformance: meta }, timeout: declaration.timeoutMs ?? 5 * 60_000 }, async (ctx) => {
    const outcome: Outcome = { failures: [], warnings: [], exchanges: [], omittedExchanges: 0, requests: 0 };
    ctx.task.meta.outcome = outcome;
    const { run, services } = workerState();
    if (!run.profiles.includes(meta.profile)) {
      outcome.skipReason = `profile ${meta.profile} is not enabled (CATALOGUE_PROFILES=${run.profiles.join(',')})`;
      ctx.skip(outcome.skipReason);
    }
    const holder = `${ctx.task.file.name} > ${ctx.task.name} #${Math.random().toString(36).slice(2, 8)}`;
    const reservation = await services.reserve(holder, meta.requests);
    if (!reservation.ok) {
      outcome.skipReason = reservation.reason;
      ctx.skip(outcome.skipReason);
    }
    try {
      await fn(new ConformanceContext(meta, outcome, holder, ctx.task.fullName));
    } catch (error) {
      if (error instanceof StopTest) {
        // already recorded
      } else if (error instanceof PrerequisiteMissing || error instanceof BudgetExhaustedError || error instanceof RateLimitWaitError) {
        outcome.skipReason = secrets.scrub(error.message);
      } else {
        // HttpError: no usable answer (refused, reset, timeout, too large, redirect loop, not
        // JSON), so the test's requirements are not met. Anything else is an error in the test,
        // most often from a body of an unexpected shape: reported, never hidden.
        const message =
          error instanceof HttpError
            ? error.message
            : `the test itself failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
        const finding: Finding = { requirements: meta.requirements, severity: meta.severity, message: secrets.scrub(message) };
        if (outcome.exchanges.length) finding.exchange = outcome.exchanges.length - 1;
        (meta.severity === 'MUST' ? outcome.failures : outcome.warnings).push(finding);
      }
    } finally {
      await services.settle(holder);
      await services.observe(workerState().observer.take());
    }
    ctx.task.meta.outcome = outcome;
    if (outcome.failures.length) {
      throw new ConformanceFailure(outcome.failures.map((f) => `[${f.requirements.join(', ')}] ${f.message}`).join('\n'));
    }
    if (outcome.skipReason) ctx.skip(outcome.skipReason);
  });
}
