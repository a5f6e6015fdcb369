/**
 * The shell every peer-baseline policy shares: its own `optimize()` (a pure edit of the history,
 * as the peer does it) and, past the threshold, the compression of a classic strategy as the
 * fallback, so that a replay at a small context limit never overflows for lack of one.
 */
import type { IContent } from '../../services/history/IContent.js';
import {
  EMPTY_DENSITY_METADATA,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type DensityConfig,
  type DensityResult,
  type StrategyTrigger,
} from '../../core/compression/types.js';

/** The edits a baseline makes: replacements by raw index (baselines never remove entries). */
export type BaselineEdit = (
  history: readonly IContent[],
  config: DensityConfig,
) => ReadonlyMap<number, IContent>;

/** What a baseline may know about the live session besides the history. */
export interface BaselinePorts {
  /** The settled token total of the history now. */
  readonly contextTokens: () => number;
  readonly contextLimit: () => number;
}

export class BaselineStrategy implements CompressionStrategy {
  readonly name: CompressionStrategy['name'];
  readonly requiresLLM: boolean;
  readonly trigger: StrategyTrigger;

  constructor(
    private readonly edit: BaselineEdit,
    private readonly fallback: CompressionStrategy,
  ) {
    this.name = fallback.name;
    this.requiresLLM = fallback.requiresLLM;
    this.trigger = { mode: 'continuous', defaultThreshold: fallback.trigger.defaultThreshold };
  }

  optimize(history: readonly IContent[], config: DensityConfig): DensityResult {
    const replacements = this.edit(history, config);
    return { removals: [], replacements, metadata: EMPTY_DENSITY_METADATA };
  }

  compress(context: CompressionContext): Promise<CompressionResult> {
    return this.fallback.compress(context);
  }
}
