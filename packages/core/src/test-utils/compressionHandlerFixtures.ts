/**
 * Shared fixtures of the CompressionHandler tests: a scripted strategy that logs what runs, an
 * empty density result, and a handler over a one-token-per-character history.
 */
import { vi } from 'vitest';
import { ai } from './historyBuilders.js';
import { testCompressionHandler } from './testCompressionHandler.js';
import { HistoryService } from '../services/history/HistoryService.js';
import type { IContent } from '../services/history/IContent.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import {
  EMPTY_DENSITY_METADATA,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type DensityConfig,
  type DensityResult,
} from '../core/compression/types.js';

/** One token per character: easy arithmetic. */
export const chars: TokenCounter = { countText: (text) => text.length };

interface FakeStrategyOptions {
  readonly optimize?: (history: readonly IContent[], config: DensityConfig) => DensityResult;
  readonly compress?: (context: CompressionContext) => Promise<CompressionResult>;
  readonly defaultThreshold?: number;
  readonly log?: string[];
}

export function fakeStrategy(options: FakeStrategyOptions = {}): CompressionStrategy {
  const log = options.log ?? [];
  const strategy: CompressionStrategy = {
    name: 'high-density',
    requiresLLM: false,
    trigger: { mode: 'continuous', defaultThreshold: options.defaultThreshold ?? 0.85 },
    compress: vi.fn(async (context: CompressionContext) => {
      log.push(`compress@${context.currentTokenCount}`);
      if (options.compress) return options.compress(context);
      const newHistory = context.history.slice(-1);
      return {
        kind: 'applied' as const,
        newHistory,
        metadata: {
          originalMessageCount: context.history.length,
          compressedMessageCount: newHistory.length,
          strategyUsed: 'high-density' as const,
          llmCallMade: false,
        },
      };
    }),
  };
  if (options.optimize) {
    const optimize = options.optimize;
    strategy.optimize = vi.fn((history: readonly IContent[], config: DensityConfig) => {
      log.push('optimize');
      return optimize(history, config);
    });
  }
  return strategy;
}

/** A compress() that changes nothing (`tail-covers-all`): what is over the limit stays over. */
export const changesNothing = (context: CompressionContext): Promise<CompressionResult> =>
  Promise.resolve({
    kind: 'noop',
    reason: 'tail-covers-all',
    newHistory: context.history,
    metadata: {
      originalMessageCount: context.history.length,
      compressedMessageCount: context.history.length,
      strategyUsed: 'high-density',
      llmCallMade: false,
    },
  });

export const nothing = (): DensityResult => ({
  removals: [],
  replacements: new Map(),
  metadata: EMPTY_DENSITY_METADATA,
});

interface Setup {
  readonly entries?: readonly IContent[];
  readonly settings?: EphemeralSettings;
  readonly strategy: CompressionStrategy;
  readonly counter?: TokenCounter;
  readonly todos?: () => never[] | { id: string; content: string; status: 'pending' }[];
  readonly reserve?: number;
  readonly now?: () => number;
}

export async function setup({
  entries = [],
  settings = {},
  strategy,
  counter = chars,
  todos,
  reserve = 0,
  now,
}: Setup) {
  const history = new HistoryService({ tokenCounter: counter });
  history.addAll(entries);
  await history.waitForTokenUpdates();
  const { handler, runtime } = testCompressionHandler({
    history,
    settings: { 'context-limit': 1000, ...settings },
    transcriptPath: '/state/session.jsonl',
    overrides: {
      resolveStrategy: () => strategy,
      completionReserve: () => reserve,
      ...(todos === undefined ? {} : { activeTodos: todos }),
      ...(now === undefined ? {} : { now }),
    },
  });
  return { history, handler, runtime };
}

/**
 * Filler of `n` tokens that a compression may drop: the model's text (a user's message would be
 * pinned back by the trail keeper, whatever its size).
 */
export const big = (n: number) => ai('x'.repeat(n));
