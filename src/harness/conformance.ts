// The suites' API: `conformanceTest(title, {id, requirements, severity, profile, requests}, fn)`.
// A test calls small pure checks and says, per call, which requirement the check stands for and
// how much a failure weighs:
//   t.must(check, ids)    - a failure fails the test (and the run); the test goes on;
//   t.require(check, ids) - the same, but the test stops (what follows would be meaningless);
//   t.warn(check, ids)    - a failure is a warning: the spec leaves the point open.
// Skips (profile off, budget, no user token, nothing to discover) always carry their reason.
import { test } from 'vitest';
import { BudgetExhaustedError } from '../budget/budget.ts';
import { RateLimitWaitError } from '../budget/pacing.ts';
import { RunStoppedError } from '../budget/watchdog.ts';
import type { UndoAction } from './journal.ts';
import type { CheckResult } from '../checks/check.ts';
import { bodyIsJson } from '../checks/http.ts';
import type { RunServices } from '../coordinator/services.ts';
import { HttpError, type HttpResponse } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { secrets } from '../http/redact.ts';
import { assertKnownRequirements } from '../requirements/catalogue.ts';
import { SchemaRegistry, type Violation } from '../schemas/validator.ts';
import type { ExchangeContext } from '../schemas/presence.ts';
import { askedVersion, exchangeRule, viewOf } from '../rules/exchange-rules.ts';
import { violationFindings, type RuleFinding } from '../rules/exchange-rule.ts';
import { DEFAULT_DEADLINE_S } from '../config/keys.ts';
import { removedLater, type Feature } from '../rules/change-history.ts';
import { VersionScope } from '../rules/version-scope.ts';
import { ApiClient, PrerequisiteMissing, type Auth } from './api.ts';
import type { DiscoveryRole } from '../discovery/discovery.ts';
import { mayShowUserWrites } from './reuse.ts';
import { isSelected } from './selection.ts';
import { suiteName, testId } from '../results/model.ts';
import { kitName } from '../util/kit-names.ts';
import { countsOf, type Observations, type RuleTally } from '../rules/observations.ts';
import { NOT_JUDGED, type ConformanceMeta, type Finding, type Outcome, type RunContext, type Severity } from './run-context.ts';
import { runScope, targetBeingLoaded, workerState } from './worker-state.ts';

export { useTarget } from './worker-state.ts';
export { declaredIdProblem, type TestDeclaration } from './declaration.ts';
import { declaredMeta, type TestDeclaration } from './declaration.ts';
export type { DiscoveryRole } from '../discovery/discovery.ts';

const MAX_EXCHANGES_KEPT = 40;

/** Ends a test after a failed `require`; the failure is already recorded. */
class StopTest extends Error {
  override name = 'StopTest';
}

/** Thrown at the end of a test with MUST failures, so vitest counts it failed. */
class ConformanceFailure extends Error {
  override name = 'ConformanceFailure';
}

export class ConformanceContext {
  readonly api: ApiClient;
  readonly run: RunContext;
  readonly #outcome: Outcome;
  readonly #meta: ConformanceMeta;
  readonly #services: RunServices;
  readonly #schemas: SchemaRegistry;
  /** Who the budget charges for this test's requests (and who holds a lent token). */
  readonly #holder: string;
  /**
   * The version the run's requests are served (the version asked, CATALOGUE_API_VERSION, at the
   * patch level the deployment implements, CATALOGUE_IMPLEMENTS): every version-dependent check
   * asks it, through `has` and `requireFeature`, never a version number of its own.
   */
  readonly version: VersionScope;

  constructor(meta: ConformanceMeta, outcome: Outcome, holder: string, title: string, target = '', reuse = true) {
    const state = workerState(target);
    this.run = state.run;
    this.version = state.version;
    this.#meta = meta;
    this.#outcome = outcome;
    this.#services = state.services;
    this.#schemas = state.schemas;
    this.#holder = holder;
    this.api = new ApiClient({
      baseUrl: state.run.baseUrl,
      authUrl: state.run.authUrl,
      apiVersion: state.run.apiVersion,
      mediaType: state.run.mediaType,
      timeoutMs: state.run.timeoutMs,
      services: state.services,
      holder,
      onExchange: (exchange, text) => {
        this.#keep(exchange);
        state.observer.see(exchange, title, text);
      },
      judgedLive: true,
      ...(reuse ? { reuse: true, onReuse: (exchange: Exchange) => this.evidence(exchange) } : {}),
      // Beside another run of the same client, a failure is judged only if nothing it read could show that run's writes.
      onRequest: (url: string, auth: Auth) => {
        if (!outcome.readsUserWrites && mayShowUserWrites(url, state.run.baseUrl, auth === 'user' || typeof auth === 'object')) outcome.readsUserWrites = true;
      },
    });
  }

  /**
   * Journals how to take back a change the API client cannot see by itself (a list the server
   * created along with a favorite): a run interrupted before the test's own cleanup still takes
   * it back (src/harness/journal.ts).
   */
  async undoable(action: UndoAction, what: string): Promise<void> {
    await this.#services.journal({ undo: [{ action, what }] });
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
    const declared = ids.length ? ids : this.#meta.requirements;
    // A null where the spec types a value only warns: blank fields are null (GEN-8), anywhere.
    const requirements = result.blank ? [...new Set([...declared, 'GEN-8'])] : declared;
    assertKnownRequirements(requirements);
    // A WARN test cannot fail the run, whatever its checks say.
    const effective: Severity = this.#meta.severity === 'WARN' || result.blank ? 'WARN' : severity;
    const message = result.blank ? `null where the spec gives a non-null type: ${result.message}` : result.message;
    const finding: Finding = { requirements, severity: effective, message: secrets.scrub(message) };
    if (details?.length) finding.details = details.map((d) => secrets.scrub(d));
    if (!result.ok && result.follows !== undefined) finding.follows = secrets.scrub(result.follows);
    const shown = showing(this.#outcome, result.shown);
    if (shown !== undefined) finding.exchange = shown;
    (effective === 'MUST' ? this.#outcome.failures : this.#outcome.warnings).push(finding);
    return false;
  }

  /** Records a failure if the check failed; the test goes on. Returns whether it passed. */
  must(result: CheckResult, ...requirementIds: string[]): boolean {
    return this.#record(result, requirementIds, 'MUST');
  }

  /**
   * Like must, but stops the test when the check failed. A blank result (a null where the spec
   * types a value) is recorded as must records it, a warning citing GEN-8, and the test stops as
   * skipped with that reason: what follows needs the value, and a null is no failure.
   */
  require(result: CheckResult, ...requirementIds: string[]): void {
    if (this.#record(result, requirementIds, 'MUST')) return;
    if (!result.ok && result.blank)
      throw new PrerequisiteMissing(`not judged further: a value the rest of the test needs is null (GEN-8, recorded as a warning): ${result.message}`);
    throw new StopTest();
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

  /**
   * A name for what the test creates on the deployment (a list, an address's label, a review's
   * first word): the kit's prefix, `what`, when the run must be over (so that no other run sweeps
   * it before), and a random part (src/util/kit-names.ts).
   */
  kitName(what: string): string {
    return kitName(what, this.run.recordsOverBy ?? Date.now() + DEFAULT_DEADLINE_S * 1000);
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
  async discover(role: DiscoveryRole): Promise<number> {
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

  /**
   * A user token no other test uses while this one runs (src/coordinator/services.ts
   * lentUserToken): for counting X-RateLimit-Remaining, or for ending it (`ends`: logout). Skips
   * the test when the deployment cannot give one without a person at a browser.
   */
  async lentUserToken(ends = false): Promise<string> {
    const result = await this.#services.lentUserToken(this.#holder, ends);
    if ('unavailable' in result) throw new PrerequisiteMissing(result.unavailable);
    secrets.add(result.token);
    return result.token;
  }

  /** The run's tally of the observed rules so far (suites/last/observed.suite.ts reads it). */
  observations(): Promise<Observations> {
    return this.#services.observations();
  }

  /** The tally of one observed rule this test's verdict rests on: the report keeps it, and `verify` re-judges it from the HAR. */
  judgesTally(rule: string, tally: RuleTally | undefined): void {
    this.#outcome.judgedTally = { rule, ...countsOf(tally) };
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
    const last = response.exchanges[response.exchanges.length - 1];
    // The version the request asked for (a test may send an Accept of its own), as the rules read it.
    const scope = last ? this.versionFor(askedVersion(last.requestHeaders)) : this.version;
    const verdict = this.#schemas.validateExchange(endpoint, response.status, response.text, scope, contextOf(response));
    const where = last ? `${last.method} ${this.#apiPath(last.url)}` : endpoint;
    return this.#violations(verdict.schema ?? `${endpoint} ${response.status}`, verdict.violations, where, requirementIds);
  }

  /**
   * The violations as findings, as the passive judge words them (violationFindings): the first
   * violation in the message, all of them in the details; a null only warns (GEN-8).
   */
  #violations(schemaId: string, violations: Violation[], where: string | undefined, requirementIds: string[]): boolean {
    // The test's ids, and what the broken schema parts name (x-requirements, a later version's row).
    const base = requirementIds.length ? requirementIds : this.#meta.requirements;
    return this.#findings(violationFindings(schemaId, violations, where, base));
  }

  /** Records the findings of a rule or of schema violations; returns whether none was a MUST. */
  #findings(findings: readonly RuleFinding[]): boolean {
    let ok = true;
    for (const f of findings) {
      const recorded = this.#record({ ok: false, message: f.message }, f.requirements, f.severity, f.details);
      if (f.severity === 'MUST') ok = ok && recorded;
    }
    return ok;
  }

  /**
   * Applies rules of the single-exchange table (src/rules/exchange-rules.ts) to an answer, by id,
   * with their own requirement ids and severities: the same rules the observed pass applies to
   * every exchange and the passive judge to recorded traffic. A rule that does not apply to the
   * answer (another endpoint or status) finds nothing. Returns whether no MUST finding came.
   */
  rules(response: HttpResponse, ...ruleIds: string[]): boolean {
    const last = response.exchanges[response.exchanges.length - 1];
    if (!last) return true;
    const view = viewOf({
      exchange: last,
      text: response.text,
      baseUrl: this.run.baseUrl,
      authUrl: this.run.authUrl,
      implements: this.run.implements,
      token: response.tokenKind ?? null,
      atMs: Date.now(),
    });
    let ok = true;
    for (const id of ruleIds) {
      const rule = exchangeRule(id);
      if (!rule.applies(view)) continue;
      const outcome = rule.check(view);
      if (outcome.kind === 'findings') ok = this.#findings(outcome.findings) && ok;
    }
    return ok;
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
    const extra = Object.keys(object).filter((k) => !known.has(k) && !removedLater(schemaId, k, (since) => this.version.serves(since)));
    if (extra.length) this.warn({ ok: false, message: `${where} has fields the spec does not document: ${extra.join(', ')}` }, ...requirementIds);
  }
}

/** What the exchange shows besides its body: the query of the request that was answered, the kind of token it carried and the scopes that token was granted. */
function contextOf(response: HttpResponse): ExchangeContext {
  let query: URLSearchParams | undefined;
  try {
    query = new URL(response.url).searchParams;
  } catch {
    query = undefined;
  }
  return { ...(query ? { query } : {}), token: response.tokenKind ?? null, tokenScopes: response.tokenScopes ?? null };
}

/**
 * Another run of the same client may have changed what the test read (the user's favorites,
 * addresses, profile, reviews) between two of its requests: its failures become warnings saying
 * so, never a verdict. A run that does change the data began first, and judges the same statements itself.
 */
function setAsideFailures(outcome: Outcome, otherRun: string): void {
  for (const finding of outcome.failures.splice(0)) {
    outcome.warnings.push({ ...finding, message: `${NOT_JUDGED}${otherRun} may have changed what this test read (run alone to judge it): ${finding.message}` });
  }
}

/**
 * The index in the test's exchanges of the one a finding shows: `exchange` (what the check judged;
 * added as evidence when it is not kept), else the latest; undefined when there is none.
 */
function showing(outcome: Outcome, exchange: Exchange | undefined): number | undefined {
  if (exchange !== undefined) {
    const at = outcome.exchanges.lastIndexOf(exchange);
    if (at >= 0) return at;
    outcome.exchanges.push(exchange);
  }
  return outcome.exchanges.length ? outcome.exchanges.length - 1 : undefined;
}

/** Declares one conformance test. */
export function conformanceTest(title: string, declaration: TestDeclaration, fn: (t: ConformanceContext) => Promise<void>): void {
  const meta = declaredMeta(title, declaration);
  const target = targetBeingLoaded();
  test(title, { meta: { conformance: meta }, timeout: declaration.timeoutMs ?? 5 * 60_000 }, async (ctx) => {
    const outcome: Outcome = { failures: [], warnings: [], exchanges: [], omittedExchanges: 0, requests: 0 };
    ctx.task.meta.outcome = outcome;
    const { run, services } = workerState(target);
    if (!run.profiles.includes(meta.profile)) {
      outcome.skipReason = `profile ${meta.profile} is not enabled (CATALOGUE_PROFILES=${run.profiles.join(',')})`;
      ctx.skip(outcome.skipReason);
    }
    if (run.requirementsOnly && !meta.requirements.some((id) => run.requirementsOnly!.includes(id))) {
      outcome.skipReason = `checks none of the requirements asked for (${run.requirementsOnly.join(', ')})`;
      ctx.skip(outcome.skipReason);
    }
    const suite = suiteName(ctx.task.file.name);
    if (run.selection && !isSelected(run.selection, { id: testId(suite, meta.id), suite, requirements: meta.requirements })) {
      const { suites, tests, requirements } = run.selection;
      outcome.skipReason = `not picked by the filters (${[...suites, ...tests, ...requirements].join(', ')})`;
      ctx.skip(outcome.skipReason);
    }
    if (meta.profile !== 'read' && run.concurrentRun) {
      outcome.skipReason = `the user's data is shared with ${run.concurrentRun}: a change of its could fail this test falsely (run one at a time to test writes)`;
      ctx.skip(outcome.skipReason);
    }
    const holder = `${ctx.task.file.name} > ${ctx.task.name} #${Math.random().toString(36).slice(2, 8)}`;
    const reservation = await services.reserve(holder, meta.requests);
    if (!reservation.ok) {
      outcome.skipReason = reservation.reason;
      ctx.skip(outcome.skipReason);
    }
    try {
      await fn(new ConformanceContext(meta, outcome, holder, ctx.task.fullName, target, declaration.reuse ?? true));
    } catch (error) {
      if (error instanceof StopTest) {
        // already recorded
      } else if (error instanceof PrerequisiteMissing || error instanceof BudgetExhaustedError || error instanceof RateLimitWaitError || error instanceof RunStoppedError) {
        outcome.skipReason = secrets.scrub(error.message);
      } else {
        // HttpError: no usable answer (refused, reset, timeout, too large, redirect loop, not
        // JSON), so the test's requirements are not met. Anything else is an error in the test,
        // most often from a body of an unexpected shape: reported, never hidden.
        const message = error instanceof HttpError ? error.message : `the test itself failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
        // A redirect without a usable target breaks RED-3 ("the target is in the Location header"), not what the answer it hid states.
        const requirements = error instanceof HttpError && error.kind === 'bad-redirect' ? ['RED-3'] : meta.requirements;
        const finding: Finding = { requirements, severity: meta.severity, message: secrets.scrub(message) };
        // The request that got no usable answer, not a later one (a cleanup's DELETE).
        const shown = showing(outcome, error instanceof HttpError ? error.exchanges[error.exchanges.length - 1] : undefined);
        if (shown !== undefined) finding.exchange = shown;
        (meta.severity === 'MUST' ? outcome.failures : outcome.warnings).push(finding);
      }
    } finally {
      await services.settle(holder);
      await services.observe(workerState(target).observer.take());
    }
    ctx.task.meta.outcome = outcome;
    if (outcome.failures.length && outcome.readsUserWrites) {
      // Another run known from the start, or one that began since (a fresh look: src/harness/run-records.ts).
      const otherRun = run.concurrentRun ?? (await services.otherRun().catch(() => null));
      if (otherRun) setAsideFailures(outcome, otherRun);
    }
    if (outcome.failures.length) {
      throw new ConformanceFailure(outcome.failures.map((f) => `[${f.requirements.join(', ')}] ${f.message}`).join('\n'));
    }
    if (outcome.skipReason) ctx.skip(outcome.skipReason);
  });
}
