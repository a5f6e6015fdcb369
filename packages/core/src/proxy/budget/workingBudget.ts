/**
 * The working budget: the prompt size (tokens) the proxy keeps each conversation under, so the
 * client never reaches its own compaction. Derived from the window the client assumes for the
 * model and the client's compaction threshold, less room for the next tool result; at most
 * `MAX_WORKING_BUDGET`. A client's own compaction replaces ~150k tokens with a summary of a few
 * thousand, so a budget near its threshold keeps the client waiting less but paying more on every
 * later call; measured on the proxy bench (docs/decisions/proxy-working-budget.md), 80,000 is the
 * largest budget at which no session costs more than passing the requests through.
 */
import { getModelLimits } from '../../providers/modelLimits.js';

/** Never more than this, whatever the window. */
export const MAX_WORKING_BUDGET = 80_000;
/** Share of the window the budget may take. */
export const WINDOW_SHARE = 0.75;
/**
 * What Claude Code keeps free below the window before it compacts: up to 20,000 for the summary's
 * output and 13,000 of margin (measured: `claude-sonnet-4-6` compacts at 167,000 of 200,000).
 */
export const CLIENT_RESERVE_TOKENS = 33_000;
/** Room for the next tool result (Claude Code's Read returns at most ~25,000 tokens). */
export const NEXT_RESULT_TOKENS = 25_000;
/** Claude Code's window for Anthropic models unless the request asks for the 1M-token beta. */
export const CLIENT_DEFAULT_WINDOW = 200_000;
/** The window assumed for a model the table does not know. */
export const UNKNOWN_MODEL_WINDOW = 128_000;
/**
 * The window Codex 0.169's own model table gives a GPT model Dense's table does not know (272,000
 * for its default `gpt-6.1-sol` and most others; the rest are larger).
 */
export const CODEX_DEFAULT_WINDOW = 272_000;
/**
 * Codex compacts when the last reply's reported `total_tokens` plus its estimate of the items
 * appended since reaches this share of the window (measured: 244,800 of 272,000).
 */
export const CODEX_COMPACT_SHARE = 0.9;

/** No default budget is smaller than this (the smallest known window's). */
export const MIN_DEFAULT_BUDGET = 70_000;

export interface WindowInput {
  readonly model: string | undefined;
  /** Whether the request opts into a 1M-token window (Anthropic's `context-1m` beta). */
  readonly longContext: boolean;
}

/** The window (tokens) the client works with for this request's model. */
export function clientWindow(input: WindowInput): number {
  const known = input.model === undefined ? undefined : getModelLimits(input.model);
  const gpt = input.model?.toLowerCase().startsWith('gpt-') === true;
  const window = known?.contextWindow ?? (gpt ? CODEX_DEFAULT_WINDOW : UNKNOWN_MODEL_WINDOW);
  const anthropic = isClaude(input.model);
  return anthropic && !input.longContext ? Math.min(window, CLIENT_DEFAULT_WINDOW) : window;
}

function isClaude(model: string | undefined): boolean {
  return model?.toLowerCase().includes('claude') === true;
}

/**
 * The reported context (tokens: prompt + output) past which the client compacts by itself: for
 * Claude models Claude Code's window less `CLIENT_RESERVE_TOKENS` (167,000 for a 200k window),
 * for others Codex's `CODEX_COMPACT_SHARE` of the window (244,800 for 272,000).
 */
export function clientCompactionThreshold(input: WindowInput): number {
  const window = clientWindow(input);
  return isClaude(input.model)
    ? window - CLIENT_RESERVE_TOKENS
    : Math.floor(window * CODEX_COMPACT_SHARE);
}

/**
 * The default working budget for a request: the smallest of `WINDOW_SHARE` × window, the
 * client's threshold less room for the next result, and `MAX_WORKING_BUDGET`.
 */
export function defaultWorkingBudget(input: WindowInput): number {
  const window = clientWindow(input);
  return Math.max(
    1,
    Math.min(
      Math.floor(window * WINDOW_SHARE),
      window - CLIENT_RESERVE_TOKENS - NEXT_RESULT_TOKENS,
      MAX_WORKING_BUDGET,
    ),
  );
}
