import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { CACHE_PROVIDERS, CACHE_RULES, cacheProviderFor, priceCall } from '../cache/index.js';
import { DensityCacheLedger } from './densityCacheLedger.js';

const MIN = 60_000;

describe('#14.5 DensityCacheLedger: density’s cache effect in a live session', () => {
  it('hand-computed: an edit, two warm calls, then a cold one (Anthropic 5m and OpenAI)', () => {
    const ledger = new DensityCacheLedger();
    ledger.modelCall(0);
    ledger.edit(1_000, 3_000); // 1k removed; 3k after the edit point re-sent uncached
    ledger.modelCall(MIN); // warm: 3k × (1.25 − 0.1) − 1k × 0.1
    ledger.modelCall(2 * MIN); // warm: − 1k × 0.1
    ledger.modelCall(8 * MIN); // cold: the 1k would have been written: − 1k × 1.25
    const totals = ledger.totals();
    expect(totals).toMatchObject({ notSentTokens: 3_000, rewrittenTokens: 3_000, modelCalls: 4 });
    expect(totals.netWeightedTokens.anthropic).toBeCloseTo(3_450 - 100 - 100 - 1_250, 6);
    // OpenAI: no write premium, so a rewrite costs 0.9 per token; the cold call saves 1k × 1
    expect(totals.netWeightedTokens.openai).toBeCloseTo(2_700 - 100 - 100 - 1_000, 6);
    // 1-hour cache: the 6-minute gap is warm; writes cost 2×
    expect(totals.netWeightedTokens['anthropic-1h']).toBeCloseTo(3_000 * 1.9 - 300, 6);
  });

  it('a deep edit (past the lookback) loses the whole prompt under Anthropic, the suffix under OpenAI', () => {
    const ledger = new DensityCacheLedger();
    ledger.modelCall(0);
    ledger.edit(1_000, 3_000, 50_000);
    ledger.modelCall(MIN);
    const net = ledger.totals().netWeightedTokens;
    expect(net.anthropic).toBeCloseTo(50_000 * 1.15 - 100, 6);
    expect(net.openai).toBeCloseTo(3_000 * 0.9 - 100, 6);
  });

  it('an edit right before a cold call costs no rewrite; after a compression nothing counts', () => {
    const ledger = new DensityCacheLedger();
    ledger.modelCall(0);
    ledger.edit(500, 4_000);
    ledger.modelCall(10 * MIN);
    expect(ledger.totals().netWeightedTokens.anthropic).toBeCloseTo(-500 * 1.25, 6);
    ledger.compressed();
    ledger.modelCall(11 * MIN);
    expect(ledger.totals().netWeightedTokens.anthropic).toBeCloseTo(-500 * 1.25, 6);
    expect(ledger.totals().notSentTokens).toBe(500);
  });

  test.prop(
    [fc.array(fc.record({ removed: fc.nat(10_000), gapMin: fc.nat(20) }), { maxLength: 30 })],
    { numRuns: 100 },
  )('tail edits (nothing after the edit point) never cost more than no density', (steps) => {
    const ledger = new DensityCacheLedger();
    let at = 0;
    ledger.modelCall(at);
    for (const step of steps) {
      ledger.edit(step.removed, 0);
      at += step.gapMin * MIN;
      ledger.modelCall(at);
    }
    for (const net of Object.values(ledger.totals().netWeightedTokens)) {
      expect(net).toBeLessThanOrEqual(0);
    }
  });

  it('#14.3 hand-computed: what the session saved so far (the risk budget) counts kept-out content, and what it would have cost without density', () => {
    const ledger = new DensityCacheLedger();
    ledger.modelCall(0, 10_000); // first call: 10k written
    ledger.keptOut(2_000); // a reply kept 2k out when it entered
    ledger.modelCall(MIN, 11_000); // without density 13k: 10k read, 3k written
    ledger.edit(1_000, 1_500); // near the end: 1.5k re-sent uncached
    ledger.modelCall(2 * MIN, 10_500); // without: 13.5k (10.5k + 2k kept + 1k removed)
    ledger.modelCall(10 * MIN, 10_500); // cold: without density all 13.5k written
    // Anthropic 5m: kept out 2k × 0.1 on the two warm calls, × 1.25 on the cold one; the edit
    // (1.5k × 1.15 − 1k × 0.1) on its first call, then 1k × 1.25 cold.
    const kept = 2_000 * 0.1 * 2 + 2_000 * 1.25;
    const edit = 1_500 * 1.15 - 100 - 1_250;
    expect(ledger.savedSoFar('anthropic')).toBeCloseTo(kept - edit, 6);
    const without = 10_000 * 1.25 + (10_000 * 0.1 + 3_000 * 1.25) + (13_000 * 0.1 + 500 * 1.25);
    expect(ledger.baselineSoFar('anthropic')).toBeCloseTo(without + 13_500 * 1.25, 6);
    // OpenAI: no write premium, cached input at 0.1, a hit rounded down to 128-token steps past
    // 1,024 (10,000 → 9,984 read; 13,000 → 12,928 read).
    expect(ledger.baselineSoFar('openai')).toBeCloseTo(
      10_000 + (998.4 + 16 + 3_000) + (1_292.8 + 72 + 500) + 13_500,
      6,
    );
    // The edit totals stay the edits' own (what /context reports as density's cache effect).
    expect(ledger.totals().netWeightedTokens.anthropic).toBeCloseTo(edit, 6);
    // A compression rewrites everything: nothing kept out before it saves any more.
    ledger.compressed();
    const before = ledger.savedSoFar('anthropic');
    ledger.modelCall(11 * MIN, 4_000);
    expect(ledger.savedSoFar('anthropic')).toBeCloseTo(before, 6);
  });

  it('#14.3 the baseline is priced by priceCall: a prompt under the cache minimum pays base price, a hit rounds to the provider step', () => {
    const ledger = new DensityCacheLedger();
    ledger.modelCall(0, 800); // under 1,024 tokens: never cached, no write premium
    ledger.modelCall(MIN, 900);
    expect(ledger.baselineSoFar('anthropic')).toBeCloseTo(800 + 900, 6);
    ledger.modelCall(2 * MIN, 2_000);
    const small = new DensityCacheLedger();
    small.modelCall(0, 2_000);
    small.modelCall(MIN, 2_100);
    const step = 1_024 + 7 * 128; // OpenAI reads 2,000 rounded down to the 128-token step
    expect(small.baselineSoFar('openai')).toBeCloseTo(2_000 + step * 0.1 + (2_100 - step), 6);
    for (const provider of CACHE_PROVIDERS) {
      expect(ledger.baselineSoFar(provider)).toBeCloseTo(
        [800, 900, 2_000].reduce(
          (sum, tokens, at) =>
            sum +
            priceCall(CACHE_RULES[provider], {
              promptTokens: tokens,
              reusablePrefixTokens: at === 0 ? 0 : [800, 900][at - 1]!,
              gapMs: at === 0 ? undefined : MIN,
              hasPrevious: at > 0,
            }).weightedTokens,
          0,
        ),
        6,
      );
    }
  });

  it('the session provider picks the rules; unknown adapters are priced as Anthropic 5m', () => {
    expect(cacheProviderFor('openai')).toBe('openai');
    expect(cacheProviderFor('gemini')).toBe('gemini');
    expect(cacheProviderFor('anthropic')).toBe('anthropic');
    expect(cacheProviderFor('replay')).toBe('anthropic');
  });
});
