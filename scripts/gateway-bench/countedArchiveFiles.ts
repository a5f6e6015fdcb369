/**
 * The recall archive's files (`ArchiveFiles`) with every call counted by method, and as the Redis
 * round trips `redisArchiveFiles` makes for it: one per call (a `MULTI … EXEC`, a script, or two
 * commands sent together), two for `remove` (its `MULTI` then `HLEN`; a third, `SREM`, when the
 * conversation's last file goes is not seen from here and not counted). The archive sends up to 8
 * writes of one put at once, so a put's calls are not all one after another.
 */
import type { ArchiveFiles } from '../../packages/core/src/recall/archiveFiles.js';

export interface ArchiveCounts {
  /** Round trips, were the files on Redis. */
  trips: number;
  /** Calls by method. */
  readonly calls: Record<string, number>;
}

export const zeroArchiveCounts = (): ArchiveCounts => ({ trips: 0, calls: {} });

export function countedArchiveFiles(inner: ArchiveFiles, counts: ArchiveCounts): ArchiveFiles {
  const counted =
    <A extends unknown[], R>(method: string, call: (...args: A) => Promise<R>, roundTrips = 1) =>
    (...args: A): Promise<R> => {
      counts.trips += roundTrips;
      counts.calls[method] = (counts.calls[method] ?? 0) + 1;
      return call(...args);
    };
  type File<K extends 'write' | 'touch'> = Parameters<ArchiveFiles[K]>[0];
  return {
    root: inner.root,
    conversations: counted('conversations', () => inner.conversations()),
    list: counted('list', (conversation: string) => inner.list(conversation)),
    read: counted('read', (conversation: string, name: string) => inner.read(conversation, name)),
    write: counted('write', (file: File<'write'>) => inner.write(file)),
    touch: counted('touch', (file: File<'touch'>) => inner.touch(file)),
    timeOf: counted('timeOf', (conversation: string, name: string) =>
      inner.timeOf(conversation, name),
    ),
    remove: counted(
      'remove',
      (conversation: string, name: string) => inner.remove(conversation, name),
      2,
    ),
  };
}
