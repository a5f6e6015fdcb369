/**
 * What each model call of a replay costs: its context tokens, the prefix unchanged (by entry
 * identity) since the previous call, and the history rewrites that break a provider's prompt
 * cache. Entries are immutable, so an identical object is an identical prompt segment.
 */
import type { IContent } from '../../services/history/IContent.js';

/** Cache-read and cache-write price multipliers (Anthropic's published figures). */
export const CACHE_READ_MULTIPLIER = 0.1;
export const CACHE_WRITE_MULTIPLIER = 1.25;

export interface CallSample {
  /** The entries sent (the curated history). */
  readonly contents: readonly IContent[];
  /** The settled token total of the history when the call was made. */
  readonly contextTokens: number;
  /** Cached token count of one entry (0 if unknown). */
  readonly tokensOf: (entry: IContent) => number;
}

export interface CallTotals {
  readonly modelCalls: number;
  readonly cumulativeInputTokens: number;
  readonly peakContextTokens: number;
  readonly cacheWeightedInputTokens: number;
  /** Calls whose history changed before its newest entry since the previous call. */
  readonly historyRewrites: number;
  /** Mean of the entries and tokens (of the previous call) from the first changed entry on. */
  readonly historyRewriteDepth: { readonly meanEntries: number; readonly meanTokens: number };
  /** Context tokens of each call, in order. */
  readonly series: readonly number[];
}

export class CallMetrics {
  private previous: readonly IContent[] = [];
  /** previousPrefix[k] = tokens of previous[0, k). */
  private previousPrefix: number[] = [0];
  private cumulative = 0;
  private peak = 0;
  private weighted = 0;
  private rewrites = 0;
  private depthEntries = 0;
  private depthTokens = 0;
  private readonly contextSeries: number[] = [];

  record(sample: CallSample): void {
    const { contents, contextTokens, tokensOf } = sample;
    let common = 0;
    const limit = Math.min(contents.length, this.previous.length);
    while (common < limit && contents[common] === this.previous[common]) common++;
    const cachedTokens = this.previousPrefix[common] ?? 0;
    const previousTotal = this.previousPrefix[this.previous.length] ?? 0;
    if (common < this.previous.length) {
      this.rewrites++;
      this.depthEntries += this.previous.length - common;
      this.depthTokens += previousTotal - cachedTokens;
    }
    this.cumulative += contextTokens;
    this.peak = Math.max(this.peak, contextTokens);
    this.weighted +=
      CACHE_READ_MULTIPLIER * cachedTokens +
      CACHE_WRITE_MULTIPLIER * Math.max(0, contextTokens - cachedTokens);
    this.contextSeries.push(contextTokens);
    const prefix = [0];
    for (const entry of contents) prefix.push((prefix.at(-1) as number) + tokensOf(entry));
    this.previous = contents;
    this.previousPrefix = prefix;
  }

  totals(): CallTotals {
    const mean = (sum: number) => (this.rewrites === 0 ? 0 : sum / this.rewrites);
    return {
      modelCalls: this.contextSeries.length,
      cumulativeInputTokens: this.cumulative,
      peakContextTokens: this.peak,
      cacheWeightedInputTokens: Math.round(this.weighted),
      historyRewrites: this.rewrites,
      historyRewriteDepth: {
        meanEntries: mean(this.depthEntries),
        meanTokens: mean(this.depthTokens),
      },
      series: this.contextSeries,
    };
  }
}
