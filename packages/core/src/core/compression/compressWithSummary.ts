/**
 * The executor the summarizing strategies share: given a split plan, either report the no-op or
 * replace the planned range with a summary and an acknowledgement.
 */
import type { SummarySplitPlan } from './planSummarySplit.js';
import { generateSummary } from './generateSummary.js';
import { buildSummaryEntries } from './summaryRequest.js';
import type { CompressionContext, CompressionResult, CompressionStrategyName } from './types.js';

/**
 * `noop` plans come back as a no-op result with the history untouched and no LLM call. Otherwise
 * the result is `history[0, topEnd)` + summary + acknowledgement + `history[bottomStart, n)`.
 * The summary ends with the transcript note when `context.transcriptPath` is set.
 */
export async function compressWithSummary(
  context: CompressionContext,
  strategy: CompressionStrategyName,
  plan: SummarySplitPlan,
): Promise<CompressionResult> {
  const { history } = context;
  if (plan.kind === 'noop') {
    return {
      kind: 'noop',
      reason: plan.reason,
      newHistory: history,
      metadata: {
        originalMessageCount: history.length,
        compressedMessageCount: history.length,
        strategyUsed: strategy,
        llmCallMade: false,
      },
    };
  }
  const top = history.slice(0, plan.topEnd);
  const middle = history.slice(plan.topEnd, plan.bottomStart);
  const bottom = history.slice(plan.bottomStart);
  const summary = await generateSummary({ context, strategy, entries: middle });
  const newHistory = [...top, ...buildSummaryEntries(summary, context.transcriptPath), ...bottom];
  return {
    kind: 'applied',
    newHistory,
    metadata: {
      originalMessageCount: history.length,
      compressedMessageCount: newHistory.length,
      strategyUsed: strategy,
      llmCallMade: true,
      topPreserved: top.length,
      bottomPreserved: bottom.length,
      middleCompressed: middle.length,
    },
  };
}
