import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { MAX_PIECES } from './keptPieces.js';
import { SegmentedBytes } from './segmentedBytes.js';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('SegmentedBytes', () => {
  it('#24.4 a tail is copied: the buffer it came from may change afterwards', () => {
    const tail = bytes('def');
    const body = SegmentedBytes.of(bytes('abcxyz')).withTail(3, tail);
    tail.fill(0);
    expect(body.startsLike(bytes('abcdef!'), 6)).toBe(true);
    expect(body.length).toBe(6);
  });

  it('#24.4 startsLike compares only the first bytes asked for, across pieces', () => {
    const body = SegmentedBytes.of(bytes('abcdefgh')).withTail(4, bytes('XYZ'));
    expect(body.startsLike(bytes('abcdXYZ'), 7)).toBe(true);
    expect(body.startsLike(bytes('abcdXYQ'), 6)).toBe(true);
    expect(body.startsLike(bytes('abcdXYQ'), 7)).toBe(false);
    expect(body.startsLike(bytes('abcdXY'), 7)).toBe(false);
    expect(body.startsLike(bytes('abcdXYZ!'), 8)).toBe(false);
  });

  it('#24.4 a cut piece that keeps less than half of its bytes is copied: the rest is not held', () => {
    const body = SegmentedBytes.of(Buffer.alloc(1 << 16, 1)).withTail(100, bytes('xyz'));
    // Small copies share Node's 8 KiB pool: held, at most two pools, not the 64 KiB piece.
    expect(SegmentedBytes.heldBytes([body])).toBeLessThanOrEqual(2 * 8192);
    const most = SegmentedBytes.of(Buffer.alloc(1_000, 1)).withTail(900, bytes('xyz'));
    expect(most.startsLike(Buffer.concat([Buffer.alloc(900, 1), bytes('xyz')]), 903)).toBe(true);
  });

  test.prop(
    [
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.array(fc.tuple(fc.nat(), fc.string({ unit: 'binary', maxLength: 40 })), {
        maxLength: 3 * MAX_PIECES,
      }),
    ],
    { numRuns: 200 },
  )(
    '#24.4 after any cuts and tails the pieces hold the same bytes as one buffer built alike, and stay few',
    (start, steps) => {
      let whole = Buffer.from(start, 'utf8');
      let body = SegmentedBytes.of(Buffer.from(whole));
      for (const [at, tail] of steps) {
        const cut = at % (whole.length + 1);
        const added = Buffer.from(tail, 'utf8');
        whole = Buffer.concat([whole.subarray(0, cut), added]);
        body = body.withTail(cut, added);
        expect(body.length).toBe(whole.length);
        expect(body.startsLike(whole, whole.length)).toBe(true);
        if (whole.length > 0) {
          const changed = Buffer.from(whole);
          const index = at % whole.length;
          changed[index] = (changed[index] as number) ^ 1;
          expect(body.startsLike(changed, whole.length)).toBe(false);
          expect(body.startsLike(changed, index)).toBe(true);
        }
        expect(body.pieceCount).toBeLessThanOrEqual(MAX_PIECES);
      }
    },
  );
});
