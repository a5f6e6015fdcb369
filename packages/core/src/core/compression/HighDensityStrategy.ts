/**
 * The high-density strategy: `optimize()` makes continuous, deterministic, surgical density edits
 * (stale reads, duplicate `@` inclusions, optionally old tool results) before every threshold
 * check; `compress()`, past the threshold, summarizes old tool results in one line each and drops
 * the oldest entries if that is not enough — without any LLM call.
 */
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../services/history/IContent.js';
import {
  toolResultReplies,
  userMessageNote,
  type EntryContext,
} from './density/entry/entryReplies.js';
import { safeSplitPoints } from './toolCallBoundary.js';
import {
  compressionTarget,
  planHeadDrop,
  applySummaries,
  planTailStart,
} from './density/compress/compressionPlan.js';
import { orderedSummaryCandidates } from './density/compress/summaryOrder.js';
import { summariesNeeded } from './density/compress/summariesNeeded.js';
import { summarizeTailAsNeeded } from './density/compress/tailSummaries.js';
import { TRAIL_SHARE } from './artifactTrail/ArtifactTrailKeeper.js';
import { optimizeDensity } from './density/optimize/optimizeDensity.js';
import type { CompressionSettings } from './CompressionSettings.js';
import type {
  CompressionContext,
  CompressionNoopReason,
  CompressionResult,
  CompressionResultMetadata,
  CompressionStrategy,
  DensityConfig,
  DensityResult,
  StrategyTrigger,
} from './types.js';
import { targetWithRoomForPending } from './types.js';
import {
  compactToWorkingBudget,
  finishesCompaction,
} from './workingBudget/compactToWorkingBudget.js';
import { earlyBudgetOf } from './workingBudget/planCompaction.js';
import { workingBudgetTokens } from './workingBudget/workingBudgetTokens.js';

export {
  findFileInclusions,
  formatFileInclusion,
  formatFileInclusions,
  INCLUSION_CLOSE,
  PRUNED_POINTER,
  READ_TOOLS,
  WRITE_TOOLS,
} from './densityVocabulary.js';

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** Room the artifact trail will take after this compression. */
function trailReserve(settings: CompressionSettings): number {
  return settings['compression.artifactTrail']
    ? Math.floor(settings.contextLimit * TRAIL_SHARE * 2)
    : 0;
}

/** The compression threshold high-density runs at unless a setting says otherwise. */
const DEFAULT_THRESHOLD = 0.85;

/** The working budget (tokens) the settings ask for, if any. */
function workingBudget(settings: CompressionSettings): number | undefined {
  return workingBudgetTokens(
    settings['compression.density.workingBudget'],
    settings.contextLimit,
    settings['compression-threshold'] ?? DEFAULT_THRESHOLD,
  );
}

export class HighDensityStrategy implements CompressionStrategy {
  readonly name = 'high-density' as const;
  readonly requiresLLM = false;
  readonly trigger: StrategyTrigger = { mode: 'continuous', defaultThreshold: DEFAULT_THRESHOLD };

  /**
   * Pure: never mutates `history`, never throws on odd tool parameters. Indices refer to the raw
   * history it was given. Applying the result and optimizing again yields an empty result.
   */
  optimize(history: readonly IContent[], config: DensityConfig): DensityResult {
    return optimizeDensity(history, config);
  }

  /** An identical re-read or repeated lines of a result still in context, as a short reply. */
  toolResultAtEntry(
    call: ToolCallBlock,
    response: ToolResponseBlock,
    context: EntryContext,
  ): Iterable<ToolResponseBlock> {
    return toolResultReplies(call, response, context);
  }

  /** An `@` inclusion identical to one still in context, as a note naming it. */
  userMessageAtEntry(message: IContent, context: EntryContext): IContent | undefined {
    return userMessageNote(message, context);
  }

  /**
   * The compression target: compress() summarizes and drops until the history (the artifact
   * trail's room included) is at most this, less the pending message.
   */
  compressedTokensAtMost(settings: CompressionSettings, pendingTokens: number): number {
    return Math.max(0, this.target(settings) - pendingTokens);
  }

  /** With a working budget (`compression.density.workingBudget`), its early budget. */
  compactionDueTokens(settings: CompressionSettings): number | undefined {
    const budget = workingBudget(settings);
    return budget === undefined ? undefined : earlyBudgetOf(budget);
  }

  /**
   * With a working budget, whether `history` is at the one call where the compaction before it may
   * be finished (`finishesCompaction`): compress() is asked for then, whatever the history's size.
   */
  compactionFinishDue(settings: CompressionSettings, history: readonly IContent[]): boolean {
    return workingBudget(settings) !== undefined && finishesCompaction(history);
  }

  /**
   * With a working budget, first the compaction it asks for (`compactToWorkingBudget`: the proxy's
   * plan and deterministic summary); when it asks for none, nothing below the threshold, and past
   * it, as without one:
   *
   * Keeps the tail (`preserveThreshold`, never splitting a call from its responses) untouched,
   * replaces older tool results by one-line summaries — only as many as the target needs, stale
   * and superseded content first, the live latest copy of a file last — then drops
   * the oldest entries (a call with its responses, never one without the other) until the
   * estimate is at most threshold × context limit × `compression.density.compressHeadroom`. In
   * recall mode, when the whole head is gone and the tail alone is still over that, tool results inside the
   * tail are summarized the same way, never the newest turn. Never calls an LLM;
   * errors from `estimateTokens` propagate.
   */
  async compress(context: CompressionContext): Promise<CompressionResult> {
    const { history, settings } = context;
    if (history.length === 0) return this.noop(history, 'empty-history');
    const budget = workingBudget(settings);
    if (budget !== undefined) {
      const compacted = await compactToWorkingBudget(context, budget);
      if (compacted !== undefined) return compacted;
      // Asked for by the early budget alone: its plan declined, so the history stays.
      if (context.earlyCompaction === true) return this.noop(history, 'already-under-target');
    }
    const tailStart = planTailStart(history, settings['compression.preserveThreshold']);
    if (tailStart <= 0) return this.noop(history, 'tail-covers-all');
    const targetTokens = targetWithRoomForPending(this.target(settings), context);
    const pointerStyle = settings['compression.density.pointerStyle'];
    // The target less the room the artifact trail takes once this compression is done.
    const roomy = Math.max(0, targetTokens - trailReserve(settings));
    const orderOptions = {
      workspaceRoot: context.workspaceRoot,
      pointerStyle,
      shellFileOps: settings['compression.density.shellFileOps'],
    };
    const candidates = orderedSummaryCandidates(history, tailStart, orderOptions);
    // Spec-literal mode summarizes every result outside the tail (REQ-HD-008.3).
    const chosen =
      pointerStyle === 'spec' ? candidates : await summariesNeeded(context, candidates, roomy);
    const { head, summarized, summarizedPerEntry } = applySummaries(
      history.slice(0, tailStart),
      chosen,
    );
    let tail: readonly IContent[] = history.slice(tailStart);
    const dropped = await this.entriesToDrop(context, head, tail, roomy);
    let tailSummarized = 0;
    // Need-based mode: a tail over the target on its own is summarized down to it.
    if (pointerStyle !== 'spec' && dropped === head.length) {
      const fitted = await summarizeTailAsNeeded(context, tailStart, targetTokens, orderOptions);
      tail = fitted.tail;
      tailSummarized = fitted.summarized;
    }
    context.logger.debug('high-density compress', {
      entries: history.length,
      tailStart,
      targetTokens,
      summarized,
      dropped,
    });
    if (summarized === 0 && dropped === 0 && tailSummarized === 0) {
      return this.noop(history, 'already-under-target', targetTokens);
    }
    const newHistory = [...head.slice(dropped), ...tail];
    return {
      kind: 'applied',
      newHistory,
      metadata: {
        ...this.metadata(history.length, newHistory.length, targetTokens),
        bottomPreserved: tail.length,
        toolResponsesSummarized: sum(summarizedPerEntry.slice(dropped)) + tailSummarized,
        entriesDropped: dropped,
      },
    };
  }

  /**
   * 0 when head + tail fit the target (one estimate); otherwise counts each head entry once and
   * plans the drop from those counts.
   */
  private target(settings: CompressionSettings): number {
    return compressionTarget({
      threshold: settings['compression-threshold'],
      defaultThreshold: this.trigger.defaultThreshold,
      contextLimit: settings.contextLimit,
      headroom: settings['compression.density.compressHeadroom'],
    });
  }

  private async entriesToDrop(
    context: CompressionContext,
    head: readonly IContent[],
    tail: readonly IContent[],
    targetTokens: number,
  ): Promise<number> {
    if ((await context.estimateTokens([...head, ...tail])) <= targetTokens) return 0;
    const tailTokens = await context.estimateTokens(tail);
    const entryTokens: number[] = [];
    for (const entry of head) entryTokens.push(await context.estimateTokens([entry]));
    const safeSplits = safeSplitPoints(context.history);
    return planHeadDrop({ entryTokens, tailTokens, targetTokens, safeSplits });
  }

  private noop(
    history: readonly IContent[],
    reason: CompressionNoopReason,
    targetTokens?: number,
  ): CompressionResult {
    return {
      kind: 'noop',
      reason,
      newHistory: history,
      metadata: this.metadata(history.length, history.length, targetTokens),
    };
  }

  private metadata(
    original: number,
    compressed: number,
    targetTokens: number | undefined,
  ): CompressionResultMetadata {
    return {
      originalMessageCount: original,
      compressedMessageCount: compressed,
      strategyUsed: this.name,
      llmCallMade: false,
      ...(targetTokens === undefined ? {} : { targetTokens }),
    };
  }
}
