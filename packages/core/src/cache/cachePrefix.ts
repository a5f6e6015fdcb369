/**
 * The prompt-cache prefix model: given what the provider holds from earlier requests, the next
 * request's content blocks and breakpoints, and how many of its leading blocks are unchanged,
 * what that request reads from the cache, writes into it, and pays in full, and what the
 * provider holds afterwards. The only implementation of the providers' prefix rules; the density
 * schedule, the replay's pricing, `/context` and the proxy all call it.
 *
 * Explicit caching (Anthropic): a request writes the prefix ending at each of its `cache_control`
 * breakpoints (when at least `minCacheableTokens` long); a later request reads the longest such
 * prefix that is still a prefix of its own, still alive (used within the TTL, which every use
 * refreshes), and ends at most `lookbackBlocks` blocks before one of its breakpoints. Everything
 * from there up to its last breakpoint is written, the rest is paid in full.
 * Automatic caching (OpenAI, Gemini implicit): the longest prefix of the previous prompt that is
 * unchanged is read (rounded down to `readIncrementTokens` past the minimum), with no write premium.
 */
import type { CacheRules } from './cacheRules.js';

/** A prompt as the cache sees it: content blocks in cache order (tools, system, messages). */
export interface PromptLayout {
  /** Content blocks of the whole prompt. */
  readonly blocks: number;
  /** Tokens of the first `k` blocks (0 ≤ k ≤ blocks), non-decreasing in `k`. */
  readonly tokensBefore: (blocks: number) => number;
  /** Tokens of the whole prompt (default `tokensBefore(blocks)`). */
  readonly promptTokens?: number;
  /** Block counts of the prefixes that end at a `cache_control` breakpoint (explicit caching). */
  readonly breakpoints: readonly number[];
  /** When it is sent (ms since the epoch); unknown → every cached prefix is assumed alive. */
  readonly at?: number | undefined;
}

/** One prefix the provider holds. */
export interface CachedPrefix {
  readonly blocks: number;
  readonly tokens: number;
  /** When it was last written or read; undefined → never expires. */
  readonly lastUsedAt: number | undefined;
}

export interface CachePrefixInput {
  readonly rules: CacheRules;
  /** What the provider holds: the `cached` of the previous request's result (`[]` before the first). */
  readonly cached: readonly CachedPrefix[];
  readonly next: PromptLayout;
  /**
   * Leading blocks of `next` identical to what earlier requests sent (the edit position): a
   * cached prefix longer than this is gone.
   */
  readonly firstChangedBlock: number;
}

export interface CachePrefixResult {
  readonly readTokens: number;
  /** Tokens written at the write premium (explicit caching only). */
  readonly writeTokens: number;
  /** Tokens paid at the base price. */
  readonly uncachedTokens: number;
  /** Blocks of the prefix read (0: nothing read). */
  readonly readBlocks: number;
  /** What the provider holds after this request: the next request's `cached`. */
  readonly cached: readonly CachedPrefix[];
}

/** Tokens of the first `k` blocks of `layout`, within the prompt's total. */
function tokensAt(layout: PromptLayout, k: number): number {
  const total = promptTokensOf(layout);
  if (k >= layout.blocks) return total;
  return Math.min(total, Math.max(0, layout.tokensBefore(Math.max(0, k))));
}

/** Tokens of the whole prompt of `layout`. */
export function promptTokensOf(layout: PromptLayout): number {
  return Math.max(0, layout.promptTokens ?? layout.tokensBefore(layout.blocks));
}

function isAlive(rules: CacheRules, prefix: CachedPrefix, at: number | undefined): boolean {
  return (
    at === undefined || prefix.lastUsedAt === undefined || at - prefix.lastUsedAt <= rules.ttlMs
  );
}

/** What `input.next` reads, writes and pays in full, and what the provider holds after it. */
export function cachePrefix(input: CachePrefixInput): CachePrefixResult {
  return input.rules.mode === 'explicit' ? explicitPrefix(input) : automaticPrefix(input);
}

function split(
  prompt: number,
  readTokens: number,
  writeTokens: number,
): Pick<CachePrefixResult, 'readTokens' | 'writeTokens' | 'uncachedTokens'> {
  return {
    readTokens,
    writeTokens,
    uncachedTokens: Math.max(0, prompt - readTokens - writeTokens),
  };
}

/**
 * What automatic caching reads when `readBlocks` leading blocks are held and unchanged;
 * undefined when that is below the cacheable minimum (nothing is read).
 */
function automaticRead(
  rules: CacheRules,
  next: PromptLayout,
  readBlocks: number,
): number | undefined {
  const read = tokensAt(next, readBlocks);
  if (read < rules.minCacheableTokens) return undefined;
  if (rules.readIncrementTokens === undefined || rules.readIncrementTokens <= 0) return read;
  const step = rules.readIncrementTokens;
  return rules.minCacheableTokens + Math.floor((read - rules.minCacheableTokens) / step) * step;
}

function automaticPrefix(input: CachePrefixInput): CachePrefixResult {
  const { rules, next } = input;
  const prompt = promptTokensOf(next);
  const unchanged = Math.max(0, Math.min(input.firstChangedBlock, next.blocks));
  let readBlocks = 0;
  for (const prefix of input.cached) {
    if (!isAlive(rules, prefix, next.at)) continue;
    readBlocks = Math.max(readBlocks, Math.min(prefix.blocks, unchanged));
  }
  const read = automaticRead(rules, next, readBlocks);
  // Below the cacheable minimum nothing is read (`automaticRead` holds the bound).
  if (read === undefined) readBlocks = 0;
  const cached =
    prompt >= rules.minCacheableTokens
      ? [{ blocks: next.blocks, tokens: prompt, lastUsedAt: next.at }]
      : [];
  return { ...split(prompt, read ?? 0, 0), readBlocks, cached };
}

function explicitPrefix(input: CachePrefixInput): CachePrefixResult {
  const { rules, next } = input;
  const prompt = promptTokensOf(next);
  const lookback = rules.lookbackBlocks ?? Number.POSITIVE_INFINITY;
  const marked = markedBlocks(next);
  const reachable = reachableFrom(marked, lookback);
  // A cached prefix longer than the unchanged blocks was edited away, for good.
  const held = input.cached.filter(
    (prefix) => prefix.blocks <= input.firstChangedBlock && isAlive(rules, prefix, next.at),
  );
  let best: CachedPrefix | undefined;
  for (const prefix of held) {
    if (prefix.tokens < rules.minCacheableTokens || !reachable(prefix)) continue;
    if (best === undefined || prefix.blocks > best.blocks) best = prefix;
  }
  const read = best === undefined ? 0 : tokensAt(next, best.blocks);
  const last = marked.at(-1) ?? 0;
  const upToLast = tokensAt(next, last);
  const write = upToLast >= rules.minCacheableTokens ? Math.max(0, upToLast - read) : 0;
  // Every breakpoint writes (or refreshes) the prefix before it; the one read is refreshed; a
  // prefix no breakpoint of this request reaches is out of reach of later ones too (they grow).
  const written = marked
    .map((blocks) => ({ blocks, tokens: tokensAt(next, blocks), lastUsedAt: next.at }))
    .filter((prefix) => prefix.tokens >= rules.minCacheableTokens);
  const kept = held
    .filter((prefix) => !marked.includes(prefix.blocks) && last - prefix.blocks <= lookback)
    .map((prefix) =>
      prefix === best && next.at !== undefined ? { ...prefix, lastUsedAt: next.at } : prefix,
    );
  return {
    ...split(prompt, read, write),
    readBlocks: best?.blocks ?? 0,
    cached: [...kept, ...written],
  };
}

/** The request's breakpoints as block counts, distinct, ascending, within the prompt. */
function markedBlocks(next: PromptLayout): number[] {
  return [...new Set(next.breakpoints)]
    .filter((b) => b > 0 && b <= next.blocks)
    .sort((a, b) => a - b);
}

/** Whether a breakpoint of the request lies at most `lookback` blocks after a prefix's end. */
function reachableFrom(marked: readonly number[], lookback: number) {
  return (prefix: CachedPrefix): boolean =>
    marked.some((b) => b >= prefix.blocks && b - prefix.blocks <= lookback);
}

/**
 * `cachePrefix(…).readTokens` for each of several edit positions of one request, in one pass
 * over what the provider holds (the schedule prices a cut per edited message).
 */
export function readTokensAt(
  input: Omit<CachePrefixInput, 'firstChangedBlock'>,
  firstChangedBlocks: readonly number[],
): number[] {
  const { rules, next } = input;
  const alive = input.cached.filter((prefix) => isAlive(rules, prefix, next.at));
  if (rules.mode !== 'explicit') {
    const longest = alive.reduce((max, prefix) => Math.max(max, prefix.blocks), 0);
    return firstChangedBlocks.map((first) => {
      const unchanged = Math.max(0, Math.min(first, next.blocks));
      return automaticRead(rules, next, Math.min(longest, unchanged)) ?? 0;
    });
  }
  const reachable = reachableFrom(markedBlocks(next), rules.lookbackBlocks ?? Infinity);
  const readable = alive
    .filter((prefix) => prefix.tokens >= rules.minCacheableTokens && reachable(prefix))
    .map((prefix) => prefix.blocks)
    .sort((a, b) => a - b);
  return firstChangedBlocks.map((first) => {
    // The longest readable prefix that is no longer than the unchanged blocks.
    let low = 0;
    let high = readable.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((readable[middle] as number) <= first) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? 0 : tokensAt(next, readable[low - 1] as number);
  });
}

/** A prompt made of entries (messages), each some content blocks and tokens long. */
export interface EntrySpan {
  readonly blocks: number;
  readonly tokens: number;
}

/**
 * Maps a prompt of entries to the block level: `blocksBefore[k]` and `tokensBefore[k]` for the
 * first `k` entries, and a layout whose `tokensBefore` counts the entries wholly before a block.
 */
export function entryLayout(
  entries: readonly EntrySpan[],
  options: {
    readonly breakpointsAtEntries: readonly number[];
    readonly at?: number | undefined;
    readonly promptTokens?: number;
  },
): { readonly layout: PromptLayout; readonly blocksBefore: readonly number[] } {
  const blocksBefore = [0];
  const tokens = [0];
  for (const entry of entries) {
    blocksBefore.push((blocksBefore.at(-1) as number) + Math.max(0, entry.blocks));
    tokens.push((tokens.at(-1) as number) + Math.max(0, entry.tokens));
  }
  const tokensBefore = (k: number): number => {
    // The last entry boundary at or before block k.
    let lo = 0;
    let hi = blocksBefore.length - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if ((blocksBefore[mid] as number) <= k) lo = mid;
      else hi = mid - 1;
    }
    return tokens[lo] as number;
  };
  const blocks = blocksBefore.at(-1) as number;
  const breakpoints = options.breakpointsAtEntries
    .filter((k) => k > 0 && k <= entries.length)
    .map((k) => blocksBefore[k] as number);
  return {
    layout: {
      blocks,
      tokensBefore,
      breakpoints,
      ...(options.promptTokens === undefined ? {} : { promptTokens: options.promptTokens }),
      ...(options.at === undefined ? {} : { at: options.at }),
    },
    blocksBefore,
  };
}
