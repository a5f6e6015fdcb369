import { describe, expect, it } from 'vitest';
import { HighDensityStrategy } from './HighDensityStrategy.js';
import type { CompressionContext, CompressionResult } from './types.js';
import { makeCompressionContext } from '../../test-utils/compressionContext.js';
import {
  ai,
  human,
  toolCall,
  toolResult,
  toolRoundTrip,
} from '../../test-utils/historyBuilders.js';
import type { EphemeralSettings } from '../../settings/settingsRegistry.js';
import { charEstimateTokenCounter } from '../../services/history/TokenCounter.js';
import type { IContent, ToolResponseBlock } from '../../services/history/IContent.js';
import { deepFreeze } from './density/test-utils/deepFreeze.js';

const strategy = new HighDensityStrategy();
const big = (label: string, lines = 40) =>
  Array.from({ length: lines }, (_, i) => `${label} line ${i}: some file content here`).join('\n');

const noLlm = () => {
  throw new Error('high-density must not resolve a provider');
};

async function context(
  history: readonly IContent[],
  settings: EphemeralSettings = {},
): Promise<CompressionContext> {
  return makeCompressionContext({
    history: deepFreeze(history),
    settings: {
      'context-limit': 100_000,
      'compression.preserveThreshold': 0.4,
      // REQ-HD-008.3 as specified: summarize every result outside the tail (issue #11 keeps it
      // behind the spec-literal pointer style).
      'compression.density.pointerStyle': 'spec',
      // The spec's compress(): no working budget in front of it.
      'compression.density.workingBudget': 0,
      ...settings,
    },
    tokenCounter: charEstimateTokenCounter,
    resolveProvider: noLlm,
  });
}

function applied(result: CompressionResult) {
  if (result.kind !== 'applied') throw new Error(`expected applied, got noop (${result.reason})`);
  return result;
}

const responsesOf = (history: readonly IContent[]): ToolResponseBlock[] =>
  history.flatMap((e) =>
    e.blocks.filter((b): b is ToolResponseBlock => b.type === 'tool_response'),
  );

/** human, then `rounds` read/shell round trips (2 entries each). */
function session(rounds: number): IContent[] {
  const history: IContent[] = [human('Please fix the failing test.')];
  for (let i = 0; i < rounds; i++) {
    history.push(
      ...(i % 2 === 0
        ? toolRoundTrip(
            `r${i}`,
            'read_file',
            { file_path: `/workspace/src/f${i}.ts` },
            big(`f${i}`),
          )
        : toolRoundTrip(
            `s${i}`,
            'run_shell_command',
            { command: 'npm test' },
            `Output: ${big('test')}\n3 failed\nExit Code: 1`,
          )),
    );
  }
  return history;
}

describe('HighDensityStrategy.compress()', () => {
  it('REQ-HD-008.1 makes no LLM call (a provider resolver that throws is never called)', async () => {
    const result = applied(await strategy.compress(await context(session(6))));
    expect(result.metadata.llmCallMade).toBe(false);
    expect(strategy.requiresLLM).toBe(false);
  });

  it('REQ-HD-008.2 keeps the newest ceil(n × preserveThreshold) entries as the same objects', async () => {
    const history = session(6); // 13 entries → tail of ceil(5.2) = 6
    const result = applied(await strategy.compress(await context(history)));
    const tail = history.slice(7);
    expect(result.newHistory.slice(-6)).toEqual(tail);
    result.newHistory.slice(-6).forEach((entry, i) => expect(entry).toBe(tail[i]));
    expect(result.metadata.bottomPreserved).toBe(6);
  });

  it('REQ-HD-008.3 replaces each older tool result by a one-line summary built from its call', async () => {
    const history = session(6);
    const result = applied(await strategy.compress(await context(history)));
    expect(responsesOf(result.newHistory.slice(0, 7)).map((r) => r.result)).toEqual([
      '[read_file src/f0.ts — success, 40 lines]',
      '[run_shell_command npm test — error: exit 1, "3 failed"]',
      '[read_file src/f2.ts — success, 40 lines]',
    ]);
    expect(result.metadata.toolResponsesSummarized).toBe(3);
  });

  it('REQ-HD-008.3 keeps every other field of a summarized response', async () => {
    const history: IContent[] = [
      toolCall({ id: 'x', name: 'read_file', parameters: { file_path: 'a.ts' } }),
      {
        speaker: 'tool',
        blocks: [
          {
            type: 'tool_response',
            callId: 'x',
            toolName: 'read_file',
            result: big('a'),
            error: 'partial',
            isComplete: true,
          },
        ],
        metadata: { timestamp: 4 },
      },
      human('next'),
    ];
    const result = applied(
      await strategy.compress(await context(history, { 'compression.preserveThreshold': 0.2 })),
    );
    expect(result.newHistory[1]).toEqual({
      speaker: 'tool',
      blocks: [
        {
          type: 'tool_response',
          callId: 'x',
          toolName: 'read_file',
          result: '[read_file a.ts — error: partial, 40 lines]',
          error: 'partial',
          isComplete: true,
        },
      ],
      metadata: { timestamp: 4 },
    });
  });

  it('REQ-HD-008.4 keeps tool calls, human and AI entries as they were (same objects)', async () => {
    const history = [human('start'), ai('thinking out loud'), ...session(6)];
    const result = applied(await strategy.compress(await context(history)));
    const kept = result.newHistory.filter((e) => e.speaker !== 'tool');
    expect(kept).toEqual(history.filter((e) => e.speaker !== 'tool'));
    kept.forEach((entry) => expect(history).toContain(entry));
  });

  it('REQ-HD-008.5 returns an applied result with the new history and metadata', async () => {
    const history = session(6);
    const result = applied(await strategy.compress(await context(history)));
    expect(result.newHistory).toHaveLength(history.length);
    expect(result.metadata).toMatchObject({
      originalMessageCount: 13,
      compressedMessageCount: 13,
      strategyUsed: 'high-density',
      llmCallMade: false,
      toolResponsesSummarized: 3,
      entriesDropped: 0,
      targetTokens: 51_000,
    });
  });

  it('REQ-HD-008.6 targets threshold × context limit × headroom from the settings', async () => {
    const history = session(6);
    const cases: [EphemeralSettings, number][] = [
      [{}, 51_000],
      [{ 'compression-threshold': 0.5 }, 30_000],
      [{ 'compression-threshold': 0.5, 'compression.density.compressHeadroom': 0.5 }, 25_000],
      [{ 'context-limit': 10_000 }, 5_100],
    ];
    for (const [settings, target] of cases) {
      const result = await strategy.compress(await context(history, settings));
      expect(result.metadata.targetTokens).toBe(target);
    }
  });

  it('REQ-HD-008.6 drops the oldest head entries when summaries are not enough, never the tail', async () => {
    const history = [human(big('the original request', 60)), ...session(10)];
    const settings = { 'context-limit': 4_000, 'compression.preserveThreshold': 0.2 } as const;
    const ctx = await context(history, settings); // target 2040 tokens
    const result = applied(await strategy.compress(ctx));
    const total = await ctx.estimateTokens(result.newHistory);
    expect(await ctx.estimateTokens(history)).toBeGreaterThan(4_000);
    expect(total).toBeLessThanOrEqual(2_040);
    expect(result.metadata.entriesDropped).toBeGreaterThan(0);
    expect(result.newHistory).not.toContain(history[0]);
    const tailSize = Math.ceil(history.length * 0.2);
    expect(result.newHistory.slice(-tailSize)).toEqual(history.slice(-tailSize));
    expect(result.metadata.compressedMessageCount).toBe(
      history.length - (result.metadata.entriesDropped ?? 0),
    );
  });

  it('#14 leaves room for the message about to be added: the target is lowered by its tokens', async () => {
    // Human messages cannot be summarized: only dropping makes room.
    const history = Array.from({ length: 12 }, (_, i) => [
      human(big(`message ${i}`, 30)),
      ai('ok'),
    ]).flat();
    const settings = { 'context-limit': 4_000, 'compression.preserveThreshold': 0.1 } as const;
    const plain = await context(history, settings); // target 2040 tokens
    const pending = { ...(await context(history, settings)), pendingTokens: 900 };
    const without = applied(await strategy.compress(plain));
    const withRoom = applied(await strategy.compress(pending));
    expect(withRoom.metadata.targetTokens).toBe(2_040 - 900);
    expect(without.metadata.targetTokens).toBe(2_040);
    // Both stay under their own target (less the artifact trail's room); the pending one drops more.
    expect(await pending.estimateTokens(withRoom.newHistory)).toBeLessThanOrEqual(2_040 - 900);
    expect(withRoom.metadata.entriesDropped).toBeGreaterThan(without.metadata.entriesDropped ?? 0);
    // A message larger than the whole target: everything droppable goes, never below zero.
    const huge = { ...(await context(history, settings)), pendingTokens: 50_000 };
    expect(applied(await strategy.compress(huge)).metadata.targetTokens).toBe(0);
  });

  it('prior-art A7: drops a call together with its responses, never leaving an orphan', async () => {
    const history = [
      toolCall({ id: 'p', name: 'read_file', parameters: { file_path: 'a.ts' } }),
      human(big('a long interjection', 30)),
      toolResult({ id: 'p', name: 'read_file', result: big('a') }),
      ...session(4),
    ];
    // Dropping entry 0 alone (the call) would reach the target, but would orphan p's response.
    const result = applied(
      await strategy.compress(
        await context(history, { 'context-limit': 1_600, 'compression.preserveThreshold': 0.5 }),
      ),
    );
    const callIds = result.newHistory.flatMap((e) =>
      e.blocks.flatMap((b) => (b.type === 'tool_call' ? [b.id] : [])),
    );
    const answered = responsesOf(result.newHistory).map((r) => r.callId);
    expect(answered.every((id) => callIds.includes(id))).toBe(true);
    expect(callIds.every((id) => answered.includes(id))).toBe(true);
    expect(callIds).not.toContain('p');
  });

  it('prior-art A7: counts each entry a bounded number of times (no re-estimation per dropped entry)', async () => {
    const history = [human(big('request', 60)), ...session(30)];
    const ctx = await context(history, { 'context-limit': 2_000 });
    let calls = 0;
    let entriesCounted = 0;
    const counting: CompressionContext = {
      ...ctx,
      estimateTokens: (contents) => {
        calls++;
        entriesCounted += contents.length;
        return ctx.estimateTokens(contents);
      },
    };
    const result = applied(await strategy.compress(counting));
    expect(result.metadata.entriesDropped).toBeGreaterThan(5);
    // One estimate of everything, then each entry once: at most 2n entries counted, never n × drops.
    expect(entriesCounted).toBeLessThanOrEqual(2 * history.length);
    expect(calls).toBeLessThanOrEqual(history.length + 2);
  });

  it('prior-art A5: a pair straddling the tail boundary stays whole in the tail', async () => {
    const history = [
      human('start'),
      ...toolRoundTrip('a', 'read_file', { file_path: 'a.ts' }, big('a')),
      toolCall({ id: 'b', name: 'read_file', parameters: { file_path: 'b.ts' } }),
      human('wait'),
      human('still waiting'),
      toolResult({ id: 'b', name: 'read_file', result: big('b') }),
    ];
    // 0.4 × 7 → tail of 3 would start at 4 (between b's call and response): it moves to 3.
    const result = applied(await strategy.compress(await context(history)));
    expect(result.newHistory.slice(3)).toEqual(history.slice(3));
    expect(responsesOf(result.newHistory).map((r) => r.result)).toEqual([
      '[read_file a.ts — success, 40 lines]',
      big('b'),
    ]);
  });

  it('prior-art A6: the key parameter comes from the matching call, even far from the response', async () => {
    const history = [
      toolCall([
        { id: 'x', name: 'read_file', parameters: { file_path: 'src/x.ts' } },
        { id: 'y', name: 'run_shell_command', parameters: { command: 'git status' } },
      ]),
      ai('waiting for both'),
      toolResult({ id: 'y', name: 'run_shell_command', result: 'clean\nExit Code: 0' }),
      toolResult({ id: 'x', name: 'read_file', result: big('x') }),
      ...session(2),
    ];
    const result = applied(await strategy.compress(await context(history)));
    expect(responsesOf(result.newHistory.slice(0, 4)).map((r) => r.result)).toEqual([
      '[run_shell_command git status — success, "clean"]',
      '[read_file src/x.ts — success, 40 lines]',
    ]);
  });

  it('prior-art A16: noop with reason empty-history', async () => {
    const result = await strategy.compress(await context([]));
    expect(result).toMatchObject({ kind: 'noop', reason: 'empty-history', newHistory: [] });
    expect(result.metadata.llmCallMade).toBe(false);
  });

  it('prior-art A16: noop with reason tail-covers-all', async () => {
    const history = [
      toolCall({ id: 'x', name: 'read_file', parameters: {} }),
      human('x'),
      toolResult({ id: 'x', name: 'read_file', result: 'A' }),
    ];
    const ctx = await context(history);
    const result = await strategy.compress(ctx);
    expect(result).toMatchObject({ kind: 'noop', reason: 'tail-covers-all' });
    expect(result.newHistory).toBe(ctx.history);
  });

  it('prior-art A16: noop with reason already-under-target when nothing would change', async () => {
    const history = session(6);
    const once = applied(await strategy.compress(await context(history)));
    const twice = await strategy.compress(await context(once.newHistory));
    expect(twice).toMatchObject({ kind: 'noop', reason: 'already-under-target' });
    expect(twice.newHistory).toEqual(once.newHistory);
  });

  it('REQ-HD-013.4 a failure to count tokens propagates (no silent fallback)', async () => {
    const ctx = await context(session(6));
    const failing: CompressionContext = {
      ...ctx,
      estimateTokens: () => Promise.reject(new Error('tokenizer down')),
    };
    await expect(strategy.compress(failing)).rejects.toThrow('tokenizer down');
  });

  it('leaves results that already are one-liners (pointer, earlier summary) untouched', async () => {
    const history = [
      ...toolRoundTrip(
        'a',
        'read_file',
        { file_path: 'a.ts' },
        '[Result pruned — re-run tool to retrieve]',
      ),
      ...toolRoundTrip(
        'b',
        'read_file',
        { file_path: 'b.ts' },
        '[read_file b.ts — success, 3 lines]',
      ),
      ...session(3),
    ];
    const ctx = await context(history, { 'compression.preserveThreshold': 0.2 });
    const result = applied(await strategy.compress(ctx));
    expect(result.metadata.toolResponsesSummarized).toBe(1);
    expect(result.newHistory[1]).toBe(history[1]);
    expect(result.newHistory[3]).toBe(history[3]);
  });
});
