import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * mkdir -p, one level at a time. Node 20's mkdirSync(path, {recursive: true}) never returns for
 * some paths (seen under /proc), and a hang is the one answer a CLI must never give.
 */
export function ensureDir(path: string): void {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      if (!statSync(current).isDirectory()) {
        throw Object.assign(new Error(`${current} is not a directory`), { code: 'ENOTDIR' });
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      missing.unshift(current);
      const parent = dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }
  for (const dir of missing) mkdirSync(dir);
}
