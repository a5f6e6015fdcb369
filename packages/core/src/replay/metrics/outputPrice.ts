/**
 * Output-token prices as multiples of each provider's base input price, for the one place a
 * replay bills output: the summarization call of a compaction (every policy serves the same
 * recorded replies otherwise). Pure data.
 */
import type { CacheProviderName } from '../../cache/index.js';

export const OUTPUT_PRICE_RATIO: Readonly<Record<CacheProviderName, number>> = {
  // Anthropic pricing page: every current Claude model bills output at 5× its input price.
  anthropic: 5,
  'anthropic-1h': 5,
  // OpenAI pricing page, GPT-5: $1.25 input, $10 output per million tokens.
  openai: 8,
  // Gemini API pricing, 2.5 Pro (prompts ≤ 200k): $1.25 input, $10 output per million tokens.
  gemini: 8,
};
