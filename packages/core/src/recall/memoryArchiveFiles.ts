/**
 * The recall archive's files held in memory: the same port as `archiveFiles` (originals and
 * tombstones per conversation, each with when it was written), for the benches and tests that run
 * the real archive without touching the disk. Also reads an original synchronously.
 */
import { isRecallIdShape } from '../core/compression/recallPointers.js';
import type { ArchiveFiles, RemovalReason, StoredFile } from './archiveFiles.js';

export interface MemoryArchiveFiles extends ArchiveFiles {
  /** The bytes kept under `name` in any conversation (the first by conversation name). */
  bytesOf(name: string): Buffer | undefined;
}

interface Held {
  readonly bytes: Buffer;
  readonly at: number;
}

interface Directory {
  readonly originals: Map<string, Held>;
  readonly tombstones: Map<string, { readonly reason: RemovalReason; readonly at: number }>;
}

export function memoryArchiveFiles(root = '(memory)'): MemoryArchiveFiles {
  const directories = new Map<string, Directory>();
  const directory = (conversation: string): Directory => {
    let found = directories.get(conversation);
    if (found === undefined) {
      found = { originals: new Map(), tombstones: new Map() };
      directories.set(conversation, found);
    }
    return found;
  };
  const conversations = () => [...directories.keys()].sort();
  return {
    root,
    conversations: () => Promise.resolve(conversations()),
    list(conversation) {
      const files: StoredFile[] = [];
      for (const [name, held] of directories.get(conversation)?.originals ?? [])
        if (isRecallIdShape(name)) files.push({ name, bytes: held.bytes.length, at: held.at });
      return Promise.resolve(files);
    },
    read: (conversation, name) =>
      Promise.resolve(directories.get(conversation)?.originals.get(name)),
    tombstone: (conversation, name) =>
      Promise.resolve(directories.get(conversation)?.tombstones.get(name)?.reason),
    write({ conversation, name, bytes, at }) {
      const own = directory(conversation);
      own.originals.set(name, { bytes: Buffer.from(bytes), at });
      own.tombstones.delete(name);
      return Promise.resolve();
    },
    remove({ conversation, name, reason, at }) {
      const own = directory(conversation);
      own.tombstones.set(name, { reason, at });
      own.originals.delete(name);
      return Promise.resolve();
    },
    dropTombstones(before) {
      for (const { tombstones } of directories.values())
        for (const [name, tombstone] of tombstones)
          if (tombstone.at < before) tombstones.delete(name);
      return Promise.resolve();
    },
    bytesOf(name) {
      for (const conversation of conversations()) {
        const held = directories.get(conversation)?.originals.get(name);
        if (held !== undefined) return held.bytes;
      }
      return undefined;
    },
  };
}
