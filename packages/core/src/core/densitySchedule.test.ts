import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CACHE_READ_PRICE,
  CACHE_WRITE_PRICE,
  callsToPayBack,
  decideDensityApplication,
  PROMPT_CACHE_TTL_MS,
} from './densitySchedule.js';

/** Cost of the next `calls` calls with and without the edit, by the benchmark's price model. */
function simulate(
  removed: number,
  invalidated: number,
  calls: number,
): { apply: number; skip: number } {
  // Without the edit every later call reads the cached suffix; with it the first call rewrites
  // the suffix minus what was removed, then reads the smaller suffix.
  const skip = calls * CACHE_READ_PRICE * invalidated;
  const apply =
    CACHE_WRITE_PRICE * (invalidated - removed) +
    (calls - 1) * CACHE_READ_PRICE * (invalidated - removed);
  return { apply, skip };
}

describe('callsToPayBack', () => {
  it('an edit at the very end of history pays at once', () => {
    expect(callsToPayBack(500, 500)).toBe(0);
  });

  it('a small edit deep in history takes many calls', () => {
    expect(callsToPayBack(100, 10_000)).toBeCloseTo(1137.5, 5);
  });

  it('removing nothing never pays', () => {
    expect(callsToPayBack(0, 100)).toBe(Number.POSITIVE_INFINITY);
  });

  it('matches a direct simulation of the price model: after the payback point, applying is no dearer', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 0, max: 50_000 }),
        (removed, extra) => {
          const invalidated = removed + extra;
          const calls = Math.ceil(callsToPayBack(removed, invalidated)) + 1;
          const { apply, skip } = simulate(removed, invalidated, calls);
          expect(apply).toBeLessThanOrEqual(skip + 1e-6);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('decideDensityApplication', () => {
  const base = {
    removedTokens: 100,
    invalidatedTokens: 10_000,
    msSinceLastSend: 1000,
    paybackCalls: 10,
    underPressure: false,
  };

  it('defers an edit that does not pay back within the budget', () => {
    expect(decideDensityApplication(base)).toMatchObject({ apply: false, reason: 'deferred' });
  });

  it('applies under pressure, before the first call, with a cold cache, or when it pays back', () => {
    expect(decideDensityApplication({ ...base, underPressure: true }).reason).toBe(
      'under-pressure',
    );
    expect(decideDensityApplication({ ...base, msSinceLastSend: undefined }).reason).toBe(
      'no-cache-yet',
    );
    expect(decideDensityApplication({ ...base, msSinceLastSend: PROMPT_CACHE_TTL_MS }).reason).toBe(
      'cache-cold',
    );
    expect(decideDensityApplication({ ...base, removedTokens: 6000 }).reason).toBe('pays-back');
  });
});
