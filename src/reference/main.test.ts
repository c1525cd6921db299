import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseArgs, USAGE } from './args.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function run(args: string[]): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/reference/main.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

/** Starts main.ts and resolves with its key=value lines once it has printed them. */
async function started(args: string[]): Promise<{ run: Run; vals: Record<string, string> }> {
  const r = run(args);
  const out = await new Promise<string>((resolve, reject) => {
    let buf = '';
    r.child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      if (buf.includes('# Stop with Ctrl-C.')) resolve(buf);
    });
    r.child.on('exit', () => reject(new Error(`exited early: ${buf}`)));
  });
  const lines = out.split('\n').filter((l) => /^[a-z_]+=/.test(l));
  return { run: r, vals: Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])) };
}

async function stop(r: Run): Promise<number | null> {
  r.child.kill('SIGTERM');
  return (await r.done).code;
}

function form(params: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() };
}

describe('parseArgs', () => {
  it('maps flags to options', () => {
    expect(parseArgs(['--port', '8080', '--base-path', '/api', '--fault', 'path-reversed', '--dataset', 'alt', '--auth-origin=separate', '--per-minute', '3'])).toEqual({
      ok: true,
      help: false,
      options: { port: 8080, basePath: '/api', fault: 'path-reversed', dataset: 'alt', authOrigin: 'separate', limits: { perMinute: 3 } },
    });
    expect(parseArgs([])).toEqual({ ok: true, help: false, options: {} });
    for (const c of ['page', 'auto', 'deny'] as const) expect(parseArgs(['--consent', c])).toEqual({ ok: true, help: false, options: { consent: c } });
    expect(parseArgs(['--per-day=7', '--host', '0.0.0.0', '--auth-base-path', '/id', '-h'])).toEqual({
      ok: true,
      help: true,
      options: { limits: { perDay: 7 }, host: '0.0.0.0', authBasePath: '/id' },
    });
  });

  it('rejects unknown flags and bad values', () => {
    for (const argv of [
      ['--bogus'],
      ['--port', 'x'],
      ['--port', '70000'],
      ['--dataset', 'other'],
      ['--auth-origin', 'far'],
      ['--port'],
      ['--per-day', '0'],
      ['stray'],
      ['--consent', 'maybe'],
      ['--consent', '--port'],
    ]) {
      const r = parseArgs(argv);
      expect(r.ok, argv.join(' ')).toBe(false);
    }
  });

  it('the usage names every flag', () => {
    for (const f of ['--host', '--port', '--base-path', '--auth-base-path', '--auth-origin', '--dataset', '--fault', '--consent', '--per-minute', '--per-day']) {
      expect(USAGE).toContain(f);
    }
  });
});

describe('main.ts', () => {
  it('prints the connection details; walks from an application token to a user token (consent auto) to a new favorite; exits 0 on SIGTERM', async () => {
    const { run: r, vals } = await started(['--port', '0', '--base-path', '/api', '--auth-origin', 'separate', '--dataset', 'alt', '--consent', 'auto']);
    try {
      expect(vals['base_url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
      expect(vals['auth_url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(vals['auth_url']).not.toBe(new URL(vals['base_url']!).origin);
      expect(vals['consent']).toBe('auto');
      for (const k of ['client_id', 'client_secret', 'redirect_uri']) expect(vals[k], k).toMatch(/\S/);
      const base = vals['base_url']!;
      const tokenUrl = `${vals['auth_url']}/oauth2/token`;
      const creds = { client_id: vals['client_id']!, client_secret: vals['client_secret']! };

      // 1. Application token (client credentials), then a public read.
      const app = (await (await fetch(tokenUrl, form({ ...creds, grant_type: 'client_credentials', scope: 'public' }))).json()) as { access_token: string };
      const appAuth = { Authorization: `Bearer ${app.access_token}` };
      const root = await fetch(`${base}/categories/root`, { headers: appAuth });
      expect(root.status).toBe(200);
      expect(((await root.json()) as { category: { id: number } }).category.id).toEqual(expect.any(Number));

      // 2. User token: the printed authorization URL redirects at once (consent auto) with a code.
      const authz = await fetch(vals['authorize_url']!, { redirect: 'manual' });
      expect(authz.status).toBe(302);
      const code = new URL(authz.headers.get('location')!).searchParams.get('code')!;
      const userRes = await fetch(tokenUrl, form({ ...creds, grant_type: 'authorization_code', redirect_uri: vals['redirect_uri']!, code }));
      expect(userRes.status).toBe(200);
      const user = (await userRes.json()) as { access_token: string; refresh_token: string; scope: string };
      expect(user.scope.split(' ')).toContain('favorites');
      const userAuth = { Authorization: `Bearer ${user.access_token}` };

      // 3. A favorite for a SKU found through the API.
      const favorites = await fetch(`${base}/favorites`, { headers: userAuth });
      expect(favorites.status).toBe(200);
      await favorites.text();
      const cats = ((await (await fetch(`${base}/categories?per=100`, { headers: appAuth })).json()) as { categories: { id: number; children_count: number }[] }).categories;
      // The demo user may have favorites already: the first SKU that is not one of them (a
      // repeated SKU is 422) becomes the new favorite.
      let fav: { id: number; sku_id: number } | undefined;
      let tried = 0;
      for (const c of cats.filter((x) => x.children_count === 0)) {
        const skus = await fetch(`${base}/categories/${c.id}/skus`, { headers: appAuth });
        for (const sku of ((await skus.json()) as { skus?: { id: number }[] }).skus ?? []) {
          tried += 1;
          const created = await fetch(`${base}/favorites`, {
            method: 'POST',
            headers: { ...userAuth, 'Content-Type': 'application/json' },
            body: JSON.stringify({ favorite: { sku_id: sku.id } }),
          });
          expect([201, 422], `POST /favorites sku ${sku.id}`).toContain(created.status);
          if (created.status === 201) {
            fav = ((await created.json()) as { favorite: { id: number; sku_id: number } }).favorite;
            expect(fav.sku_id).toBe(sku.id);
            break;
          }
          await created.text();
        }
        if (fav || tried > 200) break;
      }
      expect(fav, 'no SKU could be made a favorite').toBeDefined();
      const back = await fetch(`${base}/favorites/${fav!.id}`, { headers: userAuth });
      expect(back.status).toBe(200);
      // The application token may not touch favorites.
      expect((await fetch(`${base}/favorites`, { headers: appAuth })).status).toBe(401);
    } finally {
      expect(await stop(r)).toBe(0);
    }
  });

  it('defaults to the consent page: a person can approve in a browser', async () => {
    const { run: r, vals } = await started([]);
    try {
      expect(vals['consent']).toBe('page');
      const page = await fetch(vals['authorize_url']!);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).toContain(vals['client_id']!);
      const action = /<form method="post" action="([^"]+)">/.exec(html)![1]!;
      const fields = Object.fromEntries(
        [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
          m[1]!,
          m[2]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))),
        ]),
      );
      const approved = await fetch(new URL(action, vals['auth_url']).href, { ...form({ ...fields, decision: 'approve' }), redirect: 'manual' });
      expect(approved.status).toBe(302);
      expect(approved.headers.get('location')!.startsWith(`${vals['redirect_uri']}?code=`)).toBe(true);
    } finally {
      expect(await stop(r)).toBe(0);
    }
  });

  it('--help prints the usage; an unknown flag or fault exits 2 with one line on stderr', async () => {
    const [help, a, b] = await Promise.all([run(['--help']).done, run(['--nope']).done, run(['--fault', 'no-such-fault']).done]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--consent');
    for (const r of [a, b]) {
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(b.stderr).toMatch(/Known faults/);
  });

  it('--fault list and --variant list print the registries, one line each, and exit 0', async () => {
    const [faults, variants] = await Promise.all([run(['--fault', 'list']).done, run(['--variant', 'list']).done]);
    expect([faults.code, variants.code]).toEqual([0, 0]);
    const lines = faults.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(100);
    expect(lines.some((l) => l.startsWith('children-count-off-by-one ['))).toBe(true);
    for (const line of lines) expect(line).toMatch(/^[a-z0-9-]+ \[[A-Z]+-\d+\]: \S/);
    expect(variants.stdout.trim().split('\n').length).toBeGreaterThan(50);
  });
});
