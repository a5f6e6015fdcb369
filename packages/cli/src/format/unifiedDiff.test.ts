import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './unifiedDiff.js';

/** Rebuilds both sides from a whole-file diff (context large enough to show every line). */
function sides(before: string, after: string): { old: string[]; new: string[] } {
  const lines = unifiedDiff(before, after, 1_000_000).filter((l) => l.kind !== 'hunk');
  return {
    old: lines.filter((l) => l.kind !== 'add').map((l) => l.text.slice(1)),
    new: lines.filter((l) => l.kind !== 'remove').map((l) => l.text.slice(1)),
  };
}

const split = (text: string): string[] => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

describe('unifiedDiff', () => {
  it('#13.3 shows one changed line with context and a hunk header', () => {
    const before = ['a', 'b', 'c', 'status: draft', 'd', 'e', 'f'].join('\n');
    const after = before.replace('status: draft', 'status: final');
    expect(unifiedDiff(before, after).map((l) => l.text)).toEqual([
      '@@ -2,5 +2,5 @@',
      ' b',
      ' c',
      '-status: draft',
      '+status: final',
      ' d',
      ' e',
    ]);
  });

  it('#13.3 identical texts give no hunks; far-apart changes give two hunks', () => {
    expect(unifiedDiff('x\ny\n', 'x\ny\n')).toEqual([]);
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 1\n', 'LINE 1\n').replace('line 18', 'LINE 18');
    expect(unifiedDiff(before, after).filter((l) => l.kind === 'hunk')).toHaveLength(2);
  });

  test.prop(
    [
      fc.array(fc.constantFrom('a', 'b', 'c', ''), { maxLength: 12 }),
      fc.array(fc.constantFrom('a', 'b', 'c', ''), { maxLength: 12 }),
    ],
    { numRuns: 200 },
  )('#13.3 the diff reproduces both sides exactly', (a, b) => {
    const before = a.map((l) => `${l}\n`).join('');
    const after = b.map((l) => `${l}\n`).join('');
    if (before === after) {
      expect(unifiedDiff(before, after)).toEqual([]);
      return;
    }
    const rebuilt = sides(before, after);
    expect(rebuilt.old).toEqual(split(before));
    expect(rebuilt.new).toEqual(split(after));
  });
});
