/**
 * When density edits are worth applying, priced with the provider's prompt-cache rules
 * (`cache/cacheRules.ts`, the one cost model): the prefix unchanged since the previous call is
 * read at `readMultiplier`, everything from the first edited entry on is written again at
 * `writeMultiplier`.
 *
 * Applying edits that remove R tokens when S cached tokens follow the first edited entry costs
 * (w − r)·S − w·R more on the next call than leaving the history alone, and saves r·R on every
 * call after it (r, w: read and write multipliers). It pays for itself after ((w − r)·S − w·R)/(r·R)
 * calls. An edit at the end of history pays at once; a small edit deep in a long history may
 * never pay on its own, but a batch of them can.
 *
 * The batched schedule: pending edits wait (they are found again by every later
 * optimize(), which only ever finds more, so a decision is never undone) and are applied
 * together when it costs least: the cache is cold, a compression is about to rewrite the history,
 * the batch pays back within the horizon, or the context is under pressure.
 * A suffix of the batch (the edits near the end of the history) may go at once while the deep
 * edits wait.
 *
 * The horizon is fixed (`compression.density.cachePaybackCalls`, 15 calls), and a batch applied for
 * paying back may cost up front at most the session's risk budget (what density saved so far plus
 * `compression.density.cacheRiskAllowance` = 2% of what the session would have cost without it):
 * a bet on the session going on may then lose at most what density already earned in it (and the
 * small allowance), so a session that ends first no longer costs more than it would have without
 * density. The CLI opens the allowance only to a batch that already waited a step
 * (`DensityScheduler.betBudget`).
 *
 * With an outlook (`densityOutlook.ts`) the horizon is also cut at the next likely
 * compression, after which a batch saves nothing, and a pressure batch is priced against the
 * compression call by call over the horizon: a deep rewrite that only delays a compression loses
 * to it.
 */
import type { CacheRules } from '../cache/cacheRules.js';
import { isCacheCold } from '../cache/priceCall.js';
import {
  callsUntilCompression,
  compressionWinsOverHorizon,
  type DensityOutlook,
} from './densityOutlook.js';

export const DENSITY_SCHEDULE_MODES = ['batched', 'immediate'] as const;
export type DensityScheduleMode = (typeof DENSITY_SCHEDULE_MODES)[number];

/**
 * What applying costs on the next call beyond leaving the history alone (the module comment's
 * (w − r)·S − w·R); 0 when it saves at once. What a session ending right after loses.
 */
export function upFrontCost(
  rules: CacheRules,
  removedTokens: number,
  invalidatedTokens: number,
): number {
  const r = rules.readMultiplier;
  const w = rules.writeMultiplier;
  return Math.max(0, (w - r) * invalidatedTokens - w * removedTokens);
}

/** Calls until applying costs less than not applying (the module comment derives it). */
export function callsToPayBack(
  rules: CacheRules,
  removedTokens: number,
  invalidatedTokens: number,
): number {
  if (removedTokens <= 0) return Number.POSITIVE_INFINITY;
  return (
    upFrontCost(rules, removedTokens, invalidatedTokens) / (rules.readMultiplier * removedTokens)
  );
}

/** One place the batch may be cut: apply the edits at `index` and after, leave the rest. */
export interface BatchCut {
  /** Lowest edited index of the suffix. */
  readonly index: number;
  /** Tokens the edits from `index` on remove. */
  readonly removedTokens: number;
  /** Tokens sent in the previous call that follow `index` (their cached prefix is lost). */
  readonly invalidatedTokens: number;
  /**
   * What it would invalidate once a cache anchor marks the prefix before `index`, when that is
   * less (explicit caching, an edit beyond the lookback with no anchor yet).
   */
  readonly anchoredInvalidatedTokens?: number;
}

export interface DensityScheduleInput {
  readonly rules: CacheRules;
  /**
   * Where the pending edits can be cut, lowest index first; the first cut is the whole batch.
   * Non-empty.
   */
  readonly cuts: readonly BatchCut[];
  /** Milliseconds since the previous call; undefined before the first call. */
  readonly msSinceLastSend: number | undefined;
  /** A batch is applied for paying back when it does so within this many calls. */
  readonly paybackHorizon: number;
  /** The context is at the compression threshold: density must run before compression. */
  readonly underPressure: boolean;
  /**
   * Under pressure, what the batch must remove to be applied for that reason: enough to keep the
   * next few calls under the threshold. A batch that removes less only delays a compression that
   * drops the same content anyway, at the price of a rewrite. Undefined: any batch.
   */
  readonly pressureRoom?: number;
  /**
   * What the session has saved so far (base-input-token units): a batch applied for paying back
   * may cost at most this much up front, so that a session ending before the payback still costs
   * no more than it would have without density. Undefined: no cap.
   */
  readonly riskBudget?: number;
  /**
   * Under pressure, the compression that could run now (absent when none would): when it costs
   * less on the next call than the batch's rewrite, the batch goes with it ('with-compression':
   * the compression rewrites the history anyway) instead of alone. See `compressionIsCheaper`.
   */
  readonly compression?: PressureCompression;
  /**
   * True: a pressure batch must be within `riskBudget` too. For a caller that cannot compress (the
   * proxy: its client compacts by itself), a pressure batch only delays that compaction, so it is
   * a bet like any other.
   */
  readonly pressureWithinBudget?: boolean;
  /**
   * The context against the compression threshold and its growth (`densityOutlook.ts`). Given,
   * a batch applied for paying back must pay back before the next likely compression, and a
   * pressure batch is priced against the compression over the payback horizon instead of on the
   * next call alone. Absent (the proxy, the emergency path): neither.
   */
  readonly outlook?: DensityOutlook;
}

/** The compression a pressure batch competes with (tokens of the history, o200k). */
export interface PressureCompression {
  /** The history's tokens now. */
  readonly tokensBefore: number;
  /** What the compression leaves, at most (the strategy's compression target). */
  readonly tokensAfter: number;
}

export const DENSITY_SCHEDULE_REASONS = [
  'under-pressure',
  'with-compression',
  'no-cache-yet',
  'cache-cold',
  'pays-back',
  'tail-pays-back',
  'awaiting-anchor',
  'deferred',
] as const;

export type DensityScheduleReason = (typeof DENSITY_SCHEDULE_REASONS)[number];

export interface DensityScheduleDecision {
  /** Apply the pending edits at this index and after; `undefined`: apply nothing now. */
  readonly applyFrom: number | undefined;
  readonly reason: DensityScheduleReason;
  /** Calls after which the whole batch has paid for itself (0: at once; Infinity: never). */
  readonly paybackCalls: number;
}

export function decideDensityApplication(input: DensityScheduleInput): DensityScheduleDecision {
  const whole = input.cuts[0];
  if (whole === undefined) return { applyFrom: undefined, reason: 'deferred', paybackCalls: 0 };
  const payback = callsToPayBack(input.rules, whole.removedTokens, whole.invalidatedTokens);
  const all = (reason: DensityScheduleReason): DensityScheduleDecision => ({
    applyFrom: whole.index,
    reason,
    paybackCalls: payback,
  });
  const pressure = pressureReason(input, whole);
  if (pressure !== undefined) return all(pressure);
  if (input.msSinceLastSend === undefined) return all('no-cache-yet');
  if (isCacheCold(input.rules, input.msSinceLastSend)) return all('cache-cold');
  const anchored = anchoredPayback(input.rules, whole);
  const awaiting = anchored !== undefined && anchored <= horizonFor(input, whole);
  if (!awaiting && payback <= horizonFor(input, whole) && affordable(input, whole))
    return all('pays-back');
  const tail = tailThatPaysBack(input, awaiting);
  if (tail !== undefined)
    return { applyFrom: tail.index, reason: 'tail-pays-back', paybackCalls: payback };
  return {
    applyFrom: undefined,
    reason: awaiting ? 'awaiting-anchor' : 'deferred',
    paybackCalls: awaiting ? anchored : payback,
  };
}

/**
 * Under pressure, a batch that makes the room goes — with the compression when that costs less
 * than the batch alone. Undefined: not under pressure, or the batch makes too little room.
 */
function pressureReason(
  input: DensityScheduleInput,
  whole: BatchCut,
): 'under-pressure' | 'with-compression' | undefined {
  const relieves = input.pressureRoom === undefined || whole.removedTokens >= input.pressureRoom;
  if (!input.underPressure || !relieves) return undefined;
  if (input.pressureWithinBudget === true && !affordable(input, whole)) return undefined;
  const { compression, outlook } = input;
  const cheaper =
    compression !== undefined &&
    (outlook === undefined
      ? compressionIsCheaper(input.rules, whole, compression)
      : compressionWinsOverHorizon(input.rules, whole, compression, outlook, input.paybackHorizon));
  return cheaper ? 'with-compression' : 'under-pressure';
}

/**
 * The calls a batch has to pay back in: the payback horizon, or fewer when the history will reach
 * the compression threshold before (the compression rewrites everything, and the batch's saving
 * stops there).
 */
function horizonFor(input: DensityScheduleInput, cut: BatchCut): number {
  if (input.outlook === undefined) return input.paybackHorizon;
  return Math.min(input.paybackHorizon, callsUntilCompression(input.outlook, cut.removedTokens));
}

/** The deepest cut after the first whose suffix pays back on its own. */
function tailThatPaysBack(input: DensityScheduleInput, awaiting: boolean): BatchCut | undefined {
  return input.cuts.slice(1).find(
    (cut) =>
      // While the anchor is awaited, a deep tail would be written again in full for nothing.
      !(awaiting && cut.anchoredInvalidatedTokens !== undefined) &&
      callsToPayBack(input.rules, cut.removedTokens, cut.invalidatedTokens) <=
        horizonFor(input, cut) &&
      affordable(input, cut),
  );
}

/** Whether what `cut` costs up front is within the session's risk budget. */
function affordable(input: DensityScheduleInput, cut: BatchCut): boolean {
  return (
    input.riskBudget === undefined ||
    upFrontCost(input.rules, cut.removedTokens, cut.invalidatedTokens) <= input.riskBudget
  );
}

/**
 * The payback of the batch once a cache anchor is in place, when waiting one call for it costs
 * less than it saves: applying now rewrites (w − r)·S; one call later (w − r)·S' plus r·R for
 * sending the removed tokens once more. Undefined when waiting does not pay.
 */
function anchoredPayback(rules: CacheRules, whole: BatchCut): number | undefined {
  const anchored = whole.anchoredInvalidatedTokens;
  if (anchored === undefined) return undefined;
  const r = rules.readMultiplier;
  const w = rules.writeMultiplier;
  const saved = (w - r) * (whole.invalidatedTokens - anchored);
  if (saved <= r * whole.removedTokens) return undefined;
  return callsToPayBack(rules, whole.removedTokens, anchored);
}

/**
 * Whether compressing now costs less on the next call than applying the pressure batch alone: the
 * batch rewrites what follows its first edit ((w − r)·S − w·R more than leaving the history
 * alone), the compression writes the whole smaller history (w·C instead of reading T at r). A
 * compression that is cheaper on the next call is cheaper on every later one too (it leaves less
 * than the batch does), so choosing it bets nothing on the session going on; a batch that wins on
 * the next call goes alone, even though a compression it only delays may follow.
 */
export function compressionIsCheaper(
  rules: CacheRules,
  batch: BatchCut,
  compression: PressureCompression,
): boolean {
  const r = rules.readMultiplier;
  const w = rules.writeMultiplier;
  const leftByBatch = compression.tokensBefore - batch.removedTokens;
  if (compression.tokensAfter >= leftByBatch) return false;
  const compressing = w * compression.tokensAfter - r * compression.tokensBefore;
  const applying = (w - r) * batch.invalidatedTokens - w * batch.removedTokens;
  return compressing < applying;
}
