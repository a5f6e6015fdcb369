/**
 * A recall archive (`OriginalsArchive`: the proxy's `recall` and `userRecall` take any object with
 * `dir`, `put` and `lookup`) with every call counted by method, each put timed, and counted as the
 * Redis round trips `RedisRecallArchive` makes for it: one per put that keeps an original (one
 * `EVAL`), one per lookup of a well-shaped id (one `GET`); a put with no recall id to keep and a
 * lookup of a malformed id send nothing. A put a state save carries (`scriptedPut`, passed on
 * when the inner archive has it) rides in the save's round trip and adds none. Wrapped around the
 * archive on disk the trips mean nothing, and the bench reports none for it.
 */
import type { OriginalsArchive } from '../../packages/core/src/proxy/http/proxyContext.js';
import { isRecallIdShape } from '../../packages/core/src/core/compression/recallPointers.js';
import { performance } from 'node:perf_hooks';
import { canScriptPut } from '../../packages/core/src/gateway/recall/RedisRecallArchive.js';

export interface ArchiveCounts {
  /** Round trips, were the archive a `RedisRecallArchive`. */
  trips: number;
  /** Calls by method. */
  readonly calls: Record<string, number>;
  /** How long each put took, in ms. */
  readonly putMs: number[];
}

export const zeroArchiveCounts = (): ArchiveCounts => ({ trips: 0, calls: {}, putMs: [] });

export function resetArchiveCounts(counts: ArchiveCounts): void {
  counts.trips = 0;
  for (const method of Object.keys(counts.calls)) delete counts.calls[method];
  counts.putMs.length = 0;
}

export function countedArchive(inner: OriginalsArchive, counts: ArchiveCounts): OriginalsArchive {
  const call = (method: string, trips: number) => {
    counts.calls[method] = (counts.calls[method] ?? 0) + 1;
    counts.trips += trips;
  };
  const carried = canScriptPut(inner)
    ? { client: inner.client, scriptedPut: inner.scriptedPut.bind(inner) }
    : {};
  return {
    ...carried,
    get dir() {
      return inner.dir;
    },
    put: async (conversationId, entries) => {
      call('put', entries.some((entry) => isRecallIdShape(entry.id)) ? 1 : 0);
      const started = performance.now();
      try {
        await inner.put(conversationId, entries);
      } finally {
        counts.putMs.push(performance.now() - started);
      }
    },
    lookup: (id) => {
      call('lookup', isRecallIdShape(id) ? 1 : 0);
      return inner.lookup(id);
    },
  };
}
