/**
 * What each model call of a replay costs: its context tokens, the prefix unchanged (by entry
 * identity) since the previous call, and the history rewrites that break a provider's prompt
 * cache. Entries are immutable, so an identical object billed with the same tokens is an
 * identical prompt segment (a provider that drops an entry's thinking once its turn is over
 * changes the segment). Each call is split into cache reads, writes and base-price tokens under
 * every provider's rules by the one prefix model (`cachePrefix`), with the gap between the
 * recorded times of consecutive calls (unknown → assumed warm) and, apart, assuming every gap warm.
 */
import type { IContent } from '../../services/history/IContent.js';
import {
  CACHE_PROVIDERS,
  CACHE_RULES,
  cachePrefix,
  entryLayout,
  isCacheCold,
  type CachedPrefix,
  type CacheProviderName,
  type CachePrefixResult,
  type PromptLayout,
} from '../../cache/index.js';
import {
  addCallCost,
  type CallSplit,
  roundCacheCosts,
  zeroCacheCosts,
  type CacheCostByProvider,
} from './cacheCost.js';

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

/** How a request is billed beyond its entries (`requestSample`). */
export interface RequestBilling {
  /** When the call was made in the recording (ms since the epoch). */
  readonly timeMs?: number | undefined;
  /** Per entry, tokens the provider drops from the request (thinking of earlier turns). */
  readonly droppedTokens?: ReadonlyMap<IContent, number>;
}

/**
 * The sample for a request as sent (its contents and cache anchors), priced from `history`
 * less what the provider drops from it (`billing.droppedTokens`).
 */
export function requestSample(
  request: { readonly contents: readonly IContent[]; readonly cacheAnchors?: readonly IContent[] },
  history: {
    getTotalTokens(): number;
    tokensOf(entry: IContent): number | undefined;
  },
  billing: RequestBilling = {},
): CallSample {
  const { contents } = request;
  const dropped = billing.droppedTokens ?? new Map<IContent, number>();
  const anchors = (request.cacheAnchors ?? [])
    .map((entry) => contents.indexOf(entry) + 1)
    .filter((a) => a > 0);
  let droppedTotal = 0;
  for (const tokens of dropped.values()) droppedTotal += tokens;
  return {
    contents,
    contextTokens: history.getTotalTokens() - droppedTotal,
    tokensOf: (entry) => Math.max(0, (history.tokensOf(entry) ?? 0) - (dropped.get(entry) ?? 0)),
    timeMs: billing.timeMs,
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
  /** The summaries written, billed at each provider's output price (`CacheRules.outputMultiplier`). */
  readonly outputTokens: number;
}

type CacheHeld = Record<CacheProviderName, readonly CachedPrefix[]>;

function emptyCaches(): CacheHeld {
  return Object.fromEntries(CACHE_PROVIDERS.map((p) => [p, []])) as unknown as CacheHeld;
}

/** prefix[k] = tokens of the first k entries. */
function prefixTokens(entries: readonly { readonly tokens: number }[]): number[] {
  const prefix = [0];
  for (const entry of entries) prefix.push((prefix.at(-1) as number) + entry.tokens);
  return prefix;
}

function withCold(
  splits: Readonly<Record<CacheProviderName, CachePrefixResult>>,
  coldFor: (provider: CacheProviderName) => boolean,
): Record<CacheProviderName, CallSplit> {
  const out = {} as Record<CacheProviderName, CallSplit>;
  for (const provider of CACHE_PROVIDERS)
    out[provider] = { ...splits[provider], cold: coldFor(provider) };
  return out;
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
  /** What each provider holds after the previous call, with and without recorded gaps. */
  private held = emptyCaches();
  private heldWarm = emptyCaches();
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
              totals[provider].weightedTokens +
              outputTokens * CACHE_RULES[provider].outputMultiplier,
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
    const sameSegment = (index: number): boolean =>
      contents[index] === this.previous[index] &&
      tokensOf(contents[index] as IContent) ===
        (this.previousPrefix[index + 1] ?? 0) - (this.previousPrefix[index] ?? 0);
    let common = 0;
    const limit = Math.min(contents.length, this.previous.length);
    while (common < limit && sameSegment(common)) common++;
    const cachedTokens = this.previousPrefix[common] ?? 0;
    const previousTotal = this.previousPrefix[this.previous.length] ?? 0;
    if (common < this.previous.length) {
      this.rewrites++;
      this.depthEntries += this.previous.length - common;
      this.depthTokens += previousTotal - cachedTokens;
    }
    this.cumulative += contextTokens;
    this.peak = Math.max(this.peak, contextTokens);
    const entrySpans = contents.map((entry) => ({
      blocks: Math.max(1, entry.blocks.length),
      tokens: tokensOf(entry),
    }));
    const anchors = (sample.anchors ?? []).filter((k) => k > 0 && k < contents.length);
    const { layout, blocksBefore } = entryLayout(entrySpans, {
      breakpointsAtEntries: [...anchors, contents.length],
      promptTokens: contextTokens,
    });
    const firstChangedBlock = blocksBefore[common] ?? 0;
    const gapMs =
      sample.timeMs === undefined || this.previousTime === undefined
        ? undefined
        : Math.max(0, sample.timeMs - this.previousTime);
    const hasPrevious = this.priced > 0;
    const recorded = this.split(this.held, { ...layout, at: sample.timeMs }, firstChangedBlock);
    const warm = this.split(this.heldWarm, layout, firstChangedBlock);
    this.held = recorded.held;
    this.heldWarm = warm.held;
    const coldFor = (provider: CacheProviderName) =>
      hasPrevious && isCacheCold(CACHE_RULES[provider], gapMs);
    this.cost = addCallCost(this.cost, withCold(recorded.splits, coldFor));
    this.costWarm = addCallCost(
      this.costWarm,
      withCold(warm.splits, () => false),
    );
    if (sample.timeMs !== undefined) this.timed++;
    this.previousTime = sample.timeMs;
    this.priced++;
    this.previous = contents;
    this.previousPrefix = prefixTokens(entrySpans);
  }

  /** Every provider's split of the call (`cachePrefix`) and what each holds after it. */
  private split(
    held: CacheHeld,
    next: PromptLayout,
    firstChangedBlock: number,
  ): { splits: Record<CacheProviderName, CachePrefixResult>; held: CacheHeld } {
    const splits = {} as Record<CacheProviderName, CachePrefixResult>;
    const after = emptyCaches();
    for (const provider of CACHE_PROVIDERS) {
      const result = cachePrefix({
        rules: CACHE_RULES[provider],
        cached: held[provider],
        next,
        firstChangedBlock,
      });
      splits[provider] = result;
      after[provider] = result.cached;
    }
    return { splits, held: after };
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
