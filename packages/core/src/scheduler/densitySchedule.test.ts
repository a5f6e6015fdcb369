import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CACHE_RULES } from '../cache/cacheRules.js';
import {
  callsToPayBack,
  compressionIsCheaper,
  decideDensityApplication,
  upFrontCost,
  type BatchCut,
} from './densitySchedule.js';

const anthropic = CACHE_RULES.anthropic;

/** Cost of the next `calls` calls with and without the edit, priced by `priceCall`'s rules. */
function simulate(
  removed: number,
  invalidated: number,
  calls: number,
): { apply: number; skip: number } {
  const { readMultiplier: r, writeMultiplier: w } = anthropic;
  // Without the edit every later call reads the cached suffix; with it the first call rewrites
  // the suffix minus what was removed, then reads the smaller suffix.
  const skip = calls * r * invalidated;
  const apply = w * (invalidated - removed) + (calls - 1) * r * (invalidated - removed);
  return { apply, skip };
}

describe('callsToPayBack (issue 14.3, priced with the cache model)', () => {
  it('an edit at the very end of history pays at once', () => {
    expect(callsToPayBack(anthropic, 500, 500)).toBe(0);
  });

  it('a small edit deep in history takes many calls (Anthropic 5m: 11.5·S/R − 12.5)', () => {
    expect(callsToPayBack(anthropic, 100, 10_000)).toBeCloseTo(1137.5, 5);
  });

  it('without a write premium (OpenAI) deep edits pay back sooner', () => {
    expect(callsToPayBack(CACHE_RULES.openai, 100, 10_000)).toBeCloseTo(890, 5);
  });

  it('removing nothing never pays', () => {
    expect(callsToPayBack(anthropic, 0, 100)).toBe(Number.POSITIVE_INFINITY);
  });

  it('matches a direct simulation of the price model: after the payback point, applying is no dearer', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 0, max: 50_000 }),
        (removed, extra) => {
          const invalidated = removed + extra;
          const calls = Math.ceil(callsToPayBack(anthropic, removed, invalidated)) + 1;
          const { apply, skip } = simulate(removed, invalidated, calls);
          expect(apply).toBeLessThanOrEqual(skip + 1e-6);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('decideDensityApplication (issue 14.3, the batched schedule)', () => {
  const deep: BatchCut = { index: 2, removedTokens: 100, invalidatedTokens: 10_000 };
  const nearEnd: BatchCut = { index: 40, removedTokens: 60, invalidatedTokens: 60 };
  const base = {
    rules: anthropic,
    cuts: [deep],
    msSinceLastSend: 1000,
    paybackHorizon: 10,
    underPressure: false,
  };

  it('defers a batch that does not pay back within the expected remaining calls', () => {
    expect(decideDensityApplication(base)).toMatchObject({
      applyFrom: undefined,
      reason: 'deferred',
    });
  });

  it('applies everything under pressure, before the first call, with a cold cache, or when it pays back', () => {
    const all = (over: Partial<typeof base>) => decideDensityApplication({ ...base, ...over });
    expect(all({ underPressure: true })).toMatchObject({ applyFrom: 2, reason: 'under-pressure' });
    expect(all({ msSinceLastSend: undefined })).toMatchObject({
      applyFrom: 2,
      reason: 'no-cache-yet',
    });
    expect(all({ msSinceLastSend: anthropic.ttlMs + 1 })).toMatchObject({
      applyFrom: 2,
      reason: 'cache-cold',
    });
    // Exactly the TTL is still warm (isCacheCold: strictly longer).
    expect(all({ msSinceLastSend: anthropic.ttlMs }).reason).toBe('deferred');
    expect(all({ paybackHorizon: 2000 }).reason).toBe('pays-back');
  });

  it('the 1-hour cache stays warm over a 10-minute gap', () => {
    const decision = decideDensityApplication({
      ...base,
      rules: CACHE_RULES['anthropic-1h'],
      msSinceLastSend: 10 * 60_000,
    });
    expect(decision.reason).toBe('deferred');
  });

  it('applies the edits near the end at once while the deep ones wait', () => {
    const decision = decideDensityApplication({
      ...base,
      cuts: [{ ...deep, removedTokens: 160 }, nearEnd],
    });
    expect(decision).toMatchObject({ applyFrom: 40, reason: 'tail-pays-back' });
  });

  it('#14.3 under pressure a batch goes only when it makes room for the next calls; otherwise it waits for the compression that drops the same content', () => {
    const all = (pressureRoom: number) =>
      decideDensityApplication({ ...base, underPressure: true, pressureRoom });
    expect(all(100)).toMatchObject({ applyFrom: 2, reason: 'under-pressure' });
    expect(all(101).reason).toBe('deferred');
    // The emergency path sets no room: everything goes.
    expect(decideDensityApplication({ ...base, underPressure: true }).reason).toBe(
      'under-pressure',
    );
  });

  it('#14.3 a deep batch beyond the lookback waits one call for its cache anchor when that is cheaper', () => {
    const unanchored: BatchCut = {
      ...deep,
      removedTokens: 3_000,
      anchoredInvalidatedTokens: 4_000,
    };
    expect(decideDensityApplication({ ...base, cuts: [unanchored] })).toMatchObject({
      applyFrom: undefined,
      reason: 'awaiting-anchor',
    });
    // Anchored it pays back within 10 calls: (1.15 × 4,000 − 1.25 × 3,000) / 300 ≈ 2.8.
    const anchored: BatchCut = { ...deep, removedTokens: 3_000, invalidatedTokens: 4_000 };
    expect(decideDensityApplication({ ...base, cuts: [anchored] }).reason).toBe('pays-back');
  });

  it('applies nothing when there is nothing to apply', () => {
    expect(decideDensityApplication({ ...base, cuts: [] }).applyFrom).toBeUndefined();
  });

  it('#14.3 a batch applied for paying back costs up front at most the risk budget (what the session saved so far); pressure, a cold cache and the first call ignore it', () => {
    // (1.15 × 10,000 − 1.25 × 3,000) = 7,750 up front; pays back in 25.8 calls.
    const bet: BatchCut = { ...deep, removedTokens: 3_000 };
    expect(upFrontCost(anthropic, 3_000, 10_000)).toBeCloseTo(7_750, 6);
    expect(upFrontCost(anthropic, 100, 60)).toBe(0);
    const decide = (riskBudget: number | undefined, over: Partial<typeof base> = {}) =>
      decideDensityApplication({
        ...base,
        cuts: [bet],
        paybackHorizon: 30,
        ...(riskBudget === undefined ? {} : { riskBudget }),
        ...over,
      });
    expect(decide(undefined).reason).toBe('pays-back');
    expect(decide(7_750).reason).toBe('pays-back');
    expect(decide(7_749)).toMatchObject({ applyFrom: undefined, reason: 'deferred' });
    expect(decide(0, { underPressure: true }).reason).toBe('under-pressure');
    expect(decide(0, { msSinceLastSend: anthropic.ttlMs + 1 }).reason).toBe('cache-cold');
    expect(decide(0, { msSinceLastSend: undefined }).reason).toBe('no-cache-yet');
    // The edits near the end cost nothing up front: they go whatever the budget.
    const tail = decideDensityApplication({
      ...base,
      cuts: [bet, nearEnd],
      paybackHorizon: 30,
      riskBudget: 0,
    });
    expect(tail).toMatchObject({ applyFrom: 40, reason: 'tail-pays-back' });
  });
});

describe('a pressure batch or the compression, whichever costs less (issue 23.4)', () => {
  const rules = anthropic;
  const deepBatch: BatchCut = { index: 4, removedTokens: 800, invalidatedTokens: 13_000 };
  const tailBatch: BatchCut = { index: 150, removedTokens: 1_200, invalidatedTokens: 1_500 };
  const compression = { tokensBefore: 13_800, tokensAfter: 8_000 };
  const pressed = (cut: BatchCut) =>
    decideDensityApplication({
      rules,
      cuts: [cut],
      msSinceLastSend: 1000,
      paybackHorizon: 15,
      underPressure: true,
      pressureRoom: 300,
      compression,
    });

  it('#23.4 under pressure a deep batch whose rewrite costs more than the compression goes with it', () => {
    // Applying: 1.15 × 13,000 − 1.25 × 800 = 13,950; compressing: 1.25 × 8,000 − 0.1 × 13,800 = 8,620.
    expect(pressed(deepBatch)).toMatchObject({ applyFrom: 4, reason: 'with-compression' });
  });

  it('#23.4 a batch near the end of the history is cheaper than any compression: it goes alone', () => {
    expect(pressed(tailBatch)).toMatchObject({ applyFrom: 150, reason: 'under-pressure' });
  });

  it('#23.4 a compression that would leave more than the batch does never wins; without one (emergency, loop guard) the batch goes', () => {
    expect(
      compressionIsCheaper(rules, deepBatch, { tokensBefore: 13_800, tokensAfter: 13_000 }),
    ).toBe(false);
    const { compression: _unused, ...withoutCompression } = {
      rules,
      cuts: [deepBatch],
      msSinceLastSend: 1000,
      paybackHorizon: 15,
      underPressure: true,
      compression,
    };
    expect(decideDensityApplication(withoutCompression).reason).toBe('under-pressure');
  });

  /** Cost of the next `calls` calls, growing by `growth` tokens each, from a history of `start`
   * tokens whose first call costs `first` (priced as priceCall does: reads r, new tokens w). */
  const path = (first: number, start: number, growth: number, calls: number) => {
    const { readMultiplier: r, writeMultiplier: w } = rules;
    let cost = first;
    for (let i = 1; i < calls; i++) cost += r * (start + (i - 1) * growth) + w * growth;
    return cost;
  };

  it('#23.4 property: when the compression wins, it costs no more than the batch over any number of later calls (no bet on the session going on)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2_000, max: 200_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 1, max: 60 }),
        (tokens, depth, share, after, growth, calls) => {
          const { readMultiplier: r, writeMultiplier: w } = rules;
          const invalidated = Math.round(tokens * depth);
          const removed = Math.min(invalidated, Math.round(tokens * share * depth));
          const batch: BatchCut = {
            index: 1,
            removedTokens: removed,
            invalidatedTokens: invalidated,
          };
          const c = { tokensBefore: tokens, tokensAfter: Math.round(tokens * after) };
          if (!compressionIsCheaper(rules, batch, c)) return;
          const applying = path(
            r * (tokens - invalidated) + w * (invalidated - removed),
            tokens - removed,
            growth,
            calls,
          );
          const compressing = path(w * c.tokensAfter, c.tokensAfter, growth, calls);
          expect(compressing).toBeLessThanOrEqual(applying + 1e-6);
        },
      ),
      { numRuns: 500 },
    );
  });
});
