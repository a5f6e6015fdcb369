/**
 * The working budget's one rule, for the CLI and the proxy: under a window and the prompt size at
 * which the agent compacts by itself (its threshold), keep the history at most `WINDOW_SHARE` of
 * the window, at most the threshold less room for the next tool result, and never more than
 * `MAX_WORKING_BUDGET`. A compaction replaces ~150k tokens with a summary of a few thousand, so a
 * budget near the threshold waits less but pays more on every later call; measured on the proxy
 * bench (docs/decisions/proxy-working-budget.md), 80,000 is the largest budget at which no session
 * costs more than passing the requests through.
 */

/** Never more than this, whatever the window. */
export const MAX_WORKING_BUDGET = 80_000;
/** Share of the window the budget may take. */
export const WINDOW_SHARE = 0.75;
/** Room for the next tool result (Claude Code's Read returns at most ~25,000 tokens). */
export const NEXT_RESULT_TOKENS = 25_000;
/** In a small window the room for the next result is at most this share of the threshold. */
export const NEXT_RESULT_SHARE_OF_THRESHOLD = 0.25;

/** The working budget (tokens, at least 1) for a window and the agent's own threshold. */
export function autoWorkingBudget(window: number, thresholdTokens: number): number {
  const room = Math.min(
    NEXT_RESULT_TOKENS,
    Math.floor(thresholdTokens * NEXT_RESULT_SHARE_OF_THRESHOLD),
  );
  return Math.max(
    1,
    Math.min(Math.floor(window * WINDOW_SHARE), thresholdTokens - room, MAX_WORKING_BUDGET),
  );
}
