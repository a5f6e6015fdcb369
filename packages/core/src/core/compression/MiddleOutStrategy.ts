/**
 * Middle-out compression (LLM): keeps the oldest and the newest entries literally and replaces
 * the middle with a `<state_snapshot>` summary. Runs only past the threshold.
 */
import { compressWithSummary } from './compressWithSummary.js';
import { planMiddleOutSplit } from './planSummarySplit.js';
import type {
  CompressionContext,
  CompressionResult,
  CompressionStrategy,
  StrategyTrigger,
} from './types.js';

export class MiddleOutStrategy implements CompressionStrategy {
  readonly name = 'middle-out' as const;
  readonly requiresLLM = true;
  readonly trigger: StrategyTrigger = { mode: 'threshold', defaultThreshold: 0.85 };

  /**
   * Keeps `compression.topPreserveThreshold` of the oldest and `compression.preserveThreshold`
   * of the newest entries (tool-call-safe cuts) and summarizes the rest with one LLM call. A
   * no-op without an LLM call when fewer than 4 entries lie between. Provider, prompt and
   * empty-summary errors propagate.
   */
  compress(context: CompressionContext): Promise<CompressionResult> {
    const { settings } = context;
    const plan = planMiddleOutSplit(context.history, {
      topPreserveThreshold: settings['compression.topPreserveThreshold'],
      preserveThreshold: settings['compression.preserveThreshold'],
    });
    return compressWithSummary(context, this.name, plan);
  }
}
