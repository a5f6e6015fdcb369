/** Dense's working-budget summary of removed turns, as the summary tests make it. */
import type { IContent } from '../../services/history/IContent.js';
import { compactionSummary, type CompactionSummary } from '../budget/compactionSummary.js';

/**
 * The working-budget summary of `removed` within `budgetChars`; `history` is the conversation
 * (where the agent's later mentions are read; by default the removed turns alone).
 */
export function workingBudgetSummary(
  removed: readonly IContent[],
  budgetChars: number,
  history: readonly IContent[] = removed,
): CompactionSummary {
  return compactionSummary({
    removed,
    history,
    removedRaw: JSON.stringify(removed),
    budgetChars,
    purpose: 'working-budget',
  });
}
