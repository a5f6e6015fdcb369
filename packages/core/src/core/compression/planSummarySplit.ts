/**
 * Where the LLM strategies cut the history: which entries stay literal and which are summarized.
 * Pure decisions over entry counts; every cut is a tool-call-safe split point.
 */
import type { IContent } from '../../services/history/IContent.js';
import { adjustForToolCallBoundary } from './toolCallBoundary.js';
import type { CompressionNoopReason } from './types.js';

/** Middle-out leaves the history alone when fewer entries than this would be summarized. */
export const MIN_MIDDLE_ENTRIES = 4;

/**
 * `summarize`: replace entries `[topEnd, bottomStart)` with a summary; `[0, topEnd)` and
 * `[bottomStart, n)` stay as they are. `noop`: nothing to summarize, and why.
 */
export type SummarySplitPlan =
  | { readonly kind: 'summarize'; readonly topEnd: number; readonly bottomStart: number }
  | { readonly kind: 'noop'; readonly reason: CompressionNoopReason };

function fraction(value: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
}

/**
 * The start of the preserved tail: the newest `ceil(n × preserveThreshold)` entries, moved
 * earlier when the cut would separate a tool call from one of its responses (the tail grows to
 * keep the pair whole).
 */
export function preservedTailStart(
  history: readonly IContent[],
  preserveThreshold: number,
): number {
  const tailLength = Math.ceil(history.length * fraction(preserveThreshold));
  return adjustForToolCallBoundary(history, history.length - tailLength, 'earlier');
}

export interface MiddleOutSplitOptions {
  /** Fraction of the oldest entries kept literally (`compression.topPreserveThreshold`). */
  readonly topPreserveThreshold: number;
  /** Fraction of the newest entries kept literally (`compression.preserveThreshold`). */
  readonly preserveThreshold: number;
}

/**
 * Keeps the oldest `ceil(n × top)` and the newest `ceil(n × preserve)` entries, both cuts moved
 * earlier to safe points; summarizes what lies between when that is at least
 * `MIN_MIDDLE_ENTRIES` entries.
 */
export function planMiddleOutSplit(
  history: readonly IContent[],
  options: MiddleOutSplitOptions,
): SummarySplitPlan {
  if (history.length === 0) return { kind: 'noop', reason: 'empty-history' };
  const bottomStart = preservedTailStart(history, options.preserveThreshold);
  if (bottomStart === 0) return { kind: 'noop', reason: 'tail-covers-all' };
  const topCut = Math.ceil(history.length * fraction(options.topPreserveThreshold));
  const topEnd = Math.min(adjustForToolCallBoundary(history, topCut, 'earlier'), bottomStart);
  if (bottomStart - topEnd < MIN_MIDDLE_ENTRIES) {
    return { kind: 'noop', reason: 'too-few-to-compress' };
  }
  return { kind: 'summarize', topEnd, bottomStart };
}

/** Summarizes everything before the preserved tail (`topEnd` is always 0). */
export function planOneShotSplit(
  history: readonly IContent[],
  options: { readonly preserveThreshold: number },
): SummarySplitPlan {
  if (history.length === 0) return { kind: 'noop', reason: 'empty-history' };
  const bottomStart = preservedTailStart(history, options.preserveThreshold);
  if (bottomStart === 0) return { kind: 'noop', reason: 'tail-covers-all' };
  return { kind: 'summarize', topEnd: 0, bottomStart };
}
