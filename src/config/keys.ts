// The kit's configuration keys: one table drives parsing, `--help`, `.env.example` and README's
// key table (src/config/key-docs.ts), so a key cannot be documented in one place and forgotten in
// another. Descriptions are written in Markdown (backticks, links to README's sections): the
// README shows them as written, `--help` and `.env.example` as plain text.

import { DEFAULT_MAX_REQUESTS } from '../budget/budget.ts';
import { newestVersion } from '../rules/change-history.ts';

/** CATALOGUE_DEADLINE_S unset: generous (a paced default run takes about 5 minutes), but finite. */
export const DEFAULT_DEADLINE_S = 1800;

export type KeyKind = 'url' | 'string' | 'secret' | 'version' | 'patch' | 'media-type' | 'versions' | 'profiles' | 'file' | 'count' | 'dir' | 'ms' | 'seed';

export interface ConfigKey {
  env: string;
  flag: string;
  kind: KeyKind;
  /** Markdown: README shows it as written; `--help` and `.env.example` without the marks. */
  description: string;
  /** Value shown in `--help`, `.env.example` and README when the key is left unset (Markdown too). */
  default?: string;
}

export { PROFILES, type Profile } from '../results/model.ts';
import { PROFILES } from '../results/model.ts';

export const CONFIG_KEYS: readonly ConfigKey[] = [
  {
    env: 'CATALOGUE_BASE_URL',
    flag: '--base-url',
    kind: 'url',
    description:
      'Base URL of the deployment under test, path prefix included (`https://host/api`): request paths are appended to it, never resolved against the host root. Unset: the embedded reference server.',
  },
  {
    env: 'CATALOGUE_AUTH_URL',
    flag: '--auth-url',
    kind: 'url',
    description: 'Where `/oauth2/token` and `/oauth2/authorizations/new` live; may be another origin.',
    default: 'the base URL',
  },
  { env: 'CATALOGUE_CLIENT_ID', flag: '--client-id', kind: 'string', description: 'OAuth client id of the application; required with a base URL.' },
  {
    env: 'CATALOGUE_CLIENT_SECRET',
    flag: '--client-secret',
    kind: 'secret',
    description: 'OAuth client secret, required with a base URL (prefer the environment or `.env` to a flag: flags show in process lists).',
  },
  {
    env: 'CATALOGUE_REDIRECT_URI',
    flag: '--redirect-uri',
    kind: 'url',
    description: 'Registered redirect URI, used by the authorization-code flow for a user token (see [User token](#user-token)).',
  },
  { env: 'CATALOGUE_USER_TOKEN', flag: '--user-token', kind: 'secret', description: 'A user access token, used as is.' },
  {
    env: 'CATALOGUE_USER_REFRESH_TOKEN',
    flag: '--user-refresh-token',
    kind: 'secret',
    description: 'A user refresh token, exchanged for a user access token.',
  },
  {
    env: 'CATALOGUE_EXPIRED_TOKEN',
    flag: '--expired-token',
    kind: 'secret',
    description: 'An expired access token, for the expired-token checks (skipped without one; the embedded reference mints one).',
  },
  {
    env: 'CATALOGUE_API_VERSION',
    flag: '--api-version',
    kind: 'version',
    description: 'Version sent in `Accept: application/vnd.service+json; version=X` (major.minor; a patch is dropped, as the spec says it is ignored).',
    default: '3.2',
  },
  {
    env: 'CATALOGUE_IMPLEMENTS',
    flag: '--implements',
    kind: 'patch',
    description:
      "Patch level the deployment implements, a version of the spec's Change history (major.minor.patch, e.g. `3.1.1`): changes of later versions are not required of it, and a request for a later minor gets this version (Versioning rule 5). `3.0.0` is the base of 3.0, before the first row.",
    default: `the newest of the Change history, ${newestVersion()}`,
  },
  {
    env: 'CATALOGUE_MEDIA_TYPE',
    flag: '--media-type',
    kind: 'media-type',
    description:
      "The deployment's vendor media type, e.g. `application/vnd.acme+json` (the spec writes a neutral word, `vnd.service`, in place of the service's name): sent in `Accept` with `version=...`, and every check that reads `Accept` or `Content-Type` uses it.",
    default: '`application/vnd.service+json`',
  },
  {
    env: 'CATALOGUE_VERSIONS',
    flag: '--versions',
    kind: 'versions',
    description:
      "Comma-separated major.minor versions the deployment serves, e.g. `3.0,3.1,3.2`: the versioning suite checks the fields of each, and a listed version whose answers are another's fails.",
    default: "found from the deployment's answers to each minor of the Change history before the suites (the run's notes say what was found)",
  },
  {
    env: 'CATALOGUE_PROFILES',
    flag: '--profiles',
    kind: 'profiles',
    description: `Comma-separated profiles to run: ${PROFILES.map((p) => `\`${p}\``).join(', ')}. \`destructive\` may lock the client out for a day.`,
    default: '`read,write`',
  },
  {
    env: 'CATALOGUE_HINTS',
    flag: '--hints',
    kind: 'file',
    description:
      'JSON file of discovery hints, role -> id (e.g. `{"leafCategory": 17, "futureSkuCategory": 42, "shopWithUnstructuredLocation": 7}`): items the certifier knows, each checked before use; they save requests.',
  },
  {
    env: 'CATALOGUE_EXPECTED_FAILURES',
    flag: '--expected-failures',
    kind: 'file',
    description:
      'JSON file of known deviations: `[{"requirement": "FAV-29" or "test": "<test id>", "reason": "...", "expires": "YYYY-MM-DD"}]`. Their failures are reported as expected and do not fail the run; past its day an entry no longer does (see [Known deviations](#known-deviations)).',
  },
  {
    env: 'CATALOGUE_MAX_REQUESTS',
    flag: '--max-requests',
    kind: 'count',
    description:
      "Most requests a run may make, token requests included; at most 1000 (the spec allows 1000 a day per client). The random cases of the fieldset properties and the favorites model's sequences scale with it: a default run draws few (the model's sequences spend at most 12 requests; about 390 to 399 requests in all against the reference, whatever the seed), a larger budget more.",
    default: String(DEFAULT_MAX_REQUESTS),
  },
  {
    env: 'CATALOGUE_DAILY_LIMIT',
    flag: '--daily-limit',
    kind: 'count',
    description:
      "The deployment's daily call limit per client, when a test deployment sets a lower one than the spec's: the destructive daily-limit test then fails a deployment that serves more than twice as many calls in a row.",
    default: '1000',
  },
  {
    env: 'CATALOGUE_SEED',
    flag: '--seed',
    kind: 'seed',
    description: 'Seed of the property-based and model-based suites, as a failure prints it: replays that failure.',
    default: 'one drawn for the run, recorded in `results.json` (`run.seed`)',
  },
  {
    env: 'CATALOGUE_REPORT_DIR',
    flag: '--report-dir',
    kind: 'dir',
    description: "Where the reports go: each run's in a directory of its own, named for when it started; `latest` points at the newest (see [the reports](#reports)).",
    default: '`reports`',
  },
  {
    env: 'CATALOGUE_HAR',
    flag: '--har',
    kind: 'file',
    description:
      'HAR 1.2 file to write every HTTP exchange of the run into (token requests, discovery and redirect hops included), redacted: evidence, and input of `npm run validate-traffic` (see [Results](#results)).',
    default: 'none written',
  },
  {
    env: 'CATALOGUE_SUITES_DIR',
    flag: '--suites-dir',
    kind: 'dir',
    description: "Directory of the `*.suite.ts` files to run instead of the kit's (suites of your own).",
    default: "the kit's `suites/`",
  },
  {
    env: 'CATALOGUE_TIMEOUT_MS',
    flag: '--timeout-ms',
    kind: 'ms',
    description: 'Time allowed for one HTTP exchange, body included.',
    default: '15000',
  },
  {
    env: 'CATALOGUE_JOURNAL_DIR',
    flag: '--journal-dir',
    kind: 'dir',
    description:
      'Where each run keeps its journal of undo actions, and where a run looks for what earlier runs of the same client against the same target left to take back (see [the journal](#journal)). Runs that are to sweep after each other must share it (runs going on at once also see each other by their [beacons](#other-runs) on the deployment).',
    default: '`CATALOGUE_REPORT_DIR/.journal`',
  },
  {
    env: 'CATALOGUE_DEADLINE_S',
    flag: '--deadline-s',
    kind: 'count',
    description:
      'Seconds the whole run may take, from the first suite to the reports; past it no new request is sent, the run ends with exit 2 and the reports say what was done. A target that stops answering ends the run sooner (within twice `--timeout-ms`, at most 30 s). See [Bounded time](#bounded-time).',
    default: String(DEFAULT_DEADLINE_S),
  },
];
