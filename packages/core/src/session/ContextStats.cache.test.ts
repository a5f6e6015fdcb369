import { describe, expect, it } from 'vitest';
import { ai, human } from '../test-utils/historyBuilders.js';
import { testCompressionHandler } from '../test-utils/testCompressionHandler.js';
import { CACHE_RULES } from '../cache/cacheRules.js';
import { HistoryService } from '../services/history/HistoryService.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import type { DensityAppliedEvent } from '../core/CompressionHandler.js';
import { ContextStats } from './ContextStats.js';

const chars: TokenCounter = { countText: (text) => text.length };

describe('#23.2 /context prices an unscheduled density edit with the one prefix model', () => {
  it('#23.2 an edit after the last prompt end re-sends from that prompt end, not from the edit', async () => {
    // [long task, AI reply, 3,000-token result, AI reply, result]: the last prompt ended before
    // entry 3; an edit at entry 4 leaves entries 0–3 intact, but only 0–2 is a cached prefix.
    const history = new HistoryService({ tokenCounter: chars });
    history.addAll([
      human('a'.repeat(5_000)),
      ai('b'),
      human('c'.repeat(3_000)),
      ai('d'.repeat(1_000)),
      human('e'.repeat(400)),
    ]);
    await history.waitForTokenUpdates();
    const { handler } = testCompressionHandler({ history });
    const stats = new ContextStats(handler);
    const raw = history.getRawHistory();
    const tokensOf = (from: number) =>
      raw.slice(from).reduce((sum, entry) => sum + (history.tokensOf(entry) ?? 0), 0);
    const total = history.getTotalTokens();
    const event = {
      strategy: 'high-density',
      metadata: { readWritePairsPruned: 0, fileDeduplicationsPruned: 0, recencyPruned: 1 },
      removedTokens: { readWrite: 0, dedup: 0, recency: 0 },
      tokensBefore: total,
      tokensAfter: total,
      firstEditedIndex: 4,
      entriesBefore: 5,
    } as unknown as DensityAppliedEvent;
    handler.scheduler.recordApplied(event);
    handler.scheduler.onModelCall(0);
    const rules = CACHE_RULES.anthropic;
    // Explicit caching writes entries 3–4 again instead of reading them.
    expect(stats.densityCache().netWeightedTokens.anthropic).toBeCloseTo(
      tokensOf(3) * (rules.writeMultiplier - rules.readMultiplier),
      6,
    );
    // Automatic caching reads everything before the edit.
    expect(stats.densityCache().netWeightedTokens.openai).toBeCloseTo(tokensOf(4) * 0.9, 6);
    stats.dispose();
  });
});
