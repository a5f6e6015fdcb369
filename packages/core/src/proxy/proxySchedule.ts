/**
 * When the proxy sends new density edits (pure): an edit rewrites the provider's cached prefix
 * from the edited message on, so new edits wait and go out in one batch when the cache is cold
 * anyway, when the batch pays back its rewrite within the expected remaining requests, or under
 * context pressure. An edit in the newest message (not cached yet) is always free.
 * Prices come from the one cache prefix model (`cachePrefix`, `isCacheCold`).
 */
import type { CacheRules } from '../cache/cacheRules.js';
import { cachePrefix } from '../cache/cachePrefix.js';
import { isCacheCold, priced } from '../cache/priceCall.js';
import { charTokens, type WireCache } from './wireCache.js';
import type { ResultSite } from './wireHistory.js';

export const SCHEDULE_REASONS = [
  'none',
  'newest',
  'cold',
  'pressure',
  'pays-back',
  'wait',
] as const;
export type ScheduleReason = (typeof SCHEDULE_REASONS)[number];

export interface ScheduleInput {
  /** Prunable sites not sent yet. */
  readonly candidates: readonly ResultSite[];
  readonly messageCount: number;
  /** Characters of the whole request (tokens are estimated as chars / 4). */
  readonly totalChars: number;
  /** The request at the block level and what the provider holds (`wireCache`). */
  readonly cache: WireCache;
  readonly gapMs: number | undefined;
  readonly hasPrevious: boolean;
  /** Requests seen so far in this conversation (how many more are expected, roughly). */
  readonly requestsSoFar: number;
  readonly rules: CacheRules;
  /** Estimated prompt tokens at which every prunable result is sent at once. */
  readonly pressureTokens: number;
}

export interface ScheduleDecision {
  readonly apply: readonly ResultSite[];
  readonly reason: ScheduleReason;
}

/** At most this many future requests are counted when a batch must pay back. */
const MAX_HORIZON = 20;

/**
 * True when sending `sites` now costs less, over the expected remaining requests, than waiting.
 * Both are priced by `cachePrefix` with the request's own breakpoints: without the edit the
 * request reads what it can reach of the earlier requests' prompts; with it, only what lies
 * before the first edited block.
 */
export function batchPaysBack(input: ScheduleInput, sites: readonly ResultSite[]): boolean {
  const { rules, cache } = input;
  const removedChars = sites.reduce((sum, site) => sum + (site.end - site.start), 0);
  const first = sites.reduce((a, b) => (b.start < a.start ? b : a));
  const newestBlock = cache.blocksBeforeMessage[input.messageCount - 1] ?? cache.layout.blocks;
  const editBlock = (cache.blocksBeforeMessage[first.messageIndex] ?? 0) + first.blockIndex;
  const without = cachePrefix({
    rules,
    cached: cache.held,
    next: cache.layout,
    firstChangedBlock: newestBlock,
  });
  const withEdit = cachePrefix({
    rules,
    cached: cache.held,
    next: { ...cache.layout, promptTokens: charTokens(input.totalChars - removedChars) },
    firstChangedBlock: Math.min(editBlock, newestBlock),
  });
  const horizon = Math.min(MAX_HORIZON, Math.max(1, input.requestsSoFar));
  const futureSaving = charTokens(removedChars) * rules.readMultiplier * horizon;
  const upFront = priced(rules, withEdit).weightedTokens - priced(rules, without).weightedTokens;
  return upFront <= futureSaving;
}

export function scheduleEdits(input: ScheduleInput): ScheduleDecision {
  if (input.candidates.length === 0) return { apply: [], reason: 'none' };
  if (!input.hasPrevious || isCacheCold(input.rules, input.gapMs)) {
    return { apply: input.candidates, reason: 'cold' };
  }
  if (charTokens(input.totalChars) >= input.pressureTokens) {
    return { apply: input.candidates, reason: 'pressure' };
  }
  if (batchPaysBack(input, input.candidates)) {
    return { apply: input.candidates, reason: 'pays-back' };
  }
  const newest = input.candidates.filter((site) => site.messageIndex === input.messageCount - 1);
  return newest.length > 0 ? { apply: newest, reason: 'newest' } : { apply: [], reason: 'wait' };
}
