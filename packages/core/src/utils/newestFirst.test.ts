import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { forgetOldest, setNewest } from './newestFirst.js';

describe('newestFirst', () => {
  test.prop([fc.array(fc.nat(20), { maxLength: 200 }), fc.integer({ min: 1, max: 8 })])(
    'review: setNewest keeps the `max` most recently set keys, newest last, each with its latest value',
    (keys, max) => {
      const map = new Map<number, number>();
      keys.forEach((key, i) => setNewest(map, key, i, max));
      const recent: number[] = [];
      for (const key of [...keys].reverse()) if (!recent.includes(key)) recent.push(key);
      expect([...map.keys()]).toEqual(recent.slice(0, max).reverse());
      for (const [key, value] of map) expect(value).toBe(keys.lastIndexOf(key));
    },
  );

  it('review: forgetOldest drops from the oldest and reports each entry it forgets', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    const forgotten: string[] = [];
    forgetOldest(map, 1, (key, value) => forgotten.push(`${key}${value}`));
    expect(forgotten).toEqual(['a1', 'b2']);
    expect([...map.keys()]).toEqual(['c']);
    forgetOldest(map, 0);
    expect(map.size).toBe(0);
  });
});
