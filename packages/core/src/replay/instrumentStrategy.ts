/**
 * Wraps a compression strategy so the replay can watch it: how long each `optimize()` takes, and
 * the history as it was before a density edit or a compression, so the engine can tell which
 * exposures the edit removed. Behaviour is unchanged: every call is passed through.
 */
import type { IContent } from '../services/history/IContent.js';
import {
  entryMethodsOf,
  isEmptyDensityResult,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type DensityConfig,
  type DensityResult,
} from '../core/compression/types.js';

export interface StrategyObserver {
  /**
   * `optimize()` returned after `elapsedMs`. `before` is a copy of the history it saw when the
   * result edits it (undefined for an empty result).
   */
  optimized(
    result: DensityResult,
    elapsedMs: number,
    before: readonly IContent[] | undefined,
  ): void;
  /** `compress()` is about to run on the current history. */
  compressing(): void;
}

export function instrumentStrategy(
  strategy: CompressionStrategy,
  observer: StrategyObserver,
  now: () => number,
): CompressionStrategy {
  const inner = strategy;
  const wrapped: CompressionStrategy = {
    name: inner.name,
    requiresLLM: inner.requiresLLM,
    trigger: inner.trigger,
    ...entryMethodsOf(inner),
    // What a compression would leave: the density schedule prices a pressure batch against it.
    ...(inner.compressedTokensAtMost === undefined
      ? {}
      : { compressedTokensAtMost: inner.compressedTokensAtMost.bind(inner) }),
    ...(inner.compactionDueTokens === undefined
      ? {}
      : { compactionDueTokens: inner.compactionDueTokens.bind(inner) }),
    ...(inner.compactionFinishDue === undefined
      ? {}
      : { compactionFinishDue: inner.compactionFinishDue.bind(inner) }),
    compress(context: CompressionContext): Promise<CompressionResult> {
      observer.compressing();
      return inner.compress(context);
    },
  };
  if (inner.optimize === undefined) return wrapped;
  const optimize = inner.optimize.bind(inner);
  return {
    ...wrapped,
    optimize(history: readonly IContent[], config: DensityConfig): DensityResult {
      const start = now();
      const result = optimize(history, config);
      const elapsed = now() - start;
      observer.optimized(result, elapsed, isEmptyDensityResult(result) ? undefined : [...history]);
      return result;
    },
  };
}
