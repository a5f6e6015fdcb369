/**
 * Which cached prefix an explicit-caching provider (Anthropic) can serve a call from, as agents
 * use it: one breakpoint on the newest block of every request, so each request caches its whole
 * prompt. A later request hits the longest of those cached prompts that is still a prefix of its
 * own, still alive (used within the TTL), and ends at most `lookbackBlocks` content blocks before
 * its breakpoint. A history edit deeper than that finds nothing: the whole prompt is written.
 */
import type { CacheRules } from '../../cache/index.js';

interface CachedPrompt {
  /** Entries of the prompt it was written for. */
  readonly entries: number;
  /** Content blocks of that prompt. */
  readonly blocks: number;
  lastUsedMs: number | undefined;
}

export interface PromptShape {
  /** Leading entries identical to the previous call's prompt. */
  readonly unchangedEntries: number;
  readonly entries: number;
  /** blocksBefore(k) = content blocks of the first k entries. */
  readonly blocksBefore: (entries: number) => number;
  /** When the call was made; unknown → every cached prompt is assumed alive. */
  readonly timeMs: number | undefined;
}

export class BreakpointCache {
  private cached: CachedPrompt[] = [];

  constructor(private readonly rules: CacheRules) {}

  /** Entries of the longest cached prefix this call reads (0: none); records the call's prompt. */
  lookup(call: PromptShape): number {
    const lookback = this.rules.lookbackBlocks ?? Number.POSITIVE_INFINITY;
    const blocks = call.blocksBefore(call.entries);
    const alive = (prompt: CachedPrompt) =>
      call.timeMs === undefined ||
      prompt.lastUsedMs === undefined ||
      call.timeMs - prompt.lastUsedMs <= this.rules.ttlMs;
    // A cached prompt longer than the unchanged prefix was edited away, for good.
    this.cached = this.cached.filter(
      (prompt) => prompt.entries <= call.unchangedEntries && alive(prompt),
    );
    let best: CachedPrompt | undefined;
    for (const prompt of this.cached) {
      if (blocks - prompt.blocks > lookback) continue;
      if (best === undefined || prompt.entries > best.entries) best = prompt;
    }
    if (best !== undefined && call.timeMs !== undefined) best.lastUsedMs = call.timeMs;
    this.cached.push({ entries: call.entries, blocks, lastUsedMs: call.timeMs });
    this.cached = this.cached.filter((prompt) => blocks - prompt.blocks <= lookback);
    return best?.entries ?? 0;
  }
}
