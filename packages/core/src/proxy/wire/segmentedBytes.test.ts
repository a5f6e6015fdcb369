import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { MAX_MERGED_BYTES, SegmentedBytes } from './segmentedBytes.js';

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

  it('#24.4 no append merges pieces past the cap, so no request copies the whole body', () => {
    let body = SegmentedBytes.of(Buffer.alloc(MAX_MERGED_BYTES, 1));
    for (let i = 0; i < 4; i++)
      body = body.withTail(body.length, Buffer.alloc(MAX_MERGED_BYTES / 2));
    expect(body.pieceCount).toBeGreaterThan(1);
    expect(new Set(body.backings).size).toBe(body.pieceCount);
  });

  test.prop(
    [
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.array(fc.tuple(fc.nat(), fc.string({ unit: 'binary', maxLength: 40 })), {
        maxLength: 30,
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
        expect(body.pieceCount).toBeLessThanOrEqual(Math.log2(Math.max(1, whole.length)) + 2);
      }
    },
  );
});
