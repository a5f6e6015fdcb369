/**
 * A kept original's recall id is hashed once per object: the cap names it, the tool entry's
 * metadata dedupes by it and the recall store indexes by it.
 */
import { describe, expect, it } from 'vitest';
import { keptOriginalsOf, recallIdOfKept, withKeptOriginals } from './keptOriginals.js';

describe('recallIdOfKept', () => {
  it('#22.18 hashes a kept original once, however often its id is asked for', () => {
    // Mutable here only to observe the memo: an id computed again would follow the new text.
    const kept: { callId: string; toolName: string; text: string } = {
      callId: 'c1',
      toolName: 'run_shell_command',
      text: 'a long output',
    };
    const other = { callId: 'c2', toolName: 'run_shell_command', text: 'another output' };
    const id = recallIdOfKept(kept);
    expect(id).toMatch(/^r[0-9a-f]{10}$/);
    kept.text = 'a different output';
    const fresh = recallIdOfKept({ ...kept });
    expect(fresh).not.toBe(id);
    const metadata = withKeptOriginals(withKeptOriginals({}, [kept]), [kept, other]);
    const entry = { speaker: 'tool' as const, blocks: [], ...(metadata ? { metadata } : {}) };
    expect(keptOriginalsOf(entry).map(recallIdOfKept)).toEqual([id, recallIdOfKept(other)]);
  });
});
