// report.html (issue 20, point 5): a run's results as one self-contained page a certifier can hand
// over and anyone can read offline: no network, no external asset (a Content-Security-Policy
// forbids any). The run's metadata and verdict on top; the tests by suite, each failure with the
// spec's words for the requirements it broke and the exchange that showed it; the requirements
// with the status of the tests that cite them; filters by status. Everything is rendered here, in
// HTML; the page's script only toggles what is shown. Written a test at a time, like results.json,
// every piece scrubbed of the run's secrets.
import { formatExchange } from '../http/exchange.ts';
import { redactUrl, secrets } from '../http/redact.ts';
import { requirements } from '../requirements/catalogue.ts';
import { provenance } from './provenance.ts';
import { requirementVerdicts } from '../results/model.ts';
import type { RunResults, Status, TestRecord } from './results.ts';
import type { RunInfo } from './run-info.ts';

const STATUSES: readonly Status[] = ['failed', 'expected', 'warned', 'skipped', 'passed'];
const LABEL: Record<Status, string> = { failed: 'FAIL', expected: 'EXPECTED', warned: 'WARN', skipped: 'SKIP', passed: 'PASS' };
/** Exchanges shown per test that did not pass (the report keeps at most this many anyway). */
const EXCHANGES_SHOWN = 6;
/** Past this many tests (a large HAR judged), passed tests are counted, not listed: results.json has them. */
const MAX_TESTS_LISTED = 5000;
/** Tests linked from a requirement's row. */
const LINKS_PER_REQUIREMENT = 20;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const anchor = (id: string) => `t-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#fff}
header,nav,main{padding:0 24px}header{padding-top:16px}
h1{font-size:20px;margin:0 0 8px}h2{font-size:16px;margin:20px 0 6px}
.verdict{font-weight:600;padding:8px 12px;border-radius:4px;display:inline-block;margin:4px 0 12px}
.v-pass{background:#dafbe1}.v-fail{background:#ffebe9}.v-other{background:#fff8c5}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0 0 12px}dl.meta dt{color:#57606a}dl.meta dd{margin:0;word-break:break-all}
nav{position:sticky;top:0;background:#f6f8fa;border-bottom:1px solid #d0d7de;padding-top:8px;padding-bottom:8px}
nav label{margin-right:14px;white-space:nowrap}
details.test{border:1px solid #d0d7de;border-radius:4px;margin:4px 0;padding:4px 8px}
details.test>summary{cursor:pointer}
.badge{display:inline-block;min-width:64px;font-weight:600;font-size:12px}
.st-failed .badge{color:#cf222e}.st-expected .badge{color:#8250df}.st-warned .badge{color:#9a6700}.st-skipped .badge{color:#57606a}.st-passed .badge{color:#1a7f37}
.reqs{color:#57606a;font-size:12px}
blockquote{margin:4px 0 4px 0;padding:2px 10px;border-left:3px solid #d0d7de;color:#424a53}
pre{background:#f6f8fa;padding:8px;overflow:auto;font-size:12px;white-space:pre-wrap;word-break:break-all}
table.reqs-table{border-collapse:collapse;width:100%}table.reqs-table td,table.reqs-table th{border-bottom:1px solid #d0d7de;padding:4px 6px;text-align:left;vertical-align:top}
${STATUSES.map((s) => `body:not(.show-${s}) .st-${s}{display:none}`).join('\n')}
body.view-requirements #by-suite,body:not(.view-requirements) #by-requirement{display:none}
`;

const SCRIPT = `
const suitesView = document.querySelector('input[name=view][value=suites]');
for (const link of document.querySelectorAll('#by-requirement a')) link.addEventListener('click', () => {
  suitesView.checked = true;
  document.body.classList.remove('view-requirements');
  const test = document.getElementById(link.hash.slice(1));
  if (test) test.open = true;
});
for (const box of document.querySelectorAll('input[data-status]')) box.addEventListener('change', () => document.body.classList.toggle('show-' + box.dataset.status, box.checked));
for (const radio of document.querySelectorAll('input[name=view]')) radio.addEventListener('change', () => document.body.classList.toggle('view-requirements', radio.value === 'requirements' && radio.checked));
`;

function metaRows(run: RunInfo): [string, string][] {
  const { kit, catalogue } = provenance();
  const rows: [string, string | undefined][] = [
    ['Target', redactUrl(run.target) + (run.referenceServer ? ' (embedded reference server)' : '')],
    ['Auth URL', redactUrl(run.authUrl)],
    ['API version', run.apiVersion],
    ['Versions checked', run.versions?.join(', ')],
    ['Patch level claimed', run.implements],
    ['Media type', run.mediaType],
    ['Profiles', run.profiles.join(', ')],
    [
      'Seed',
      run.seed
        ? `${run.seed.seed}${run.seed.path ? `:${run.seed.path}` : ''}${run.seed.replayPath ? `@${run.seed.replayPath}` : ''} (${run.seed.given ? 'CATALOGUE_SEED' : 'drawn for the run'})`
        : undefined,
    ],
    ['Filters', run.filters?.length ? run.filters.join(' ') : undefined],
    ['Started', run.startedAt],
    ['Finished', run.finishedAt],
    ['Requests', `${run.requests.total} of a budget of ${run.requests.budget}`],
    ['Kit', `${kit.name} ${kit.version}${kit.commit ? ` (commit ${kit.commit})` : ''}`],
    ['Catalogue', `${catalogue.spec}: ${catalogue.requirements} requirements, SHA-256 ${catalogue.sha256}`],
    ['Exit code', `${run.exitCode}${run.exitReason ? `: ${run.exitReason}` : ''}`],
  ];
  return rows.filter((r): r is [string, string] => r[1] !== undefined && r[1] !== '');
}

function quoteOf(id: string): string {
  const r = requirements().get(id);
  if (!r) return `<div><b>${escapeHtml(id)}</b></div>`;
  return `<div><b>${escapeHtml(id)}</b> <span class="reqs">(${escapeHtml(r.section)}, ${r.level})</span><blockquote>${r.quote.map(escapeHtml).join('<br>')}</blockquote></div>`;
}

function testHtml(test: TestRecord, authUrl: string): string {
  const findings = [...test.failures.map((f) => ({ ...f, kind: 'FAIL' })), ...test.warnings.map((f) => ({ ...f, kind: 'WARN' }))];
  const parts = [
    `<details class="test st-${test.status}" id="${anchor(test.id)}"${test.status === 'failed' ? ' open' : ''}>`,
    `<summary><span class="badge">${LABEL[test.status]}</span> ${escapeHtml(test.title)} <span class="reqs">[${test.requirements.map(escapeHtml).join(', ')}]</span></summary>`,
    `<div class="reqs">id ${escapeHtml(test.id)}, ${test.severity}, profile ${test.profile}, ${test.requests} request(s)</div>`,
  ];
  if (test.status === 'skipped' || test.status === 'expected') parts.push(`<p>${escapeHtml(test.message.split('\n')[0]!)}</p>`);
  for (const f of findings) {
    parts.push(`<p><b>${f.kind}</b> [${f.requirements.map(escapeHtml).join(', ')}] ${escapeHtml(f.message)}</p>`);
    if (f.follows !== undefined) parts.push(`<p class="reqs">follows from: ${escapeHtml(f.follows)}</p>`);
    if (f.details?.length) parts.push(`<pre>${escapeHtml(f.details.join('\n'))}</pre>`);
    if (f.follows === undefined) for (const id of f.requirements) parts.push(quoteOf(id));
    if (f.exchange !== undefined && test.exchanges[f.exchange])
      parts.push(`<div class="reqs">the exchange that showed it:</div><pre>${escapeHtml(formatExchange(test.exchanges[f.exchange]!, authUrl))}</pre>`);
  }
  if (findings.length && test.exchanges.length) {
    const shown = test.exchanges.slice(-EXCHANGES_SHOWN);
    parts.push(
      `<details><summary>the test's exchanges (${test.exchanges.length}${test.omittedExchanges ? ` of ${test.exchanges.length + test.omittedExchanges}` : ''})</summary>${shown.map((e) => `<pre>${escapeHtml(formatExchange(e, authUrl))}</pre>`).join('')}</details>`,
    );
  }
  parts.push('</details>');
  return parts.join('\n');
}

/** Adds `test` to its group (a run may hold 200,000 tests: no copying). */
function groupInto(groups: Map<string, TestRecord[]>, key: string, test: TestRecord): void {
  const group = groups.get(key);
  if (group) group.push(test);
  else groups.set(key, [test]);
}

/** report.html in pieces: the head and metadata, then the tests suite by suite, then the requirements. */
export function* htmlReportChunks(results: RunResults, run: RunInfo): Generator<string> {
  const title = `catalogue-conformance: ${redactUrl(run.target)}`;
  const verdictClass = run.exitCode === 0 ? 'v-pass' : run.exitCode === 1 ? 'v-fail' : 'v-other';
  const s = results.summary;
  yield secrets.scrub(
    [
      '<!doctype html>',
      '<html lang="en"><head><meta charset="utf-8">',
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>`,
      `<body class="${STATUSES.map((st) => `show-${st}`).join(' ')}">`,
      `<header><h1>${escapeHtml(title)}</h1>`,
      `<div class="verdict ${verdictClass}" id="verdict">${escapeHtml(run.exitReason ?? `exit code ${run.exitCode}`)}</div>`,
      `<dl class="meta">${metaRows(run)
        .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`)
        .join('')}</dl>`,
      ...(run.stopped ? [`<p><b>Stopped:</b> ${escapeHtml(run.stopped)}</p>`] : []),
      ...results.problems.map((p) => `<p><b>Problem:</b> ${escapeHtml(p)}</p>`),
      ...(run.notes.length ? [`<details><summary>Notes (${run.notes.length})</summary><ul>${run.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul></details>`] : []),
      '</header>',
      '<nav>',
      ...STATUSES.map((st) => `<label><input type="checkbox" data-status="${st}" checked> ${st} (<span id="count-${st}">${s[st] ?? 0}</span>)</label>`),
      '<label><input type="radio" name="view" value="suites" checked> by suite</label>',
      '<label><input type="radio" name="view" value="requirements"> by requirement</label>',
      '</nav>',
      '<main><section id="by-suite">',
    ].join('\n'),
  );
  const bySuite = new Map<string, TestRecord[]>();
  for (const test of results.tests) groupInto(bySuite, test.suite, test);
  const listPassed = results.tests.length <= MAX_TESTS_LISTED;
  for (const [suite, tests] of bySuite) {
    const counts = STATUSES.filter((st) => tests.some((t) => t.status === st))
      .map((st) => `${tests.filter((t) => t.status === st).length} ${st}`)
      .join(', ');
    yield secrets.scrub(`<h2>${escapeHtml(suite)} <span class="reqs">(${counts})</span></h2>\n`);
    for (const test of tests) if (listPassed || test.status !== 'passed') yield secrets.scrub(`${testHtml(test, run.authUrl)}\n`);
    if (!listPassed)
      yield `<p class="st-passed">${tests.filter((t) => t.status === 'passed').length} passed tests not listed here (${results.tests.length} tests in all): results.json has them.</p>\n`;
  }
  yield '</section>\n<section id="by-requirement"><h2>Requirements</h2><table class="reqs-table"><tr><th>Requirement</th><th>Status</th><th>Tests</th></tr>\n';
  // The verdict by requirement (requirementVerdicts): failed only where a finding names it as
  // broken; the tests linked are those the verdict rests on, then the others that cite it.
  const citing = new Map<string, TestRecord[]>();
  for (const test of results.tests) for (const id of test.requirements) groupInto(citing, id, test);
  const byId = new Map(results.tests.map((t) => [t.id, t]));
  for (const { id, status, tests: resting } of requirementVerdicts(results.tests, [...requirements().keys()])) {
    const first = resting.map((t) => byId.get(t)).filter((t): t is TestRecord => t !== undefined);
    const tests = [...first, ...(citing.get(id) ?? []).filter((t) => !resting.includes(t.id))];
    const linked = tests.slice(0, LINKS_PER_REQUIREMENT);
    const more = tests.length > linked.length ? `<br>and ${tests.length - linked.length} more` : '';
    const links = linked.map((t) => `<a href="#${anchor(t.id)}">${LABEL[t.status]} ${escapeHtml(t.title)}</a>`).join('<br>') + more;
    yield secrets.scrub(
      `<tr class="st-${status}" id="r-${escapeHtml(id)}"><td>${quoteOf(id)}</td><td class="st-${status}"><span class="badge">${LABEL[status]}</span></td><td>${links}</td></tr>\n`,
    );
  }
  yield `</table></section></main>\n<script>${SCRIPT}</script>\n</body></html>\n`;
}

export function htmlReport(results: RunResults, run: RunInfo): string {
  return [...htmlReportChunks(results, run)].join('');
}
