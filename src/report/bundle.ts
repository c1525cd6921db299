// An evidence bundle (issue 20, point 6): a run's reports and its HAR in the run's own report
// directory, with a manifest of each file's SHA-256. A certifier hands the directory over; the
// receiver checks it with the kit alone (`catalogue-conformance verify <dir>`, src/report/verify.ts):
// the hashes, and the verdicts of the rules one exchange shows, re-judged from the HAR.
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, openSync, readdirSync, readSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { provenance, type Provenance } from './provenance.ts';

export const MANIFEST = 'manifest.json';
/** The run's HAR inside a bundle. */
export const BUNDLE_HAR = 'traffic.har';
export const BUNDLE_FORMAT = 'catalogue-conformance-bundle/1';

export interface FileDigest {
  sha256: string;
  bytes: number;
}

export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  createdAt: string;
  /** The kit that ran (and wrote the verdicts). */
  kit: Provenance['kit'];
  /** Every file of the bundle but the manifest, by name. */
  files: Record<string, FileDigest>;
}

/** The SHA-256 of a file, read in pieces (a HAR may be large). */
export function digestOf(path: string): FileDigest {
  const hash = createHash('sha256');
  const chunk = Buffer.alloc(1024 * 1024);
  const fd = openSync(path, 'r');
  let bytes = 0;
  try {
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      hash.update(chunk.subarray(0, n));
      bytes += n;
    }
  } finally {
    closeSync(fd);
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Puts the HAR into `dir` (moved when the run wrote it for the bundle alone, else copied: the user's file stays). */
function placeHar(dir: string, har: { path: string; move: boolean }): void {
  const into = join(dir, BUNDLE_HAR);
  if (!har.move) return copyFileSync(har.path, into);
  try {
    renameSync(har.path, into);
  } catch (error) {
    // Another file system: copy, then remove.
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    copyFileSync(har.path, into);
    unlinkSync(har.path);
  }
}

/** Makes the report directory `dir` a bundle: the HAR in it, and the manifest. Returns the manifest's path. */
export function writeBundle(dir: string, har: { path: string; move: boolean }): string {
  placeHar(dir, har);
  const files: Record<string, FileDigest> = {};
  for (const name of readdirSync(dir).sort()) {
    if (name === MANIFEST || !statSync(join(dir, name)).isFile()) continue;
    files[name] = digestOf(join(dir, name));
  }
  const manifest: BundleManifest = { format: BUNDLE_FORMAT, createdAt: new Date().toISOString(), kit: provenance().kit, files };
  const path = join(dir, MANIFEST);
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  return path;
}
