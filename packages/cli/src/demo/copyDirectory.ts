/** A recursive copy of a small directory tree (regular files and directories only). */
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Copies `from` into `to` (created); symlinks and special files are skipped. */
export async function copyDirectory(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await copyDirectory(source, target);
    else if (entry.isFile()) await copyFile(source, target);
  }
}
