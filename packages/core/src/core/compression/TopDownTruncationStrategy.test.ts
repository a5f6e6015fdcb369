import { describe, expect, it } from 'vitest';
import type { IContent } from '../../services/history/IContent.js';
import { charEstimateTokenCounter } from '../../services/history/TokenCounter.js';
import { human, makeCompressionContext, toolRoundTrip } from '../../test-utils/index.js';
import { TopDownTruncationStrategy } from './TopDownTruncationStrategy.js';

/** 40 characters → 10 tokens with the chars/4 counter. */
const TEN_TOKENS = 'x'.repeat(40);

function entries(n: number): IContent[] {
  return Array.from({ length: n }, () => human(TEN_TOKENS));
}

function throwingProvider(): never {
  throw new Error('top-down truncation must not call an LLM');
}

async function context(history: readonly IContent[], settings = {}) {
  return makeCompressionContext({
    history,
    tokenCounter: charEstimateTokenCounter,
    resolveProvider: throwingProvider,
    settings: { 'context-limit': 1000, ...settings },
  });
}

describe('TopDownTruncationStrategy.compress', () => {
  it('aims at default threshold 0.85 × context limit × 0.6', async () => {
    // 100 entries × 10 tokens = 1000; target floor(0.85 × 1000 × 0.6) = 510 → keep 51.
    const ctx = await context(entries(100));
    const result = await new TopDownTruncationStrategy().compress(ctx);
    expect(result.kind).toBe('applied');
    expect(result.newHistory).toEqual(ctx.history.slice(49));
    expect(result.newHistory[0]).toBe(ctx.history[49]);
    expect(result.metadata).toEqual({
      originalMessageCount: 100,
      compressedMessageCount: 51,
      strategyUsed: 'top-down-truncation',
      llmCallMade: false,
      targetTokens: 510,
      entriesDropped: 49,
      bottomPreserved: 51,
    });
  });

  it('REQ-HD-001.10 uses the compression-threshold setting over the default', async () => {
    // target floor(0.5 × 1000 × 0.6) = 300 → keep 30.
    const result = await new TopDownTruncationStrategy().compress(
      await context(entries(100), { 'compression-threshold': 0.5 }),
    );
    expect(result.metadata.targetTokens).toBe(300);
    expect(result.newHistory).toHaveLength(30);
  });

  it('#14 leaves room for the message about to be added: 510 − 200 pending → keep 31', async () => {
    const ctx = { ...(await context(entries(100))), pendingTokens: 200 };
    const result = await new TopDownTruncationStrategy().compress(ctx);
    expect(result.metadata.targetTokens).toBe(310);
    expect(result.newHistory).toHaveLength(31);
  });

  it('is an already-under-target no-op when the history fits', async () => {
    const ctx = await context(entries(51));
    const result = await new TopDownTruncationStrategy().compress(ctx);
    expect(result).toMatchObject({ kind: 'noop', reason: 'already-under-target' });
    expect(result.newHistory).toBe(ctx.history);
  });

  it('keeps the newest 2 entries even when they alone exceed the target', async () => {
    const huge = [human(TEN_TOKENS), human('y'.repeat(4000)), human('z'.repeat(4000))];
    const result = await new TopDownTruncationStrategy().compress(await context(huge));
    expect(result.newHistory).toEqual(huge.slice(1));
    expect(result.metadata.entriesDropped).toBe(1);
  });

  it('drops a call entry together with its response', async () => {
    const history = [
      ...toolRoundTrip('c1', 'write_file', { content: 'y'.repeat(2000) }, 'ok'),
      ...entries(50),
    ];
    // ~500 (call) + 1 (response) + 500 tokens against a target of 510: dropping the call alone
    // would reach the target but orphan its response, so both go.
    const result = await new TopDownTruncationStrategy().compress(await context(history));
    expect(result.newHistory).toEqual(history.slice(2));
  });

  it('estimates each entry exactly once: O(n), no re-estimation per drop', async () => {
    const ctx = await context(entries(2000), { 'context-limit': 10_000 });
    let entriesEstimated = 0;
    let calls = 0;
    const counted = {
      ...ctx,
      estimateTokens: (contents: readonly IContent[]) => {
        calls++;
        entriesEstimated += contents.length;
        return ctx.estimateTokens(contents);
      },
    };
    const result = await new TopDownTruncationStrategy().compress(counted);
    // target 5100 → keep 510, drop 1490 entries.
    expect(result.metadata.entriesDropped).toBe(1490);
    expect(entriesEstimated).toBe(2000);
    expect(calls).toBe(2000);
  });

  it('REQ-HD-011.4 ignores active todos and the transcript path and never calls a provider', async () => {
    const history = entries(100);
    const plain = await new TopDownTruncationStrategy().compress(await context(history));
    const withTodos = await new TopDownTruncationStrategy().compress({
      ...(await context(history)),
      activeTodos: [{ id: 't', content: 'keep me', status: 'pending' }],
      transcriptPath: '/tmp/t.jsonl',
    });
    expect(withTodos).toEqual(plain);
    expect(JSON.stringify(withTodos.newHistory)).not.toContain('keep me');
  });

  it('is an empty-history no-op on an empty history', async () => {
    await expect(
      new TopDownTruncationStrategy().compress(await context([])),
    ).resolves.toMatchObject({ kind: 'noop', reason: 'empty-history' });
  });
});
