/** The FileSystem port backed by node:fs. Writes are atomic and keep an existing file's mode. */
import { randomBytes } from 'node:crypto';
import type { Dirent, Stats } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  readFile,
  readdir,
  readlink,
  realpath,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import {
  errnoCode,
  type DirEntry,
  type FileKind,
  type FileStat,
  type FileSystem,
} from './FileSystem.js';

function kindOf(entry: Stats | Dirent): FileKind {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  return 'other';
}

function toFileStat(stats: Stats): FileStat {
  return { kind: kindOf(stats), size: stats.size, mtimeMs: stats.mtimeMs };
}

async function existingMode(filePath: string): Promise<number | undefined> {
  try {
    return (await stat(filePath)).mode & 0o7777;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

async function writeAtomically(filePath: string, content: string): Promise<void> {
  const mode = await existingMode(filePath);
  const temp = path.join(
    path.dirname(filePath),
    `.${path.basename(filePath)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    await writeFile(temp, content, { encoding: 'utf8', flag: 'wx' });
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, filePath);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

export const nodeFileSystem: FileSystem = {
  readFile: (filePath) => readFile(filePath),
  writeFile: writeAtomically,
  stat: async (filePath) => toFileStat(await stat(filePath)),
  lstat: async (filePath) => toFileStat(await lstat(filePath)),
  realpath: (filePath) => realpath(filePath),
  readlink: (filePath) => readlink(filePath),
  readdir: async (dirPath): Promise<readonly DirEntry[]> =>
    (await readdir(dirPath, { withFileTypes: true })).map((entry) => ({
      name: entry.name,
      kind: kindOf(entry),
    })),
  mkdir: async (dirPath, options) => {
    await mkdir(dirPath, { recursive: options?.recursive ?? false });
  },
};
