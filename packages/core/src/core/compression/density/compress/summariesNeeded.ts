/**
 * How many of the ordered summary candidates `compress()` needs: the shortest prefix
 * whose savings bring the history to the target, or all of them when nothing shorter does. Each
 * candidate's saving is counted once, on its own block, so the cost is O(candidates taken).
 */
import type { IContent } from '../../../../services/history/IContent.js';
import type { CompressionContext } from '../../types.js';
import type { SummaryCandidate } from './summaryOrder.js';

export async function summariesNeeded(
  context: Pick<CompressionContext, 'history' | 'estimateTokens'>,
  candidates: readonly SummaryCandidate[],
  targetTokens: number,
): Promise<readonly SummaryCandidate[]> {
  if (candidates.length === 0) return candidates;
  let excess = (await context.estimateTokens(context.history)) - targetTokens;
  if (excess <= 0) return [];
  for (let taken = 0; taken < candidates.length; taken++) {
    excess -= await savingOf(context, candidates[taken] as SummaryCandidate);
    if (excess <= 0) return candidates.slice(0, taken + 1);
  }
  return candidates;
}

async function savingOf(
  context: Pick<CompressionContext, 'history' | 'estimateTokens'>,
  candidate: SummaryCandidate,
): Promise<number> {
  const entry = context.history[candidate.entryIndex];
  const block = entry?.blocks[candidate.blockIndex];
  if (entry === undefined || block?.type !== 'tool_response') return 0;
  const before: IContent = { speaker: entry.speaker, blocks: [block] };
  const after: IContent = {
    speaker: entry.speaker,
    blocks: [{ ...block, result: candidate.line }],
  };
  return (await context.estimateTokens([before])) - (await context.estimateTokens([after]));
}
