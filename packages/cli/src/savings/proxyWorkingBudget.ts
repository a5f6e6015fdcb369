/**
 * The proxy's default working budget and the client's window for a recorded session, from its
 * client and model: the rule of core's `proxy/budget/workingBudget.ts` (`defaultWorkingBudget`,
 * `clientWindow`), which core's public index does not export; `proxyWorkingBudget.test.ts` checks
 * this against it. Claude Code's native 1M models are taken at 200k here: the budget is the same
 * (80,000) and the threshold never matters under it. gemini-cli is not served by the proxy (it
 * speaks Gemini's API); its sessions get the same budget rule for the model's window. Pure.
 */
import { getModelLimits } from '@dense/core';
import type { SavingsSource } from './transcriptSources.js';

const MAX_WORKING_BUDGET = 80_000;
const WINDOW_SHARE = 0.75;
const CLIENT_RESERVE_TOKENS = 33_000;
const NEXT_RESULT_TOKENS = 25_000;
const CLAUDE_CODE_WINDOW = 200_000;
const UNKNOWN_MODEL_WINDOW = 128_000;
const CODEX_DEFAULT_WINDOW = 272_000;
const CODEX_COMPACT_SHARE = 0.9;
const GEMINI_DEFAULT_WINDOW = 1_048_576;

export interface ClientBudget {
  /** The window (tokens) the client assumes: the replay's context limit. */
  readonly window: number;
  /** The proxy's default working budget (tokens). */
  readonly budget: number;
}

function windowOf(source: SavingsSource, model: string | undefined): number {
  const name = model?.toLowerCase();
  const known = name === undefined ? undefined : getModelLimits(name)?.contextWindow;
  switch (source) {
    case 'claude-code':
    case 'other': {
      const window = known ?? UNKNOWN_MODEL_WINDOW;
      return name?.endsWith('[1m]') === true ? window : Math.min(window, CLAUDE_CODE_WINDOW);
    }
    case 'codex':
      return (
        known ?? (name?.startsWith('gpt-') === true ? CODEX_DEFAULT_WINDOW : UNKNOWN_MODEL_WINDOW)
      );
    case 'gemini-cli':
      return known ?? GEMINI_DEFAULT_WINDOW;
  }
}

function thresholdOf(source: SavingsSource, window: number): number {
  return source === 'codex'
    ? Math.floor(window * CODEX_COMPACT_SHARE)
    : window - CLIENT_RESERVE_TOKENS;
}

/** The window and the proxy's default budget for a session of `source` with `model`. */
export function proxyWorkingBudget(source: SavingsSource, model: string | undefined): ClientBudget {
  const window = windowOf(source, model);
  const budget = Math.max(
    1,
    Math.min(
      Math.floor(window * WINDOW_SHARE),
      window - CLIENT_RESERVE_TOKENS - NEXT_RESULT_TOKENS,
      thresholdOf(source, window) - NEXT_RESULT_TOKENS,
      MAX_WORKING_BUDGET,
    ),
  );
  return { window, budget };
}
