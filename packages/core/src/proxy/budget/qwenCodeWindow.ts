/**
 * The context window (tokens) Qwen Code 0.24.4 assumes for a model when its settings name none
 * (`model.generationConfig.contextWindowSize`): its own table by model family, first match wins,
 * 200,000 for a model the table does not know. Its compaction threshold is derived from this
 * window (docs/clients.md).
 */

/** Qwen Code's window for a model its table does not know. */
export const QWEN_CODE_DEFAULT_WINDOW = 200_000;

const M1 = 1_000_000;
const K256 = 262_144;

/** Family pattern → window, in Qwen Code's order (the first that matches the bare name). */
const FAMILIES: readonly (readonly [RegExp, number])[] = [
  [/^gemini-/, M1],
  [/^gpt-5/, 272_000],
  [/^gpt-/, 131_072],
  [/^o\d/, 200_000],
  [/^claude-opus-(?:4-[678]|5)/, M1],
  [/^claude-/, 200_000],
  [/^(?:qwen3-coder-plus|qwen3-coder-flash|qwen3\.\d|coder-model$)/, M1],
  [/^(?:qwen-plus-latest|qwen-flash-latest)$/, M1],
  [/^qwen/, K256],
  [/^deepseek-(?:v4|flash)/, M1],
  [/^deepseek/, 131_072],
  [/^glm-5(?:\.[01])?(?:-|$)/, 202_752],
  [/^glm-(?:[5-9]|\d{2,})/, M1],
  [/^glm-/, 202_752],
  [/^minimax-m3/, M1],
  [/^minimax-m2\.5/, 196_608],
  [/^minimax-/, 200_000],
  [/^kimi-k3/, M1],
  [/^kimi-/, K256],
  [/^seed-oss/, 524_288],
];

/** The model name as the table reads it: lower case, without a `vendor/` prefix. */
function bareName(model: string): string {
  const name = model.trim().toLowerCase();
  return name.slice(name.lastIndexOf('/') + 1).replace(/^(claude-[a-z]+-\d+)\.(\d+)/, '$1-$2');
}

/** Qwen Code's window for `model` (its default for an unknown or missing name). */
export function qwenCodeWindow(model: string | undefined): number {
  if (model === undefined) return QWEN_CODE_DEFAULT_WINDOW;
  const bare = bareName(model);
  return FAMILIES.find(([pattern]) => pattern.test(bare))?.[1] ?? QWEN_CODE_DEFAULT_WINDOW;
}
