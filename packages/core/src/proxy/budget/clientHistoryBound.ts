/**
 * The client's own history stays bounded. Under the working budget the model sees a compacted
 * conversation while the client keeps every message it ever sent, and since the usage it is told
 * is the model's, it never compacts: its history would grow until the request-size limit, and
 * leaving the proxy would send all of it. So once the history the client holds reaches the
 * bound, the reply tells the client its context is at its own compaction threshold; the client
 * compacts, Dense answers that compaction at once with its summary (`answerCompaction.ts`), and
 * the client's history shrinks to what the model already works from.
 *
 * The bound is the smaller of the client's threshold and `BOUND_BUDGETS` working budgets: with a
 * 200k model the client compacts about where it would have by itself (160,000 against 167,000),
 * with a 1M window its history stays within twice the budget instead of growing to 967,000. A
 * client that does not compact when told (auto-compaction turned off) is told at most
 * `MAX_SIGNALS` times per conversation, then left as it is. A client that did not compact at the
 * threshold of the window Dense assumes may be assuming a larger one (Claude Code gives some
 * models 1M tokens without the beta header that tells the proxy so): the next time it is told
 * the threshold of the model's long-context window. Pure.
 */
import {
  clientCompactionThreshold,
  clientWindow,
  defaultWorkingBudget,
  type WindowInput,
} from './workingBudget.js';

/** The client's history may reach this many working budgets. */
export const BOUND_BUDGETS = 2;
/** Replies told "full" without the client compacting, after which the conversation is left be. */
export const MAX_SIGNALS = 3;
/** Told this much past the threshold, so a client that compacts only past it does. */
export const SIGNAL_MARGIN_TOKENS = 2_000;

export interface HistoryBound {
  /** Client-held prompt tokens from which the client is told its context is full. */
  readonly boundTokens: number;
  /** The context the client compacts at (the prompt it is told then). */
  readonly thresholdTokens: number;
  /** Its threshold if it works with the model's long-context window (told once it ignored the first). */
  readonly longContextThresholdTokens: number;
}

/** The bound for a request: its working budget (`tokens`, or the model's default) and client. */
export function historyBound(
  input: WindowInput & { readonly budgetTokens: number | undefined },
): HistoryBound {
  const thresholdTokens = clientCompactionThreshold(input);
  const budget = input.budgetTokens ?? defaultWorkingBudget(input);
  return {
    boundTokens: Math.min(thresholdTokens, BOUND_BUDGETS * budget),
    thresholdTokens,
    longContextThresholdTokens: Math.max(
      thresholdTokens,
      clientWindow({ ...input, longContext: true }),
    ),
  };
}

/**
 * The prompt the client is told for a reply whose upstream prompt was `reportedPrompt` while the
 * client holds `clientPrompt` (`clientPromptTokens`): just past its threshold once that reaches
 * the bound; undefined otherwise (a request sent whole included), or after `MAX_SIGNALS` unheeded.
 */
export function promptToReport(input: {
  readonly bound: HistoryBound;
  readonly reportedPrompt: number;
  readonly clientPrompt: number;
  /** Replies already told "full" in this conversation without a compaction since. */
  readonly signals: number;
}): number | undefined {
  const { bound, reportedPrompt, clientPrompt } = input;
  if (input.signals >= MAX_SIGNALS || clientPrompt <= reportedPrompt) return undefined;
  if (clientPrompt < bound.boundTokens) return undefined;
  const threshold =
    input.signals === 0
      ? bound.thresholdTokens + SIGNAL_MARGIN_TOKENS
      : bound.longContextThresholdTokens;
  return Math.max(threshold, Math.ceil(clientPrompt));
}
