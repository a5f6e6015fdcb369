/**
 * The working budget's decision over a conversation's turns in the content model, as the proxy
 * and the CLI both make it: the plan (`planCompaction`, under the risk rule `withinRisk`) over the
 * turns' token counts, then, when it compacts, Dense's deterministic summary of the turns it cuts
 * (`compactionSummary`: the user's messages pinned, the task list, what was tried and failed, the
 * artifact trail, the turns as lines with recall ids). The proxy measures a wire request's
 * characters (`compactWire.ts`); the CLI counts its history's entries (`compactToWorkingBudget.ts`).
 * Given the same turns, sizes, budget and risk, both cut at the same turn and write the same bytes.
 * Pure apart from what `risk` reads.
 */
import type { IContent } from '../../../services/history/IContent.js';
import type { Todo } from '../../../tools/todo-schemas.js';
import {
  compactionSummary,
  type CompactionSummary,
} from '../../../proxy/budget/compactionSummary.js';
import { summaryBudgetChars } from '../../../proxy/budget/compactWire.js';
import {
  earlyBudgetOf,
  planCompaction,
  type CompactionPlan,
  type CompactionPlanInput,
  type CompactionPlanReason,
} from './planCompaction.js';
import { withinRisk, type EarlyCompactionRisk } from './earlyCompactionRisk.js';

/** The tokens the summary is planned at: its character budget at 4 characters a token. */
const TOKENS_PER_SUMMARY_CHAR = 0.25;

export interface HistoryCompactionInput {
  /** The turns a compaction may replace, oldest first (entries that always stay are not here). */
  readonly turns: readonly IContent[];
  /** Tokens each turn takes in the request (fractions allowed: the plan rounds the total up). */
  readonly turnTokens: readonly number[];
  /** Tokens of the request outside the turns (entries that always stay, what is about to be added). */
  readonly fixedTokens: number;
  readonly budgetTokens: number;
  /** Turns the standing compaction already stands for (0: none). */
  readonly previousCut: number;
  /** What an early compaction may cost up front (absent: no limit). */
  readonly risk?: EarlyCompactionRisk;
  /**
   * Request tokens past which a compaction is needed, not early (default: the budget, the proxy's
   * rule). The CLI passes its compression threshold: below it, the threshold's own compression
   * still stands behind the budget, so every compaction there is a bet within the risk budget.
   */
  readonly neededTokens?: number;
  /** The first `cut` turns' raw text, as the store of originals keeps it (one recall id names it). */
  readonly rawOf: (cut: number) => string;
  /** `rawOf(cut)` in parts that join to it (each turn and separator), so an archive stores each once. */
  readonly piecesOf?: (cut: number) => readonly string[];
  /** The task list as the agent's store has it (absent or empty: the task calls it cuts). */
  readonly tasks?: readonly Todo[];
}

export type HistoryCompaction =
  | { readonly kind: 'keep'; readonly reason: CompactionPlanReason }
  | {
      readonly kind: 'compact';
      /** Turns the summary replaces: `turns[0, cut)`. */
      readonly cut: number;
      readonly summary: CompactionSummary;
      readonly plan: Extract<CompactionPlan, { kind: 'compact' }>;
    };

/**
 * Each turn's role for the plan, which cuts only before an `'assistant'` turn: the model's turns,
 * except one that sits between a tool call and its response (a cut there would leave one without
 * the other); `'user'` for everything else. Calls pair with responses by id, in order, so reused
 * ids pair too; a call never answered (or a response to no call) holds no turn.
 */
export function cutRoles(turns: readonly IContent[]): ('assistant' | 'user')[] {
  const waiting = new Map<string, number[]>();
  // +1 where a pair opens (after its call's turn), -1 where it closes (after its response's).
  const change = new Array<number>(turns.length + 1).fill(0);
  turns.forEach((entry, index) => {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        const calls = waiting.get(block.id) ?? [];
        calls.push(index);
        waiting.set(block.id, calls);
      } else if (block.type === 'tool_response') {
        const callIndex = waiting.get(block.callId)?.shift();
        if (callIndex === undefined || callIndex === index) continue;
        change[callIndex + 1] = (change[callIndex + 1] ?? 0) + 1;
        change[index + 1] = (change[index + 1] ?? 0) - 1;
      }
    }
  });
  let open = 0;
  return turns.map((entry, index) => {
    open += change[index] ?? 0;
    return entry.speaker === 'ai' && open === 0 ? 'assistant' : 'user';
  });
}

/** The plan's input for these turns: sizes in tokens (one token a "character"). */
export function historyPlanInput(input: HistoryCompactionInput): CompactionPlanInput {
  const summaryChars = summaryBudgetChars(input.budgetTokens);
  return {
    roles: cutRoles(input.turns),
    messageChars: input.turnTokens,
    // The history is what goes out: as sent and as kept are one, so it is compacted once it
    // passes the early budget (within the risk budget while it still fits the budget).
    clientMessageChars: input.turnTokens,
    fixedChars: input.fixedTokens,
    tokensPerChar: 1,
    budgetTokens: input.budgetTokens,
    earlyBudgetTokens: earlyBudgetOf(input.budgetTokens),
    previousCut: input.previousCut,
    summaryChars: summaryChars * TOKENS_PER_SUMMARY_CHAR,
  };
}

/** The decision, and when it compacts, the summary of the turns it cuts. */
export function planHistoryCompaction(input: HistoryCompactionInput): HistoryCompaction {
  const planInput = historyPlanInput(input);
  const needed = input.neededTokens ?? input.budgetTokens;
  const riskInput = { ...planInput, budgetTokens: Math.max(needed, input.budgetTokens) };
  const plan = withinRisk(input.risk, riskInput, planCompaction(planInput));
  if (plan.kind === 'keep') return { kind: 'keep', reason: plan.reason };
  const summary = compactionSummary({
    removed: input.turns.slice(0, plan.cut),
    history: input.turns,
    removedRaw: input.rawOf(plan.cut),
    ...(input.piecesOf === undefined ? {} : { removedPieces: input.piecesOf(plan.cut) }),
    budgetChars: summaryBudgetChars(input.budgetTokens),
    purpose: 'working-budget',
    ...(input.tasks === undefined ? {} : { tasks: input.tasks }),
  });
  return { kind: 'compact', cut: plan.cut, summary, plan };
}
