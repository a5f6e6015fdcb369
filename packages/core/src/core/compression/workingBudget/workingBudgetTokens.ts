/**
 * `compression.density.workingBudget` as tokens for a context window: 0 (`off`) is no working
 * budget; a value up to 1 is that share of the window; a larger one is tokens. Never more than the
 * window.
 */
export function workingBudgetTokens(setting: number, contextLimit: number): number | undefined {
  if (!(setting > 0) || !(contextLimit > 0)) return undefined;
  const tokens = setting <= 1 ? Math.floor(setting * contextLimit) : Math.floor(setting);
  return Math.max(1, Math.min(tokens, contextLimit));
}
