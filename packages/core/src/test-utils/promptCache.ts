/**
 * A provider's prompt cache as a cache-billing upstream mock (the proxy bench's, the CLI's cost
 * e2e) bills it: what it holds from earlier requests, and each new prompt split into cache reads,
 * cache writes and base-price tokens. The prefix rules, numbers and weighing are `@dense/core`'s
 * one cache model (`cachePrefix`, `cacheRules`, `weighPrompt`); this module only turns a prompt's
 * content blocks into that model's layout and keeps what the provider holds between requests.
 *
 * A request's unchanged blocks (`firstChangedBlock`) are the leading blocks equal, at equal
 * positions, to the previous request's: each `PromptCache` bills one conversation, so a prefix
 * an earlier request cached and the previous one did not keep is one that conversation has left.
 */
import type { CacheRules } from '../cache/cacheRules.js';
import { weighPrompt } from '../cache/priceCall.js';
import { cachePrefix, type CachedPrefix } from '../cache/cachePrefix.js';

/** One content block of a prompt in cache order. */
export interface PromptBlock {
  /** The block's identity: equal keys at equal positions are the same cached bytes. */
  readonly key: string;
  readonly tokens: number;
  /** Carries a `cache_control` breakpoint. */
  readonly breakpoint: boolean;
}

export interface PromptBill {
  readonly promptTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly uncachedTokens: number;
  /** The prompt priced in base-input-token units. */
  readonly weighted: number;
}

export class PromptCache {
  private cached: readonly CachedPrefix[] = [];
  private previousKeys: readonly string[] = [];

  constructor(private readonly rules: CacheRules) {}

  /** Bills one prompt sent at `at` (ms) and keeps what the provider holds after it. */
  bill(blocks: readonly PromptBlock[], at: number): PromptBill {
    const ends = prefixTokens(blocks);
    const keys = blocks.map((block) => block.key);
    const result = cachePrefix({
      rules: this.rules,
      cached: this.cached,
      next: {
        blocks: blocks.length,
        tokensBefore: (k) => (k <= 0 ? 0 : (ends[Math.min(k, ends.length) - 1] ?? 0)),
        breakpoints: blocks.flatMap((block, i) => (block.breakpoint ? [i + 1] : [])),
        at,
      },
      firstChangedBlock: commonPrefix(this.previousKeys, keys),
    });
    this.cached = result.cached;
    this.previousKeys = keys;
    const split = {
      cacheReadTokens: result.readTokens,
      cacheWriteTokens: result.writeTokens,
      uncachedTokens: result.uncachedTokens,
    };
    return { promptTokens: ends.at(-1) ?? 0, ...split, weighted: weighPrompt(this.rules, split) };
  }
}

/** Leading entries equal in `a` and `b`. */
function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Tokens of each prefix `blocks[0..i]`. */
function prefixTokens(blocks: readonly PromptBlock[]): number[] {
  let sum = 0;
  return blocks.map((block) => (sum += block.tokens));
}
