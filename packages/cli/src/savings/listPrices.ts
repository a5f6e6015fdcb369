/**
 * The dollar prices `dense savings` turns replayed costs into: each model family's list price per
 * million base input tokens, and which prompt-cache rules (core's `CACHE_RULES`) bill it. The
 * replay prices every call in base-input-token units under those rules (cache reads, writes and a
 * compaction's summary at the output price); × this price is dollars. Matched by the longest
 * prefix of the recorded model name; a model no entry matches gets its client's default entry.
 */
import type { SavingsSource } from './transcriptSources.js';

/** The prompt-cache rules a price is billed under (keys of core's `CACHE_RULES`). */
export type PriceCacheRules = 'anthropic' | 'openai' | 'gemini';

export interface ListPrice {
  /** Model-name prefix (lower case); `''` for a client's default. */
  readonly prefix: string;
  /** How outputs name the entry. */
  readonly label: string;
  /** US dollars per million uncached input tokens. */
  readonly inputUsdPerMTok: number;
  readonly cacheRules: PriceCacheRules;
}

/** The table's name, as outputs cite it. */
export const PRICE_TABLE_NAME =
  "API list prices per million input tokens (Anthropic's pricing page 2026-12, OpenAI and Google 2025-11; Dense's savings/listPrices.ts)";

const anthropic = (prefix: string, label: string, usd: number): ListPrice => ({
  prefix,
  label,
  inputUsdPerMTok: usd,
  cacheRules: 'anthropic',
});
const openai = (prefix: string, label: string, usd: number): ListPrice => ({
  prefix,
  label,
  inputUsdPerMTok: usd,
  cacheRules: 'openai',
});
const gemini = (prefix: string, label: string, usd: number): ListPrice => ({
  prefix,
  label,
  inputUsdPerMTok: usd,
  cacheRules: 'gemini',
});

/**
 * Output prices are the cache rules' `outputMultiplier` × these (Claude 5×, GPT-5 and Gemini 2.5
 * Pro 8×), which the vendors' pages match for the entries below.
 */
export const LIST_PRICES: readonly ListPrice[] = [
  // Anthropic's pricing page (platform.claude.com, read 2026-12-02). Haiku 5.5 is $0.10 for
  // prompts up to 100k tokens ($0.50 above); Sonnet 5.5's cache reads are 0.05x since 2026-10-07,
  // billed here at the 0.1x of the Anthropic cache rules (the saving is then understated).
  anthropic('claude-fable-5', 'Claude Fable 5', 10),
  anthropic('claude-mythos-5', 'Claude Mythos 5', 10),
  anthropic('claude-opus-5-5', 'Claude Opus 5.5', 4),
  anthropic('claude-opus-5', 'Claude Opus 5', 5),
  anthropic('claude-sonnet-5', 'Claude Sonnet 5 and 5.5', 2),
  anthropic('claude-haiku-5-5', 'Claude Haiku 5.5 (prompts up to 100k)', 0.1),
  anthropic('claude-opus-4-1', 'Claude Opus 4.1', 15),
  anthropic('claude-opus-4-0', 'Claude Opus 4', 15),
  anthropic('claude-opus-4-2', 'Claude Opus 4', 15),
  anthropic('claude-opus-4', 'Claude Opus 4.5 and later', 5),
  anthropic('claude-opus', 'Claude Opus 4.5 and later', 5),
  anthropic('claude-sonnet', 'Claude Sonnet', 3),
  anthropic('claude-3-7-sonnet', 'Claude Sonnet', 3),
  anthropic('claude-haiku', 'Claude Haiku 4.5', 1),
  anthropic('claude-3-5-haiku', 'Claude Haiku 3.5', 0.8),
  openai('gpt-5-nano', 'GPT-5 nano', 0.05),
  openai('gpt-5-mini', 'GPT-5 mini', 0.25),
  openai('gpt-5', 'GPT-5', 1.25),
  openai('gpt-4.1', 'GPT-4.1', 2),
  openai('gpt-4o', 'GPT-4o', 2.5),
  openai('o3', 'o3', 2),
  openai('o4-mini', 'o4-mini', 1.1),
  gemini('gemini-2.5-flash', 'Gemini 2.5 Flash', 0.3),
  gemini('gemini-2.5-pro', 'Gemini 2.5 Pro (prompts up to 200k)', 1.25),
  gemini('gemini-3', 'Gemini 3 Pro (prompts up to 200k)', 2),
];

/** A client's default when the model is not in the table (or not recorded). */
const DEFAULTS: Readonly<Record<SavingsSource, ListPrice>> = {
  'claude-code': anthropic('', 'Claude Sonnet (Claude Code default)', 3),
  codex: openai('', 'GPT-5 (Codex default)', 1.25),
  'gemini-cli': gemini('', 'Gemini 2.5 Pro (gemini-cli default)', 1.25),
  other: anthropic('', 'Claude Sonnet (no model recorded)', 3),
};

/**
 * The entry for a session: the longest table prefix of its model name (a vendor prefix such as
 * `anthropic/` and a `[1m]` tag ignored), else its source's default.
 */
export function listPriceFor(source: SavingsSource, model: string | undefined): ListPrice {
  const name = (model ?? '')
    .toLowerCase()
    .replace(/\[1m\]$/, '')
    .replace(/^.*\//, '');
  let best: ListPrice | undefined;
  for (const entry of LIST_PRICES) {
    if (!name.startsWith(entry.prefix)) continue;
    if (best === undefined || entry.prefix.length > best.prefix.length) best = entry;
  }
  return best ?? DEFAULTS[source];
}
