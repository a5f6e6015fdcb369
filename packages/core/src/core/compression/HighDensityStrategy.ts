/**
 * PLACEHOLDER — the high-density strategy is being built (issue 4). This stub only fixes the
 * class's identity so the factory can import it; it must be replaced, not extended.
 */
import type {
  CompressionContext,
  CompressionResult,
  CompressionStrategy,
  StrategyTrigger,
} from './types.js';

export class HighDensityStrategy implements CompressionStrategy {
  readonly name = 'high-density' as const;
  readonly requiresLLM = false;
  readonly trigger: StrategyTrigger = { mode: 'continuous', defaultThreshold: 0.85 };

  compress(_context: CompressionContext): Promise<CompressionResult> {
    return Promise.reject(new Error('HighDensityStrategy is not implemented yet'));
  }
}
