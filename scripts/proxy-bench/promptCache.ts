/**
 * A provider's prompt cache as the bench's upstream mock bills it: it remembers the prefixes earlier
 * requests cached and splits each new prompt into cache reads, cache writes and base-price tokens.
 * The numbers (multipliers, TTL, minimum, lookback) and the weighing come from `@dense/core`'s one
 * cache model (`cacheRules`, `weighPrompt`, `isCacheCold`); this module only decides which tokens
 * fall in which bucket.
 *
 * Explicit caching (Anthropic): a request reads the longest prefix that ends at a breakpoint of an
 * earlier request, found at a block boundary within `lookbackBlocks` of one of its own breakpoints,
 * still alive (TTL from its last use); it writes the rest up to its last breakpoint; what follows
 * that breakpoint is billed at the base price. Automatic caching (OpenAI): every prefix of every
 * request is cached; a request reads the longest one still alive, with no write premium.
 * Prefixes under `minCacheableTokens` are never cached.
 */
import { createHash } from 'node:crypto';
import { isCacheCold, weighPrompt, type CacheRules } from '@dense/core';

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
  /** Prefix digest → when it was last written or read. */
  private readonly entries = new Map<string, number>();

  constructor(private readonly rules: CacheRules) {}

  /** Bills one prompt sent at `at` (ms) and updates the cache with what it wrote and read. */
  bill(blocks: readonly PromptBlock[], at: number): PromptBill {
    this.evict(at);
    const digests = prefixDigests(blocks);
    const ends = prefixTokens(blocks);
    const total = ends.at(-1) ?? 0;
    const hit =
      this.rules.mode === 'explicit' ? this.explicitHit(blocks, digests) : this.longestHit(digests);
    const read = hit === -1 ? 0 : (ends[hit] ?? 0);
    if (hit !== -1) this.entries.set(digests[hit] ?? '', at);
    let written = read;
    if (this.rules.mode === 'explicit') {
      blocks.forEach((block, i) => {
        const end = ends[i] ?? 0;
        if (!block.breakpoint || end < this.rules.minCacheableTokens) return;
        this.entries.set(digests[i] ?? '', at);
        written = Math.max(written, end);
      });
    } else {
      digests.forEach((digest, i) => {
        if ((ends[i] ?? 0) >= this.rules.minCacheableTokens) this.entries.set(digest, at);
      });
    }
    const split = {
      cacheReadTokens: read,
      cacheWriteTokens: this.rules.mode === 'explicit' ? written - read : 0,
      uncachedTokens: this.rules.mode === 'explicit' ? total - written : total - read,
    };
    return { promptTokens: total, ...split, weighted: weighPrompt(this.rules, split) };
  }

  private evict(at: number): void {
    for (const [digest, used] of this.entries) {
      if (isCacheCold(this.rules, at - used)) this.entries.delete(digest);
    }
  }

  /** The last block index of the longest readable prefix, or -1. */
  private explicitHit(blocks: readonly PromptBlock[], digests: readonly string[]): number {
    const lookback = this.rules.lookbackBlocks ?? blocks.length;
    let hit = -1;
    blocks.forEach((block, b) => {
      if (!block.breakpoint) return;
      for (let i = b; i > b - lookback && i > hit; i--) {
        if (this.entries.has(digests[i] ?? '')) {
          hit = i;
          return;
        }
      }
    });
    return hit;
  }

  private longestHit(digests: readonly string[]): number {
    for (let i = digests.length - 1; i >= 0; i--) {
      if (this.entries.has(digests[i] ?? '')) return i;
    }
    return -1;
  }
}

/** Digest of each prefix `blocks[0..i]`, chained so equal digests mean equal prefixes. */
function prefixDigests(blocks: readonly PromptBlock[]): string[] {
  let previous = '';
  return blocks.map((block) => {
    previous = createHash('sha1').update(previous).update('\u0000').update(block.key).digest('hex');
    return previous;
  });
}

/** Tokens of each prefix `blocks[0..i]`. */
function prefixTokens(blocks: readonly PromptBlock[]): number[] {
  let sum = 0;
  return blocks.map((block) => (sum += block.tokens));
}
