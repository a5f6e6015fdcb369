/**
 * The dashboard's counters in the units people read (`/dense/stats`): costs in base-input-token
 * units (the proxy's), waiting in seconds, the saving and its share of the pass-through cost.
 */
import type { StatsCounters } from './statsCounters.js';

export interface StatsFigures {
  readonly requests: number;
  /** Billed prompt cost, base-input-token units. */
  readonly billedCost: number;
  /** The same requests passed through unchanged (estimated), same units. */
  readonly passThroughCost: number;
  /** `passThroughCost - billedCost` (negative: density cost more). */
  readonly savedCost: number;
  /** `savedCost` in percent of `passThroughCost`; null when nothing was priced. */
  readonly savedPercent: number | null;
  readonly compactionsAnswered: number;
  readonly compactionsKeptUnder: number;
  /** `compactionsAnswered + compactionsKeptUnder`. */
  readonly compactionsAvoided: number;
  readonly waitingAvoidedSeconds: number;
  /** Prompt tokens forwarded upstream, summed over priced requests. */
  readonly contextUpstreamTokens: number;
  /** The same requests as the clients held them (estimated), summed. */
  readonly contextClientTokens: number;
}

export function figuresOf(counters: StatsCounters): StatsFigures {
  const billed = counters.billedMilli / 1000;
  const passThrough = counters.passThroughMilli / 1000;
  const saved = (counters.passThroughMilli - counters.billedMilli) / 1000;
  return {
    requests: counters.requests,
    billedCost: billed,
    passThroughCost: passThrough,
    savedCost: saved,
    savedPercent: counters.passThroughMilli > 0 ? (saved / passThrough) * 100 : null,
    compactionsAnswered: counters.compactionsAnswered,
    compactionsKeptUnder: counters.compactionsKeptUnder,
    compactionsAvoided: counters.compactionsAnswered + counters.compactionsKeptUnder,
    waitingAvoidedSeconds: counters.waitingAvoidedMs / 1000,
    contextUpstreamTokens: counters.upstreamTokens,
    contextClientTokens: counters.clientTokens,
  };
}
