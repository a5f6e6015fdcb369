/**
 * One density step: run the strategy's optimize() on the raw history, validate the result, decide
 * whether to apply it now (always, unless a batched schedule is given: then the part that is worth
 * it), and apply it. Called by CompressionHandler in the pre-send window only.
 */
import type { HistoryService } from '../services/history/HistoryService.js';
import type { IContent } from '../services/history/IContent.js';
import { validateDensityResult } from '../services/history/validateDensityResult.js';
import {
  isEmptyDensityResult,
  type CompressionStrategyName,
  type DensityConfig,
  type DensityResult,
  type DensityResultMetadata,
} from '../core/compression/types.js';
import { densityCacheImpact } from './cacheImpact.js';
import { attributeDensityTokens } from './attributeDensityTokens.js';
import type { DensityPassCounts } from '../core/compression/densityPass.js';
import type { CacheRules } from '../cache/cacheRules.js';
import {
  decideDensityApplication,
  type DensityScheduleDecision,
  type PressureCompression,
} from './densitySchedule.js';
import type { DensityOutlook } from './densityOutlook.js';
import { batchCuts, densityResultFrom, editSavings } from './densityBatch.js';
import { sentTokensFrom, type LastSend } from './densityInvalidation.js';

export type { LastSend } from './densityInvalidation.js';

export interface DensityAppliedEvent {
  readonly strategy: CompressionStrategyName;
  readonly metadata: DensityResultMetadata;
  readonly removedTokens: DensityPassCounts;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Lowest edited index: the provider's cached prompt prefix is lost from here on. */
  readonly firstEditedIndex: number;
  readonly entriesBefore: number;
  /** Why it was applied now, when a batched schedule decided. */
  readonly schedule?: DensityScheduleDecision;
  /**
   * With explicit caching (Anthropic) and a batched schedule: the previous prompt's tokens this
   * edit invalidates, cache anchors and lookback counted (`densityInvalidation.ts`).
   */
  readonly explicitInvalidatedTokens?: number;
}

export interface DensityDeferredEvent {
  readonly strategy: CompressionStrategyName;
  readonly metadata: DensityResultMetadata;
  readonly removedTokens: number;
  readonly invalidatedTokens: number;
  readonly schedule: DensityScheduleDecision;
  /** Lowest entry index the waiting edits touch (where a cache anchor goes). */
  readonly firstEditedIndex: number;
}

export interface DensitySchedule {
  readonly rules: CacheRules;
  /** The payback horizon: a batch is applied for paying back within this many calls. */
  readonly paybackCalls: number;
  readonly lastSend: LastSend | undefined;
  readonly now: number;
  readonly underPressure: boolean;
  /** See DensityScheduleInput.pressureRoom. */
  readonly pressureRoom?: number;
  /** See DensityScheduleInput.riskBudget. */
  readonly riskBudget?: number;
  /** See DensityScheduleInput.compression. */
  readonly compression?: PressureCompression;
  /** See DensityScheduleInput.outlook. */
  readonly outlook?: DensityOutlook;
}

export interface DensityStepInput {
  readonly strategy: CompressionStrategyName;
  readonly optimize: (history: readonly IContent[], config: DensityConfig) => DensityResult;
  readonly history: HistoryService;
  readonly config: DensityConfig;
  /** Absent: apply every non-empty result (REQ-HD-002.4). */
  readonly schedule?: DensitySchedule;
}

export type DensityStepOutcome =
  | { readonly kind: 'nothing' }
  | {
      readonly kind: 'applied';
      readonly event: DensityAppliedEvent;
      /** Only the edits near the end were applied; the deeper ones, from this index, wait. */
      readonly pendingFrom?: number;
    }
  | { readonly kind: 'deferred'; readonly event: DensityDeferredEvent };

/** What the batched schedule says about `result`: its decision and the part to apply now. */
async function schedulePart(
  history: HistoryService,
  result: DensityResult,
  schedule: DensitySchedule,
): Promise<{
  decision: DensityScheduleDecision;
  part: DensityResult | undefined;
  invalidated: number;
  removed: number;
  lowest: number;
  /** What the applied part invalidates, with explicit caching. */
  explicitInvalidated: number | undefined;
}> {
  const raw = history.getRawHistory();
  const tokensOf = async (entry: IContent) =>
    history.tokensOf(entry) ?? (await history.estimateTokensForContents([entry]));
  const savings = await editSavings(raw, result, tokensOf);
  const lowest = savings.keys().next().value ?? 0;
  const sent = sentTokensFrom(history, schedule.lastSend, schedule.rules);
  const cuts = batchCuts(raw, result, savings, sent.invalidated, sent.anchored);
  const decision = decideDensityApplication({
    rules: schedule.rules,
    cuts,
    msSinceLastSend: schedule.lastSend ? schedule.now - schedule.lastSend.at : undefined,
    paybackHorizon: schedule.paybackCalls,
    underPressure: schedule.underPressure,
    ...(schedule.pressureRoom === undefined ? {} : { pressureRoom: schedule.pressureRoom }),
    ...(schedule.riskBudget === undefined ? {} : { riskBudget: schedule.riskBudget }),
    ...(schedule.compression === undefined ? {} : { compression: schedule.compression }),
    ...(schedule.outlook === undefined ? {} : { outlook: schedule.outlook }),
  });
  const part =
    decision.applyFrom === undefined
      ? undefined
      : densityResultFrom(raw, result, decision.applyFrom);
  return {
    decision,
    part,
    invalidated: cuts[0]?.invalidatedTokens ?? 0,
    removed: cuts[0]?.removedTokens ?? 0,
    lowest,
    explicitInvalidated:
      schedule.rules.mode === 'explicit'
        ? cuts.find((cut) => cut.index === decision.applyFrom)?.invalidatedTokens
        : undefined,
  };
}

export async function runDensityStep(input: DensityStepInput): Promise<DensityStepOutcome> {
  const { history, schedule } = input;
  const raw = history.getRawHistory();
  const found = input.optimize(raw, input.config);
  if (isEmptyDensityResult(found)) return { kind: 'nothing' };
  // Validate before reading entries by index, so a bad result fails with its typed error.
  validateDensityResult(found, raw.length);
  let result = found;
  let decision: DensityScheduleDecision | undefined;
  let pendingFrom: number | undefined;
  let explicitInvalidated: number | undefined;
  if (schedule) {
    const scheduled = await schedulePart(history, found, schedule);
    decision = scheduled.decision;
    if (scheduled.part === undefined) {
      const event = {
        strategy: input.strategy,
        metadata: found.metadata,
        removedTokens: scheduled.removed,
        invalidatedTokens: scheduled.invalidated,
        schedule: decision,
        firstEditedIndex: scheduled.lowest,
      };
      return { kind: 'deferred', event };
    }
    result = scheduled.part;
    explicitInvalidated = scheduled.explicitInvalidated;
    if (result !== found) pendingFrom = scheduled.lowest;
  }
  const removedTokens = await attributeDensityTokens(
    raw,
    result,
    history.estimateTokensForContents.bind(history),
  );
  // Non-empty result, so there is a first edited index.
  const firstEditedIndex = densityCacheImpact(result, raw.length).firstEditedIndex ?? 0;
  const tokensBefore = history.getTotalTokens();
  const entriesBefore = raw.length;
  await history.applyDensityResult(result);
  await history.waitForTokenUpdates();
  const event: DensityAppliedEvent = {
    strategy: input.strategy,
    metadata: result.metadata,
    removedTokens,
    tokensBefore,
    tokensAfter: history.getTotalTokens(),
    firstEditedIndex,
    entriesBefore,
    ...(decision === undefined ? {} : { schedule: decision }),
    ...(explicitInvalidated === undefined
      ? {}
      : { explicitInvalidatedTokens: explicitInvalidated }),
  };
  return { kind: 'applied', event, ...(pendingFrom === undefined ? {} : { pendingFrom }) };
}
