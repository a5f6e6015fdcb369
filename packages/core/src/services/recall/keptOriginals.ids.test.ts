/**
 * A kept original's recall id is hashed once per object: the cap names it, the tool entry's
 * metadata dedupes by it and the recall store indexes by it.
 */
import { describe, expect, it, vi } from 'vitest';
import { recallIdOfResponse } from '../../core/compression/recallPointers.js';
import type * as RecallPointers from '../../core/compression/recallPointers.js';
import { keptOriginalsOf, recallIdOfKept, withKeptOriginals } from './keptOriginals.js';

vi.mock('../../core/compression/recallPointers.js', async (importOriginal) => {
  const actual = await importOriginal<typeof RecallPointers>();
  return { ...actual, recallIdOfResponse: vi.fn(actual.recallIdOfResponse) };
});

describe('recallIdOfKept', () => {
  it('#22.18 hashes a kept original once, however often its id is asked for', () => {
    const hash = vi.mocked(recallIdOfResponse);
    hash.mockClear();
    const kept = { callId: 'c1', toolName: 'run_shell_command', text: 'a long output' };
    const other = { callId: 'c2', toolName: 'run_shell_command', text: 'another output' };
    const id = recallIdOfKept(kept);
    const metadata = withKeptOriginals(withKeptOriginals({}, [kept]), [kept, other]);
    const entry = { speaker: 'tool' as const, blocks: [], ...(metadata ? { metadata } : {}) };
    expect(keptOriginalsOf(entry).map(recallIdOfKept)).toEqual([id, recallIdOfKept(other)]);
    expect(id).toMatch(/^r[0-9a-f]{10}$/);
    expect(hash).toHaveBeenCalledTimes(2);
  });
});
