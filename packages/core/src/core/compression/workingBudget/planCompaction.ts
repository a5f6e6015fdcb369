/**
 * The decision of a working-budget compaction, as a pure function over the conversation's turns
 * (their roles and sizes, however the caller measures them: the proxy a wire request's characters,
 * the CLI its history's entries): how many of the oldest turns one summary message replaces so the
 * request fits the working budget. The proxy (`proxy/budget/compactWire.ts`) and the CLI's
 * high-density strategy (`historyCompaction.ts`) both decide with it. The cut always lands before an
 * assistant message (so a tool call never loses its result and roles keep alternating), never
 * past the newest assistant message (the newest turn and its tool result stay whole), and never
 * before an earlier compaction's cut (a second compaction extends the first). The request as
 * sent must fit the budget; the request as the client sent it, the early budget (a share of the
 * budget): once the client's history has passed it the conversation is compacted (within the risk
 * budget, `withinRisk`), rather than held near the budget by density's edits while every call
 * reads a history that large.
 */

/** A compaction aims this far below the budget, so the next ones are rare. */
export const COMPACT_TO_SHARE = 0.3;
/**
 * Share of the budget past which the client's history is compacted early: only within the
 * conversation's risk budget (`withinRisk`), since the request as sent still fits.
 */
export const EARLY_COMPACTION_SHARE = 0.85;

/** The early budget (tokens) for a working budget of `budgetTokens`. */
export function earlyBudgetOf(budgetTokens: number): number {
  return Math.floor(budgetTokens * EARLY_COMPACTION_SHARE);
}

export interface CompactionPlanInput {
  readonly roles: readonly string[];
  /** Characters of each message as it would be sent. */
  readonly messageChars: readonly number[];
  /** Characters of the request outside its messages (system, tools, settings). */
  readonly fixedChars: number;
  readonly tokensPerChar: number;
  readonly budgetTokens: number;
  /**
   * The client's history past this many tokens is compacted early (default: the budget); the
   * request as sent must always fit `budgetTokens`.
   */
  readonly earlyBudgetTokens?: number;
  /** The cut of the conversation's earlier compaction that still applies (0: none). */
  readonly previousCut: number;
  /** Characters reserved for the summary message. */
  readonly summaryChars: number;
  /** Characters of each message as the client sent it, before density (absent: as sent). */
  readonly clientMessageChars?: readonly number[];
  /** Characters of the pinned items in each message, which a summary covering it carries whole. */
  readonly pinnedChars?: readonly number[];
}

/** Why the standing cut is kept: it fits, nothing can go, or an early compaction would risk too much. */
export const PLAN_REASONS = ['under-budget', 'nothing-to-cut', 'over-risk'] as const;
export type CompactionPlanReason = (typeof PLAN_REASONS)[number];

export type CompactionPlan =
  | { readonly kind: 'keep'; readonly cut: number; readonly reason: CompactionPlanReason }
  | {
      readonly kind: 'compact';
      readonly cut: number;
      readonly estimatedTokens: number;
      /** Estimated tokens of the request as sent at the standing cut, without this compaction. */
      readonly sentTokens: number;
      /** An early compaction's up-front cost (base-input-token units), spent from the risk budget. */
      readonly upFrontTokens?: number;
      /** It finishes the standing compaction one reply later (`finishingCut`). */
      readonly finishing?: boolean;
    };

/** Estimated prompt tokens when the first `cut` messages are replaced by the summary. */
export function estimateWithCut(input: CompactionPlanInput, cut: number): number {
  let chars = input.fixedChars + (cut > 0 ? input.summaryChars : 0);
  for (let i = 0; i < cut; i++) chars += input.pinnedChars?.[i] ?? 0;
  for (let i = cut; i < input.messageChars.length; i++) chars += input.messageChars[i] ?? 0;
  return Math.ceil(chars * input.tokensPerChar);
}

/**
 * Whether the request with its first `cut` messages summarized fits the budget, both as sent and
 * as the client sent it.
 */
export function fitsBudget(input: CompactionPlanInput, cut: number): boolean {
  const { clientMessageChars } = input;
  const client =
    clientMessageChars === undefined
      ? 0
      : estimateWithCut({ ...input, messageChars: clientMessageChars }, cut);
  const early = input.earlyBudgetTokens ?? input.budgetTokens;
  return estimateWithCut(input, cut) <= input.budgetTokens && client <= early;
}

/**
 * `estimateWithCut` and `fitsBudget` for every cut of one input, each in constant time (sums of
 * the messages after each cut and of the pinned items before it, taken once): the plan tries
 * every cut, and summing the messages again per cut would make it quadratic in their number.
 */
function cutEstimates(input: CompactionPlanInput) {
  const count = input.messageChars.length;
  const suffix = (chars: readonly number[]): number[] => {
    const after = new Array<number>(count + 1).fill(0);
    for (let i = count - 1; i >= 0; i--) after[i] = (after[i + 1] as number) + (chars[i] ?? 0);
    return after;
  };
  const sentAfter = suffix(input.messageChars);
  const clientAfter =
    input.clientMessageChars === undefined ? undefined : suffix(input.clientMessageChars);
  const pinnedBefore = [0];
  for (let i = 0; i < count; i++) {
    pinnedBefore.push((pinnedBefore[i] as number) + (input.pinnedChars?.[i] ?? 0));
  }
  const tokens = (after: readonly number[], cut: number): number => {
    const head = input.fixedChars + (cut > 0 ? input.summaryChars : 0) + (pinnedBefore[cut] ?? 0);
    return Math.ceil((head + (after[cut] ?? 0)) * input.tokensPerChar);
  };
  const early = input.earlyBudgetTokens ?? input.budgetTokens;
  return {
    sent: (cut: number): number => tokens(sentAfter, cut),
    fits: (cut: number): boolean =>
      tokens(sentAfter, cut) <= input.budgetTokens &&
      (clientAfter === undefined || tokens(clientAfter, cut) <= early),
  };
}

/**
 * The model's replies after its turn at `from` (`roleAt` gives each turn's role, `undefined` past
 * the last), counted up to two; `undefined` when the turn at `from` is not the model's.
 */
export function repliesPast(
  roleAt: (index: number) => string | undefined,
  from: number,
): number | undefined {
  if (roleAt(from) !== 'assistant') return undefined;
  let replies = 0;
  for (let i = from + 1; replies < 2; i++) {
    const role = roleAt(i);
    if (role === undefined) break;
    if (role === 'assistant') replies++;
  }
  return replies;
}

/**
 * Whether the turns from `from` on are one reply past a cut there: the model's turn at `from` (the
 * newest one a compaction could keep whole) and exactly one later reply. The one point at which
 * `planCompaction` may finish that compaction.
 */
export function oneReplyPast(roles: readonly string[], from: number): boolean {
  return repliesPast((index) => roles[index], from) === 1;
}

/**
 * The cut that finishes a compaction the newest turn held short of its target, at the call after
 * it: the standing cut lies at the turn a compaction had to keep whole (a tool result the model
 * had not seen yet), the model has answered it since (`oneReplyPast`), and moving the cut past it
 * takes at least half the target off the request. Otherwise a compaction a large new result set
 * off keeps that result until the next one. The request fits the budget as sent, so this is an
 * early compaction: made only within the risk budget (`withinRisk`).
 */
function finishingCut(
  input: CompactionPlanInput,
  estimate: ReturnType<typeof cutEstimates>,
): number | undefined {
  const { previousCut, roles } = input;
  if (previousCut === 0 || !oneReplyPast(roles, previousCut)) return undefined;
  const lastAssistant = roles.lastIndexOf('assistant');
  const target = Math.floor(input.budgetTokens * COMPACT_TO_SHARE);
  const now = estimate.sent(previousCut);
  if (now <= target || now - estimate.sent(lastAssistant) < target / 2) return undefined;
  return estimate.fits(lastAssistant) ? lastAssistant : undefined;
}

export function planCompaction(input: CompactionPlanInput): CompactionPlan {
  const { previousCut, roles } = input;
  const estimate = cutEstimates(input);
  if (estimate.fits(previousCut)) {
    const finishing = finishingCut(input, estimate);
    if (finishing === undefined) return { kind: 'keep', cut: previousCut, reason: 'under-budget' };
    return {
      kind: 'compact',
      cut: finishing,
      estimatedTokens: estimate.sent(finishing),
      sentTokens: estimate.sent(previousCut),
      finishing: true,
    };
  }
  const lastAssistant = roles.lastIndexOf('assistant');
  const target = Math.floor(input.budgetTokens * COMPACT_TO_SHARE);
  let chosen: number | undefined;
  for (let cut = Math.max(1, previousCut + 1); cut <= lastAssistant; cut++) {
    if (roles[cut] !== 'assistant') continue;
    chosen = cut;
    if (estimate.sent(cut) <= target && estimate.fits(cut)) break;
  }
  if (chosen === undefined) return { kind: 'keep', cut: previousCut, reason: 'nothing-to-cut' };
  const estimatedTokens = estimate.sent(chosen);
  // A compaction only the client's history asks for (the request as sent fits) must serve it:
  // leave that history under the early budget and the sent request smaller. Otherwise the next
  // request would ask for it again, and each would rewrite the summary for nothing.
  const sentNow = estimate.sent(previousCut);
  if (sentNow <= input.budgetTokens && (!estimate.fits(chosen) || estimatedTokens >= sentNow)) {
    return { kind: 'keep', cut: previousCut, reason: 'nothing-to-cut' };
  }
  return { kind: 'compact', cut: chosen, estimatedTokens, sentTokens: sentNow };
}
