/**
 * Need-based `compress()`: which head tool results to summarize first. Summaries are
 * taken in the order that costs the agent least — stale and superseded file content first, then
 * every other result oldest first, and the latest copy of a file that is still live last — so
 * `compress()` only summarizes as much as the target needs. One pass over the history, O(n).
 */
import type { IContent } from '../../../../services/history/IContent.js';
import { recallIdOfResponse, type PointerStyle } from '../../recallPointers.js';
import { fileEffectOf } from '../callFileEffect.js';
import { latestSuccessfulWrites } from '../optimize/readWritePruning.js';
import { buildToolCallIndex, type ResponseSite } from '../toolCallIndex.js';
import { resolveToolPath } from '../toolParameters.js';
import { isCompactSummary, summarizeToolResponse } from './toolResponseSummary.js';

/** 0: stale or superseded file content; 1: any other result; 2: the live latest copy of a file. */
export type SummaryRank = 0 | 1 | 2;

export interface SummaryCandidate {
  readonly entryIndex: number;
  readonly blockIndex: number;
  readonly rank: SummaryRank;
  /** The one-line summary that replaces the result. */
  readonly line: string;
}

export interface SummaryOrderOptions {
  readonly workspaceRoot: string;
  readonly pointerStyle?: PointerStyle;
  readonly shellFileOps?: boolean;
}

/**
 * Every tool result in `history[0, tailStart)` that is not already a compact one-liner, with its
 * summary line, ordered rank 0, then 1, then 2, and oldest first within a rank.
 */
export function orderedSummaryCandidates(
  history: readonly IContent[],
  tailStart: number,
  options: SummaryOrderOptions,
): SummaryCandidate[] {
  const index = buildToolCallIndex(history);
  const rankOf = fileRanker(history, index.responses, options);
  const buckets: [SummaryCandidate[], SummaryCandidate[], SummaryCandidate[]] = [[], [], []];
  for (const response of index.responses) {
    if (response.entryIndex >= tailStart) break;
    if (isCompactSummary(response.block.result)) continue;
    const recallId =
      options.pointerStyle === 'recall' ? recallIdOfResponse(response.block) : undefined;
    const line = summarizeToolResponse(
      response.block,
      response.call?.block,
      options.workspaceRoot,
      recallId,
    );
    const rank = rankOf(response);
    buckets[rank].push({
      entryIndex: response.entryIndex,
      blockIndex: response.blockIndex,
      rank,
      line,
    });
  }
  return [...buckets[0], ...buckets[1], ...buckets[2]];
}

/**
 * Ranks a response by the file content it shows: superseded (every file it shows is read again
 * or successfully written later) → 0, the latest copy of some file → 2, no file content → 1.
 */
function fileRanker(
  history: readonly IContent[],
  responses: readonly ResponseSite[],
  options: SummaryOrderOptions,
): (response: ResponseSite) => SummaryRank {
  const effectOptions = { shellFileOps: options.shellFileOps === true };
  const keys = new Map<string, string>();
  const keyOf = (filePath: string): string => {
    let key = keys.get(filePath);
    if (key === undefined) {
      key = resolveToolPath(filePath, options.workspaceRoot);
      keys.set(filePath, key);
    }
    return key;
  };
  const readsOf = (response: ResponseSite): readonly string[] => {
    const call = response.call?.block;
    if (call === undefined || response.block.error !== undefined) return [];
    const effect = fileEffectOf(call, effectOptions);
    return effect === undefined || effect.writes.length > 0 ? [] : effect.reads.map(keyOf);
  };
  const latestRead = new Map<string, number>();
  for (const response of responses) {
    for (const key of readsOf(response)) latestRead.set(key, response.entryIndex);
  }
  const writes = latestSuccessfulWrites(history, {
    workspaceRoot: options.workspaceRoot,
    ...effectOptions,
  });
  return (response) => {
    const reads = readsOf(response);
    if (reads.length === 0) return 1;
    const live = reads.some(
      (key) =>
        (latestRead.get(key) ?? -1) <= response.entryIndex &&
        (writes.get(key) ?? -1) <= response.entryIndex,
    );
    return live ? 2 : 0;
  };
}
