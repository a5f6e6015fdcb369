/**
 * The recall archive's files on disk: `<root>/<conversation>/<name>`, flat, named as
 * `archiveLayout.ts` says. Directories 0700, files 0600, every write atomic (a dot-named temp file
 * renamed into place). Nothing here follows a symbolic link: entries are listed with `lstat`, files
 * are opened with `O_NOFOLLOW` and must be regular files, times are set with `lutimes`.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import {
  chmod,
  lstat,
  lutimes,
  mkdir,
  open,
  readdir,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';

/** An entry of a directory as `lstat` sees it. */
export interface ListedEntry {
  readonly name: string;
  /** `other`: a directory, a symbolic link, a socket… (never read, never counted). */
  readonly kind: 'file' | 'directory' | 'other';
  readonly bytes: number;
  /** Modification time (ms since the epoch). */
  readonly at: number;
}

/** A file the archive will not read: not a regular file (a directory, a symbolic link…). */
export class NotAFileError extends Error {
  readonly code = 'recall-not-a-file';
  constructor(readonly file: string) {
    super(`${file} is not a regular file`);
    this.name = 'NotAFileError';
  }
}

/** The port the archive reads and writes its files through (on disk, or `memoryArchiveFiles`). */
export interface ArchiveFiles {
  readonly root: string;
  /** The entries of the root directory (conversation directories and anything else). */
  conversations(): Promise<ListedEntry[]>;
  /** The entries of one conversation's directory; none when it does not exist. */
  list(conversation: string): Promise<ListedEntry[]>;
  /** A regular file's bytes and time; `undefined` when missing; `NotAFileError` when not a file. */
  read(conversation: string, name: string): Promise<{ bytes: Buffer; at: number } | undefined>;
  write(file: { conversation: string; name: string; bytes: Buffer; at: number }): Promise<void>;
  /** Sets a file's time (when missing, nothing happens). */
  touch(file: { conversation: string; name: string; at: number }): Promise<void>;
  /** The file's time now (`undefined` when missing or not a file). */
  timeOf(conversation: string, name: string): Promise<number | undefined>;
  remove(conversation: string, name: string): Promise<void>;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function orUndefined<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

async function writeAtomic(target: string, bytes: Buffer, at: number): Promise<void> {
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    await writeFile(temp, bytes, { mode: 0o600, flag: 'wx' });
    await lutimes(temp, at / 1000, at / 1000);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function listed(dir: string): Promise<ListedEntry[]> {
  const entries: ListedEntry[] = [];
  for (const name of (await orUndefined(readdir(dir))) ?? []) {
    const info = await orUndefined(lstat(path.join(dir, name)));
    if (info === undefined) continue;
    const kind = info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
    entries.push({ name, kind, bytes: info.size, at: info.mtimeMs });
  }
  return entries;
}

async function readRegular(file: string): Promise<{ bytes: Buffer; at: number } | undefined> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if (isMissing(error)) return undefined;
    if ((error as { code?: unknown }).code === 'ELOOP') throw new NotAFileError(file);
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotAFileError(file);
    return { bytes: await handle.readFile(), at: info.mtimeMs };
  } finally {
    await handle.close();
  }
}

export function archiveFiles(root: string): ArchiveFiles {
  const resolved = path.resolve(root);
  const dirOf = (conversation: string) => path.join(resolved, conversation);
  const fileOf = (conversation: string, name: string) => path.join(resolved, conversation, name);
  const ready = new Set<string>();
  const ensureDir = async (conversation: string) => {
    if (ready.has(conversation)) return;
    await mkdir(dirOf(conversation), { recursive: true, mode: 0o700 });
    await chmod(resolved, 0o700);
    // A conversation directory replaced by a link would take the writes elsewhere.
    if (!(await lstat(dirOf(conversation))).isDirectory()) {
      throw new NotAFileError(dirOf(conversation));
    }
    ready.add(conversation);
  };
  return {
    root: resolved,
    conversations: () => listed(resolved),
    list: (conversation) => listed(dirOf(conversation)),
    read: (conversation, name) => readRegular(fileOf(conversation, name)),
    async write({ conversation, name, bytes, at }) {
      await ensureDir(conversation);
      try {
        await writeAtomic(fileOf(conversation, name), bytes, at);
      } catch (error) {
        // The directory went away since it was made: made again, once.
        if (!isMissing(error)) throw error;
        ready.delete(conversation);
        await ensureDir(conversation);
        await writeAtomic(fileOf(conversation, name), bytes, at);
      }
    },
    async touch({ conversation, name, at }) {
      await orUndefined(lutimes(fileOf(conversation, name), at / 1000, at / 1000));
    },
    async timeOf(conversation, name) {
      const info = await orUndefined(lstat(fileOf(conversation, name)));
      return info?.isFile() === true ? info.mtimeMs : undefined;
    },
    remove: (conversation, name) => rm(fileOf(conversation, name), { force: true }),
  };
}
