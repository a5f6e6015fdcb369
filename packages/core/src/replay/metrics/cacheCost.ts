/**
 * Prompt-cache cost totals per provider, summed over a session's model calls split by
 * `cachePrefix` (the one cache prefix model, packages/core/src/cache). Pure.
 */
import { CACHE_PROVIDERS, CACHE_RULES, priced, type CacheProviderName } from '../../cache/index.js';

/** One provider's totals over a session's calls, in tokens (weighted: base-input-token units). */
export interface CacheCostTotals {
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly uncachedTokens: number;
  /** Σ calls priced under the provider's rules (1.0 = one uncached token without caching). */
  readonly weightedTokens: number;
  /** Calls after a gap longer than the provider's TTL (their cache was gone). */
  readonly coldCalls: number;
}

export type CacheCostByProvider = Readonly<Record<CacheProviderName, CacheCostTotals>>;

export const ZERO_CACHE_COST: CacheCostTotals = {
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  uncachedTokens: 0,
  weightedTokens: 0,
  coldCalls: 0,
};

export function zeroCacheCosts(): CacheCostByProvider {
  return Object.fromEntries(
    CACHE_PROVIDERS.map((provider) => [provider, ZERO_CACHE_COST]),
  ) as Record<CacheProviderName, CacheCostTotals>;
}

/** One call's split under one provider's rules (`cachePrefix`), and whether its cache was gone. */
export interface CallSplit {
  readonly readTokens: number;
  readonly writeTokens: number;
  readonly uncachedTokens: number;
  /** The gap since the previous call was longer than the provider's TTL. */
  readonly cold: boolean;
}

/** Adds one call, split under every provider's rules, to running totals. */
export function addCallCost(
  totals: CacheCostByProvider,
  splits: Readonly<Record<CacheProviderName, CallSplit>>,
): CacheCostByProvider {
  const next: Partial<Record<CacheProviderName, CacheCostTotals>> = {};
  for (const provider of CACHE_PROVIDERS) {
    const split = splits[provider];
    const cost = priced(CACHE_RULES[provider], split);
    const sum = totals[provider];
    next[provider] = {
      cacheReadTokens: sum.cacheReadTokens + cost.cacheReadTokens,
      cacheWriteTokens: sum.cacheWriteTokens + cost.cacheWriteTokens,
      uncachedTokens: sum.uncachedTokens + cost.uncachedTokens,
      weightedTokens: sum.weightedTokens + cost.weightedTokens,
      coldCalls: sum.coldCalls + (split.cold ? 1 : 0),
    };
  }
  return next as CacheCostByProvider;
}

/** Sums per-provider totals (sessions → corpus); weighted tokens rounded at the end by callers. */
export function sumCacheCosts(all: readonly CacheCostByProvider[]): CacheCostByProvider {
  const out: Partial<Record<CacheProviderName, CacheCostTotals>> = {};
  for (const provider of CACHE_PROVIDERS) {
    const pick = (key: keyof CacheCostTotals) =>
      all.reduce((total, costs) => total + (costs[provider]?.[key] ?? 0), 0);
    out[provider] = {
      cacheReadTokens: pick('cacheReadTokens'),
      cacheWriteTokens: pick('cacheWriteTokens'),
      uncachedTokens: pick('uncachedTokens'),
      weightedTokens: pick('weightedTokens'),
      coldCalls: pick('coldCalls'),
    };
  }
  return out as CacheCostByProvider;
}

/** Rounds the weighted figures (reports carry whole tokens). */
export function roundCacheCosts(costs: CacheCostByProvider): CacheCostByProvider {
  const out: Partial<Record<CacheProviderName, CacheCostTotals>> = {};
  for (const provider of CACHE_PROVIDERS) {
    out[provider] = {
      ...costs[provider],
      weightedTokens: Math.round(costs[provider].weightedTokens),
    };
  }
  return out as CacheCostByProvider;
}
