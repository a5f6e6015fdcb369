import fc from 'fast-check';
import { AUTO_WORKING_BUDGET } from './workingBudget/workingBudgetTokens.js';
import { describe, expect, it } from 'vitest';
import { HighDensityStrategy } from './HighDensityStrategy.js';
import type { CompressionContext } from './types.js';
import { makeCompressionContext } from '../../test-utils/compressionContext.js';
import { charEstimateTokenCounter } from '../../services/history/TokenCounter.js';
import type { IContent } from '../../services/history/IContent.js';
import { deepFreeze } from './density/test-utils/deepFreeze.js';
import { historyArb } from './density/test-utils/densityArbitraries.js';
import { SUMMARY_MAX_CHARS } from './density/compress/toolResponseSummary.js';
import { planTailStart } from './density/compress/compressionPlan.js';

const strategy = new HighDensityStrategy();
const RUNS = { numRuns: 150 };

const settingsArb = fc.record({
  preserve: fc.constantFrom(0.1, 0.2, 0.4, 0.7),
  contextLimit: fc.constantFrom(50, 200, 1_000, 100_000),
});

async function compressed(
  history: IContent[],
  preserve: number,
  contextLimit: number,
  pointerStyle: 'recall' | 'spec' = 'recall',
  // The spec's compress() unless a test asks for the working budget in front of it.
  workingBudget = 0,
) {
  const ctx: CompressionContext = await makeCompressionContext({
    history: deepFreeze(history),
    settings: {
      'compression.preserveThreshold': preserve,
      'context-limit': contextLimit,
      'compression.density.pointerStyle': pointerStyle,
      'compression.density.workingBudget': workingBudget,
    },
    tokenCounter: charEstimateTokenCounter,
    resolveProvider: () => {
      throw new Error('no LLM');
    },
  });
  return { ctx, result: await strategy.compress(ctx) };
}

const ids = (history: readonly IContent[], type: 'tool_call' | 'tool_response'): Set<string> =>
  new Set(
    history.flatMap((e) =>
      e.blocks.flatMap((b) =>
        b.type === 'tool_call' && type === 'tool_call'
          ? [b.id]
          : b.type === 'tool_response' && type === 'tool_response'
            ? [b.callId]
            : [],
      ),
    ),
  );

describe('compress() properties', () => {
  it('never orphans a call or a response, with or without the working budget (#35.1)', async () => {
    const budgetArb = fc.constantFrom(0, AUTO_WORKING_BUDGET, 0.3);
    await fc.assert(
      fc.asyncProperty(historyArb, settingsArb, budgetArb, async (history, settings, budget) => {
        const { preserve, contextLimit } = settings;
        const { result } = await compressed(history, preserve, contextLimit, 'recall', budget);
        const callsBefore = ids(history, 'tool_call');
        const answeredBefore = ids(history, 'tool_response');
        const callsAfter = ids(result.newHistory, 'tool_call');
        const answeredAfter = ids(result.newHistory, 'tool_response');
        for (const id of callsAfter)
          if (answeredBefore.has(id)) expect(answeredAfter.has(id)).toBe(true);
        for (const id of answeredAfter)
          if (callsBefore.has(id)) expect(callsAfter.has(id)).toBe(true);
      }),
      RUNS,
    );
  });

  it('REQ-HD-008.2 never changes a tail entry (spec-literal pointers)', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, settingsArb, async (history, { preserve, contextLimit }) => {
        const { result } = await compressed(history, preserve, contextLimit, 'spec');
        const tailSize = Math.ceil(history.length * preserve);
        const tail = history.slice(history.length - tailSize);
        const out = result.newHistory.slice(result.newHistory.length - tailSize);
        expect(out).toHaveLength(tail.length);
        out.forEach((entry, i) => expect(entry).toBe(tail[i]));
      }),
      RUNS,
    );
  });

  it('#11.2 need-based: the tail keeps every entry; only tool results change, and only once the head is gone, never in the newest turn', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, settingsArb, async (history, { preserve, contextLimit }) => {
        const { result } = await compressed(history, preserve, contextLimit);
        const tailSize = Math.ceil(history.length * preserve);
        const tail = history.slice(history.length - tailSize);
        const out = result.newHistory.slice(result.newHistory.length - tailSize);
        expect(out).toHaveLength(tail.length);
        const newestTurn = history.findLastIndex((e) => e.speaker === 'ai');
        out.forEach((entry, i) => {
          if (entry === tail[i]) return;
          expect(entry.speaker).toBe('tool');
          expect(history.length - tailSize + i).toBeLessThan(newestTurn);
          // Touching the tail means nothing older than it is left.
          expect(result.newHistory).toHaveLength(history.length - planTailStart(history, preserve));
        });
      }),
      RUNS,
    );
  });

  it('REQ-HD-008.4 never alters human, AI or tool-call content: those entries are kept as they were, in order', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, settingsArb, async (history, { preserve, contextLimit }) => {
        const { result } = await compressed(history, preserve, contextLimit);
        const kept = result.newHistory.filter((e) => e.speaker !== 'tool');
        const original = history.filter((e) => e.speaker !== 'tool');
        // What survives is a suffix of the originals (only the oldest are ever dropped), by identity.
        const offset = original.length - kept.length;
        expect(offset).toBeGreaterThanOrEqual(0);
        kept.forEach((entry, i) => expect(entry).toBe(original[offset + i]));
      }),
      RUNS,
    );
  });

  it('REQ-HD-008.3 every changed tool result is one short line; structure and other fields are kept', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, settingsArb, async (history, { preserve, contextLimit }) => {
        const { result } = await compressed(history, preserve, contextLimit);
        const dropped = history.length - result.newHistory.length;
        result.newHistory.forEach((entry, i) => {
          const before = history[i + dropped] as IContent;
          if (entry === before) return;
          expect(entry.speaker).toBe('tool');
          expect(entry.blocks).toHaveLength(before.blocks.length);
          entry.blocks.forEach((block, j) => {
            const old = before.blocks[j];
            if (block === old) return;
            expect(block.type).toBe('tool_response');
            if (block.type !== 'tool_response' || old?.type !== 'tool_response') return;
            expect({ ...block, result: null }).toEqual({ ...old, result: null });
            expect(typeof block.result).toBe('string');
            expect(block.result).not.toContain('\n');
            expect((block.result as string).length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
          });
        });
      }),
      RUNS,
    );
  });

  it('metadata counts match what changed, and a noop changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, settingsArb, async (history, { preserve, contextLimit }) => {
        const { result } = await compressed(history, preserve, contextLimit);
        expect(result.metadata.llmCallMade).toBe(false);
        expect(result.metadata.originalMessageCount).toBe(history.length);
        expect(result.metadata.compressedMessageCount).toBe(result.newHistory.length);
        if (result.kind === 'noop') {
          expect(result.newHistory).toEqual(history);
          return;
        }
        const dropped = result.metadata.entriesDropped ?? 0;
        expect(result.newHistory.length).toBe(history.length - dropped);
        let changed = 0;
        result.newHistory.forEach((entry, i) =>
          entry.blocks.forEach((block, j) => {
            if (block !== history[i + dropped]?.blocks[j]) changed++;
          }),
        );
        expect(changed).toBe(result.metadata.toolResponsesSummarized);
        expect(changed + dropped).toBeGreaterThan(0);
      }),
      RUNS,
    );
  });

  it('REQ-HD-008.6 reaches the target unless only the tail is left', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, settingsArb, async (history, { preserve, contextLimit }) => {
        const { ctx, result } = await compressed(history, preserve, contextLimit);
        if (result.kind === 'noop') return;
        const total = await ctx.estimateTokens(result.newHistory);
        const tailOnly = result.newHistory.length === (result.metadata.bottomPreserved ?? -1);
        if (!tailOnly) expect(total).toBeLessThanOrEqual(result.metadata.targetTokens ?? -1);
      }),
      RUNS,
    );
  });
});
