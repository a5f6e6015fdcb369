import { autoWorkingBudget } from './autoWorkingBudget.js';

/** `compression.density.workingBudget`'s `auto`: the one rule (`autoWorkingBudget`). */
export const AUTO_WORKING_BUDGET = -1;

/**
 * `compression.density.workingBudget` as tokens for a context window and the compression
 * threshold (a share of the window): 0 (`off`) is no working budget; a negative value (`auto`) is
 * `autoWorkingBudget` for that window and threshold; a value up to 1 is that share of the window;
 * a larger one is tokens. Never more than the window.
 */
export function workingBudgetTokens(
  setting: number,
  contextLimit: number,
  threshold: number,
): number | undefined {
  if (setting === 0 || Number.isNaN(setting) || !(contextLimit > 0)) return undefined;
  const tokens =
    setting < 0
      ? autoWorkingBudget(contextLimit, Math.floor(threshold * contextLimit))
      : setting <= 1
        ? Math.floor(setting * contextLimit)
        : Math.floor(setting);
  return Math.max(1, Math.min(tokens, contextLimit));
}
