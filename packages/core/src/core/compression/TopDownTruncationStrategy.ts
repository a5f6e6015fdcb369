/**
 * Top-down truncation (no LLM): drops the oldest entries until the history fits well under the
 * threshold. Runs only past the threshold.
 */
import type { IContent } from '../../services/history/IContent.js';
import { planTopDownTruncation, topDownTargetTokens } from './planTopDownTruncation.js';
import type {
  CompressionContext,
  CompressionResult,
  CompressionResultMetadata,
  CompressionStrategy,
  StrategyTrigger,
} from './types.js';
import { targetWithRoomForPending } from './types.js';

/** Each entry's count, one `estimateTokens([entry])` per entry (cached by the history service). */
async function countEntries(
  history: readonly IContent[],
  estimateTokens: CompressionContext['estimateTokens'],
): Promise<number[]> {
  const counts: number[] = [];
  for (const entry of history) counts.push(await estimateTokens([entry]));
  return counts;
}

export class TopDownTruncationStrategy implements CompressionStrategy {
  readonly name = 'top-down-truncation' as const;
  readonly requiresLLM = false;
  readonly trigger: StrategyTrigger = { mode: 'threshold', defaultThreshold: 0.85 };

  /**
   * Drops the oldest entries until the total is at most `(compression-threshold, else 0.85) ×
   * contextLimit × 0.6` tokens less the pending message's (`targetWithRoomForPending`), keeping at least the newest 2 entries and cutting only where no
   * tool call is separated from its responses. Each entry is estimated once: O(n). Ignores
   * `activeTodos` and `transcriptPath`; never calls a provider.
   */
  async compress(context: CompressionContext): Promise<CompressionResult> {
    const { history } = context;
    const { settings } = context;
    const threshold = settings['compression-threshold'] ?? this.trigger.defaultThreshold;
    const targetTokens = targetWithRoomForPending(
      topDownTargetTokens(threshold, settings.contextLimit),
      context,
    );
    const entryTokens = await countEntries(history, context.estimateTokens);
    const plan = planTopDownTruncation({ history, entryTokens, targetTokens });
    const base: CompressionResultMetadata = {
      originalMessageCount: history.length,
      compressedMessageCount: history.length,
      strategyUsed: this.name,
      llmCallMade: false,
      targetTokens,
    };
    if (plan.kind === 'noop') {
      return { kind: 'noop', reason: plan.reason, newHistory: history, metadata: base };
    }
    const newHistory = history.slice(plan.dropCount);
    context.logger.debug('top-down truncation dropped the oldest entries', {
      dropped: plan.dropCount,
      totalTokens: plan.totalTokens,
      remainingTokens: plan.remainingTokens,
      targetTokens,
    });
    return {
      kind: 'applied',
      newHistory,
      metadata: {
        ...base,
        compressedMessageCount: newHistory.length,
        entriesDropped: plan.dropCount,
        bottomPreserved: newHistory.length,
      },
    };
  }
}
