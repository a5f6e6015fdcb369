import { describe, expect, it } from 'vitest';
import { BenchRecallArchive } from './BenchRecallArchive.js';

describe('bench:proxy recall archive', () => {
  it('#24.4 is the real archive in memory: evicted originals leave a tombstone, malformed ids are refused, nothing is written to disk', async () => {
    const archive = new BenchRecallArchive(100);
    await archive.put('session:S', [{ id: 'r00000000c1', text: 'on 49731' }]);
    await archive.put('session:S', [{ id: 'r00000000c2', text: 'x'.repeat(100) }]);
    expect(await archive.lookup('r00000000c1')).toEqual({ kind: 'missing', reason: 'evicted' });
    expect(archive.textOf('r00000000c2')).toBe('x'.repeat(100));
    await archive.put('session:S', [{ id: 'not-a-recall-id', text: 'kept?' }]);
    expect(archive.textOf('not-a-recall-id')).toBeUndefined();
    expect(await archive.lookup('not-a-recall-id')).toEqual({
      kind: 'missing',
      reason: 'malformed',
    });
    expect(archive.dir).toBe('(memory)');
  });
});
