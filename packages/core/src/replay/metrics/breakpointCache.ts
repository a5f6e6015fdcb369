/**
 * Which cached prefix an explicit-caching provider (Anthropic) can serve a call from, as Dense
 * uses it: a breakpoint on the newest block of every request, so each request caches its whole
 * prompt, plus the request's cache anchors (core/cacheAnchors.ts), each caching the prefix before
 * it. A later request hits the longest cached prefix that is still a prefix of its own, still
 * alive (used within the TTL), and ends at most `lookbackBlocks` content blocks before one of its
 * breakpoints. A history edit deeper than that, with no anchor before it, finds nothing: the
 * whole prompt is written.
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
  /** Entry counts before the request's extra breakpoints (its cache anchors). */
  readonly anchors?: readonly number[];
}

export class BreakpointCache {
  private cached: CachedPrompt[] = [];

  constructor(private readonly rules: CacheRules) {}

  /** Entries of the longest cached prefix this call reads (0: none); records the call's prompt. */
  lookup(call: PromptShape): number {
    const lookback = this.rules.lookbackBlocks ?? Number.POSITIVE_INFINITY;
    const anchors = (call.anchors ?? []).filter((a) => a > 0 && a < call.entries);
    const breakpoints = [...anchors, call.entries].map((entries) => call.blocksBefore(entries));
    const alive = (prompt: CachedPrompt) =>
      call.timeMs === undefined ||
      prompt.lastUsedMs === undefined ||
      call.timeMs - prompt.lastUsedMs <= this.rules.ttlMs;
    const reachable = (prompt: CachedPrompt) =>
      breakpoints.some((b) => b >= prompt.blocks && b - prompt.blocks <= lookback);
    // A cached prompt longer than the unchanged prefix was edited away, for good.
    this.cached = this.cached.filter(
      (prompt) => prompt.entries <= call.unchangedEntries && alive(prompt),
    );
    let best: CachedPrompt | undefined;
    for (const prompt of this.cached) {
      if (!reachable(prompt)) continue;
      if (best === undefined || prompt.entries > best.entries) best = prompt;
    }
    if (best !== undefined && call.timeMs !== undefined) best.lastUsedMs = call.timeMs;
    // Every breakpoint caches (or refreshes) the prefix before it; a prefix no breakpoint of a
    // request can reach any more is gone for later ones too (they only grow).
    const marked = [...anchors, call.entries];
    this.cached = this.cached.filter((prompt) => !marked.includes(prompt.entries));
    for (const entries of marked) {
      this.cached.push({ entries, blocks: call.blocksBefore(entries), lastUsedMs: call.timeMs });
    }
    const newest = Math.max(...breakpoints);
    this.cached = this.cached.filter(
      (prompt) => marked.includes(prompt.entries) || newest - prompt.blocks <= lookback,
    );
    return best?.entries ?? 0;
  }
}
