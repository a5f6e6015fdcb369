import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CACHE_RULES } from '../cache/cacheRules.js';
import { callsToPayBack, decideDensityApplication, type BatchCut } from './densitySchedule.js';
import { callsUntilCompression, pressurePathCosts } from './densityOutlook.js';

const anthropic = CACHE_RULES.anthropic;

describe('#35.2 the outlook: the next likely compression', () => {
  it('#35.2 calls until the history, less what a batch removes, reaches the threshold at its recent growth', () => {
    const outlook = { tokens: 100_000, thresholdTokens: 108_800, growthPerCall: 2_000 };
    expect(callsUntilCompression(outlook, 0)).toBeCloseTo(4.4, 6);
    expect(callsUntilCompression(outlook, 3_000)).toBeCloseTo(5.9, 6);
    expect(callsUntilCompression({ ...outlook, tokens: 120_000 }, 0)).toBe(0);
    expect(callsUntilCompression({ ...outlook, growthPerCall: 0 }, 0)).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  it('#35.2 a batch that would pay back within the horizon but not before the next likely compression is not made', () => {
    // Pays back in 5 calls: (1.15 × S − 1.25 × 3,000) / 300 = 5.
    const cut: BatchCut = { index: 3, removedTokens: 3_000, invalidatedTokens: 5_250 / 1.15 };
    expect(callsToPayBack(anthropic, cut.removedTokens, cut.invalidatedTokens)).toBeCloseTo(5, 6);
    const decide = (growthPerCall: number | undefined) =>
      decideDensityApplication({
        rules: anthropic,
        cuts: [cut],
        msSinceLastSend: 1_000,
        paybackHorizon: 15,
        underPressure: false,
        ...(growthPerCall === undefined
          ? {}
          : { outlook: { tokens: 100_000, thresholdTokens: 108_800, growthPerCall } }),
      });
    // Without an outlook (the proxy) the 15-call horizon alone decides.
    expect(decide(undefined).reason).toBe('pays-back');
    // 3,000 tokens a call: the threshold is 3.9 calls away once the batch is applied.
    expect(decide(3_000)).toMatchObject({ applyFrom: undefined, reason: 'deferred' });
    // 500 a call: 23.6 calls away, after the payback.
    expect(decide(500).reason).toBe('pays-back');
  });
});

describe('#35.2 under pressure: the batch against the compression over the horizon', () => {
  // The shape of a session growing just past a 128k window (invented numbers).
  const compression = { tokensBefore: 110_180, tokensAfter: 65_280 };
  const outlook = { tokens: 110_180, thresholdTokens: 108_800, growthPerCall: 1_300 };
  const pressed = (cut: BatchCut, growthPerCall = outlook.growthPerCall, withOutlook = true) =>
    decideDensityApplication({
      rules: anthropic,
      cuts: [cut],
      msSinceLastSend: 1_000,
      paybackHorizon: 15,
      underPressure: true,
      pressureRoom: 2_700,
      compression,
      ...(withOutlook ? { outlook: { ...outlook, growthPerCall } } : {}),
    });

  it('#35.2 a deep rewrite that only delays the compression loses to it, though it costs less on the next call', () => {
    const deep: BatchCut = { index: 38, removedTokens: 7_800, invalidatedTokens: 45_800 };
    // On the next call alone the batch wins (1.15 × 45,800 − 1.25 × 7,800 = 42,920 against
    // 1.25 × 65,280 − 0.1 × 110,180 = 70,582): the old rule rewrote the history.
    expect(pressed(deep, 0, false).reason).toBe('under-pressure');
    const costs = pressurePathCosts(anthropic, deep, compression, outlook, 15);
    expect(costs.compression).toBeLessThan(costs.batch);
    expect(pressed(deep)).toMatchObject({ applyFrom: 38, reason: 'with-compression' });
  });

  it('#35.2 a batch near the end that makes room for the whole horizon goes alone', () => {
    const tail: BatchCut = { index: 90, removedTokens: 30_000, invalidatedTokens: 31_000 };
    const costs = pressurePathCosts(anthropic, tail, compression, outlook, 15);
    expect(costs.batch).toBeLessThan(costs.compression);
    expect(pressed(tail).reason).toBe('under-pressure');
  });

  it('#35.2 property: the decision is the cheaper path, and a compression that leaves more than the batch never wins', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 60_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 20_000, max: 100_000 }),
        fc.integer({ min: 0, max: 8_000 }),
        (removed, extra, after, growth) => {
          const cut: BatchCut = {
            index: 1,
            removedTokens: removed,
            invalidatedTokens: removed + extra,
          };
          const c = { tokensBefore: 110_000, tokensAfter: after };
          const o = { tokens: 110_000, thresholdTokens: 108_800, growthPerCall: growth };
          const decision = decideDensityApplication({
            rules: anthropic,
            cuts: [cut],
            msSinceLastSend: 1_000,
            paybackHorizon: 15,
            underPressure: true,
            compression: c,
            outlook: o,
          });
          const costs = pressurePathCosts(anthropic, cut, c, o, 15);
          const compressionWins = after < 110_000 - removed && costs.compression < costs.batch;
          expect(decision.reason).toBe(compressionWins ? 'with-compression' : 'under-pressure');
        },
      ),
      { numRuns: 300 },
    );
  });
});
