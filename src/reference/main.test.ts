import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function run(args: string[]): { child: ReturnType<typeof spawn>; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/reference/main.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

describe('parseArgs', () => {
  it('maps flags to options', () => {
    expect(
      parseArgs(['--port', '8080', '--base-path', '/api', '--fault', 'path-reversed', '--dataset', 'alt', '--auth-origin=separate', '--per-minute', '3']),
    ).toEqual({
      ok: true,
      help: false,
      options: { port: 8080, basePath: '/api', fault: 'path-reversed', dataset: 'alt', authOrigin: 'separate', limits: { perMinute: 3 } },
    });
    expect(parseArgs([])).toEqual({ ok: true, help: false, options: {} });
  });

  it('rejects unknown flags and bad values', () => {
    for (const argv of [['--bogus'], ['--port', 'x'], ['--port', '70000'], ['--dataset', 'other'], ['--auth-origin', 'far'], ['--port'], ['--per-day', '0'], ['stray']]) {
      const r = parseArgs(argv);
      expect(r.ok, argv.join(' ')).toBe(false);
    }
  });
});

describe('main.ts', () => {
  it('prints the connection details, serves, and exits 0 on SIGTERM', async () => {
    const { child, done } = run(['--port', '0', '--base-path', '/api', '--auth-origin', 'separate', '--dataset', 'alt']);
    const out = await new Promise<string>((resolve, reject) => {
      let buf = '';
      child.stdout!.on('data', (d: Buffer) => {
        buf += d.toString();
        if (buf.includes('redirect_uri=')) resolve(buf);
      });
      child.on('exit', () => reject(new Error(`exited early: ${buf}`)));
    });
    const vals = Object.fromEntries(out.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    expect(vals['base_url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(vals['auth_url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(vals['auth_url']).not.toBe(new URL(vals['base_url']!).origin);
    const tok = await fetch(`${vals['auth_url']}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: vals['client_id']!, client_secret: vals['client_secret']!, scope: 'public' }),
    });
    const { access_token } = (await tok.json()) as { access_token: string };
    const root = await fetch(`${vals['base_url']}/categories/root`, { headers: { Authorization: `Bearer ${access_token}` } });
    expect(((await root.json()) as { category: { id: number } }).category.id).toBeGreaterThanOrEqual(5000);
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  it('exits 2 with one line on stderr for an unknown flag or fault', async () => {
    const [a, b] = await Promise.all([run(['--nope']).done, run(['--fault', 'no-such-fault']).done]);
    for (const r of [a, b]) {
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(b.stderr).toMatch(/Known faults/);
  });
});
