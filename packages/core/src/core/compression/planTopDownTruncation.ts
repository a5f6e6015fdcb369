/**
 * How many of the oldest entries top-down truncation drops: a pure, single-pass decision over
 * per-entry token counts, cutting only at tool-call-safe split points.
 */
import type { IContent } from '../../services/history/IContent.js';
import { safeSplitPoints } from './toolCallBoundary.js';
import type { CompressionNoopReason } from './types.js';

/** Truncation aims this far below the trigger, so the next turn does not trigger it again. */
export const TOP_DOWN_TARGET_FACTOR = 0.6;

/** The newest entries top-down truncation always keeps. */
export const TOP_DOWN_MIN_KEEP = 2;

/** `threshold × contextLimit × TOP_DOWN_TARGET_FACTOR`, in whole tokens. */
export function topDownTargetTokens(threshold: number, contextLimit: number): number {
  return Math.floor(threshold * contextLimit * TOP_DOWN_TARGET_FACTOR);
}

export interface TopDownTruncationInput {
  readonly history: readonly IContent[];
  /** Token count of each entry, index for index with `history`. */
  readonly entryTokens: readonly number[];
  readonly targetTokens: number;
  /** Newest entries never dropped; default `TOP_DOWN_MIN_KEEP`. */
  readonly minKeep?: number;
}

export type TopDownTruncationPlan =
  | {
      readonly kind: 'drop';
      /** Drop entries `[0, dropCount)`. */
      readonly dropCount: number;
      readonly totalTokens: number;
      readonly remainingTokens: number;
    }
  | { readonly kind: 'noop'; readonly reason: CompressionNoopReason; readonly totalTokens: number };

/**
 * The smallest safe prefix whose removal brings the total to `targetTokens` or below. When no
 * allowed cut gets there, the largest allowed one (best effort). A cut is allowed when it keeps
 * the newest `minKeep` entries and separates no tool call from its responses, so a call entry is
 * always dropped together with its responses. O(n): counts are subtracted, never re-summed.
 */
export function planTopDownTruncation(input: TopDownTruncationInput): TopDownTruncationPlan {
  const { history, entryTokens, targetTokens } = input;
  let totalTokens = 0;
  for (let i = 0; i < history.length; i++) totalTokens += entryTokens[i] ?? 0;
  if (history.length === 0) return { kind: 'noop', reason: 'empty-history', totalTokens };
  if (totalTokens <= targetTokens) {
    return { kind: 'noop', reason: 'already-under-target', totalTokens };
  }
  const safe = safeSplitPoints(history);
  const maxDrop = history.length - Math.max(0, input.minKeep ?? TOP_DOWN_MIN_KEEP);
  let remaining = totalTokens;
  let best: { dropCount: number; remainingTokens: number } | undefined;
  for (let cut = 1; cut <= maxDrop; cut++) {
    remaining -= entryTokens[cut - 1] ?? 0;
    if (!safe[cut]) continue;
    best = { dropCount: cut, remainingTokens: remaining };
    if (remaining <= targetTokens) break;
  }
  if (best === undefined) return { kind: 'noop', reason: 'too-few-to-compress', totalTokens };
  return { kind: 'drop', totalTokens, ...best };
}
