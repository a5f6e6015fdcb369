/**
 * What a compaction the request as sent does not need yet may risk: one made because the history
 * as the client sent it passed the early budget while the request as sent fits the working
 * budget. Such a compaction bets on the calls after it, so, as every such decision, it is made only
 * within the conversation's risk budget.
 */
import type { CompactionPlan, CompactionPlanInput } from './planCompaction.js';

/**
 * The conversation's risk budget (base-input-token units: what density saved so far, plus the
 * scheduler's allowance) and the provider's cache prices: a compaction that is not needed yet is
 * made only when its up-front cost, the rewritten part written against the cached one read (what
 * lies before the compacted turns stays cached), is within the budget, as every other decision
 * that bets on later calls.
 */
export interface EarlyCompactionRisk {
  readonly riskTokens: () => number;
  readonly readMultiplier: number;
  readonly writeMultiplier: number;
  /**
   * The provider's cache has expired since the previous request (the real time between them past
   * its TTL): pass-through writes the whole prompt too, so a compaction that shortens it costs
   * nothing up front, as a density batch on a cold cache.
   */
  readonly cold?: boolean;
}

/**
 * `plan`, unless it is an early compaction (the request as sent fits the budget at the standing
 * cut) whose up-front cost exceeds the risk budget: then the standing cut is kept.
 */
export function withinRisk(
  risk: EarlyCompactionRisk | undefined,
  input: CompactionPlanInput,
  plan: CompactionPlan,
): CompactionPlan {
  if (risk === undefined || plan.kind !== 'compact') return plan;
  const sentNow = plan.sentTokens;
  if (sentNow > input.budgetTokens) return plan;
  // What lies outside the compacted turns (system, tools, leading items) stays cached either way;
  // the newest turn (the last reply and what followed it) is written either way.
  const fixed = Math.ceil(input.fixedChars * input.tokensPerChar);
  const newest = Math.ceil(newestTurnChars(input) * input.tokensPerChar);
  // Cold, both sides write everything; the saving is not booked (the account errs low).
  const upFront =
    risk.cold === true
      ? Math.max(0, risk.writeMultiplier * (plan.estimatedTokens - sentNow))
      : risk.writeMultiplier * (plan.estimatedTokens - fixed - newest) -
        risk.readMultiplier * (sentNow - fixed - newest);
  if (plan.finishing === true && !paysBackInTime(risk, input, { ...plan, upFront })) {
    return { kind: 'keep', cut: input.previousCut, reason: 'over-risk' };
  }
  // A compaction that costs nothing up front risks nothing, even when density has lost so far.
  if (upFront <= 0 || upFront <= risk.riskTokens()) return { ...plan, upFrontTokens: upFront };
  return { kind: 'keep', cut: input.previousCut, reason: 'over-risk' };
}

/**
 * Share of the calls a history is expected to take to reach the early budget again within which
 * finishing a compaction must repay its up-front cost. The expectation is an average, so the
 * margin is wide: at a half, small budgets (16k, 32k windows) finished compactions whose result
 * the agent went on using, for no saving (docs/decisions/finishing-compactions.md).
 */
export const FINISH_PAYBACK_SHARE = 0.25;

/**
 * Whether finishing a compaction (`finishingCut`) repays its up-front cost in time: each call
 * reads the removed tokens no more, and is expected to add what the conversation's calls added on
 * average (its turns' tokens over its replies). A short cycle (a small budget, large turns) ends
 * before the summary's rewrite is repaid, while the result it takes away is still in use.
 */
function paysBackInTime(
  risk: EarlyCompactionRisk,
  input: CompactionPlanInput,
  plan: { estimatedTokens: number; sentTokens: number; upFront: number },
): boolean {
  if (plan.upFront <= 0) return true;
  const early = input.earlyBudgetTokens ?? input.budgetTokens;
  const calls = Math.max(0, early - plan.estimatedTokens) / tokensPerReply(input);
  const perCall = risk.readMultiplier * (plan.sentTokens - plan.estimatedTokens);
  return plan.upFront <= perCall * calls * FINISH_PAYBACK_SHARE;
}

/** The tokens the conversation's turns added per reply of the model, on average (at least 1). */
function tokensPerReply(input: CompactionPlanInput): number {
  let chars = 0;
  let replies = 0;
  input.roles.forEach((role, i) => {
    chars += input.messageChars[i] ?? 0;
    if (role === 'assistant') replies++;
  });
  return Math.max(1, (chars * input.tokensPerChar) / Math.max(1, replies));
}

/**
 * Characters of the messages from the newest assistant message on, as sent: the previous call's
 * reply and what the client appended since, which no cache holds yet.
 */
function newestTurnChars(input: CompactionPlanInput): number {
  let chars = 0;
  for (let i = Math.max(0, input.roles.lastIndexOf('assistant')); i < input.roles.length; i++) {
    chars += input.messageChars[i] ?? 0;
  }
  return chars;
}

/**
 * What one request adds to the conversation's compaction account (base-input-token units; the
 * account is added to the risk budget): an early compaction's up-front cost is spent from it, and
 * each request a standing compaction keeps short adds what it saves, the tokens it leaves out read
 * from the cache no more. Booked once per request, whatever the number of budget runs.
 */
export function compactionBooking(
  risk: EarlyCompactionRisk | undefined,
  request: { readonly plan: CompactionPlan; readonly keptOutTokens: number },
): number {
  if (risk === undefined) return 0;
  const { plan, keptOutTokens } = request;
  const spent = plan.kind === 'compact' ? (plan.upFrontTokens ?? 0) : 0;
  return risk.readMultiplier * keptOutTokens - spent;
}
