import { appendFileSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startReference } from '../reference/server.ts';
import { servicesFor } from '../testing/services.ts';
import { readJournal, RunJournal, undoKey } from './journal.ts';

const ME = { target: 'https://api.example/api', client: 'c1' };

describe('the run journal', () => {
  test('an undo is pending until done; the first action for a key stays (the values before the run)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-j-'));
    const journal = new RunJournal(dir, ME);
    journal.undoable({ action: { method: 'PATCH', path: '/user', json: { sex: 'male' } }, what: 'sex' });
    journal.undoable({ action: { method: 'PATCH', path: '/user', json: { sex: 'female' } }, what: 'sex again' });
    journal.undoable({ action: { method: 'DELETE', path: '/favorites/1' }, what: 'favorite 1' });
    expect(journal.pending.map((e) => e.what)).toEqual(['favorite 1', 'sex']);
    journal.done(undoKey({ method: 'DELETE', path: '/favorites/1' }));
    const read = readJournal(journal.file)!;
    expect(read.pending).toEqual([{ key: 'PATCH /user sex', action: { method: 'PATCH', path: '/user', json: { sex: 'male' } }, what: 'sex' }]);
    expect(read.ended).toBe(false);
  });

  test('a journal with nothing pending is removed at the end; one with something pending is kept, ended', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-j-'));
    const clean = new RunJournal(dir, ME);
    clean.undoable({ action: { method: 'DELETE', path: '/favorites/1' }, what: 'f' });
    clean.done('DELETE /favorites/1');
    clean.end();
    expect(existsSync(clean.file)).toBe(false);
    const left = new RunJournal(dir, ME, new Date(Date.now() + 1000));
    left.undoable({ action: { method: 'DELETE', path: '/favorites/2' }, what: 'f2' });
    left.end();
    expect(readJournal(left.file)).toMatchObject({ ended: true, pending: [{ key: 'DELETE /favorites/2' }] });
  });

  test('leftBehind: journals of runs that are over, of this client and target only; a live run is left alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-j-'));
    const write = (name: string, begin: object, ...lines: object[]) => writeFileSync(join(dir, name), [begin, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const undo = { t: 'undo', key: 'DELETE /favorites/9', action: { method: 'DELETE', path: '/favorites/9' }, what: 'f9' };
    const now = new Date().toISOString();
    // A process that is gone (a pid no process has), one still running (this one), another target, and a cut-off last line.
    write('dead.jsonl', { t: 'begin', run: 'dead', pid: 2 ** 22 + 12345, ...ME, startedAt: now }, undo);
    write('live.jsonl', { t: 'begin', run: 'live', pid: process.pid, ...ME, startedAt: now }, undo);
    write('other.jsonl', { t: 'begin', run: 'other', pid: 2 ** 22 + 12345, target: 'https://elsewhere', client: 'c1', startedAt: now }, undo);
    write('ended.jsonl', { t: 'begin', run: 'ended', pid: process.pid, ...ME, startedAt: now }, undo, { t: 'end' });
    appendFileSync(join(dir, 'ended.jsonl'), '{"t":"done","key":"DELE');
    const { over, live } = RunJournal.leftBehind(dir, ME);
    expect(over.map((s) => s.run).sort()).toEqual(['dead', 'ended']);
    expect(live.map((s) => s.run)).toEqual(['live']);
    // A sweep that took everything back removes the journal.
    RunJournal.markDone(join(dir, 'dead.jsonl'), ['DELETE /favorites/9']);
    expect(readdirSync(dir).sort()).toEqual(['ended.jsonl', 'live.jsonl', 'other.jsonl']);
  });

  test('an intent (no action) is pending until its answer resolves it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-j-'));
    const journal = new RunJournal(dir, ME);
    journal.undoable({ key: 'intent 1', what: 'POST /favorites {}' });
    expect(readJournal(journal.file)!.pending).toEqual([{ key: 'intent 1', what: 'POST /favorites {}' }]);
    journal.done('intent 1');
    expect(readJournal(journal.file)!.pending).toEqual([]);
  });
});

describe('a create that was never sent leaves no intent', () => {
  test('a POST with the user token where no user token can be had (a consent page): nothing pending, nothing for a sweep to look up', async () => {
    const ref = await startReference({ consent: 'page' });
    try {
      const main = servicesFor(ref);
      const journal = new RunJournal(mkdtempSync(join(tmpdir(), 'cc-j-')), ME);
      main.services.runJournal = journal;
      await expect(main.api('test').request('POST', '/favorite_lists', { auth: 'user', json: { favorite_list: { name: 'cc-list-x' } } })).rejects.toThrow(/no user token/);
      expect(journal.pending).toEqual([]);
    } finally {
      await ref.close();
    }
  });
});
