/**
 * The "none" policy: no density edits and no compression. Replays under it lift the context limit,
 * so every model call sees the whole recorded history; it is the reference the others are
 * measured against (cumulative input as % of none).
 */
import type {
  CompressionContext,
  CompressionResult,
  CompressionStrategy,
  StrategyTrigger,
} from '../../core/compression/types.js';

export class NoContextManagement implements CompressionStrategy {
  readonly name = 'middle-out' as const;
  readonly requiresLLM = false;
  readonly trigger: StrategyTrigger = { mode: 'threshold', defaultThreshold: 1 };

  compress(context: CompressionContext): Promise<CompressionResult> {
    const { history } = context;
    return Promise.resolve({
      kind: 'noop',
      reason: 'already-under-target',
      newHistory: history,
      metadata: {
        originalMessageCount: history.length,
        compressedMessageCount: history.length,
        strategyUsed: this.name,
        llmCallMade: false,
      },
    });
  }
}
