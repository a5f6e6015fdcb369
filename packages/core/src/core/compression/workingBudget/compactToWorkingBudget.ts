/**
 * The CLI's working budget: high-density keeps its history under `compression.density.workingBudget`
 * by compacting early, with the proxy's decision and summary (`planHistoryCompaction`). The turns
 * a compaction replaces become one user message holding the summary; a later compaction extends it
 * (it stands for the original turns, as the proxy's standing compaction does, so the next summary
 * is written from those originals and the turns after them). After a resume the originals are not
 * known: the summary entry then stays first, unchanged, and a later compaction writes the next one
 * after it.
 */
import {
  createUserMessage,
  isEmptyAiEntry,
  type IContent,
} from '../../../services/history/IContent.js';
import type { CompressionContext, CompressionResult } from '../types.js';
import { EARLY_COMPACTION_SHARE, earlyBudgetOf, repliesPast } from './planCompaction.js';
import { cutRoles, planHistoryCompaction } from './planHistoryCompaction.js';

/** Metadata of the summary entry a working-budget compaction writes. */
export const WORKING_BUDGET_SUMMARY_KEY = 'workingBudgetSummary';

/** The original turns each summary entry of this process stands for. */
const originalsOf = new WeakMap<IContent, readonly IContent[]>();

export function isWorkingBudgetSummary(entry: IContent | undefined): boolean {
  return entry?.metadata?.[WORKING_BUDGET_SUMMARY_KEY] === true;
}

/** The turns the plan sees: the standing summary's originals (when known) and what follows it. */
function standingTurns(history: readonly IContent[]): {
  leading: readonly IContent[];
  turns: readonly IContent[];
  previousCut: number;
} {
  const first = history[0];
  if (!isWorkingBudgetSummary(first)) return { leading: [], turns: history, previousCut: 0 };
  const originals = originalsOf.get(first as IContent);
  if (originals === undefined)
    return { leading: [first as IContent], turns: history.slice(1), previousCut: 0 };
  return { leading: [], turns: [...originals, ...history.slice(1)], previousCut: originals.length };
}

/** Summaries of this process whose history has gone more than one reply past them. */
const pastFinishing = new WeakSet<IContent>();

/**
 * Whether `history` is one reply past a working-budget compaction of this process (its summary
 * first, then the model's turn the compaction kept and one reply since): the one point at which
 * the plan may finish a compaction the newest turn held short of its target, though the history
 * is under the early budget. Asked before every send: once the history is past that point, it is
 * not read again for that summary.
 */
export function finishesCompaction(history: readonly IContent[]): boolean {
  const first = history[0];
  if (!isWorkingBudgetSummary(first) || !originalsOf.has(first as IContent)) return false;
  if (pastFinishing.has(first as IContent)) return false;
  const roles = cutRoles(history.slice(1).filter((entry) => !isEmptyAiEntry(entry)));
  const replies = repliesPast((index) => roles[index], 0);
  if (replies === undefined || replies > 1) pastFinishing.add(first as IContent);
  return replies === 1;
}

/**
 * The transcript form of entries, one JSON line each (what the summary's messages id names), in
 * parts: each line and each newline between two.
 */
function transcriptPieces(entries: readonly IContent[]): string[] {
  const pieces: string[] = [];
  for (const entry of entries) {
    if (pieces.length > 0) pieces.push('\n');
    pieces.push(JSON.stringify(entry));
  }
  return pieces;
}

/** The transcript pieces of `turns[0, cut)`, made once for the cut asked for last. */
function transcriptOfCut(turns: readonly IContent[]): (cut: number) => readonly string[] {
  let made: { cut: number; pieces: readonly string[] } | undefined;
  return (cut) => {
    if (made?.cut !== cut) made = { cut, pieces: transcriptPieces(turns.slice(0, cut)) };
    return made.pieces;
  };
}

/** The history tokens (with the message about to be added) at which compression is needed. */
function thresholdTokens(context: CompressionContext): number {
  const threshold = context.runtimeContext.ephemerals.compressionThreshold();
  return Math.floor(threshold * context.settings.contextLimit);
}

/**
 * The budget a compaction the user asked for is planned at: the working budget, or, for a history
 * under its early budget, just under the history's own size, so the plan cuts to the same share
 * of it that a budget compaction leaves of the budget.
 */
function userAskedBudget(tokens: number, budgetTokens: number): number {
  return tokens > earlyBudgetOf(budgetTokens)
    ? budgetTokens
    : Math.max(1, Math.floor(tokens * EARLY_COMPACTION_SHARE) - 1);
}

/**
 * The compaction the working budget asks for now, as an applied result; undefined when the history
 * (with the message about to be added) fits, or the plan keeps it (nothing to cut, or an early
 * compaction over the risk budget). One the user asked for (`context.userAsked`) is planned
 * whatever the history's size and without the risk budget: the user chose to pay for it.
 */
export async function compactToWorkingBudget(
  context: CompressionContext,
  workingBudgetTokens: number,
): Promise<CompressionResult | undefined> {
  const pending = context.pendingTokens ?? 0;
  const tokens = context.currentTokenCount + pending;
  const userAsked = context.userAsked === true;
  const early = tokens > earlyBudgetOf(workingBudgetTokens);
  if (!userAsked && !early && !finishesCompaction(context.history)) return undefined;
  const budgetTokens = userAsked
    ? userAskedBudget(tokens, workingBudgetTokens)
    : workingBudgetTokens;
  const { leading, turns, previousCut } = standingTurns(context.history);
  const turnTokens: number[] = [];
  for (const turn of turns) turnTokens.push(await context.estimateTokens([turn]));
  const leadingTokens = leading.length === 0 ? 0 : await context.estimateTokens(leading);
  const piecesOf = transcriptOfCut(turns);

  const decision = planHistoryCompaction({
    turns,
    turnTokens,
    fixedTokens: leadingTokens + pending,
    budgetTokens,
    previousCut,
    ...(context.earlyCompactionRisk === undefined || userAsked
      ? {}
      : { risk: context.earlyCompactionRisk }),
    neededTokens: userAsked ? budgetTokens : thresholdTokens(context),
    rawOf: (cut) => piecesOf(cut).join(''),
    piecesOf,
    ...(context.todos === undefined ? {} : { tasks: context.todos }),
  });
  context.logger.debug('working budget', {
    budgetTokens,
    tokens: context.currentTokenCount + pending,
    decision: decision.kind === 'keep' ? decision.reason : `cut ${decision.cut}`,
  });
  if (decision.kind === 'keep') return undefined;
  const summary = createUserMessage(decision.summary.text, {
    isSummary: true,
    synthetic: true,
    [WORKING_BUDGET_SUMMARY_KEY]: true,
  });
  originalsOf.set(summary, turns.slice(0, decision.cut));
  const newHistory = [...leading, summary, ...turns.slice(decision.cut)];
  return {
    kind: 'applied',
    newHistory,
    metadata: {
      originalMessageCount: context.history.length,
      compressedMessageCount: newHistory.length,
      strategyUsed: 'high-density',
      llmCallMade: false,
      entriesDropped: context.history.length - newHistory.length + 1,
      targetTokens: budgetTokens,
      carriesTrail: true,
      recall: decision.summary.recall,
    },
  };
}
