import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { cacheProviderFor } from '../cache/index.js';
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

  it('the session provider picks the rules; unknown adapters are priced as Anthropic 5m', () => {
    expect(cacheProviderFor('openai')).toBe('openai');
    expect(cacheProviderFor('gemini')).toBe('gemini');
    expect(cacheProviderFor('anthropic')).toBe('anthropic');
    expect(cacheProviderFor('replay')).toBe('anthropic');
  });
});
