/**
 * The recall archive's files held in memory: the same port as `archiveFiles` (one flat directory
 * per conversation, each file with when it was written), for the benches and tests that run the
 * real archive without touching the disk. Also gives an id's original synchronously, and counts
 * the bytes written (what the archive costs the disk).
 */
import type { ArchiveFiles, ListedEntry } from './archiveFiles.js';
import { decodeRef, expandSync, REF_SUFFIX } from './archiveLayout.js';

export interface MemoryArchiveFiles extends ArchiveFiles {
  /** The original kept under recall id `id` in any conversation (the first by conversation name). */
  bytesOf(id: string): Buffer | undefined;
  /** Bytes and files written since the files were made. */
  readonly written: { bytes: number; files: number };
}

interface Held {
  readonly bytes: Buffer;
  at: number;
}

/** The original `id` names in one directory (`undefined` when none or unreadable). */
function originalOf(directory: Map<string, Held> | undefined, id: string): Buffer | undefined {
  const ref = directory?.get(id + REF_SUFFIX);
  if (ref === undefined) return directory?.get(id)?.bytes;
  try {
    return expandSync(decodeRef(ref.bytes), (name) => directory?.get(name)?.bytes);
  } catch {
    return undefined;
  }
}

export function memoryArchiveFiles(root = '(memory)'): MemoryArchiveFiles {
  const directories = new Map<string, Map<string, Held>>();
  const written = { bytes: 0, files: 0 };
  const names = () => [...directories.keys()].sort();
  const held = (conversation: string, name: string) => directories.get(conversation)?.get(name);
  const originalIn = (conversation: string, id: string) =>
    originalOf(directories.get(conversation), id);
  return {
    root,
    written,
    conversations: () =>
      Promise.resolve(
        names().map((name): ListedEntry => ({ name, kind: 'directory', bytes: 0, at: 0 })),
      ),
    list: (conversation) =>
      Promise.resolve(
        [...(directories.get(conversation) ?? [])].map(([name, file]): ListedEntry => ({
          name,
          kind: 'file',
          bytes: file.bytes.length,
          at: file.at,
        })),
      ),
    read(conversation, name) {
      const file = held(conversation, name);
      return Promise.resolve(file === undefined ? undefined : { bytes: file.bytes, at: file.at });
    },
    write({ conversation, name, bytes, at }) {
      let directory = directories.get(conversation);
      if (directory === undefined) {
        directory = new Map();
        directories.set(conversation, directory);
      }
      directory.set(name, { bytes: Buffer.from(bytes), at });
      written.bytes += bytes.length;
      written.files += 1;
      return Promise.resolve();
    },
    touch({ conversation, name, at }) {
      const file = held(conversation, name);
      if (file !== undefined) file.at = at;
      return Promise.resolve();
    },
    timeOf: (conversation, name) => Promise.resolve(held(conversation, name)?.at),
    remove(conversation, name) {
      directories.get(conversation)?.delete(name);
      return Promise.resolve();
    },
    bytesOf(id) {
      for (const conversation of names()) {
        const found = originalIn(conversation, id);
        if (found !== undefined) return found;
      }
      return undefined;
    },
  };
}
