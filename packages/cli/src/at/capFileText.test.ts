import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { capFileText } from './capFileText.js';

describe('capFileText', () => {
  it('leaves a file within the limits untouched', () => {
    expect(capFileText('a.ts', 'one\ntwo\n', { maxLines: 5, maxBytes: 100 })).toEqual({
      text: 'one\ntwo\n',
      totalLines: 2,
      keptLines: 2,
      truncated: false,
    });
  });

  it('cuts at the line limit and says how to read the rest', () => {
    const capped = capFileText('src/big.ts', 'l1\nl2\nl3\nl4\n', { maxLines: 2, maxBytes: 100 });
    expect(capped.truncated).toBe(true);
    expect(capped.keptLines).toBe(2);
    expect(capped.text).toBe(
      'l1\nl2\n[Truncated: lines 1-2 of 4 of src/big.ts are included. To read the rest, call read_file with file_path "src/big.ts" and offset 2.]',
    );
  });

  it('cuts at the byte limit on a whole line', () => {
    const capped = capFileText('a', 'aaaa\nbbbb\ncccc', { maxLines: 100, maxBytes: 11 });
    expect(capped.keptLines).toBe(2);
    expect(capped.text.startsWith('aaaa\nbbbb\n[Truncated')).toBe(true);
  });

  test.prop(
    [fc.array(fc.string({ maxLength: 20 }), { maxLength: 40 }), fc.integer({ min: 1, max: 30 })],
    { numRuns: 200 },
  )('kept lines are a prefix of the file and within the limits', (lines, maxLines) => {
    const text = lines.join('\n');
    const capped = capFileText('f', text, { maxLines, maxBytes: 200 });
    expect(capped.keptLines).toBeLessThanOrEqual(maxLines);
    if (!capped.truncated) expect(capped.text).toBe(text);
    else {
      const body = capped.text.slice(0, capped.text.lastIndexOf('[Truncated'));
      expect(text.startsWith(body)).toBe(true);
    }
  });
});
