// What produced a run's verdicts, for its reports (issue 20, point 4): the kit (name, version, and
// the commit when it runs from a git checkout) and the requirement catalogue it judged by (the
// spec's title and the catalogue's SHA-256: two runs judged by the same statements carry the same).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const KIT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CATALOGUE = fileURLToPath(new URL('../requirements/catalogue.json', import.meta.url));

export interface Provenance {
  kit: { name: string; version: string; commit: string | null };
  catalogue: { spec: string; sha256: string; requirements: number };
}

let known: Provenance | null = null;

/** The kit and catalogue of this process (read once). */
export function provenance(): Provenance {
  known ??= {
    kit: { ...packageOf(KIT_ROOT), commit: gitCommit(KIT_ROOT) },
    catalogue: catalogueOf(CATALOGUE),
  };
  return known;
}

function packageOf(root: string): { name: string; version: string } {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: string; version?: string };
    return { name: pkg.name ?? 'catalogue-conformance', version: pkg.version ?? '0' };
  } catch {
    return { name: 'catalogue-conformance', version: '0' };
  }
}

function catalogueOf(file: string): Provenance['catalogue'] {
  const text = readFileSync(file);
  const parsed = JSON.parse(text.toString('utf8')) as { spec?: string; requirements?: unknown[] };
  return { spec: parsed.spec ?? '', sha256: createHash('sha256').update(text).digest('hex'), requirements: parsed.requirements?.length ?? 0 };
}

/**
 * The commit checked out in `root`, read from .git without running git (which a machine may
 * lack): HEAD, then the branch's loose ref or packed-refs; a worktree's .git file points at its
 * directory. Null outside a checkout (an installed package) or when it cannot be read.
 */
export function gitCommit(root: string): string | null {
  try {
    let gitDir = join(root, '.git');
    if (!existsSync(gitDir)) return null;
    if (statSync(gitDir).isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(gitDir, 'utf8'))?.[1]?.trim();
      if (!pointer) return null;
      gitDir = resolve(root, pointer);
    }
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    const ref = /^ref:\s*(.+)$/.exec(head)?.[1];
    if (!ref) return /^[0-9a-f]{40}$/.test(head) ? head : null;
    // A worktree keeps its HEAD apart and shares the refs of the main repository (commondir).
    const common = existsSync(join(gitDir, 'commondir')) ? resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim()) : gitDir;
    for (const dir of new Set([gitDir, common])) {
      const loose = join(dir, ref);
      if (existsSync(loose)) return readFileSync(loose, 'utf8').trim();
    }
    const packed = join(common, 'packed-refs');
    if (!existsSync(packed)) return null;
    const line = readFileSync(packed, 'utf8')
      .split('\n')
      .find((l) => l.endsWith(` ${ref}`));
    return line?.slice(0, 40) ?? null;
  } catch {
    return null;
  }
}
