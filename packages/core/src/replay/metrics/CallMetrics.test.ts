import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { human } from '../../test-utils/historyBuilders.js';
import type { IContent } from '../../services/history/IContent.js';
import { CallMetrics } from './CallMetrics.js';

const entries = (n: number) => Array.from({ length: n }, (_, i) => human(`entry ${i}`));
const TOKENS = 10;
const sample = (contents: readonly IContent[]) => ({
  contents,
  contextTokens: contents.length * TOKENS,
  tokensOf: () => TOKENS,
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
      cumulativeInputTokens: 40,
      peakContextTokens: 30,
      historyRewrites: 0,
      series: [10, 30],
    });
    // call 1: 10 × 1.25; call 2: 10 × 0.1 + 20 × 1.25
    expect(totals.cacheWeightedInputTokens).toBe(Math.round(12.5 + 1 + 25));
  });

  it('an edit before the newest entry is a rewrite, deep by what followed it', () => {
    const [a, b, c, d] = entries(4) as [IContent, IContent, IContent, IContent];
    const metrics = new CallMetrics();
    metrics.record(sample([a, b, c]));
    metrics.record(sample([a, c, d]));
    const totals = metrics.totals();
    expect(totals.historyRewrites).toBe(1);
    expect(totals.historyRewriteDepth).toEqual({ meanEntries: 2, meanTokens: 20 });
    // call 2: only `a` is cached
    expect(totals.cacheWeightedInputTokens).toBe(Math.round(3 * 12.5 + 1 + 2 * 12.5));
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
    expect(totals.cacheWeightedInputTokens).toBe(
      Math.round(1.25 * length * TOKENS + 0.1 * (totals.cumulativeInputTokens - length * TOKENS)),
    );
  });
});
