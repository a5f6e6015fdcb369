/**
 * How each provider prices a prompt whose prefix it has cached, and its output tokens: one table,
 * the only place these numbers live. What a request reads and writes under them is `cachePrefix.ts`.
 *
 * Multipliers are relative to the provider's base input-token price, so a cost of 1.0 per token
 * is "what this token would cost with no caching at all".
 */
import type { TextSlices } from '../utils/TextSlices.js';

export const CACHE_PROVIDERS = ['anthropic', 'anthropic-1h', 'openai', 'gemini'] as const;
export type CacheProviderName = (typeof CACHE_PROVIDERS)[number];

export interface CacheRules {
  readonly provider: CacheProviderName;
  /** Human label for reports. */
  readonly label: string;
  /** Price of a token read from the cache, × base input price. */
  readonly readMultiplier: number;
  /** Price of an uncached prompt token that is written into the cache, × base input price. */
  readonly writeMultiplier: number;
  /** A cached prefix unused for longer than this is gone (the next call is cold). */
  readonly ttlMs: number;
  /** Prefixes shorter than this are never cached (and never pay a write premium). */
  readonly minCacheableTokens: number;
  /**
   * `explicit`: only up to the request's last `cache_control` breakpoint (Anthropic; agents put
   * the breakpoint on the newest message, so the whole prompt is written). `automatic`: the
   * provider caches every prompt prefix by itself (OpenAI, Gemini implicit caching).
   */
  readonly mode: 'explicit' | 'automatic';
  /**
   * Explicit caching only: how many content blocks before the request's breakpoint the provider
   * looks back for an earlier cached prefix. An edit further back than that, with no breakpoint
   * of its own nearer, finds no cached prefix at all (the whole prompt is written again).
   */
  readonly lookbackBlocks?: number;
  /**
   * Automatic caching only: a cache hit beyond the minimum grows in steps of this many tokens
   * (the read is rounded down to the last step).
   */
  readonly readIncrementTokens?: number;
  /**
   * Price of an output token, × base input price: what a replay bills for the one output that
   * differs between policies (a compaction's summary).
   */
  readonly outputMultiplier: number;
  /** Where the figures come from. */
  readonly source: string;
}

const MINUTE = 60_000;

export const CACHE_RULES: Readonly<Record<CacheProviderName, CacheRules>> = {
  anthropic: {
    provider: 'anthropic',
    label: 'Anthropic (5-minute cache)',
    readMultiplier: 0.1,
    writeMultiplier: 1.25,
    ttlMs: 5 * MINUTE,
    minCacheableTokens: 1024,
    mode: 'explicit',
    lookbackBlocks: 20,
    // Anthropic pricing page: every current Claude model bills output at 5× its input price.
    outputMultiplier: 5,
    source:
      'Anthropic prompt-caching docs: 5-minute writes 1.25× base input, 1-hour writes 2×, reads 0.1×; ' +
      'TTL refreshed on every hit; cached only up to the last cache_control breakpoint; a hit is ' +
      'looked for at block boundaries up to about 20 blocks before the breakpoint; ' +
      'minimum 1,024 tokens (Sonnet/Opus).',
  },
  'anthropic-1h': {
    provider: 'anthropic-1h',
    label: 'Anthropic (1-hour cache)',
    readMultiplier: 0.1,
    writeMultiplier: 2,
    ttlMs: 60 * MINUTE,
    minCacheableTokens: 1024,
    mode: 'explicit',
    lookbackBlocks: 20,
    // The same models: output at 5× input.
    outputMultiplier: 5,
    source:
      'Anthropic prompt-caching docs: cache_control ttl "1h" writes at 2× base input; ' +
      'the same 20-block lookback.',
  },
  openai: {
    provider: 'openai',
    label: 'OpenAI (automatic prefix caching)',
    readMultiplier: 0.1,
    writeMultiplier: 1,
    ttlMs: 5 * MINUTE,
    minCacheableTokens: 1024,
    mode: 'automatic',
    readIncrementTokens: 128,
    // OpenAI pricing page, GPT-5: $1.25 input, $10 output per million tokens.
    outputMultiplier: 8,
    source:
      'OpenAI prompt-caching guide: automatic for prompts of 1,024+ tokens, hits in 128-token ' +
      'increments beyond that, no write premium, ' +
      'cached input discounted (0.1× on the GPT-5 family); caches cleared after 5–10 minutes ' +
      'of inactivity (the lower bound is used).',
  },
  gemini: {
    provider: 'gemini',
    label: 'Gemini (implicit caching)',
    readMultiplier: 0.1,
    writeMultiplier: 1,
    ttlMs: 5 * MINUTE,
    minCacheableTokens: 4096,
    mode: 'automatic',
    // Gemini API pricing, 2.5 Pro (prompts ≤ 200k): $1.25 input, $10 output per million tokens.
    outputMultiplier: 8,
    source:
      'Gemini API caching docs: implicit caching on 2.5+ models, no write or storage charge, ' +
      '90% discount on hits, minimum 4,096 tokens (Gemini 3 family); the expiry is unpublished, ' +
      'five minutes of inactivity is assumed.',
  },
};

export function cacheRulesFor(provider: CacheProviderName): CacheRules {
  return CACHE_RULES[provider];
}

/**
 * The one provider→rules mapping: which cache rules a provider name is priced with. OpenAI's
 * APIs (`openai`, `codex`) cache automatically, Gemini (`gemini`, `google`) implicitly; anything
 * else (Anthropic, an OpenAI-compatible endpoint, a test double) as Anthropic's 5-minute cache,
 * the rules under which a history rewrite costs most.
 */
export function cacheProviderFor(providerName: string): CacheProviderName {
  const name = providerName.toLowerCase();
  if (name.includes('openai') || name.includes('codex')) return 'openai';
  if (name.includes('gemini') || name.includes('google')) return 'gemini';
  return 'anthropic';
}

/** The cache rules a provider name is priced with (`cacheProviderFor`). */
export function cacheRulesForProvider(providerName: string): CacheRules {
  return CACHE_RULES[cacheProviderFor(providerName)];
}

const ONE_HOUR_TTL = /"ttl"\s*:\s*"1h"/;

/**
 * Whether `text[from, to)` asks for Anthropic's 1-hour cache (a breakpoint with `"ttl": "1h"`).
 * A match never spans a `{`, so the verdicts of two ranges split at an object's start add up to
 * the verdict of the whole.
 */
export function hasOneHourTtl(text: string, from = 0, to = text.length): boolean {
  return ONE_HOUR_TTL.test(from === 0 && to === text.length ? text : text.slice(from, to));
}

/** What is already known of a request's text: whether its first `chars` ask for the 1-hour cache. */
export interface OneHourTtlPrefix {
  readonly chars: number;
  readonly oneHour: boolean;
}

/**
 * The cache rules a proxied request is priced with: OpenAI's for the OpenAI wire APIs, Anthropic's
 * 1-hour cache when the request asks for it (a breakpoint with `"ttl": "1h"`), else Anthropic's
 * 5-minute cache. `body` is the request's JSON text (or anything that slices it), scanned from
 * `known.chars` on when the verdict for the text before it is known (`known.chars` must be an
 * object's start).
 */
export function requestCacheProvider(
  wireApi: string,
  body: TextSlices,
  known?: OneHourTtlPrefix,
): CacheProviderName {
  if (wireApi !== 'anthropic') return 'openai';
  const oneHour =
    known?.oneHour === true || hasOneHourTtl(body.slice(known?.chars ?? 0, body.length));
  return oneHour ? 'anthropic-1h' : 'anthropic';
}

/** A provider name's output price, × its base input price (`cacheProviderFor`'s rules). */
export function outputMultiplierFor(providerName: string): number {
  return cacheRulesForProvider(providerName).outputMultiplier;
}
