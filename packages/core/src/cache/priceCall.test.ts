import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { CACHE_PROVIDERS, CACHE_RULES } from './cacheRules.js';
import { isCacheCold, priceCall } from './priceCall.js';

const MIN = 60_000;

describe('#14.1 priceCall: hand-computed cases per provider', () => {
  it('anthropic 5m: 10k prompt, 8k reusable, warm → 8k×0.1 + 2k×1.25 = 3,300', () => {
    const cost = priceCall(CACHE_RULES.anthropic, {
      promptTokens: 10_000,
      reusablePrefixTokens: 8_000,
      gapMs: 30_000,
      hasPrevious: true,
    });
    expect(cost).toEqual({
      cacheReadTokens: 8_000,
      cacheWriteTokens: 2_000,
      uncachedTokens: 0,
      weightedTokens: 3_300,
    });
  });

  it('anthropic 5m: a gap past the TTL is a cold cache: all 10k written at 1.25 = 12,500', () => {
    const cost = priceCall(CACHE_RULES.anthropic, {
      promptTokens: 10_000,
      reusablePrefixTokens: 8_000,
      gapMs: 6 * MIN,
      hasPrevious: true,
    });
    expect(cost.weightedTokens).toBe(12_500);
    expect(cost.cacheReadTokens).toBe(0);
  });

  it('anthropic 1h: the same 6-minute gap is still warm; writes cost 2× → 800 + 4,000', () => {
    const cost = priceCall(CACHE_RULES['anthropic-1h'], {
      promptTokens: 10_000,
      reusablePrefixTokens: 8_000,
      gapMs: 6 * MIN,
      hasPrevious: true,
    });
    expect(cost.weightedTokens).toBe(4_800);
  });

  it('anthropic: a prompt under 1,024 tokens is neither cached nor written', () => {
    const cost = priceCall(CACHE_RULES.anthropic, {
      promptTokens: 900,
      reusablePrefixTokens: 800,
      gapMs: 1_000,
      hasPrevious: true,
    });
    expect(cost).toEqual({
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      uncachedTokens: 900,
      weightedTokens: 900,
    });
  });

  it('openai: no write premium, hits in 128-token steps: 8k reusable → 7,936×0.1 + 2,064 = 2,857.6; the first call costs 10k', () => {
    const warm = priceCall(CACHE_RULES.openai, {
      promptTokens: 10_000,
      reusablePrefixTokens: 8_000,
      gapMs: undefined,
      hasPrevious: true,
    });
    expect(warm.cacheReadTokens).toBe(7_936);
    expect(warm.weightedTokens).toBeCloseTo(2_857.6, 6);
    const first = priceCall(CACHE_RULES.openai, {
      promptTokens: 10_000,
      reusablePrefixTokens: 0,
      gapMs: undefined,
      hasPrevious: false,
    });
    expect(first.weightedTokens).toBe(10_000);
  });

  it('gemini: a 3k reusable prefix is under the 4,096 minimum → no discount', () => {
    const cost = priceCall(CACHE_RULES.gemini, {
      promptTokens: 5_000,
      reusablePrefixTokens: 3_000,
      gapMs: 1_000,
      hasPrevious: true,
    });
    expect(cost.weightedTokens).toBe(5_000);
  });

  it('isCacheCold: only a gap strictly longer than the TTL', () => {
    expect(isCacheCold(CACHE_RULES.anthropic, undefined)).toBe(false);
    expect(isCacheCold(CACHE_RULES.anthropic, 5 * MIN)).toBe(false);
    expect(isCacheCold(CACHE_RULES.anthropic, 5 * MIN + 1)).toBe(true);
  });
});

describe('#14.1 priceCall properties', () => {
  const input = fc.record({
    promptTokens: fc.nat({ max: 2_000_000 }),
    reusablePrefixTokens: fc.nat({ max: 2_000_000 }),
    gapMs: fc.option(fc.nat({ max: 4 * 3_600_000 }), { nil: undefined }),
    hasPrevious: fc.boolean(),
  });

  test.prop([fc.constantFrom(...CACHE_PROVIDERS), input], { numRuns: 300 })(
    'every prompt token is billed exactly once, and reading more never costs more',
    (provider, call) => {
      const rules = CACHE_RULES[provider];
      const cost = priceCall(rules, call);
      expect(cost.cacheReadTokens + cost.cacheWriteTokens + cost.uncachedTokens).toBe(
        call.promptTokens,
      );
      const none = priceCall(rules, { ...call, reusablePrefixTokens: 0 });
      expect(cost.weightedTokens).toBeLessThanOrEqual(none.weightedTokens + 1e-9);
    },
  );
});
