/**
 * What a density edit costs in prompt cache (issue 14): the tokens of the previous call's prompt
 * it invalidates, under the provider's caching rules and Dense's cache anchors. Used by the
 * batched schedule (densityStep.ts).
 */
import type { CacheRules } from '../cache/cacheRules.js';
import type { HistoryService } from '../services/history/HistoryService.js';
import type { IContent } from '../services/history/IContent.js';

/** What the previous provider call was sent: this many raw entries, at this time. */
export interface LastSend {
  readonly entries: number;
  readonly at: number;
  /** The cache anchors it carried (`cacheAnchors.ts`): entry counts before a breakpoint. */
  readonly anchors?: readonly number[];
}

/**
 * Tokens of the previous call's prompt whose cache an edit at index `from` (≥ `lowest`) loses.
 * Implicit caching (OpenAI, Gemini) reads any prefix seen before: the entries sent last time from
 * `from` on. Explicit caching (Anthropic) reads only a prefix an earlier request marked: the
 * newest whole cached prompt still intact (it ends just before an AI entry) or a cache anchor
 * (`cacheAnchors.ts`) at or before `from`; a prompt end more than `lookbackBlocks` blocks before
 * the next request's newest block is not found, and neither is a prefix under the provider's
 * minimum: then the whole prompt is written again. The replay prices calls with the same rules
 * (replay/metrics/breakpointCache.ts).
 */
export function sentTokensFrom(
  history: HistoryService,
  lastSend: LastSend | undefined,
  lowest: number,
  rules: CacheRules,
): SentTokens {
  const raw = history.getRawHistory();
  const end = Math.min(lastSend?.entries ?? 0, raw.length);
  const explicit = rules.mode === 'explicit';
  // A cached prompt ends where a model call began: just before an AI entry.
  const cachedPromptEnd = (from: number): number => {
    if (!explicit) return from;
    let b = Math.min(from, raw.length - 1);
    while (b > 0 && (raw[b] as IContent).speaker !== 'ai') b--;
    return Math.max(0, b);
  };
  const anchors = explicit ? (lastSend?.anchors ?? []).filter((a) => a <= end) : [];
  const anchorBelow = (from: number): number | undefined => {
    let best: number | undefined;
    for (const a of anchors) if (a <= from && (best === undefined || a > best)) best = a;
    return best;
  };
  const start = Math.max(
    0,
    Math.min(cachedPromptEnd(lowest), anchorBelow(lowest) ?? Number.POSITIVE_INFINITY),
  );
  const { suffix, blocks } = suffixSums(history, start, end);
  const suffixAt = (index: number): number => suffix[Math.max(0, index - start)] ?? 0;
  const lookback = rules.lookbackBlocks ?? Number.POSITIVE_INFINITY;
  let sentTotal: number | undefined;
  const wholePrompt = (): number => {
    if (sentTotal !== undefined) return sentTotal;
    let unsent = 0;
    for (let i = end; i < raw.length; i++) unsent += history.tokensOf(raw[i] as IContent) ?? 0;
    sentTotal = Math.max(0, history.getTotalTokens() - unsent);
    return sentTotal;
  };
  const cacheable = (index: number) => wholePrompt() - suffixAt(index) >= rules.minCacheableTokens;
  const viaPromptEnd = (from: number): number => {
    const b = cachedPromptEnd(from);
    const found = (blocks[b - start] ?? 0) <= lookback && cacheable(b);
    return found ? suffixAt(b) : wholePrompt();
  };
  const viaAnchor = (from: number): number => {
    const a = anchorBelow(from);
    return a !== undefined && cacheable(a) ? suffixAt(a) : Number.POSITIVE_INFINITY;
  };
  // A prompt under the minimum was not cached at all: editing it loses nothing.
  const uncached = (from: number) => from >= end || wholePrompt() < rules.minCacheableTokens;
  return {
    invalidated: (from) => (uncached(from) ? 0 : Math.min(viaPromptEnd(from), viaAnchor(from))),
    anchored: (from) => (uncached(from) ? 0 : cacheable(from) ? suffixAt(from) : wholePrompt()),
  };
}

export interface SentTokens {
  /** What an edit at `from` invalidates now. */
  readonly invalidated: (from: number) => number;
  /** What it would invalidate with a cache anchor right before `from` (explicit caching). */
  readonly anchored: (from: number) => number;
}

/**
 * From `start` on: suffix[i − start] = tokens of the entries sent last time (before `end`) from
 * `i` on; blocks[i − start] = content blocks from `i` to the end of the history (the lookback
 * counts back from the next request's newest block, so entries added since the send count too).
 */
function suffixSums(
  history: HistoryService,
  start: number,
  end: number,
): { suffix: number[]; blocks: number[] } {
  const raw = history.getRawHistory();
  const suffix: number[] = new Array<number>(Math.max(0, end - start) + 1).fill(0);
  for (let i = end - 1; i >= start; i--) {
    suffix[i - start] = suffix[i - start + 1]! + (history.tokensOf(raw[i] as IContent) ?? 0);
  }
  let blocksAfter = 0;
  const blocks: number[] = new Array<number>(Math.max(0, raw.length - start) + 1).fill(0);
  for (let i = raw.length - 1; i >= start; i--) {
    blocksAfter += (raw[i] as IContent).blocks.length;
    blocks[i - start] = blocksAfter;
  }
  return { suffix, blocks };
}
