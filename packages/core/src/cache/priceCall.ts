/**
 * The price of one model call's prompt under a provider's caching rules, in base-input-token
 * units (1.0 = one uncached token with no caching at all).
 */
import type { CacheRules } from './cacheRules.js';
import { cachePrefix, type CachePrefixResult } from './cachePrefix.js';

export interface CallCacheInput {
  /** Tokens of the whole prompt sent on this call. */
  readonly promptTokens: number;
  /** Leading tokens identical to the previous call's prompt (what a warm cache can serve). */
  readonly reusablePrefixTokens: number;
  /** Milliseconds since the previous call; `undefined` when unknown (assumed warm). */
  readonly gapMs: number | undefined;
  /** Whether there was a previous call at all (the first call of a session is always cold). */
  readonly hasPrevious: boolean;
}

export interface CallCacheCost {
  readonly cacheReadTokens: number;
  /** Tokens written into the cache at the write premium (explicit caching only). */
  readonly cacheWriteTokens: number;
  /** Tokens billed at the base price. */
  readonly uncachedTokens: number;
  /** The whole prompt priced in base-input-token units. */
  readonly weightedTokens: number;
}

/** A prompt's split into cache reads, cache writes and base-price tokens, in base-input-token units. */
export function weighPrompt(
  rules: CacheRules,
  split: Pick<CallCacheCost, 'cacheReadTokens' | 'cacheWriteTokens' | 'uncachedTokens'>,
): number {
  return (
    rules.readMultiplier * split.cacheReadTokens +
    rules.writeMultiplier * split.cacheWriteTokens +
    split.uncachedTokens
  );
}

/** True when the previous call's cache is gone by the time of this call. */
export function isCacheCold(rules: CacheRules, gapMs: number | undefined): boolean {
  return gapMs !== undefined && gapMs > rules.ttlMs;
}

/**
 * `cachePrefix` for a caller that knows only how many leading tokens the previous prompt shares
 * with this one: that prefix as one block the previous request cached, the rest as a second
 * block, a breakpoint at the end.
 */
export function priceCall(rules: CacheRules, input: CallCacheInput): CallCacheCost {
  const prompt = Math.max(0, input.promptTokens);
  const reusable = Math.min(prompt, Math.max(0, input.reusablePrefixTokens));
  const warm = input.hasPrevious && !isCacheCold(rules, input.gapMs);
  const result = cachePrefix({
    rules,
    cached: warm ? [{ blocks: 1, tokens: reusable, lastUsedAt: undefined }] : [],
    next: {
      blocks: 2,
      tokensBefore: (k) => (k <= 0 ? 0 : k === 1 ? reusable : prompt),
      breakpoints: [2],
    },
    firstChangedBlock: 1,
  });
  return priced(rules, result);
}

/** A `cachePrefix` result as a call's cost. */
export function priced(
  rules: CacheRules,
  result: Pick<CachePrefixResult, 'readTokens' | 'writeTokens' | 'uncachedTokens'>,
): CallCacheCost {
  const split = {
    cacheReadTokens: result.readTokens,
    cacheWriteTokens: result.writeTokens,
    uncachedTokens: result.uncachedTokens,
  };
  return { ...split, weightedTokens: weighPrompt(rules, split) };
}
