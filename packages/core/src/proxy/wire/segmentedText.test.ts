import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { MAX_MERGED_CHARS, maxPieceCount, SegmentedText } from './segmentedText.js';

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
});

describe('SegmentedText', () => {
  test.prop([PIECE, fc.array(STEP, { maxLength: 60 })], { numRuns: 200 })(
    '#24.4 after random keep/append steps every slice and match equals the joined string’s, and the pieces stay few',
    (first, steps) => {
      let text = first;
      let segmented = SegmentedText.of(first);
      for (const step of steps) {
        const keep = Math.floor(text.length * step.keep);
        text = text.slice(0, keep) + step.tail;
        segmented = segmented.withTail(keep, step.tail);
        expect(segmented.length).toBe(text.length);
        for (const [a, b] of step.ranges) {
          const start = Math.floor(a * text.length);
          const end = Math.floor(b * text.length);
          expect(segmented.slice(start, end)).toBe(text.slice(start, end));
        }
        expect(segmented.slice(0, text.length)).toBe(text);
        // Each piece is more than twice the next.
        expect(segmented.pieceCount).toBeLessThanOrEqual(maxPieceCount(text.length));
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

  it('#24.4 ever shorter new parts appended whole still leave at most log2(length) + 1 pieces', () => {
    let text = SegmentedText.of('x'.repeat(1000));
    for (let n = 100; n > 0; n--) text = text.withTail(text.length, 'é'.repeat(n));
    expect(text.length).toBe(1000 + 5050);
    expect(text.pieceCount).toBeLessThanOrEqual(maxPieceCount(text.length));
  });

  it('#24.4 no append merges pieces past the cap, so no request copies the whole text', () => {
    let text = SegmentedText.of('{');
    const part = `{${'é'.repeat(MAX_MERGED_CHARS / 16 - 1)}`;
    for (let n = 0; n < 64; n++) text = text.withTail(text.length, part);
    // Uncapped, equal appends cascade into a few pieces as large as the whole text.
    expect(text.pieceCount).toBeGreaterThanOrEqual(Math.floor(text.length / MAX_MERGED_CHARS));
    expect(text.pieceCount).toBeLessThanOrEqual(maxPieceCount(text.length));
    expect(text.slice(0, 3)).toBe('{{é');
  });
});
