/**
 * The recall archive's files: `<root>/<conversation>/<id>` holds an original's raw bytes, its
 * modification time is when it was written; `<id>.gone` is a tombstone holding why it was removed.
 * Directories 0700, files 0600, every write atomic (a dot-named temp file renamed into place).
 */
import { randomBytes } from 'node:crypto';
import {
  chmod,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { isRecallIdShape } from '../core/compression/recallPointers.js';

/** One kept original as the directory shows it. */
export interface StoredFile {
  readonly name: string;
  readonly bytes: number;
  /** When it was written (ms since the epoch). */
  readonly at: number;
}

export type RemovalReason = 'expired' | 'evicted';

const CONVERSATION_NAME = /^[0-9a-f]{16}$/;
const TOMBSTONE = '.gone';

export interface ArchiveFiles {
  readonly root: string;
  conversations(): Promise<string[]>;
  list(conversation: string): Promise<StoredFile[]>;
  read(conversation: string, name: string): Promise<{ bytes: Buffer; at: number } | undefined>;
  tombstone(conversation: string, name: string): Promise<RemovalReason | undefined>;
  write(file: { conversation: string; name: string; bytes: Buffer; at: number }): Promise<void>;
  remove(file: {
    conversation: string;
    name: string;
    reason: RemovalReason;
    at: number;
  }): Promise<void>;
  /** Deletes tombstones written before `before`. */
  dropTombstones(before: number): Promise<void>;
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
    await utimes(temp, at / 1000, at / 1000);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function dropTombstones(root: string, before: number): Promise<void> {
  const conversations = ((await orUndefined(readdir(root))) ?? []).filter((name) =>
    CONVERSATION_NAME.test(name),
  );
  for (const conversation of conversations) {
    for (const name of (await orUndefined(readdir(path.join(root, conversation)))) ?? []) {
      if (!name.endsWith(TOMBSTONE)) continue;
      const file = path.join(root, conversation, name);
      const info = await orUndefined(stat(file));
      if (info !== undefined && info.mtimeMs < before) await rm(file, { force: true });
    }
  }
}

export function archiveFiles(root: string): ArchiveFiles {
  const resolved = path.resolve(root);
  const dirOf = (conversation: string) => path.join(resolved, conversation);
  const fileOf = (conversation: string, name: string) => path.join(resolved, conversation, name);
  const ensureDir = async (conversation: string) => {
    await mkdir(dirOf(conversation), { recursive: true, mode: 0o700 });
    await chmod(resolved, 0o700);
  };
  const names = async (conversation: string) =>
    (await orUndefined(readdir(dirOf(conversation)))) ?? [];
  const conversations = async () => {
    const entries = (await orUndefined(readdir(resolved))) ?? [];
    return entries.filter((name) => CONVERSATION_NAME.test(name)).sort();
  };

  return {
    root: resolved,
    conversations,
    async list(conversation) {
      const files: StoredFile[] = [];
      for (const name of await names(conversation)) {
        if (!isRecallIdShape(name)) continue;
        const info = await orUndefined(stat(fileOf(conversation, name)));
        if (info?.isFile() === true) files.push({ name, bytes: info.size, at: info.mtimeMs });
      }
      return files;
    },
    async read(conversation, name) {
      const handle = await orUndefined(open(fileOf(conversation, name), 'r'));
      if (handle === undefined) return undefined;
      try {
        const info = await handle.stat();
        return { bytes: await handle.readFile(), at: info.mtimeMs };
      } finally {
        await handle.close();
      }
    },
    async tombstone(conversation, name) {
      const text = await orUndefined(readFile(fileOf(conversation, name + TOMBSTONE), 'utf8'));
      return text === 'expired' || text === 'evicted' ? text : undefined;
    },
    async write({ conversation, name, bytes, at }) {
      await ensureDir(conversation);
      await writeAtomic(fileOf(conversation, name), bytes, at);
      await rm(fileOf(conversation, name + TOMBSTONE), { force: true });
    },
    async remove({ conversation, name, reason, at }) {
      await ensureDir(conversation);
      await writeAtomic(fileOf(conversation, name + TOMBSTONE), Buffer.from(reason), at);
      await rm(fileOf(conversation, name), { force: true });
    },
    dropTombstones: (before) => dropTombstones(resolved, before),
  };
}
