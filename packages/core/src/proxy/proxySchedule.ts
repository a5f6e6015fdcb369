/**
 * When the proxy sends new density edits (pure): an edit rewrites the provider's cached prefix
 * from the edited message on, so new edits wait and go out in one batch when the cache is cold
 * anyway, when the batch pays back its rewrite within the expected remaining requests, or under
 * context pressure. An edit in the newest message (not cached yet) is always free.
 * Prices come from the one cache model (`priceCall`, `isCacheCold`).
 */
import type { CacheRules } from '../cache/cacheRules.js';
import { isCacheCold, priceCall } from '../cache/priceCall.js';
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
  /** Characters before the newest message in cache order (what a warm cache can serve). */
  readonly newestPrefixChars: number;
  /** Characters before a request-text offset in cache order (tools, system, then messages). */
  readonly prefixCharsAt: (offset: number) => number;
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

const CHARS_PER_TOKEN = 4;
/** At most this many future requests are counted when a batch must pay back. */
const MAX_HORIZON = 20;

const tokens = (chars: number): number => Math.ceil(Math.max(0, chars) / CHARS_PER_TOKEN);

/** True when sending `sites` now costs less, over the expected remaining requests, than waiting. */
export function batchPaysBack(input: ScheduleInput, sites: readonly ResultSite[]): boolean {
  const removedChars = sites.reduce((sum, site) => sum + (site.end - site.start), 0);
  const firstEdit = Math.min(...sites.map((site) => site.start));
  const common = { gapMs: input.gapMs, hasPrevious: input.hasPrevious };
  const without = priceCall(input.rules, {
    ...common,
    promptTokens: tokens(input.totalChars),
    reusablePrefixTokens: tokens(input.newestPrefixChars),
  });
  const withEdit = priceCall(input.rules, {
    ...common,
    promptTokens: tokens(input.totalChars - removedChars),
    reusablePrefixTokens: tokens(Math.min(input.prefixCharsAt(firstEdit), input.newestPrefixChars)),
  });
  const horizon = Math.min(MAX_HORIZON, Math.max(1, input.requestsSoFar));
  const futureSaving = tokens(removedChars) * input.rules.readMultiplier * horizon;
  return withEdit.weightedTokens - without.weightedTokens <= futureSaving;
}

export function scheduleEdits(input: ScheduleInput): ScheduleDecision {
  if (input.candidates.length === 0) return { apply: [], reason: 'none' };
  if (!input.hasPrevious || isCacheCold(input.rules, input.gapMs)) {
    return { apply: input.candidates, reason: 'cold' };
  }
  if (tokens(input.totalChars) >= input.pressureTokens) {
    return { apply: input.candidates, reason: 'pressure' };
  }
  if (batchPaysBack(input, input.candidates)) {
    return { apply: input.candidates, reason: 'pays-back' };
  }
  const newest = input.candidates.filter((site) => site.messageIndex === input.messageCount - 1);
  return newest.length > 0 ? { apply: newest, reason: 'newest' } : { apply: [], reason: 'wait' };
}
