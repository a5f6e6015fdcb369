/**
 * One-shot compression (LLM): replaces everything before the preserved tail with one
 * `<state_snapshot>` summary. Runs only past the threshold.
 */
import { compressWithSummary } from './compressWithSummary.js';
import { planOneShotSplit } from './planSummarySplit.js';
import type {
  CompressionContext,
  CompressionResult,
  CompressionStrategy,
  StrategyTrigger,
} from './types.js';

export class OneShotStrategy implements CompressionStrategy {
  readonly name = 'one-shot' as const;
  readonly requiresLLM = true;
  readonly trigger: StrategyTrigger = { mode: 'threshold', defaultThreshold: 0.85 };

  /**
   * Keeps the newest `compression.preserveThreshold` of entries (tool-call-safe cut) and
   * summarizes all before them with one LLM call; a no-op when the tail covers everything.
   * Provider, prompt and empty-summary errors propagate.
   */
  compress(context: CompressionContext): Promise<CompressionResult> {
    const plan = planOneShotSplit(context.history, {
      preserveThreshold: context.settings['compression.preserveThreshold'],
    });
    return compressWithSummary(context, this.name, plan);
  }
}
