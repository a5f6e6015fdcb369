import { describe, expect, it } from 'vitest';
import type { ArchiveLookup, RecallEntry } from '../../packages/core/src/recall/RecallArchive.js';
import { countedArchive, resetArchiveCounts, zeroArchiveCounts } from './countedArchive.js';

const id = (n: number) => `r${String(n).padStart(10, '0')}`;

/** An archive in memory standing in for `RedisRecallArchive`. */
function memoryArchive() {
  const kept = new Map<string, string>();
  const puts: string[] = [];
  return {
    puts,
    archive: {
      dir: 'redis:bench:recall:local',
      put: (conversationId: string, entries: readonly RecallEntry[]) => {
        puts.push(conversationId);
        for (const entry of entries) kept.set(entry.id, entry.text);
        return Promise.resolve();
      },
      lookup: (recallId: string): Promise<ArchiveLookup> => {
        const text = kept.get(recallId);
        return Promise.resolve(
          text === undefined
            ? { kind: 'missing', reason: 'unknown' }
            : { kind: 'found', bytes: Buffer.from(text) },
        );
      },
    },
  };
}

describe('counted recall archive', () => {
  it('#36.7 counts a put that keeps an original and a lookup of a recall id as one round trip each (as RedisRecallArchive: one EVAL, one GET), times each put, passes calls through', async () => {
    const counts = zeroArchiveCounts();
    const { archive: inner, puts } = memoryArchive();
    const archive = countedArchive(inner, counts);
    await archive.put('c', [
      { id: id(1), text: 'invented original' },
      { id: id(2), text: 'another' },
    ]);
    await archive.put('c', [{ id: 'not-an-id', text: 'skipped by Redis' }]);
    const found = await archive.lookup(id(1));
    expect(found.kind === 'found' ? found.bytes.toString() : found.kind).toBe('invented original');
    expect((await archive.lookup(id(3))).kind).toBe('missing');
    await archive.lookup('malformed');
    expect(puts).toEqual(['c', 'c']);
    expect(counts.trips).toBe(3);
    expect(counts.calls).toEqual({ put: 2, lookup: 3 });
    expect(counts.putMs).toHaveLength(2);
    expect(archive.dir).toBe('redis:bench:recall:local');
    resetArchiveCounts(counts);
    expect(counts).toEqual(zeroArchiveCounts());
  });
});
