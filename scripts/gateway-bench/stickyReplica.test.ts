import { describe, expect, it } from 'vitest';
import { sdbmHash, stickyReplica, stickySpread } from './stickyReplica.js';

describe('sticky replica choice', () => {
  it('#36.7 sdbm is the classic hash (h = c + (h << 6) + (h << 16) − h, 32-bit)', () => {
    expect(sdbmHash('')).toBe(0);
    expect(sdbmHash('a')).toBe(97);
    expect(sdbmHash('ab')).toBe((98 + 97 * 65599) >>> 0);
  });

  it('#36.7 every request of one session goes to one replica; sessions spread over all of them', () => {
    const ids = Array.from({ length: 100 }, (_, i) => `bench-conv-${i}`);
    for (const id of ids) expect(stickyReplica(id, 3)).toBe(stickyReplica(id, 3));
    const spread = stickySpread(ids, 3);
    expect(spread.reduce((a, b) => a + b, 0)).toBe(100);
    for (const count of spread) expect(count).toBeGreaterThan(15);
    expect(stickyReplica('bench-conv-7', 1)).toBe(0);
    expect(() => stickyReplica('x', 0)).toThrow(RangeError);
  });
});
