import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { chainedRegionHash, regionStart } from './regionHash.js';

describe('regionHash', () => {
  test.prop([fc.array(fc.string(), { maxLength: 12 }), fc.nat()])(
    '#36.7 a region hashed on from any known mark is the region hashed from its start',
    (raws, at) => {
      const k = raws.length === 0 ? 0 : at % (raws.length + 1);
      const mark = chainedRegionHash('', raws.slice(0, k));
      expect(chainedRegionHash(mark, raws.slice(k))).toBe(chainedRegionHash('', raws));
    },
  );

  it('#36.7 moving a message boundary changes the hash (messages, not only their text)', () => {
    expect(chainedRegionHash('', ['ab', 'c'])).not.toBe(chainedRegionHash('', ['a', 'bc']));
  });

  it('#36.7 a mark is used only inside the region it starts', () => {
    const mark = { start: 2, cut: 5, hash: 'h' };
    expect(regionStart(mark, 2, 9)).toEqual({ at: 5, hash: 'h' });
    expect(regionStart(mark, 3, 9)).toEqual({ at: 3, hash: '' });
    expect(regionStart(mark, 2, 4)).toEqual({ at: 2, hash: '' });
    expect(regionStart(undefined, 2, 9)).toEqual({ at: 2, hash: '' });
  });
});
