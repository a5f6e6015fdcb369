/**
 * What a density edit costs in prompt cache: the tokens of the previous call's prompt it
 * invalidates, under the provider's caching rules and Dense's cache anchors. Used by the batched
 * schedule (densityStep.ts).
 */
import type { CacheRules } from '../cache/cacheRules.js';
import { cachePrefix, entryLayout, type CachedPrefix } from '../cache/cachePrefix.js';
import type { HistoryService } from '../services/history/HistoryService.js';
import type { IContent } from '../services/history/IContent.js';

/** What the previous provider call was sent: this many raw entries, at this time. */
export interface LastSend {
  readonly entries: number;
  readonly at: number;
  /** The cache anchors it carried (`CacheAnchorTracker.ts`): entry counts before a breakpoint. */
  readonly anchors?: readonly number[];
}

/**
 * Tokens of the previous call's prompt whose cache an edit at index `from` loses: what the next
 * request would read from the cache without the edit less what it reads with it, by the one
 * prefix model (`cachePrefix`). What the provider is taken to hold: with implicit caching
 * (OpenAI, Gemini) the prompt sent last; with explicit caching (Anthropic) every earlier request's
 * whole prompt (each ended just before an AI entry) and the prefix before each cache anchor
 * (`CacheAnchorTracker.ts`). The next request is the history as it stands, its breakpoints the cache
 * anchors and its newest block. Whether the cache is still warm is the schedule's decision, not
 * this one's. An edit at or after `lastSend.entries` loses nothing.
 */
export function sentTokensFrom(
  history: HistoryService,
  lastSend: LastSend | undefined,
  rules: CacheRules,
): SentTokens {
  const end = Math.min(lastSend?.entries ?? 0, history.length);
  const read = historyCacheRead(history, { entries: end, anchors: lastSend?.anchors ?? [] }, rules);
  const unedited = read(end);
  const lost = (from: number, extra?: number) =>
    from >= end ? 0 : Math.max(0, unedited - read(from, extra));
  return {
    invalidated: (from) => lost(from),
    anchored: (from) => lost(from, from),
  };
}

/**
 * Tokens the next request (the history as it stands) reads from the cache when its first
 * `from` entries are unchanged, with an extra cache anchor before entry `extra` if given; what
 * the provider holds is described at `sentTokensFrom`, `sent.entries` being the prompt sent last.
 */
export function historyCacheRead(
  history: HistoryService,
  sent: { readonly entries: number; readonly anchors: readonly number[] },
  rules: CacheRules,
): (from: number, extra?: number) => number {
  const raw = history.getRawHistory();
  const end = Math.min(sent.entries, raw.length);
  const spans = raw.map((entry) => ({
    blocks: Math.max(1, entry.blocks.length),
    tokens: history.tokensOf(entry) ?? 0,
  }));
  const anchors = sent.anchors.filter((a) => a > 0 && a <= end);
  const { layout, blocksBefore } = entryLayout(spans, {
    breakpointsAtEntries: [...anchors, raw.length],
    promptTokens: history.getTotalTokens(),
  });
  const prefixAt = (entries: number): CachedPrefix => {
    const blocks = blocksBefore[entries] ?? 0;
    return { blocks, tokens: layout.tokensBefore(blocks), lastUsedAt: undefined };
  };
  const held: CachedPrefix[] = [prefixAt(end)];
  if (rules.mode === 'explicit') {
    // Only a prompt end the newest block can reach matters (anchors reach their own prefix).
    const lookback = rules.lookbackBlocks ?? Number.POSITIVE_INFINITY;
    for (let i = end - 1; i > 0 && layout.blocks - (blocksBefore[i] ?? 0) <= lookback; i--) {
      if ((raw[i] as IContent).speaker === 'ai') held.push(prefixAt(i));
    }
    for (const a of anchors) held.push(prefixAt(a));
  }
  return (from, extra) => {
    const next =
      extra === undefined
        ? layout
        : { ...layout, breakpoints: [...layout.breakpoints, blocksBefore[extra] ?? 0] };
    return cachePrefix({
      rules,
      cached: extra === undefined ? held : [...held, prefixAt(extra)],
      next,
      firstChangedBlock: blocksBefore[Math.min(from, end)] ?? 0,
    }).readTokens;
  };
}

export interface SentTokens {
  /** What an edit at `from` invalidates now. */
  readonly invalidated: (from: number) => number;
  /** What it would invalidate with a cache anchor right before `from` (explicit caching). */
  readonly anchored: (from: number) => number;
}
