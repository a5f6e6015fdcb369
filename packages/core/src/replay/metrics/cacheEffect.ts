/**
 * What a policy changed against `none` on the same session, once prompt caching is priced: input
 * tokens saved, cache reads and writes gained or lost, and the net per provider. Pure.
 */
import { CACHE_PROVIDERS, type CacheProviderName } from '../../cache/index.js';
import type { CacheCostByProvider } from './cacheCost.js';

export interface ProviderEffect {
  /** Policy minus none (negative: the policy read less from the cache). */
  readonly cacheReadTokens: number;
  /** Policy minus none (explicit caching only; 0 where the provider has no write premium). */
  readonly cacheWriteTokens: number;
  /** Policy minus none, in base-input-token units (negative: the policy saved money). */
  readonly weightedTokens: number;
  /** The policy's cost as a share of none's (1 = the same); null when none cost nothing. */
  readonly ratioToNone: number | null;
}

export interface CacheEffect {
  /** none's cumulative input minus the policy's. */
  readonly inputTokensSaved: number;
  readonly byProvider: Readonly<Record<CacheProviderName, ProviderEffect>>;
}

interface Priced {
  readonly cumulativeInputTokens: number;
  readonly cacheCost: CacheCostByProvider;
}

export function cacheEffectVsNone(run: Priced, none: Priced): CacheEffect {
  const byProvider: Partial<Record<CacheProviderName, ProviderEffect>> = {};
  for (const provider of CACHE_PROVIDERS) {
    const mine = run.cacheCost[provider];
    const base = none.cacheCost[provider];
    byProvider[provider] = {
      cacheReadTokens: mine.cacheReadTokens - base.cacheReadTokens,
      cacheWriteTokens: mine.cacheWriteTokens - base.cacheWriteTokens,
      weightedTokens: mine.weightedTokens - base.weightedTokens,
      ratioToNone: base.weightedTokens === 0 ? null : mine.weightedTokens / base.weightedTokens,
    };
  }
  return {
    inputTokensSaved: none.cumulativeInputTokens - run.cumulativeInputTokens,
    byProvider: byProvider as Record<CacheProviderName, ProviderEffect>,
  };
}
