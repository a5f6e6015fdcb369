/**
 * Where the session is heading, for the density schedule: the context against the compression
 * threshold and how fast it grows per call. Two rules read it:
 *
 * - a batch applied for paying back must pay back before the next likely compression: a
 *   compression rewrites the whole history, and what density removed stops saving from then on
 *   (`DensityCacheLedger.compressed`), so a payback due after it never comes;
 * - under pressure, the batch and the compression are priced call by call over the payback
 *   horizon with `priceCall` (the one cache model): the batch alone makes room for a few calls and
 *   is followed by the compression it only delayed once the history grows past the threshold
 *   again; the compression now writes the smaller history once and reads it from then on. The
 *   cheaper one wins: a chain of deep rewrites that only postpones a compression loses to it.
 *
 * Pure.
 */
import type { CacheRules } from '../cache/cacheRules.js';
import { priceCall } from '../cache/priceCall.js';

export interface DensityOutlook {
  /** The history's tokens now, the pending message included. */
  readonly tokens: number;
  /** threshold × context limit, in tokens: a compression runs once the history reaches it. */
  readonly thresholdTokens: number;
  /** Recent growth of the history per call (`GrowthTracker`); 0 before two sends. */
  readonly growthPerCall: number;
}

/** What a pressure batch removes and rewrites (a `BatchCut`'s numbers). */
export interface OutlookBatch {
  readonly removedTokens: number;
  readonly invalidatedTokens: number;
}

/** The compression a pressure batch competes with (a `PressureCompression`). */
export interface OutlookCompression {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

/**
 * Calls until the history, less `removedTokens`, reaches the threshold at its recent growth:
 * the next likely compression. Infinity when it does not grow (nothing to predict from).
 */
export function callsUntilCompression(outlook: DensityOutlook, removedTokens: number): number {
  if (outlook.growthPerCall <= 0) return Number.POSITIVE_INFINITY;
  const room = outlook.thresholdTokens - (outlook.tokens - removedTokens);
  return Math.max(0, room / outlook.growthPerCall);
}

interface PathStart {
  /** The first call's prompt (history tokens). */
  readonly prompt: number;
  /** Its leading tokens the previous call cached. */
  readonly reusable: number;
}

/**
 * What the next `calls` calls cost from `start`, the history growing by `growth` per call and
 * compressed to `compressed` tokens (nothing of it cached) whenever it reaches `threshold`.
 */
function pathCost(
  rules: CacheRules,
  start: PathStart,
  calls: number,
  growth: number,
  threshold: number,
  compressed: number,
): number {
  let prompt = start.prompt;
  let reusable = start.reusable;
  let cost = 0;
  for (let call = 0; call < calls; call++) {
    if (call > 0) {
      reusable = prompt;
      prompt += growth;
      if (prompt >= threshold) {
        prompt = compressed;
        reusable = 0;
      }
    }
    cost += priceCall(rules, {
      promptTokens: prompt,
      reusablePrefixTokens: reusable,
      gapMs: undefined,
      hasPrevious: true,
    }).weightedTokens;
  }
  return cost;
}

/** The next `calls` calls after applying the pressure batch alone, and after compressing now. */
export function pressurePathCosts(
  rules: CacheRules,
  batch: OutlookBatch,
  compression: OutlookCompression,
  outlook: DensityOutlook,
  calls: number,
): { readonly batch: number; readonly compression: number } {
  const growth = Math.max(0, outlook.growthPerCall);
  const before = compression.tokensBefore;
  // The previous call's prompt: one call's growth ago, at least what the batch invalidates of it.
  const previous = Math.max(batch.invalidatedTokens, before - growth);
  const threshold = outlook.thresholdTokens;
  const after = compression.tokensAfter;
  const horizon = Math.max(1, Math.ceil(calls));
  return {
    batch: pathCost(
      rules,
      { prompt: before - batch.removedTokens, reusable: previous - batch.invalidatedTokens },
      horizon,
      growth,
      threshold,
      after,
    ),
    compression: pathCost(rules, { prompt: after, reusable: 0 }, horizon, growth, threshold, after),
  };
}

/**
 * Whether compressing now costs less than the pressure batch over the next `calls` calls (the
 * batch followed by the compression it only delays). A compression that leaves at least what the
 * batch leaves never wins.
 */
export function compressionWinsOverHorizon(
  rules: CacheRules,
  batch: OutlookBatch,
  compression: OutlookCompression,
  outlook: DensityOutlook,
  calls: number,
): boolean {
  if (compression.tokensAfter >= compression.tokensBefore - batch.removedTokens) return false;
  const costs = pressurePathCosts(rules, batch, compression, outlook, calls);
  return costs.compression < costs.batch;
}
