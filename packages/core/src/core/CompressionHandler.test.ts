import { testCompressionHandler } from '../test-utils/testCompressionHandler.js';
import { describe, expect, it, vi } from 'vitest';
import { ai, human, readFile } from '../test-utils/historyBuilders.js';
import { HistoryService } from '../services/history/HistoryService.js';
import { createAiMessage, createUserMessage, type IContent } from '../services/history/IContent.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import {
  EMPTY_DENSITY_METADATA,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type DensityConfig,
  type DensityResult,
} from './compression/types.js';
import { ContextOverflowError } from './chatTypes.js';

/** One token per character: easy arithmetic. */
const chars: TokenCounter = { countText: (text) => text.length };

interface FakeStrategyOptions {
  readonly optimize?: (history: readonly IContent[], config: DensityConfig) => DensityResult;
  readonly compress?: (context: CompressionContext) => Promise<CompressionResult>;
  readonly defaultThreshold?: number;
  readonly log?: string[];
}

function fakeStrategy(options: FakeStrategyOptions = {}): CompressionStrategy {
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

const nothing = (): DensityResult => ({
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

async function setup({
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

const big = (n: number) => human('x'.repeat(n));

describe('CompressionHandler.ensureCompressionBeforeSend', () => {
  it('REQ-HD-002.1 runs density after settling tokens and before the threshold check, which sees the post-density count', async () => {
    const log: string[] = [];
    // 900 tokens of 1000 (threshold 0.85): over. Density removes 400 → 500: under, so no compress.
    const strategy = fakeStrategy({
      log,
      optimize: () => ({
        removals: [1],
        replacements: new Map(),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const { handler, history } = await setup({ entries: [big(500), big(400)], strategy });
    const shouldCompress = vi.spyOn(handler, 'shouldCompress');
    await handler.ensureCompressionBeforeSend('p');
    expect(log).toEqual(['optimize']);
    expect(shouldCompress).toHaveBeenCalled();
    expect(history.getTotalTokens()).toBe(500);
  });

  it('REQ-HD-002.1 compresses when still over the threshold after density, with the density edit already applied', async () => {
    const log: string[] = [];
    const strategy = fakeStrategy({
      log,
      optimize: () => ({
        removals: [0],
        replacements: new Map(),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const { handler } = await setup({ entries: [big(100), big(880), big(20)], strategy });
    await handler.ensureCompressionBeforeSend('p');
    expect(log).toEqual(['optimize', 'compress@900']);
  });

  it('the threshold check counts the pending message', async () => {
    const log: string[] = [];
    const { handler } = await setup({ entries: [big(800)], strategy: fakeStrategy({ log }) });
    expect(handler.shouldCompress(0)).toBe(false);
    expect(handler.shouldCompress(60)).toBe(true);
    await handler.ensureCompressionBeforeSend('p', 60);
    expect(log).toEqual(['compress@800']);
  });

  it('REQ-HD-002.2 skips density when the strategy has no optimize', async () => {
    const strategy = fakeStrategy();
    const { handler, history } = await setup({ entries: [big(10)], strategy });
    const apply = vi.spyOn(history, 'applyDensityResult');
    await handler.ensureCompressionBeforeSend('p');
    expect(apply).not.toHaveBeenCalled();
    expect(strategy.optimize).toBeUndefined();
  });

  it('REQ-HD-002.3 skips density when nothing was added since the last run', async () => {
    const strategy = fakeStrategy({ optimize: nothing });
    const { handler } = await setup({ entries: [big(10)], strategy });
    await handler.ensureCompressionBeforeSend('p');
    await handler.ensureCompressionBeforeSend('p');
    expect(strategy.optimize).toHaveBeenCalledTimes(1);
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p');
    expect(strategy.optimize).toHaveBeenCalledTimes(2);
  });

  it('REQ-HD-002.4 applies a non-empty result and awaits the recalculation', async () => {
    const replacement = createUserMessage('short');
    const strategy = fakeStrategy({
      optimize: () => ({
        removals: [],
        replacements: new Map([[0, replacement]]),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const { handler, history } = await setup({ entries: [big(300)], strategy });
    await handler.ensureDensityOptimized();
    expect(history.getRawHistory()[0]).toBe(replacement);
    expect(history.getTotalTokens()).toBe(5);
  });

  it('REQ-HD-002.5 does not call applyDensityResult for an empty result', async () => {
    const strategy = fakeStrategy({ optimize: nothing });
    const { handler, history } = await setup({ entries: [big(10)], strategy });
    const apply = vi.spyOn(history, 'applyDensityResult');
    await handler.ensureDensityOptimized();
    expect(strategy.optimize).toHaveBeenCalledTimes(1);
    expect(apply).not.toHaveBeenCalled();
  });

  it('REQ-HD-002.6 neither a density edit nor a compression sets the dirty flag', async () => {
    const strategy = fakeStrategy({
      optimize: (h) => ({
        removals: h.length > 1 ? [0] : [],
        replacements: new Map(),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const { handler } = await setup({ entries: [big(10), big(10)], strategy });
    await handler.ensureDensityOptimized();
    expect(handler.isDensityDirty()).toBe(false);
    await handler.performCompression('p');
    expect(handler.isDensityDirty()).toBe(false);
    handler.markDirty();
    expect(handler.isDensityDirty()).toBe(true);
  });

  it('REQ-HD-002.7 clears the dirty flag after optimization even when nothing changed', async () => {
    const { handler } = await setup({
      entries: [big(10)],
      strategy: fakeStrategy({ optimize: nothing }),
    });
    expect(handler.isDensityDirty()).toBe(true);
    await handler.ensureDensityOptimized();
    expect(handler.isDensityDirty()).toBe(false);
  });

  it('REQ-HD-002.8 the emergency path (over the hard limit) runs density before compression', async () => {
    const log: string[] = [];
    const strategy = fakeStrategy({
      log,
      optimize: () => ({ removals: [], replacements: new Map(), metadata: EMPTY_DENSITY_METADATA }),
    });
    // Threshold 1.0: the threshold check alone never fires for history below the limit.
    const { handler } = await setup({
      entries: [big(700), big(100)],
      settings: { 'compression-threshold': 1 },
      strategy,
      reserve: 150,
    });
    await handler.ensureCompressionBeforeSend('p', 100);
    expect(log).toEqual(['optimize', 'compress@800']);
  });

  it('the emergency path throws a typed overflow error with the numbers when nothing makes room (mid-turn, the newest entry alone is over)', async () => {
    const strategy = fakeStrategy({
      compress: (context) =>
        Promise.resolve({
          kind: 'noop' as const,
          reason: 'tail-covers-all' as const,
          newHistory: context.history,
          metadata: {
            originalMessageCount: 1,
            compressedMessageCount: 1,
            strategyUsed: 'high-density' as const,
            llmCallMade: false,
          },
        }),
    });
    const { handler } = await setup({ entries: [big(1000)], strategy, reserve: 100 });
    const error = await handler.ensureCompressionBeforeSend('p', 0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(error).toMatchObject({
      code: 'CONTEXT_OVERFLOW',
      neededTokens: 1100,
      contextLimit: 1000,
    });
    expect((error as Error).message).toContain('1100 tokens');
  });

  it('#12.2 a message that cannot fit even in an empty history is refused before any compression; history unchanged', async () => {
    const log: string[] = [];
    const strategy = fakeStrategy({ log, optimize: nothing });
    const entries = Array.from({ length: 24 }, (_, i) =>
      i % 2 === 0 ? big(30) : ai('y'.repeat(30)),
    );
    const { handler, history } = await setup({ entries, strategy, reserve: 100 });
    const before = history.getCurated();
    const error = await handler.ensureCompressionBeforeSend('p', 1500).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(error).toMatchObject({ messageAloneTooLarge: true, contextLimit: 1000 });
    expect((error as Error).message).toContain('history is unchanged');
    expect(log.filter((l) => l.startsWith('compress'))).toEqual([]);
    expect(history.getCurated()).toEqual(before);
    expect(history.length).toBe(24);
  });

  it('#12.2 a message that fits an emptier history still compresses (the guard is only for the impossible)', async () => {
    const log: string[] = [];
    const strategy = fakeStrategy({ log });
    const { handler } = await setup({ entries: [big(700), big(100)], strategy, reserve: 100 });
    await handler.ensureCompressionBeforeSend('p', 500);
    expect(log).toEqual(['compress@800']);
  });

  it('builds DensityConfig from the live density settings and the workspace root', async () => {
    let seen: DensityConfig | undefined;
    const strategy = fakeStrategy({
      optimize: (_h, config) => {
        seen = config;
        return nothing();
      },
    });
    const { handler } = await setup({
      entries: [big(10)],
      strategy,
      settings: {
        'compression.density.recencyPruning': true,
        'compression.density.recencyRetention': 5,
        'compression.density.shellFileOps': true,
        'compression.density.fileDedupe': false,
      },
    });
    await handler.ensureDensityOptimized();
    expect(seen).toEqual({
      passes: { readWrite: true, dedup: false, recency: true },
      recencyRetention: 5,
      shellFileOps: true,
      pointerStyle: 'recall',
      workspaceRoot: '/ws',
    });
  });

  it('REQ-HD-002.9 optimize receives the raw history (with empty AI entries) and its indices apply to it', async () => {
    const empty = createAiMessage([]);
    const entries = [human('q'), empty, ...readFile('r', 'a.ts', 'A'.repeat(50)), ai('end')];
    let seen: readonly IContent[] = [];
    const strategy = fakeStrategy({
      optimize: (h) => {
        seen = [...h];
        return { removals: [2, 3], replacements: new Map(), metadata: EMPTY_DENSITY_METADATA };
      },
    });
    const { handler, history } = await setup({ entries, strategy });
    await handler.ensureDensityOptimized();
    expect(seen).toHaveLength(5);
    expect(seen[1]).toBe(empty);
    expect(history.getRawHistory()).toEqual([entries[0], empty, entries[4]]);
  });

  it('REQ-HD-001.10 threshold precedence: session setting, then profile, then the strategy default', async () => {
    const strategy = fakeStrategy({ defaultThreshold: 0.5 });
    const { handler, runtime } = await setup({ entries: [big(600)], strategy });
    expect(handler.compressionThreshold()).toBe(0.5);
    expect(handler.shouldCompress()).toBe(true);
    runtime.settings.replaceProfileLayer({ 'context-limit': 1000, 'compression-threshold': 0.7 });
    expect(handler.compressionThreshold()).toBe(0.7);
    expect(handler.shouldCompress()).toBe(false);
    runtime.settings.setFromString('compression-threshold', '0.55');
    expect(handler.compressionThreshold()).toBe(0.55);
    expect(handler.shouldCompress()).toBe(true);
  });
});

describe('CompressionHandler failure modes', () => {
  it('REQ-HD-013.1 an exception from optimize propagates', async () => {
    const strategy = fakeStrategy({
      optimize: () => {
        throw new Error('optimize broke');
      },
    });
    const { handler } = await setup({ entries: [big(10)], strategy });
    await expect(handler.ensureCompressionBeforeSend('p')).rejects.toThrow('optimize broke');
  });

  it('REQ-HD-013.2 an invalid density result propagates the apply error and leaves history unchanged', async () => {
    const strategy = fakeStrategy({
      optimize: () => ({
        removals: [7],
        replacements: new Map(),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const entries = [big(10)];
    const { handler, history } = await setup({ entries, strategy });
    await expect(handler.ensureCompressionBeforeSend('p')).rejects.toMatchObject({
      code: 'DENSITY_INDEX_OUT_OF_BOUNDS',
    });
    expect(history.getRawHistory()).toEqual(entries);
  });

  it('REQ-HD-013.3 a token recalculation failure after density propagates', async () => {
    let fail = false;
    const counter: TokenCounter = {
      countText: (text) => {
        if (fail) throw new Error('tokenizer down');
        return text.length;
      },
    };
    const strategy = fakeStrategy({
      optimize: () => ({
        removals: [],
        replacements: new Map([[0, human('new text')]]),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const { handler } = await setup({ entries: [big(10)], strategy, counter });
    fail = true;
    await expect(handler.ensureCompressionBeforeSend('p')).rejects.toThrow('tokenizer down');
  });

  it('REQ-HD-013.4 a compression failure propagates and leaves the history as it was', async () => {
    const strategy = fakeStrategy({
      compress: () => Promise.reject(new Error('summarizer unavailable')),
    });
    const entries = [big(900)];
    const { handler, history } = await setup({ entries, strategy });
    await expect(handler.ensureCompressionBeforeSend('p')).rejects.toThrow(
      'summarizer unavailable',
    );
    expect(history.getRawHistory()).toEqual(entries);
    expect(history.isCompressing()).toBe(false);
  });
});

describe('CompressionHandler compression', () => {
  it('builds the context from the curated history with todos, transcript path and prompt facts', async () => {
    let context: CompressionContext | undefined;
    const strategy = fakeStrategy({
      compress: (c) => {
        context = c;
        return Promise.resolve({
          kind: 'noop' as const,
          reason: 'too-few-to-compress' as const,
          newHistory: c.history,
          metadata: {
            originalMessageCount: 0,
            compressedMessageCount: 0,
            strategyUsed: 'high-density' as const,
            llmCallMade: false,
          },
        });
      },
    });
    const todos = [{ id: 't1', content: 'fix bug', status: 'pending' as const }];
    const { handler } = await setup({
      entries: [human('q'), createAiMessage([]), ai('a')],
      strategy,
      todos: () => todos,
    });
    await handler.performCompression('prompt-7');
    expect(context?.history).toHaveLength(2);
    expect(context?.activeTodos).toEqual(todos);
    expect(context?.transcriptPath).toBe('/state/session.jsonl');
    expect(context?.promptId).toBe('prompt-7');
    expect(context?.promptContext.workspaceRoot).toBe('/ws');
  });

  it('replaces the history with an applied result and reports before/after tokens', async () => {
    const { handler, history } = await setup({
      entries: [big(500), big(300), ai('tail')],
      strategy: fakeStrategy(),
    });
    const events: number[][] = [];
    handler.events.on('compressed', (e) => events.push([e.tokensBefore, e.tokensAfter]));
    const event = await handler.performCompression('p');
    expect(event.result.kind).toBe('applied');
    expect(history.getRawHistory()).toHaveLength(1);
    expect(events).toEqual([[804, 4]]);
  });

  it('one compression leaves real headroom: the next check does not compress again', async () => {
    const log: string[] = [];
    const { handler } = await setup({
      entries: [big(500), big(400), ai('tail')],
      strategy: fakeStrategy({ log }),
    });
    await handler.ensureCompressionBeforeSend('p');
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p');
    expect(log.filter((l) => l.startsWith('compress'))).toHaveLength(1);
  });

  it('#14 a compression before a large message leaves room for it: one rewrite, the message fits', async () => {
    const log: string[] = [];
    const pendings: (number | undefined)[] = [];
    const strategy = fakeStrategy({
      log,
      compress: async (context) => {
        pendings.push(context.pendingTokens);
        // Drops the oldest entries until history + the pending message is at 60% of 1000.
        let kept = [...context.history];
        const room = 600 - (context.pendingTokens ?? 0);
        while (kept.length > 1 && (await context.estimateTokens(kept)) > room) kept = kept.slice(1);
        return {
          kind: 'applied',
          newHistory: kept,
          metadata: {
            originalMessageCount: context.history.length,
            compressedMessageCount: kept.length,
            strategyUsed: 'high-density',
            llmCallMade: false,
          },
        };
      },
    });
    const { handler, history } = await setup({
      entries: [big(200), big(200), big(200), big(100), ai('tail')],
      strategy,
    });
    await handler.ensureCompressionBeforeSend('p', 400);
    expect(pendings).toEqual([400]);
    history.add(big(396));
    await history.waitForTokenUpdates();
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p');
    expect(log.filter((l) => l.startsWith('compress'))).toHaveLength(1);
    expect(history.getTotalTokens()).toBeLessThan(850);
  });

  it('concurrent compressions join into one', async () => {
    const strategy = fakeStrategy();
    const { handler } = await setup({ entries: [big(10), ai('x')], strategy });
    await Promise.all([handler.performCompression('a'), handler.performCompression('b')]);
    expect(strategy.compress).toHaveBeenCalledTimes(1);
  });

  it('reports each density edit with tokens attributed to passes and the first edited index', async () => {
    const strategy = fakeStrategy({
      optimize: () => ({
        removals: [1, 2],
        replacements: new Map(),
        metadata: { ...EMPTY_DENSITY_METADATA, readWrite: 1 },
      }),
    });
    const entries = [human('q'), ...readFile('r', 'a.ts', 'A'.repeat(40)), ai('done')];
    const { handler, history } = await setup({ entries, strategy });
    const before = history.getTotalTokens();
    const seen: unknown[] = [];
    handler.events.on('densityApplied', (e) => seen.push(e));
    await handler.ensureDensityOptimized();
    expect(seen).toEqual([
      expect.objectContaining({
        firstEditedIndex: 1,
        tokensBefore: before,
        tokensAfter: history.getTotalTokens(),
        removedTokens: { readWrite: before - history.getTotalTokens(), dedup: 0, recency: 0 },
      }),
    ]);
  });
});

describe('CompressionHandler batched density schedule (issue 14.3, compression.density.schedule)', () => {
  /** Removes the entry at index 1 (a deep, small edit in a long history). */
  const removeSecond = () =>
    fakeStrategy({
      optimize: (h) => ({
        removals: h.length > 3 ? [1] : [],
        replacements: new Map(),
        metadata: { ...EMPTY_DENSITY_METADATA, readWrite: 1 },
      }),
    });
  const cacheAware = { 'context-limit': 100_000 } as const;

  async function afterOneSend(
    strategy: CompressionStrategy,
    now: { t: number },
    settings: EphemeralSettings = cacheAware,
    reserve = 0,
  ) {
    const entries = [big(10), big(5), big(3000), big(3000)];
    const { handler, history } = await setup({
      entries: entries.slice(0, 3),
      strategy,
      settings,
      reserve,
      now: () => now.t,
    });
    await handler.ensureCompressionBeforeSend('p'); // first send: nothing cached yet, applied
    history.add(entries[3]!);
    handler.markDirty();
    return { handler, history };
  }

  it('defers a small edit deep in cached history and keeps the flag set', async () => {
    const now = { t: 0 };
    const { handler, history } = await afterOneSend(removeSecond(), now);
    const deferred: unknown[] = [];
    handler.events.on('densityDeferred', (e) => deferred.push(e));
    const lengthBefore = history.length;
    now.t = 1000;
    await handler.ensureCompressionBeforeSend('p');
    expect(history.length).toBe(lengthBefore);
    expect(deferred).toEqual([
      // The 10 tokens before the edit are under the 1,024-token minimum: the whole prompt goes.
      expect.objectContaining({ removedTokens: 5, invalidatedTokens: 3015 }),
    ]);
    expect(handler.isDensityDirty()).toBe(true);
  });

  it('applies the deferred edit once the prompt cache has gone cold', async () => {
    const now = { t: 0 };
    const { handler, history } = await afterOneSend(removeSecond(), now);
    const lengthBefore = history.length;
    now.t = 10 * 60 * 1000;
    await handler.ensureCompressionBeforeSend('p');
    expect(history.length).toBe(lengthBefore - 1);
  });

  it('applies it when the context reaches the threshold, which here avoids compressing at all', async () => {
    const log: string[] = [];
    const strategy = fakeStrategy({
      log,
      optimize: (h) => ({
        removals: h.length > 3 ? [2] : [],
        replacements: new Map(),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const now = { t: 0 };
    const settings = { 'context-limit': 4000 } as const;
    const { handler, history } = await afterOneSend(strategy, now, settings);
    now.t = 1000;
    // 10 + 5 + 3000 + 3000 = 6015 ≥ 0.85 × 4000: under pressure, so the edit is applied → 3015.
    await handler.ensureCompressionBeforeSend('p');
    expect(log.filter((l) => l.startsWith('compress'))).toEqual([]);
    expect(history.getTotalTokens()).toBe(3015);
  });

  it('REQ-HD-002.8 #12.7 the emergency path applies a deferred edit, and skips compression when that made room', async () => {
    const log: string[] = [];
    // Removes entry 1 (500 tokens, deep under 3,500 cached ones): it does not pay back, so a
    // density step that is not under pressure defers it.
    const strategy = fakeStrategy({
      log,
      optimize: (h) => ({
        removals: h.length > 3 ? [1] : [],
        replacements: new Map(),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const now = { t: 0 };
    const { handler, history } = await setup({
      entries: [big(10), big(500), big(3000)],
      strategy,
      settings: {
        'compression.density.cacheAware': true,
        'compression-threshold': 1,
        'context-limit': 7000,
      },
      reserve: 300,
      now: () => now.t,
    });
    await handler.ensureCompressionBeforeSend('p');
    history.add(big(3000));
    handler.markDirty();
    now.t = 1000;
    const deferred: unknown[] = [];
    handler.events.on('densityDeferred', (e) => deferred.push(e));
    // 6510 + 300 pending < 7000 (threshold 1.0: no pressure, the edit is deferred), but with the
    // 300-token reserve it is over the hard limit; the deferred edit alone makes room.
    await handler.ensureCompressionBeforeSend('p', 300);
    expect(deferred).toHaveLength(1);
    expect(history.getTotalTokens()).toBe(6010);
    expect(log.filter((l) => l.startsWith('compress'))).toEqual([]);
  });

  it('#14.4 with schedule immediate every non-empty result is applied at once (REQ-HD-002.4)', async () => {
    const now = { t: 0 };
    const { handler, history } = await afterOneSend(removeSecond(), now, {
      'context-limit': 100_000,
      'compression.density.schedule': 'immediate',
    });
    const lengthBefore = history.length;
    now.t = 1000;
    await handler.ensureCompressionBeforeSend('p');
    expect(history.length).toBe(lengthBefore - 1);
  });
});
