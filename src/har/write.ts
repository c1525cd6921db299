// Records every HTTP exchange of a live run into a HAR 1.2 file (CATALOGUE_HAR), redacted, so the
// run's traffic can be kept as evidence and judged passively (npm run validate-traffic).
// The run's requests are made in several processes (the main process: tokens and discovery; each
// vitest worker: the suites), so each process appends its entries as JSON lines to a part file of
// its own, and the main process merges the parts, in the order the requests started, at the end.
import { accessSync, appendFileSync, closeSync, constants, existsSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { basename, dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { setHopRecorder, type RecordedHop } from '../http/client.ts';
import { redactBodyText, redactHeaders, redactUrl, secrets, type SecretRegistry } from '../http/redact.ts';
import { ensureDir } from '../util/fs.ts';

/** The HAR could not be prepared or written: one line for the user. */
export class HarWriteError extends Error {
  override name = 'HarWriteError';
}

interface NameValue {
  name: string;
  value: string;
}

/** A HAR 1.2 entry as the kit writes it (http://www.softwareishard.com/blog/har-12-spec/#entries). */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: NameValue[];
    queryString: NameValue[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: NameValue[];
    content: { size: number; mimeType: string; text?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { blocked: -1; dns: -1; connect: -1; ssl: -1; send: 0; wait: number; receive: 0 };
  /** Why no (complete) response came: a connection error, a timeout, a body cut off. HAR allows custom fields starting with "_". */
  _error?: string;
  /** The live run's observed rules judged this exchange (RecordedHop.judgedLive): what `verify` re-judges. */
  _judgedLive?: true;
}

const HTTP_VERSION = 'HTTP/1.1';

const listOf = (headers: Record<string, string>): NameValue[] => Object.entries(headers).map(([name, value]) => ({ name, value }));

function queryOf(url: string): NameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** One hop as a HAR entry, redacted by the same helpers as every report: URL, headers, both bodies (whole, not cut), the error. */
export function harEntry(hop: RecordedHop, registry: SecretRegistry = secrets): HarEntry {
  const url = redactUrl(hop.url, registry);
  const requestHeaders = redactHeaders(hop.requestHeaders, registry);
  const responseHeaders = redactHeaders(hop.responseHeaders, registry);
  const time = Math.round(hop.durationMs * 1000) / 1000;
  const status = hop.status ?? 0;
  const contentType = (headers: Record<string, string>) => Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  const text = hop.responseBody === undefined ? undefined : redactBodyText(hop.responseBody, registry);
  const content: HarEntry['response']['content'] = {
    // The size of the text written (redaction may shorten it): a reader takes a larger size for a truncated body.
    size: text === undefined ? 0 : Buffer.byteLength(text),
    mimeType: contentType(responseHeaders),
  };
  if (text !== undefined) content.text = text;
  const entry: HarEntry = {
    startedDateTime: new Date(hop.startedMs).toISOString(),
    time,
    request: {
      method: hop.method,
      url,
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: listOf(requestHeaders),
      queryString: queryOf(url),
      headersSize: -1,
      bodySize: hop.requestBody === undefined ? 0 : Buffer.byteLength(hop.requestBody),
    },
    response: {
      status,
      statusText: hop.status === null ? '' : (STATUS_CODES[status] ?? ''),
      httpVersion: hop.status === null ? '' : HTTP_VERSION,
      cookies: [],
      headers: listOf(responseHeaders),
      content,
      redirectURL: responseHeaders['location'] ?? '',
      headersSize: -1,
      bodySize: hop.responseBody === undefined ? -1 : content.size,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: time, receive: 0 },
  };
  if (hop.requestBody !== undefined) entry.request.postData = { mimeType: contentType(requestHeaders), text: redactBodyText(hop.requestBody, registry) };
  if (hop.error !== undefined) entry._error = registry.scrub(hop.error);
  if (hop.judgedLive) entry._judgedLive = true;
  return entry;
}

/** The directory of a HAR file's part files. */
export const partsDirOf = (harPath: string): string => `${harPath}.parts`;

const PART_SUFFIX = '.jsonl';
/** Next to a part file: how many exchanges this process could not append (the part file's disk failed). */
const LOST_SUFFIX = '.lost';

/**
 * Appends every hop of this process, as a redacted HAR entry, to its own part file in `partsDir`
 * (one per process and thread: no two writers share a file). Returns the function that stops it.
 */
export function recordHopsInto(partsDir: string, registry: SecretRegistry = secrets, origins: readonly string[] | null = null): () => void {
  const part = join(partsDir, `${process.pid}-${threadId}${PART_SUFFIX}`);
  const route: HopRoute = {
    origins: origins ? new Set(origins.map(originOf)) : null,
    write: (hop) => {
      try {
        // A last scrub by value over the whole line, as writeReports does for every report.
        appendFileSync(part, `${registry.scrub(JSON.stringify(harEntry(hop, registry)))}\n`);
      } catch {
        // The request itself must not fail for its record; the merge says how many were lost.
        try {
          appendFileSync(`${part}${LOST_SUFFIX}`, '1\n');
        } catch {
          // nothing more can be done from here
        }
      }
    },
  };
  hopRoutes.push(route);
  setHopRecorder(routeHop);
  return () => {
    const at = hopRoutes.indexOf(route);
    if (at >= 0) hopRoutes.splice(at, 1);
    if (hopRoutes.length === 0) setHopRecorder(null);
  };
}

/**
 * Where hops are recorded. One run: a route without origins takes every hop (redirects to other
 * origins too). Several targets in one process (runConformanceMany): each route takes the hops
 * to its target's origins, and a route without origins those no other route takes.
 */
interface HopRoute {
  origins: Set<string> | null;
  write: (hop: RecordedHop) => void;
}
const hopRoutes: HopRoute[] = [];

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

function routeHop(hop: RecordedHop): void {
  const origin = originOf(hop.url);
  const own = hopRoutes.filter((r) => r.origins?.has(origin));
  for (const route of own.length ? own : hopRoutes.filter((r) => r.origins === null)) route.write(hop);
}

const oneLine = (error: unknown): string => {
  const e = error as NodeJS.ErrnoException;
  return e?.code ?? (e instanceof Error ? e.message.split('\n')[0]! : String(error));
};

/**
 * Before any request: the HAR's directory exists and is writable, the path is no directory, and
 * the parts directory is empty (parts of an interrupted earlier run must not join this one).
 */
export function preparePartsDir(harPath: string): string {
  const partsDir = partsDirOf(harPath);
  try {
    if (existsSync(harPath) && statSync(harPath).isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
    ensureDir(dirname(harPath));
    accessSync(dirname(harPath), constants.W_OK);
    ensureDir(partsDir);
    for (const name of readdirSync(partsDir)) if (name.endsWith(PART_SUFFIX) || name.endsWith(LOST_SUFFIX)) unlinkSync(join(partsDir, name));
  } catch (error) {
    throw new HarWriteError(`HAR file ${harPath} cannot be written (${oneLine(error)}): set CATALOGUE_HAR (--har) to a file in a writable directory`);
  }
  return partsDir;
}

export interface MergeResult {
  /** Entries written to the HAR file. */
  entries: number;
  /** Lines of part files that were no JSON entry (a process killed while it appended), left out. */
  brokenLines: number;
  /** Exchanges a process could not append to its part file. */
  lost: number;
}

function creatorVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? '0';
  } catch {
    return '0';
  }
}

/**
 * Merges the part files into one HAR 1.2 file, entries sorted by the time their request started
 * (a part's own order breaks ties), written entry by entry, then deletes the parts. Each line gets
 * a last scrub with this process's secrets (the main process knows every token it handed out).
 */
export function mergeHarParts(partsDir: string, harPath: string, registry: SecretRegistry = secrets): MergeResult {
  const lines: { started: string; order: number; line: string }[] = [];
  let brokenLines = 0;
  let lost = 0;
  let names: string[];
  try {
    names = existsSync(partsDir) ? readdirSync(partsDir).sort() : [];
  } catch (error) {
    throw new HarWriteError(`HAR parts ${partsDir} cannot be read (${oneLine(error)})`);
  }
  for (const name of names) {
    const path = join(partsDir, name);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new HarWriteError(`HAR part ${path} cannot be read (${oneLine(error)})`);
    }
    if (name.endsWith(LOST_SUFFIX)) {
      lost += text.split('\n').filter(Boolean).length;
      continue;
    }
    if (!name.endsWith(PART_SUFFIX)) continue;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      let started: unknown;
      try {
        started = (JSON.parse(line) as { startedDateTime?: unknown }).startedDateTime;
      } catch {
        started = undefined;
      }
      if (typeof started !== 'string') {
        brokenLines++;
        continue;
      }
      lines.push({ started, order: lines.length, line: registry.scrub(line) });
    }
  }
  // ISO 8601 in UTC with milliseconds (toISOString) sorts as text.
  lines.sort((a, b) => (a.started < b.started ? -1 : a.started > b.started ? 1 : a.order - b.order));

  const partial = join(dirname(harPath), `.${basename(harPath)}.partial`);
  let fd: number | null = null;
  try {
    ensureDir(dirname(harPath));
    fd = openSync(partial, 'w');
    const creator = { name: 'catalogue-conformance', version: creatorVersion() };
    writeSync(fd, `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"pages":[],"entries":[`);
    lines.forEach((l, i) => writeSync(fd!, `${i === 0 ? '\n' : ',\n'}${l.line}`));
    writeSync(fd, '\n]}}\n');
    closeSync(fd);
    fd = null;
    renameSync(partial, harPath);
  } catch (error) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(partial);
    } catch {
      // never created
    }
    throw new HarWriteError(`HAR file ${harPath} cannot be written (${oneLine(error)})`);
  }
  for (const name of names) {
    try {
      unlinkSync(join(partsDir, name));
    } catch {
      // a part left behind is removed by the next run's preparePartsDir
    }
  }
  try {
    rmdirSync(partsDir);
  } catch {
    // not empty (a file of someone else's) or already gone: left as it is
  }
  return { entries: lines.length, brokenLines, lost };
}

/** The HAR of one run: parts prepared, this process recording; finish() merges them once. */
export interface HarRecording {
  readonly path: string;
  readonly partsDir: string;
  /** What the HAR path held before the run, and where it went (keepEarlier). */
  readonly notes: string[];
  readonly finished: boolean;
  /** Stops this process's recording and merges every part into the HAR file. */
  finish(): MergeResult;
}

/**
 * What a HAR path already holds, never dropped without a word: the parts an earlier run left
 * (it was killed before merging them) are merged into a HAR of their own beside it; an existing
 * HAR file is replaced at the end, and the notes say so.
 */
export function keepEarlier(harPath: string): string[] {
  const notes: string[] = [];
  const partsDir = partsDirOf(harPath);
  try {
    if (existsSync(partsDir) && readdirSync(partsDir).some((name) => name.endsWith(PART_SUFFIX))) {
      const recovered = `${harPath.replace(/\.har$/i, '')}.earlier-${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}.har`;
      const merged = mergeHarParts(partsDir, recovered);
      notes.push(`HAR: an earlier run left ${merged.entries} exchanges unmerged in ${partsDir}; they are in ${recovered}`);
    }
  } catch (error) {
    throw new HarWriteError(`HAR parts ${partsDir} left by an earlier run cannot be merged (${oneLine(error)}): move them away, or set CATALOGUE_HAR (--har) to another file`);
  }
  if (existsSync(harPath) && statSync(harPath).isFile()) notes.push(`HAR: ${harPath} existed and was replaced by this run's`);
  return notes;
}

/** Prepares the parts directory and records this process's hops; a HarWriteError when the HAR cannot be written. */
export function startHarRecording(harPath: string, origins: readonly string[] | null = null): HarRecording {
  const notes = keepEarlier(harPath);
  const partsDir = preparePartsDir(harPath);
  const stop = recordHopsInto(partsDir, secrets, origins);
  let finished = false;
  return {
    path: harPath,
    partsDir,
    notes,
    get finished() {
      return finished;
    },
    finish() {
      if (finished) throw new HarWriteError(`HAR file ${harPath} was already written`);
      finished = true;
      stop();
      return mergeHarParts(partsDir, harPath);
    },
  };
}
