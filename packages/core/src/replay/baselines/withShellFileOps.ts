/**
 * A density strategy with READ→WRITE extended to unambiguous shell reads and writes
 * (`DensityConfig.shellFileOps`), whatever the settings say: the "high-density + shell" policy.
 */
import { entryMethodsOf, type CompressionStrategy } from '../../core/compression/types.js';

export function withShellFileOps(strategy: CompressionStrategy): CompressionStrategy {
  const optimize = strategy.optimize?.bind(strategy);
  if (optimize === undefined) return strategy;
  return {
    name: strategy.name,
    requiresLLM: strategy.requiresLLM,
    trigger: strategy.trigger,
    ...entryMethodsOf(strategy),
    // What a compression would leave: the density schedule prices a pressure batch against it.
    ...(strategy.compressedTokensAtMost === undefined
      ? {}
      : { compressedTokensAtMost: strategy.compressedTokensAtMost.bind(strategy) }),
    ...(strategy.compactionDueTokens === undefined
      ? {}
      : { compactionDueTokens: strategy.compactionDueTokens.bind(strategy) }),
    ...(strategy.compactionFinishDue === undefined
      ? {}
      : { compactionFinishDue: strategy.compactionFinishDue.bind(strategy) }),
    compress: (context) => strategy.compress(context),
    optimize: (history, config) => optimize(history, { ...config, shellFileOps: true }),
  };
}
