/**
 * The decisions of high-density `compress()`, as pure functions: where the preserved tail starts,
 * the token target, the head with its tool results summarized, and how many head entries to drop.
 * The strategy class only adds the token counting around them.
 */
import type { ContentBlock, IContent } from '../../../../services/history/IContent.js';
import { adjustForToolCallBoundary } from '../../toolCallBoundary.js';
import type { PointerStyle } from '../../recallPointers.js';
import { orderedSummaryCandidates, type SummaryCandidate } from './summaryOrder.js';

/**
 * First index of the preserved tail: the newest `ceil(n × preserveThreshold)` entries, moved
 * earlier when needed so no call is split from its responses. 0 means the tail is everything.
 */
export function planTailStart(history: readonly IContent[], preserveThreshold: number): number {
  const fraction = Number.isNaN(preserveThreshold)
    ? 1
    : Math.min(Math.max(preserveThreshold, 0), 1);
  const tailSize = Math.ceil(history.length * fraction);
  return adjustForToolCallBoundary(history, history.length - tailSize, 'earlier');
}

export interface CompressionTargetInput {
  /** The `compression-threshold` setting, when set. */
  readonly threshold: number | undefined;
  /** The strategy's `trigger.defaultThreshold`, used when the setting is not set. */
  readonly defaultThreshold: number;
  readonly contextLimit: number;
  /** `compression.density.compressHeadroom` (0.6 by default, REQ-HD-008.6). */
  readonly headroom: number;
}

/** Tokens to aim at: threshold × context limit × headroom, rounded down. */
export function compressionTarget(input: CompressionTargetInput): number {
  return Math.floor(
    (input.threshold ?? input.defaultThreshold) * input.contextLimit * input.headroom,
  );
}

export interface SummarizedHead {
  /** The head entries, with every tool result replaced by its one-line summary. */
  readonly head: readonly IContent[];
  /** Tool responses summarized, per head entry. */
  readonly summarizedPerEntry: readonly number[];
  /** Tool responses summarized in all. */
  readonly summarized: number;
}

/**
 * Summarizes every tool response in `history[0, tailStart)` in place of its result, with the key
 * parameter taken from the matching call (one index, built once). Results that already are a
 * compact one-liner are left alone. Entries without responses, and every other block, are kept
 * as the same objects. With `pointerStyle: 'recall'` each line names its recall id.
 */
export function summarizeHead(
  history: readonly IContent[],
  tailStart: number,
  workspaceRoot: string,
  pointerStyle?: PointerStyle,
): SummarizedHead {
  const candidates = orderedSummaryCandidates(history, tailStart, {
    workspaceRoot,
    ...(pointerStyle === undefined ? {} : { pointerStyle }),
  });
  return applySummaries(history.slice(0, tailStart), candidates);
}

/** `head` with each chosen candidate's result replaced by its line; other entries unchanged. */
export function applySummaries(
  head: readonly IContent[],
  chosen: readonly SummaryCandidate[],
): SummarizedHead {
  const summaries = new Map<number, Map<number, string>>();
  for (const candidate of chosen) {
    const forEntry = summaries.get(candidate.entryIndex) ?? new Map<number, string>();
    summaries.set(candidate.entryIndex, forEntry.set(candidate.blockIndex, candidate.line));
  }
  const summarizedPerEntry = head.map((_, entryIndex) => summaries.get(entryIndex)?.size ?? 0);
  const next = head.map((entry, entryIndex) => {
    const lines = summaries.get(entryIndex);
    if (lines === undefined) return entry;
    const blocks = entry.blocks.map((block, blockIndex): ContentBlock => {
      const line = lines.get(blockIndex);
      return line === undefined || block.type !== 'tool_response'
        ? block
        : { ...block, result: line };
    });
    return { ...entry, blocks };
  });
  return { head: next, summarizedPerEntry, summarized: chosen.length };
}

export interface HeadDropInput {
  /** Tokens of each head entry (after summaries), oldest first. */
  readonly entryTokens: readonly number[];
  readonly tailTokens: number;
  readonly targetTokens: number;
  /** `safeSplitPoints` of the history: `safeSplits[j]` when cutting before entry j orphans nothing. */
  readonly safeSplits: readonly boolean[];
}

/**
 * How many of the oldest head entries to drop: the shortest prefix ending at a safe split point
 * that brings the total to the target, or the whole head when nothing shorter does. One pass,
 * subtracting per-entry counts (never re-counting the rest).
 */
export function planHeadDrop(input: HeadDropInput): number {
  const { entryTokens, targetTokens, safeSplits } = input;
  let total = input.tailTokens;
  for (const tokens of entryTokens) total += tokens;
  if (total <= targetTokens) return 0;
  for (let j = 1; j <= entryTokens.length; j++) {
    total -= entryTokens[j - 1] ?? 0;
    if (safeSplits[j] === true && total <= targetTokens) return j;
  }
  return entryTokens.length;
}
