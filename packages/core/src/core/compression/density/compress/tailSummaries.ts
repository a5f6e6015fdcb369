/**
 * When the whole head is gone and the preserved tail alone is still over the
 * compression target (threshold × limit × headroom — the size the spec path aims at, without the
 * artifact trail's reserve), need-based `compress()` also summarizes tool results inside the tail:
 * in the same order (stale first, then oldest, the live latest copy of a file last), only as many
 * as the target needs, each line naming its recall id. Otherwise a tail of large outputs leaves
 * the history next to the threshold and the next compression comes a few calls later. The newest
 * model turn (the last `ai` entry and the responses after it, not answered yet) is never touched.
 */
import type { IContent } from '../../../../services/history/IContent.js';
import type { CompressionContext } from '../../types.js';
import { applySummaries } from './compressionPlan.js';
import { orderedSummaryCandidates, type SummaryOrderOptions } from './summaryOrder.js';
import { summariesNeeded } from './summariesNeeded.js';

export interface TailSummaries {
  readonly tail: readonly IContent[];
  readonly summarized: number;
}

/** First index of the newest model turn: the last `ai` entry, or `history.length` if none. */
export function newestTurnStart(history: readonly IContent[]): number {
  for (let i = history.length - 1; i >= 0; i--) {
    if (history[i]?.speaker === 'ai') return i;
  }
  return history.length;
}

/**
 * `history.slice(tailStart)` with as few of its older tool results summarized as bring it to
 * `targetTokens`, or all of them (but the newest turn) when nothing less does.
 */
export async function summarizeTailAsNeeded(
  context: Pick<CompressionContext, 'history' | 'estimateTokens'>,
  tailStart: number,
  targetTokens: number,
  options: SummaryOrderOptions,
): Promise<TailSummaries> {
  const { history } = context;
  const tail = history.slice(tailStart);
  const protectFrom = newestTurnStart(history);
  if (protectFrom <= tailStart) return { tail, summarized: 0 };
  const candidates = orderedSummaryCandidates(history, protectFrom, options)
    .filter((candidate) => candidate.entryIndex >= tailStart)
    .map((candidate) => ({ ...candidate, entryIndex: candidate.entryIndex - tailStart }));
  const chosen = await summariesNeeded(
    { history: tail, estimateTokens: context.estimateTokens },
    candidates,
    targetTokens,
  );
  if (chosen.length === 0) return { tail, summarized: 0 };
  return { tail: applySummaries(tail, chosen).head, summarized: chosen.length };
}
