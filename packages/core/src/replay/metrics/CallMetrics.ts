/**
 * What each model call of a replay costs: its context tokens, the prefix unchanged (by entry
 * identity) since the previous call, and the history rewrites that break a provider's prompt
 * cache. Entries are immutable, so an identical object is an identical prompt segment. Each call
 * is priced under every provider's cache rules (`priceCall`), with the gap between the recorded
 * times of consecutive calls (unknown → assumed warm) and, apart, assuming every gap warm.
 */
import type { IContent } from '../../services/history/IContent.js';
import { CACHE_PROVIDERS, CACHE_RULES, type CacheProviderName } from '../../cache/index.js';
import { BreakpointCache } from './breakpointCache.js';
import {
  addCallCost,
  roundCacheCosts,
  zeroCacheCosts,
  type CacheCostByProvider,
} from './cacheCost.js';
import { OUTPUT_PRICE_RATIO } from './outputPrice.js';

export interface CallSample {
  /** The entries sent (the curated history). */
  readonly contents: readonly IContent[];
  /** The settled token total of the history when the call was made. */
  readonly contextTokens: number;
  /** Cached token count of one entry (0 if unknown). */
  readonly tokensOf: (entry: IContent) => number;
  /** When the call was made in the recording (ms since the epoch); unknown → assumed warm. */
  readonly timeMs?: number | undefined;
  /** Entry counts of `contents` before the request's cache anchors (extra breakpoints). */
  readonly anchors?: readonly number[];
}

/** The sample for a request as sent (its contents and cache anchors), priced from `history`. */
export function requestSample(
  request: { readonly contents: readonly IContent[]; readonly cacheAnchors?: readonly IContent[] },
  history: {
    getTotalTokens(): number;
    tokensOf(entry: IContent): number | undefined;
  },
  timeMs?: number,
): CallSample {
  const { contents } = request;
  const anchors = (request.cacheAnchors ?? [])
    .map((entry) => contents.indexOf(entry) + 1)
    .filter((a) => a > 0);
  return {
    contents,
    contextTokens: history.getTotalTokens(),
    tokensOf: (entry) => history.tokensOf(entry) ?? 0,
    timeMs,
    ...(anchors.length === 0 ? {} : { anchors }),
  };
}

export interface CallTotals {
  readonly modelCalls: number;
  readonly cumulativeInputTokens: number;
  readonly peakContextTokens: number;
  /** Anthropic 5-minute pricing with the recorded gaps (`cacheCost.anthropic.weightedTokens`). */
  readonly cacheWeightedInputTokens: number;
  /** Every provider's pricing, with the gaps between the recorded call times. */
  readonly cacheCost: CacheCostByProvider;
  /** The same assuming the cache was always warm (recorded times ignored). */
  readonly cacheCostAssumedWarm: CacheCostByProvider;
  /** Calls with a recorded time. */
  readonly timedCalls: number;
  /** Calls whose history changed before its newest entry since the previous call. */
  readonly historyRewrites: number;
  /** Mean of the entries and tokens (of the previous call) from the first changed entry on. */
  readonly historyRewriteDepth: { readonly meanEntries: number; readonly meanTokens: number };
  /** Context tokens of each call, in order. */
  readonly series: readonly number[];
  /** Summarization calls of recorded compactions (in the cost and input figures above). */
  readonly summarization: SummarizationTotals;
}

export interface SummarizationTotals {
  readonly calls: number;
  /** The context at each boundary, sent as the call's input. */
  readonly inputTokens: number;
  /** The summaries written, billed at each provider's output price (`OUTPUT_PRICE_RATIO`). */
  readonly outputTokens: number;
}

type Reusable = Partial<Record<CacheProviderName, number>>;
type ExplicitCaches = ReadonlyMap<CacheProviderName, BreakpointCache>;

function explicitCaches(): ExplicitCaches {
  return new Map(
    CACHE_PROVIDERS.filter((p) => CACHE_RULES[p].mode === 'explicit').map((p) => [
      p,
      new BreakpointCache(CACHE_RULES[p]),
    ]),
  );
}

/** Tokens and content blocks of each prefix: prefix[k], blocks[k] for the first k entries. */
function prefixSums(
  contents: readonly IContent[],
  tokensOf: (entry: IContent) => number,
): { prefix: number[]; blocks: number[] } {
  const prefix = [0];
  const blocks = [0];
  for (const entry of contents) {
    prefix.push((prefix.at(-1) as number) + tokensOf(entry));
    blocks.push((blocks.at(-1) as number) + Math.max(1, entry.blocks.length));
  }
  return { prefix, blocks };
}

export class CallMetrics {
  private previous: readonly IContent[] = [];
  /** previousPrefix[k] = tokens of previous[0, k). */
  private previousPrefix: number[] = [0];
  private cumulative = 0;
  private peak = 0;
  private previousTime: number | undefined;
  private cost = zeroCacheCosts();
  private costWarm = zeroCacheCosts();
  private timed = 0;
  /** Explicit-caching providers: what their breakpoints cached, with and without recorded gaps. */
  private readonly breakpoints = explicitCaches();
  private readonly breakpointsWarm = explicitCaches();
  private rewrites = 0;
  private depthEntries = 0;
  private depthTokens = 0;
  private readonly contextSeries: number[] = [];
  private priced = 0;
  private summarization: SummarizationTotals = { calls: 0, inputTokens: 0, outputTokens: 0 };

  record(sample: CallSample): void {
    this.priceSample(sample);
    this.contextSeries.push(sample.contextTokens);
  }

  /**
   * A compaction's summarization call: `sample` is the context at the boundary (input, priced
   * like any call, counted in cumulative input and peak but not as a model call), `outputTokens`
   * the summary it wrote, billed at each provider's output price.
   */
  recordSummarization(sample: CallSample, outputTokens: number): void {
    this.priceSample(sample);
    const add = (totals: CacheCostByProvider): CacheCostByProvider =>
      Object.fromEntries(
        CACHE_PROVIDERS.map((provider) => [
          provider,
          {
            ...totals[provider],
            weightedTokens:
              totals[provider].weightedTokens + outputTokens * OUTPUT_PRICE_RATIO[provider],
          },
        ]),
      ) as CacheCostByProvider;
    this.cost = add(this.cost);
    this.costWarm = add(this.costWarm);
    this.summarization = {
      calls: this.summarization.calls + 1,
      inputTokens: this.summarization.inputTokens + sample.contextTokens,
      outputTokens: this.summarization.outputTokens + outputTokens,
    };
  }

  private priceSample(sample: CallSample): void {
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
    const { prefix, blocks } = prefixSums(contents, tokensOf);
    const shape = {
      unchangedEntries: common,
      entries: contents.length,
      blocksBefore: (k: number) => blocks[k] ?? 0,
      ...(sample.anchors === undefined ? {} : { anchors: sample.anchors }),
    };
    const read = (caches: ExplicitCaches, timeMs: number | undefined): Reusable =>
      Object.fromEntries(
        [...caches].map(([provider, cache]) => [
          provider,
          prefix[cache.lookup({ ...shape, timeMs })] ?? 0,
        ]),
      );
    this.price(contextTokens, cachedTokens, sample.timeMs, {
      recorded: read(this.breakpoints, sample.timeMs),
      warm: read(this.breakpointsWarm, undefined),
    });
    this.priced++;
    this.previous = contents;
    this.previousPrefix = prefix;
  }

  private price(
    contextTokens: number,
    cachedTokens: number,
    timeMs: number | undefined,
    explicit: { readonly recorded: Reusable; readonly warm: Reusable },
  ): void {
    const hasPrevious = this.priced > 0;
    const gapMs =
      timeMs === undefined || this.previousTime === undefined
        ? undefined
        : Math.max(0, timeMs - this.previousTime);
    const call = { promptTokens: contextTokens, reusablePrefixTokens: cachedTokens, hasPrevious };
    this.cost = addCallCost(this.cost, { ...call, gapMs }, explicit.recorded);
    this.costWarm = addCallCost(this.costWarm, { ...call, gapMs: undefined }, explicit.warm);
    if (timeMs !== undefined) this.timed++;
    this.previousTime = timeMs;
  }

  totals(): CallTotals {
    const mean = (sum: number) => (this.rewrites === 0 ? 0 : sum / this.rewrites);
    return {
      modelCalls: this.contextSeries.length,
      cumulativeInputTokens: this.cumulative,
      peakContextTokens: this.peak,
      cacheWeightedInputTokens: Math.round(this.cost.anthropic.weightedTokens),
      cacheCost: roundCacheCosts(this.cost),
      cacheCostAssumedWarm: roundCacheCosts(this.costWarm),
      timedCalls: this.timed,
      historyRewrites: this.rewrites,
      historyRewriteDepth: {
        meanEntries: mean(this.depthEntries),
        meanTokens: mean(this.depthTokens),
      },
      series: this.contextSeries,
      summarization: this.summarization,
    };
  }
}
