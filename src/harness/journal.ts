// The run's journal of undo actions (issue 19): before the kit changes anything on the deployment
// it writes down how to take the change back, and when the change is taken back, that it was.
// A run that ends in any way (its end, an interruption, a crash, a kill) leaves a file whose
// pending actions say exactly what is left: the run sweeps its own at its end, and a later run
// of the same client against the same target sweeps what an earlier one left, before its tests.
// Only what a journal names is ever touched: never the user's own data, never another live run's.
//
// One file per run, of JSON lines, appended synchronously (a line is on disk before the request
// it guards is sent):
//   {"t":"begin","run","pid","target","client","startedAt"}
//   {"t":"undo","key","action","what"}   how to take a change back (the first for a key stays);
//                                         an intent has "create" instead of "action"
//   {"t":"done","key"}                   taken back (by the test, or by a sweep)
//   {"t":"end"}                          the run is over; what is still pending was not taken back
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** A request that takes a change back: DELETE of a record the run created, or a PATCH/PUT putting values back. */
export interface UndoAction {
  method: 'DELETE' | 'PATCH' | 'PUT';
  /** Below the base URL, e.g. /favorites/12. */
  path: string;
  /** The body of a PATCH or PUT: the values before the run. */
  json?: unknown;
}

/** A create whose answer may never come: where it was sent, what it sent, and when (ISO). */
export interface CreateIntent {
  /** Below the base URL, e.g. /favorites. */
  path: string;
  json: unknown;
  sentAt: string;
}

/**
 * What a test or the API client reports: the undo action, and a few words on what it undoes. An
 * entry without an action is an intent: a request that may create a record whose id only its
 * answer tells (POST /favorites); its answer resolves it, with the record's own undo action. An
 * intent a run leaves unresolved (the run was killed while the request was out) is looked up by
 * the sweep from what was sent (`create`, src/harness/find-created.ts); what cannot be found that
 * way is reported, once.
 */
export interface UndoEntry {
  action?: UndoAction;
  what: string;
  /** An intent's key (an action's key is undoKey(action)). */
  key?: string;
  /** An intent's request, for the sweep to find the record it may have created. */
  create?: CreateIntent;
}

/** The key of an entry: an intent's own; a DELETE by its path; a PATCH or PUT by its path and the fields it puts back. */
export function entryKey(entry: UndoEntry): string {
  if (!entry.action) return entry.key ?? `intent ${entry.what}`;
  return undoKey(entry.action);
}

/** The key of an undo action: a DELETE by its path; a PATCH or PUT by its path and the fields it puts back. */
export function undoKey(action: UndoAction): string {
  if (action.method === 'DELETE') return `DELETE ${action.path}`;
  const fields = action.json && typeof action.json === 'object' && !Array.isArray(action.json) ? Object.keys(action.json).sort().join(',') : '';
  return `${action.method} ${action.path} ${fields}`;
}

interface Line {
  t: 'begin' | 'undo' | 'done' | 'end';
  run?: string;
  pid?: number;
  target?: string;
  client?: string;
  startedAt?: string;
  key?: string;
  action?: UndoAction;
  what?: string;
  create?: CreateIntent;
}

/** A journal read back: whose it is, and what is still pending, in the order the changes were made. */
export interface JournalState {
  file: string;
  run: string;
  pid: number;
  target: string;
  client: string;
  startedAt: string;
  ended: boolean;
  pending: (UndoEntry & { key: string })[];
}

export function readJournal(file: string): JournalState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  let begin: Line | null = null;
  let ended = false;
  const pending = new Map<string, UndoEntry & { key: string }>();
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      // A line cut off by a crash: the ones before it still count.
      continue;
    }
    if (line.t === 'begin') begin = line;
    else if (line.t === 'end') ended = true;
    else if (line.t === 'undo' && line.key && !pending.has(line.key)) {
      pending.set(line.key, { key: line.key, ...(line.action ? { action: line.action } : {}), ...(line.create ? { create: line.create } : {}), what: line.what ?? line.key });
    } else if (line.t === 'done' && line.key) pending.delete(line.key);
  }
  if (!begin?.run) return null;
  return {
    file,
    run: begin.run,
    pid: begin.pid ?? 0,
    target: begin.target ?? '',
    client: begin.client ?? '',
    startedAt: begin.startedAt ?? '',
    ended,
    // Newest first: a favorite goes before the list it is in, a vote's review after the vote.
    pending: [...pending.values()].reverse(),
  };
}

/** Whether the process `pid` is alive on this machine. */
function alive(pid: number): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A journal older than this is over, whoever wrote it (a run that long is past any deadline). */
const OVER_AFTER_MS = 24 * 3600 * 1000;

export class RunJournal {
  readonly file: string;
  readonly run: string;
  /** Keys written and not yet done. */
  readonly #pending = new Map<string, UndoEntry & { key: string }>();

  constructor(
    readonly dir: string,
    identity: { target: string; client: string },
    now = new Date(),
  ) {
    mkdirSync(dir, { recursive: true });
    this.run = `${now.toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${process.pid}`;
    this.file = join(dir, `${this.run}.jsonl`);
    this.#append({ t: 'begin', run: this.run, pid: process.pid, target: identity.target, client: identity.client, startedAt: now.toISOString() });
  }

  #append(line: Line): void {
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }

  /** Before a change: how to take it back. A key already pending keeps its first action (the values before the run). */
  undoable(entry: UndoEntry): void {
    const key = entryKey(entry);
    if (this.#pending.has(key)) return;
    this.#pending.set(key, { ...entry, key });
    this.#append({ t: 'undo', key, ...(entry.action ? { action: entry.action } : {}), ...(entry.create ? { create: entry.create } : {}), what: entry.what });
  }

  /** The change under `key` was taken back. */
  done(key: string): void {
    if (!this.#pending.delete(key)) return;
    this.#append({ t: 'done', key });
  }

  /** What is still to take back, newest first. */
  get pending(): (UndoEntry & { key: string })[] {
    return [...this.#pending.values()].reverse();
  }

  /** The run is over: a journal with nothing pending is removed, else it stays for the next run to sweep. */
  end(): void {
    if (!existsSync(this.file)) return;
    if (this.#pending.size === 0) rmSync(this.file, { force: true });
    else this.#append({ t: 'end' });
  }

  /** Marks `keys` of another run's journal `file` done (a sweep took them back); a journal left with nothing pending is removed. */
  static markDone(file: string, keys: readonly string[]): void {
    for (const key of keys) appendFileSync(file, `${JSON.stringify({ t: 'done', key })}\n`);
    const state = readJournal(file);
    if (state && state.pending.length === 0) rmSync(file, { force: true });
  }

  /**
   * Journals other runs of the same client against the same target left in `dir` with changes
   * still pending, whose runs are over: ended, or their process gone, or older than a day. A
   * journal of a run still going (another run of the same client at the same time) is not
   * returned: `live` lists those.
   */
  static leftBehind(dir: string, identity: { target: string; client: string }, self?: string): { over: JournalState[]; live: JournalState[] } {
    const over: JournalState[] = [];
    const live: JournalState[] = [];
    if (!existsSync(dir)) return { over, live };
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith('.jsonl')) continue;
      const state = readJournal(join(dir, name));
      if (!state || state.run === self || state.target !== identity.target || state.client !== identity.client) continue;
      const old = Date.now() - Date.parse(state.startedAt) > OVER_AFTER_MS;
      if (!state.ended && !old && alive(state.pid)) live.push(state);
      else if (state.pending.length) over.push(state);
      else rmSync(state.file, { force: true });
    }
    return { over, live };
  }
}
