/**
 * Known models' context windows and output limits (tokens), matched by the longest prefix of the
 * model name (a vendor prefix such as `openai/` or `models/` is ignored). Unknown models give
 * `undefined`; the `context-limit` setting overrides whatever this table says.
 */

export interface ModelLimits {
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
}

/** Figures from the vendors' model pages as of 2026-11. */
const MODEL_LIMITS: readonly (readonly [prefix: string, limits: ModelLimits])[] = [
  // OpenAI
  ['gpt-5.4-mini', { contextWindow: 400_000, maxOutputTokens: 128_000 }],
  ['gpt-5.4-nano', { contextWindow: 400_000, maxOutputTokens: 128_000 }],
  ['gpt-5.4', { contextWindow: 1_050_000, maxOutputTokens: 128_000 }],
  ['gpt-5', { contextWindow: 400_000, maxOutputTokens: 128_000 }],
  ['gpt-4.1', { contextWindow: 1_047_576, maxOutputTokens: 32_768 }],
  ['gpt-4o', { contextWindow: 128_000, maxOutputTokens: 16_384 }],
  ['o3', { contextWindow: 200_000, maxOutputTokens: 100_000 }],
  ['o4-mini', { contextWindow: 200_000, maxOutputTokens: 100_000 }],
  // Anthropic
  ['claude-fable-5', { contextWindow: 1_000_000, maxOutputTokens: 128_000 }],
  ['claude-mythos-5', { contextWindow: 1_000_000, maxOutputTokens: 128_000 }],
  ['claude-opus-5', { contextWindow: 1_000_000, maxOutputTokens: 128_000 }],
  ['claude-sonnet-5', { contextWindow: 1_000_000, maxOutputTokens: 128_000 }],
  ['claude-haiku-5-5', { contextWindow: 1_000_000, maxOutputTokens: 128_000 }],
  ['claude-opus-4-8', { contextWindow: 1_000_000, maxOutputTokens: 128_000 }],
  ['claude-opus-4-7', { contextWindow: 1_000_000, maxOutputTokens: 128_000 }],
  ['claude-opus-4-6', { contextWindow: 1_000_000, maxOutputTokens: 128_000 }],
  ['claude-sonnet-4-6', { contextWindow: 1_000_000, maxOutputTokens: 128_000 }],
  ['claude-opus-4-5', { contextWindow: 200_000, maxOutputTokens: 64_000 }],
  ['claude-sonnet-4-5', { contextWindow: 200_000, maxOutputTokens: 64_000 }],
  ['claude-haiku-4-5', { contextWindow: 200_000, maxOutputTokens: 64_000 }],
  ['claude-opus-4-1', { contextWindow: 200_000, maxOutputTokens: 32_000 }],
  ['claude-opus-4', { contextWindow: 200_000, maxOutputTokens: 32_000 }],
  ['claude-sonnet-4', { contextWindow: 200_000, maxOutputTokens: 64_000 }],
  // Gemini
  ['gemini-3', { contextWindow: 1_048_576, maxOutputTokens: 65_536 }],
  ['gemini-2.5', { contextWindow: 1_048_576, maxOutputTokens: 65_536 }],
  ['gemini-2.0-flash', { contextWindow: 1_048_576, maxOutputTokens: 8_192 }],
];

export function getModelLimits(model: string): ModelLimits | undefined {
  const name = model.trim().toLowerCase();
  const bare = name.slice(name.lastIndexOf('/') + 1);
  let best: readonly [string, ModelLimits] | undefined;
  for (const entry of MODEL_LIMITS) {
    if (bare.startsWith(entry[0]) && (best === undefined || entry[0].length > best[0].length)) {
      best = entry;
    }
  }
  return best?.[1];
}

/** The model each provider uses when the configuration names none. */
export const DEFAULT_MODELS = {
  openai: 'gpt-5.4',
  anthropic: 'claude-sonnet-5',
  gemini: 'gemini-3.1-pro-preview',
} as const;

/** Which provider family a model-table name belongs to. */
function familyOf(name: string): string | undefined {
  if (name.startsWith('claude-')) return 'anthropic';
  if (name.startsWith('gemini-')) return 'gemini';
  if (/^(gpt-|o\d)/.test(name)) return 'openai';
  return undefined;
}

/** The model names the table knows for `provider` (what `/model` lists), in table order. */
export function knownModels(provider: string): string[] {
  return MODEL_LIMITS.map(([name]) => name).filter((name) => familyOf(name) === provider);
}
