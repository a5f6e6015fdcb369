import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { formatTick, niceScale } from './niceTicks.js';

const bound = fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true });

describe('niceScale', () => {
  it('covers a token range with round steps starting at zero', () => {
    expect(niceScale(0, 23_456, 5)).toEqual({
      min: 0,
      max: 25_000,
      ticks: [0, 5000, 10_000, 15_000, 20_000, 25_000],
    });
  });

  it('uses fractional steps for small ranges without float noise', () => {
    expect(niceScale(0, 0.3, 3).ticks).toEqual([0, 0.1, 0.2, 0.3]);
  });

  it('widens a degenerate range around its value', () => {
    const s = niceScale(7, 7);
    expect(s.min).toBeLessThan(7);
    expect(s.max).toBeGreaterThan(7);
    expect(niceScale(0, 0).ticks).toContain(0);
  });

  it('falls back to [0, 1] for non-finite bounds and accepts reversed bounds', () => {
    const s = niceScale(Number.NaN, Number.POSITIVE_INFINITY);
    expect(s.min).toBe(0);
    expect(s.max).toBe(1);
    expect(niceScale(10, 0)).toEqual(niceScale(0, 10));
  });

  test.prop([bound, bound, fc.integer({ min: 1, max: 12 })], { numRuns: 200 })(
    'ticks are ascending, evenly spaced by 1, 2 or 5 × 10^k, and cover the range',
    (a, b, target) => {
      const lo = Math.min(a, b);
      const hi = Math.max(a, b);
      const { min, max, ticks } = niceScale(lo, hi, target);
      expect(min).toBeLessThanOrEqual(lo);
      expect(max).toBeGreaterThanOrEqual(hi);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(ticks.length).toBeLessThanOrEqual(2 * target + 3);
      const step = ticks[1]! - ticks[0]!;
      const mantissa = step / 10 ** Math.floor(Math.log10(step));
      expect([1, 2, 5, 10].some((m) => Math.abs(mantissa - m) < 1e-6)).toBe(true);
      for (let i = 1; i < ticks.length; i++) {
        expect(Math.abs(ticks[i]! - ticks[i - 1]! - step)).toBeLessThan(step * 1e-6);
      }
    },
  );
});

describe('formatTick', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [1000, '1k'],
    [1500, '1.5k'],
    [1234, '1234'],
    [12_000, '12k'],
    [2_250_000, '2.25M'],
    [3e9, '3G'],
    [0.05, '0.05'],
    [-2500, '-2.5k'],
    [-0, '0'],
  ])('formats %d as %s', (value, label) => {
    expect(formatTick(value)).toBe(label);
  });
});
