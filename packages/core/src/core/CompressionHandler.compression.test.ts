import { describe, expect, it } from 'vitest';
import { ai, human, readFile } from '../test-utils/historyBuilders.js';
import { createAiMessage } from '../services/history/IContent.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import { EMPTY_DENSITY_METADATA, type CompressionContext } from './compression/types.js';
import { big, fakeStrategy, setup } from '../test-utils/compressionHandlerFixtures.js';

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
