import { describe, expect, it } from 'vitest';
import { memoryArchiveFiles } from '../../packages/core/src/recall/memoryArchiveFiles.js';
import { countedArchiveFiles, zeroArchiveCounts } from './countedArchiveFiles.js';

describe('counted recall archive files', () => {
  it('#36.7 counts each call by method and as the Redis round trips it takes, passing it through unchanged', async () => {
    const counts = zeroArchiveCounts();
    const files = countedArchiveFiles(memoryArchiveFiles('root'), counts);
    await files.write({ conversation: 'c', name: 'a', bytes: Buffer.from('original'), at: 5 });
    await files.write({ conversation: 'c', name: 'b', bytes: Buffer.from('other'), at: 5 });
    expect((await files.read('c', 'a'))?.bytes.toString()).toBe('original');
    await files.touch({ conversation: 'c', name: 'a', at: 9 });
    expect(await files.timeOf('c', 'a')).toBe(9);
    expect((await files.list('c')).map((entry) => entry.name).sort()).toEqual(['a', 'b']);
    expect((await files.conversations()).map((entry) => entry.name)).toEqual(['c']);
    expect(counts.trips).toBe(7);
    await files.remove('c', 'a');
    expect(counts.trips).toBe(9);
    expect(await files.read('c', 'a')).toBeUndefined();
    expect(counts.calls).toEqual({
      write: 2,
      read: 2,
      touch: 1,
      timeOf: 1,
      list: 1,
      conversations: 1,
      remove: 1,
    });
    expect(files.root).toBe('root');
  });
});
