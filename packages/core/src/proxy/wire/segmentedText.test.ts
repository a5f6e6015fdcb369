import { fc, test } from '@fast-check/vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MAX_PIECES } from './keptPieces.js';
import { SegmentedText } from './segmentedText.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Text with multi-byte and astral characters. */
const PIECE = fc.string({ maxLength: 40, unit: fc.constantFrom('a', '"', 'é', '│', '😀', '\n') });

/** One request after another: keep a prefix of the previous text, then the new part. */
const STEP = fc.record({
  keep: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
  /** Often shrinking tails: the worst case for the number of pieces. */
  tail: fc.oneof(
    PIECE,
    fc.nat(8).map((n) => 'é'.repeat(n)),
  ),
  ranges: fc.array(
    fc.tuple(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
    ),
    {
      maxLength: 6,
    },
  ),
  /** Where the tail is cut into pieces, as a resumed read's new text is. */
  cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }),
});

/** `tail` cut at the given shares of its length (never inside a surrogate pair). */
function tailPieces(tail: string, cuts: readonly number[]): string[] {
  const offsets = cuts
    .map((cut) => Math.floor(cut * tail.length))
    .filter((at) => !/[\udc00-\udfff]/.test(tail[at] ?? ''))
    .sort((a, b) => a - b);
  return [0, ...offsets].map((from, i) => tail.slice(from, offsets[i] ?? tail.length));
}

describe('SegmentedText', () => {
  test.prop([PIECE, fc.array(STEP, { maxLength: 60 })], { numRuns: 200 })(
    '#24.4 after random keep/append steps every slice and match equals the joined string’s, and the pieces stay few',
    (first, steps) => {
      let text = first;
      let segmented = SegmentedText.of(first);
      for (const step of steps) {
        const keep = Math.floor(text.length * step.keep);
        text = text.slice(0, keep) + step.tail;
        segmented = segmented.withTail(keep, tailPieces(step.tail, step.cuts));
        expect(segmented.length).toBe(text.length);
        for (const [a, b] of step.ranges) {
          const start = Math.floor(a * text.length);
          const end = Math.floor(b * text.length);
          expect(segmented.slice(start, end)).toBe(text.slice(start, end));
          expect(segmented.parts(start, end).join('')).toBe(text.slice(start, end));
          const bytes = Buffer.byteLength(text.slice(start, end), 'utf8');
          expect(segmented.byteLength(start, end)).toBe(start < end ? bytes : 0);
        }
        expect(segmented.slice(0, text.length)).toBe(text);
        expect(segmented.pieceCount).toBeLessThanOrEqual(MAX_PIECES + step.cuts.length);
      }
      // A one-character pattern cannot span pieces: the same matches as in the joined text.
      const quotes = Array.from(text.matchAll(/"/g), (match) => match.index);
      expect(segmented.matchOffsets(/"/g)).toEqual(quotes);
      expect(segmented.toString()).toBe(text);
    },
  );

  it('#24.4 a slice inside the new part reads only that part, one across the cut joins both', () => {
    const kept = SegmentedText.of('x'.repeat(1000) + '—');
    const text = kept.withTail(1000, 'é'.repeat(10));
    expect(text.pieceCount).toBe(2);
    expect(text.slice(1002, 1005)).toBe('ééé');
    expect(text.slice(998, 1002)).toBe('xxéé');
    expect(text.slice(1005)).toBe('é'.repeat(5));
  });

  it('#24.4 a new part is a piece of its own, read without copying what was kept', () => {
    let text = SegmentedText.of('{' + 'x'.repeat(999));
    for (let n = 1; n <= 10; n++) text = text.withTail(text.length, `{${'é'.repeat(100 * n)}`);
    expect(text.pieceCount).toBe(11);
  });

  it('#24.4 past the cap the shortest adjacent earlier pieces merge, never the new part', () => {
    let text = SegmentedText.of('{');
    const sizes = [1];
    for (let n = 0; n < 3 * MAX_PIECES; n++) {
      const part = `{${'é'.repeat(n % 7)}`;
      text = text.withTail(text.length, part);
      sizes.push(part.length);
    }
    expect(text.pieceCount).toBe(MAX_PIECES);
    const last = `{${'é'.repeat((3 * MAX_PIECES - 1) % 7)}`;
    expect(text.slice(text.length - last.length)).toBe(last);
    expect(text.toString()).toBe(sizes.map((size) => `{${'é'.repeat(size - 1)}`).join(''));
  });

  it('#24.4 a cut piece keeps its own copy when it keeps less than half (the rest is freed)', () => {
    const heap = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const before = heap();
    // Each kept piece 1,000 characters of a 1 Mi-character two-byte text (2 MiB).
    const kept = Array.from({ length: 16 }, (_, n) =>
      SegmentedText.of(`{${String(n)}${'é'.repeat(2 ** 20)}`).withTail(1_000, '{x'),
    );
    expect(heap() - before).toBeLessThan(4 * 2 ** 20);
    expect(kept.map((text) => text.slice(0, 3))).toContain('{15');
  });
});
