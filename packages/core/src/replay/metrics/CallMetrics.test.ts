import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { human } from '../../test-utils/historyBuilders.js';
import type { IContent } from '../../services/history/IContent.js';
import { CallMetrics } from './CallMetrics.js';

const entries = (n: number) => Array.from({ length: n }, (_, i) => human(`entry ${i}`));
/** Above every provider's minimum cacheable length once two entries are sent. */
const TOKENS = 2_000;
const MIN = 60_000;
const sample = (contents: readonly IContent[], timeMs?: number) => ({
  contents,
  contextTokens: contents.length * TOKENS,
  tokensOf: () => TOKENS,
  timeMs,
});

describe('CallMetrics', () => {
  it('appending only: the previous call is a cached prefix, no rewrite', () => {
    const [a, b, c] = entries(3) as [IContent, IContent, IContent];
    const metrics = new CallMetrics();
    metrics.record(sample([a]));
    metrics.record(sample([a, b, c]));
    const totals = metrics.totals();
    expect(totals).toMatchObject({
      modelCalls: 2,
      cumulativeInputTokens: 4 * TOKENS,
      peakContextTokens: 3 * TOKENS,
      historyRewrites: 0,
      series: [TOKENS, 3 * TOKENS],
    });
    // call 1: 2,000 × 1.25; call 2: 2,000 × 0.1 + 4,000 × 1.25
    expect(totals.cacheWeightedInputTokens).toBe(2_500 + 200 + 5_000);
  });

  it('#25.8 an entry billed with fewer tokens than before (thinking dropped) is a changed segment', () => {
    const [a, b, c] = entries(3) as [IContent, IContent, IContent];
    const metrics = new CallMetrics();
    metrics.record(sample([a, b]));
    metrics.record({
      contents: [a, b, c],
      contextTokens: 3 * TOKENS - 500,
      tokensOf: (entry: IContent) => (entry === b ? TOKENS - 500 : TOKENS),
    });
    const totals = metrics.totals();
    expect(totals.historyRewrites).toBe(1);
    expect(totals.historyRewriteDepth).toEqual({ meanEntries: 1, meanTokens: TOKENS });
    // call 1: 4,000 × 1.25; call 2: the only cached prefix ended at b, now changed: all
    // 5,500 written (Anthropic reads a prefix only where an earlier request put a breakpoint)
    expect(totals.cacheWeightedInputTokens).toBe(5_000 + 6_875);
  });

  it('an edit before the newest entry is a rewrite, deep by what followed it', () => {
    const [a, b, c, d] = entries(4) as [IContent, IContent, IContent, IContent];
    const metrics = new CallMetrics();
    metrics.record(sample([a, b, c]));
    metrics.record(sample([a, c, d]));
    const totals = metrics.totals();
    expect(totals.historyRewrites).toBe(1);
    expect(totals.historyRewriteDepth).toEqual({ meanEntries: 2, meanTokens: 2 * TOKENS });
    // #14.1 call 2: no request ever ended at `a`, so Anthropic has no cached prefix to serve
    expect(totals.cacheWeightedInputTokens).toBe(3 * 2_500 + 3 * 2_500);
    // OpenAI caches every prefix it processed: `a` is read, in 128-token steps past 1,024: 1,920
    expect(totals.cacheCost.openai.weightedTokens).toBe(3 * 2_000 + 192 + 2 * 2_000 + 80);
  });

  it('#14.1 Anthropic: an edit reads the longest earlier request still a prefix, within 20 blocks', () => {
    const [a, b, c, d, e] = entries(5) as [IContent, IContent, IContent, IContent, IContent];
    const metrics = new CallMetrics();
    metrics.record(sample([a]));
    metrics.record(sample([a, b, c]));
    metrics.record(sample([a, c, d, e])); // b cut: call 1's prompt [a] is still a prefix
    // 2,500 | 200 + 5,000 | 200 + 3 × 2,500
    expect(metrics.totals().cacheWeightedInputTokens).toBe(2_500 + 5_200 + 7_700);
  });

  it('#14.1 Anthropic: an edit more than 20 blocks before the breakpoint finds no cached prefix', () => {
    const all = entries(30);
    const [first] = all as [IContent];
    const metrics = new CallMetrics();
    metrics.record(sample([first]));
    metrics.record(sample(all.slice(0, 15))); // 14 blocks after [first]: read
    metrics.record(sample([first, ...all.slice(2, 26)])); // entry 1 cut; [first] is 24 blocks back
    const t = metrics.totals();
    expect(t.cacheCost.anthropic.cacheReadTokens).toBe(2_000); // call 2 read [first]; call 3 none
    expect(t.cacheCost.openai.cacheReadTokens).toBe(2 * 1_920); // OpenAI: [first] both times, in 128-token steps
  });

  it('#14.3 Anthropic: a cache anchor carried by the requests lets a deep edit read the prefix before it', () => {
    const all = entries(30);
    const withAnchor = (contents: readonly IContent[], anchors: number[]) => ({
      ...sample(contents),
      anchors,
    });
    const deep = (anchored: boolean) => {
      const metrics = new CallMetrics();
      metrics.record(sample(all.slice(0, 5)));
      // The edit at entry 10 waits: the next two requests mark the prefix before it.
      metrics.record(withAnchor(all.slice(0, 20), anchored ? [10] : []));
      metrics.record(withAnchor(all.slice(0, 26), anchored ? [10] : []));
      // Entry 10 cut, 16 blocks added since: no whole prompt within 20 blocks is intact.
      metrics.record(withAnchor([...all.slice(0, 10), ...all.slice(11, 28)], anchored ? [10] : []));
      return metrics.totals().cacheCost.anthropic;
    };
    // With the anchor the last call reads its 10 entries; without it, nothing.
    expect(deep(true).cacheReadTokens - deep(false).cacheReadTokens).toBe(10 * TOKENS);
    expect(deep(false).weightedTokens - deep(true).weightedTokens).toBe(10 * TOKENS * 1.15);
  });

  it('#14.1 hand-computed: a rewrite then a 6-minute gap, priced per provider', () => {
    const [a, b, c, d, e] = entries(5) as [IContent, IContent, IContent, IContent, IContent];
    const metrics = new CallMetrics();
    metrics.record(sample([a, b], 0)); // 4k, first call
    metrics.record(sample([a, c, d], MIN)); // 6k, b cut: only a (2k) reusable
    metrics.record(sample([a, c, d, e], 7 * MIN)); // 8k, 6k reusable, but 6 min later
    const t = metrics.totals();
    expect(t.timedCalls).toBe(3);
    // anthropic 5m: 4k×1.25 | no request ended at `a`: 6k×1.25 | cold: 8k×1.25
    expect(t.cacheCost.anthropic).toEqual({
      cacheReadTokens: 0,
      cacheWriteTokens: 18_000,
      uncachedTokens: 0,
      weightedTokens: 5_000 + 7_500 + 10_000,
      coldCalls: 1,
    });
    expect(t.cacheWeightedInputTokens).toBe(22_500);
    // openai: no write premium, reads in 128-token steps | 1,920×0.1 + 4,080 | cold: 8k
    expect(t.cacheCost.openai).toEqual({
      cacheReadTokens: 1_920,
      cacheWriteTokens: 0,
      uncachedTokens: 16_080,
      weightedTokens: 4_000 + 4_272 + 8_000,
      coldCalls: 1,
    });
    // anthropic 1h: the gap is warm; writes 2× → 8,000 | 12,000 | 600 + 4,000
    expect(t.cacheCost['anthropic-1h'].weightedTokens).toBe(8_000 + 12_000 + 4_600);
    expect(t.cacheCost['anthropic-1h'].coldCalls).toBe(0);
    // gemini: 2k reusable is under its 4,096 minimum; call 3 is cold
    expect(t.cacheCost.gemini.weightedTokens).toBe(4_000 + 6_000 + 8_000);
    // assumed warm: call 3 reads 6k
    expect(t.cacheCostAssumedWarm.anthropic.weightedTokens).toBe(5_000 + 7_500 + 600 + 2_500);
    // openai: 6k reusable reads 5,888 → 588.8 + 2,112
    expect(t.cacheCostAssumedWarm.openai.weightedTokens).toBe(Math.round(4_000 + 4_272 + 2_700.8));
    expect(t.cacheCostAssumedWarm.gemini.weightedTokens).toBe(4_000 + 6_000 + 600 + 2_000);
  });

  it('#14.1 a call without a recorded time is assumed warm, and so is the call after it', () => {
    const [a, b, c] = entries(3) as [IContent, IContent, IContent];
    const metrics = new CallMetrics();
    metrics.record(sample([a], 0));
    metrics.record(sample([a, b]));
    metrics.record(sample([a, b, c], 60 * MIN));
    const t = metrics.totals();
    expect(t.timedCalls).toBe(2);
    expect(t.cacheCost).toEqual(t.cacheCostAssumedWarm);
  });

  test.prop([fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 30 })], {
    numRuns: 100,
  })('appending histories never rewrite and cost at most 1.25× the input', (growth) => {
    const all = entries(growth.reduce((s, g) => s + g, 0));
    const metrics = new CallMetrics();
    let length = 0;
    for (const g of growth) {
      length += g;
      metrics.record(sample(all.slice(0, length)));
    }
    const totals = metrics.totals();
    expect(totals.historyRewrites).toBe(0);
    expect(totals.cacheWeightedInputTokens).toBeLessThanOrEqual(
      Math.round(1.25 * totals.cumulativeInputTokens),
    );
    // every entry is 2,000 tokens, above the minimum: written once, read on every later call
    expect(totals.cacheWeightedInputTokens).toBe(
      Math.round(1.25 * length * TOKENS + 0.1 * (totals.cumulativeInputTokens - length * TOKENS)),
    );
  });
});
