/**
 * What one proxied request cost against what it would have cost passed through unchanged, both
 * in base-input-token units (1.0 = one uncached prompt token) priced by the one cache model
 * (`cache/priceCall.ts`). Output tokens are left out: the counterfactual cannot know them.
 *
 * Billed: the usage the provider reported, weighed by its cache rules. Pass-through: a request
 * that went out byte-identical costs what was billed; an edited one is priced with the original
 * body's prompt (`clientPromptTokens`: the billed prompt's text scaled by original / sent bytes,
 * images by their provider's rule) and a cache that would have
 * served at least what it served, and the whole previous pass-through prompt while warm (density
 * never rewrote that cache).
 */
import type { CacheRules } from '../../cache/cacheRules.js';
import { isCacheCold, priceCall, weighPrompt } from '../../cache/priceCall.js';
import { clientPromptTokens } from '../images/clientPromptTokens.js';
import type { ImageLoad } from '../images/requestImages.js';
import type { Usage } from './usageMeter.js';

export interface RequestCost {
  /** The billed prompt, weighed. */
  readonly billed: number;
  /** The estimated prompt of the same request passed through unchanged, weighed. */
  readonly passThrough: number;
}

/** The previous priced request of the same conversation. */
export interface PassThroughState {
  readonly at: number;
  /** Prompt tokens the previous request would have had passed through. */
  readonly promptTokens: number;
  /**
   * The client's own prompt tokens (without history it no longer holds) and body bytes: their
   * ratio reads a later body of the client (its compaction request) as tokens.
   */
  readonly clientTokens?: number;
  readonly clientBytes?: number;
}

export interface PassThroughCostInput {
  readonly usage: Usage;
  readonly rules: CacheRules;
  /** Bytes the client sent and bytes forwarded upstream. */
  readonly originalBytes: number;
  readonly sentBytes: number;
  /** The base64 images of each body (counted by their rule, not their bytes); absent: none. */
  readonly originalImages?: ImageLoad;
  readonly sentImages?: ImageLoad;
  readonly at: number;
  readonly previous: PassThroughState | undefined;
  /**
   * Tokens the client passed through would hold beyond what this client holds (`directClient.ts`:
   * history a compaction Dense induced took away); default 0.
   */
  readonly carriedTokens?: number;
}

export function passThroughCost(input: PassThroughCostInput): {
  readonly cost: RequestCost;
  readonly state: PassThroughState;
} {
  const { usage, rules } = input;
  const billed = weighPrompt(rules, {
    cacheReadTokens: usage.cacheRead,
    cacheWriteTokens: usage.cacheCreation,
    uncachedTokens: usage.input,
  });
  const sentPrompt = usage.input + usage.cacheCreation + usage.cacheRead;
  const carried = input.carriedTokens ?? 0;
  if (carried === 0 && (input.originalBytes === input.sentBytes || input.sentBytes <= 0)) {
    return {
      cost: { billed, passThrough: billed },
      state: {
        at: input.at,
        promptTokens: sentPrompt,
        clientTokens: sentPrompt,
        clientBytes: input.originalBytes,
      },
    };
  }
  const clientTokens = clientPromptTokens({ ...input, sentPromptTokens: sentPrompt });
  const promptTokens = clientTokens + carried;
  const previous = input.previous;
  const warm = previous !== undefined && !isCacheCold(rules, input.at - previous.at);
  const reusable = warm ? Math.max(usage.cacheRead, previous.promptTokens) : usage.cacheRead;
  const priced = priceCall(rules, {
    promptTokens,
    reusablePrefixTokens: reusable,
    gapMs: undefined,
    hasPrevious: reusable > 0,
  });
  return {
    cost: { billed, passThrough: priced.weightedTokens },
    state: { at: input.at, promptTokens, clientTokens, clientBytes: input.originalBytes },
  };
}
