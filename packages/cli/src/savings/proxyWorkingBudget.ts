/**
 * The proxy's default working budget and the client's window for a recorded session, from its
 * client and model: core's own rule (`clientWindow`, `defaultWorkingBudget`). Claude Code's native
 * 1M models are replayed at 200k (the budget is the same, 80,000, and the threshold never matters
 * under it). gemini-cli is not served by the proxy (it speaks Gemini's API): its sessions get
 * Claude Code's rule at the model's window (Gemini 2.5 Pro's 1M when the model is not known).
 * Pure.
 */
import {
  claudeCodeNative1M,
  clientWindow,
  defaultWorkingBudget,
  getModelLimits,
} from '@dense/core';
import type { SavingsSource } from './transcriptSources.js';

const CLAUDE_CODE_WINDOW = 200_000;
/** A model Dense knows at Gemini's 1M window, for a Gemini model it does not know. */
const GEMINI_STAND_IN = 'gemini-2.5-pro';

export interface ClientBudget {
  /** The window (tokens) the client assumes: the replay's context limit. */
  readonly window: number;
  /** The proxy's default working budget (tokens). */
  readonly budget: number;
}

/** The window and the proxy's default budget for a session of `source` with `model`. */
export function proxyWorkingBudget(source: SavingsSource, model: string | undefined): ClientBudget {
  const name = model?.toLowerCase();
  if (source === 'gemini-cli') {
    // Claude Code's rule at the model's window; a Gemini model Dense does not know: 1M.
    const known = name === undefined ? undefined : getModelLimits(name)?.contextWindow;
    const input = {
      model: known === undefined ? GEMINI_STAND_IN : name,
      longContext: true,
    } as const;
    return {
      window: clientWindow({ ...input, client: 'claude-code' }),
      budget: defaultWorkingBudget({ ...input, client: 'claude-code' }),
    };
  }
  const client = source === 'codex' ? 'codex' : 'claude-code';
  const longContext = name?.endsWith('[1m]') === true;
  const input = { model: name, longContext, client } as const;
  const window =
    client === 'claude-code' && !longContext && claudeCodeNative1M(name)
      ? CLAUDE_CODE_WINDOW
      : clientWindow(input);
  return { window, budget: defaultWorkingBudget(input) };
}
