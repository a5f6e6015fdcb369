/**
 * One density step: run the strategy's optimize() on the raw history, validate the result, decide
 * whether to apply it now (always, unless a cache-aware schedule is given), and apply it. Called by
 * CompressionHandler in the pre-send window only.
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
} from './compression/types.js';
import { densityCacheImpact } from './compression/density/cacheImpact.js';
import { attributeDensityTokens, type DensityTokenBreakdown } from './densityAccounting.js';
import { decideDensityApplication, type DensityScheduleDecision } from './densitySchedule.js';

export interface DensityAppliedEvent {
  readonly strategy: CompressionStrategyName;
  readonly metadata: DensityResultMetadata;
  readonly removedTokens: DensityTokenBreakdown;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Lowest edited index: the provider's cached prompt prefix is lost from here on. */
  readonly firstEditedIndex: number;
  readonly entriesBefore: number;
  /** Why it was applied now, when a cache-aware schedule decided. */
  readonly schedule?: DensityScheduleDecision;
}

export interface DensityDeferredEvent {
  readonly strategy: CompressionStrategyName;
  readonly metadata: DensityResultMetadata;
  readonly removedTokens: number;
  readonly invalidatedTokens: number;
  readonly schedule: DensityScheduleDecision;
}

/** What the previous provider call was sent: this many raw entries, at this time. */
export interface LastSend {
  readonly entries: number;
  readonly at: number;
}

export interface DensitySchedule {
  readonly paybackCalls: number;
  readonly lastSend: LastSend | undefined;
  readonly now: number;
  readonly underPressure: boolean;
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
  | { readonly kind: 'applied'; readonly event: DensityAppliedEvent }
  | { readonly kind: 'deferred'; readonly event: DensityDeferredEvent };

/** Tokens of the entries sent last time that follow `from` (their cached prefix would be lost). */
function invalidatedTokens(
  history: HistoryService,
  from: number,
  lastSend: LastSend | undefined,
): number {
  const raw = history.getRawHistory();
  const end = Math.min(lastSend?.entries ?? 0, raw.length);
  let total = 0;
  for (let i = from; i < end; i++) total += history.tokensOf(raw[i] as IContent) ?? 0;
  return total;
}

function sum(tokens: DensityTokenBreakdown): number {
  return tokens.readWrite + tokens.dedup + tokens.recency;
}

export async function runDensityStep(input: DensityStepInput): Promise<DensityStepOutcome> {
  const { history, schedule } = input;
  const raw = history.getRawHistory();
  const result = input.optimize(raw, input.config);
  if (isEmptyDensityResult(result)) return { kind: 'nothing' };
  // Validate before reading entries by index, so a bad result fails with its typed error.
  validateDensityResult(result, raw.length);
  const removedTokens = await attributeDensityTokens(
    raw,
    result,
    history.estimateTokensForContents.bind(history),
  );
  // Non-empty result, so there is a first edited index.
  const firstEditedIndex = densityCacheImpact(result, raw.length).firstEditedIndex ?? 0;
  let decision: DensityScheduleDecision | undefined;
  if (schedule) {
    const invalidated = invalidatedTokens(history, firstEditedIndex, schedule.lastSend);
    decision = decideDensityApplication({
      removedTokens: sum(removedTokens),
      invalidatedTokens: invalidated,
      msSinceLastSend: schedule.lastSend ? schedule.now - schedule.lastSend.at : undefined,
      paybackCalls: schedule.paybackCalls,
      underPressure: schedule.underPressure,
    });
    if (!decision.apply) {
      const event = {
        strategy: input.strategy,
        metadata: result.metadata,
        removedTokens: sum(removedTokens),
        invalidatedTokens: invalidated,
        schedule: decision,
      };
      return { kind: 'deferred', event };
    }
  }
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
  };
  return { kind: 'applied', event };
}
