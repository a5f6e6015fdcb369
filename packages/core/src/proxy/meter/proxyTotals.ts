/**
 * The stats' counts: one conversation's or all of them, a record added at a time. Pure.
 */
import type { ProxyRequestRecord, RequestContext } from './proxyRecord.js';
import type { RequestCost } from './passThroughCost.js';
import { ZERO_USAGE } from './usageMeter.js';

export interface ProxyTotals {
  readonly requests: number;
  readonly inputTokens: number;
  readonly cacheCreationTokens: number;
  readonly cacheReadTokens: number;
  readonly outputTokens: number;
  /**
   * Estimated tokens density kept out of the requests (`removedTokensOf`), summed over
   * requests: a result sent as the pointer on ten requests counts ten times. Not a saving; the
   * saving is `passThroughCost - billedCost`.
   */
  readonly removedTokens: number;
  readonly batches: number;
  readonly prefixBreaks: number;
  /** Replies cut mid-way (upstream dropped or client closed). */
  readonly cutReplies: number;
  /** Billed prompt cost in base-input-token units (output left out). */
  readonly billedCost: number;
  /** Estimated prompt cost of the same requests passed through unchanged, same units. */
  readonly passThroughCost: number;
  /**
   * Prompt tokens of the latest priced request upstream (reported); in totals and `dropped`,
   * summed over conversations.
   */
  readonly contextUpstreamTokens: number;
  /** The same request as the client holds it (estimated), same sums. */
  readonly contextClientTokens: number;
  /** Client compaction requests answered by Dense. */
  readonly compactionsAnswered: number;
  /** Times the working budget kept the client under its own threshold (see the module header). */
  readonly compactionsKeptUnder: number;
  /** `compactionsAnswered + compactionsKeptUnder`. */
  readonly compactionsAvoided: number;
}

const NO_COST: RequestCost = { billed: 0, passThrough: 0 };

/**
 * Estimated tokens a request kept out: removed characters / 4, except the base64 images among
 * them, which count by their provider's rule.
 */
export function removedTokensOf(
  record: Pick<ProxyRequestRecord, 'removedChars' | 'removedImages'>,
): number {
  const images = record.removedImages;
  if (images === undefined) return Math.round(record.removedChars / 4);
  return Math.round(Math.max(0, record.removedChars - images.chars) / 4) + images.tokens;
}

/** What one record adds to a conversation's counts beyond usage and cost. */
function meteringOf(record: ProxyRequestRecord, previous: RequestContext | undefined) {
  const context = record.context ?? previous;
  return {
    // The latest context replaces the conversation's previous one in the sums.
    upstream: (context?.upstreamTokens ?? 0) - (previous?.upstreamTokens ?? 0),
    client: (context?.clientTokens ?? 0) - (previous?.clientTokens ?? 0),
    answered: record.compactionAvoided === 'answered' ? 1 : 0,
    keptUnder: record.compactionAvoided === 'kept-under' ? 1 : 0,
  };
}

/** `totals` with one more record (`previous`: its conversation's context before it). */
export function addRecord(
  totals: ProxyTotals,
  record: ProxyRequestRecord,
  previous: RequestContext | undefined,
): ProxyTotals {
  const usage = record.usage ?? ZERO_USAGE;
  const cost = record.cost ?? NO_COST;
  const metering = meteringOf(record, previous);
  return {
    requests: totals.requests + 1,
    inputTokens: totals.inputTokens + usage.input,
    cacheCreationTokens: totals.cacheCreationTokens + usage.cacheCreation,
    cacheReadTokens: totals.cacheReadTokens + usage.cacheRead,
    outputTokens: totals.outputTokens + usage.output,
    removedTokens: totals.removedTokens + removedTokensOf(record),
    batches: totals.batches + (record.newEdits > 0 ? 1 : 0),
    prefixBreaks: totals.prefixBreaks + (record.prefixStable === false ? 1 : 0),
    cutReplies: totals.cutReplies + (record.end === 'complete' ? 0 : 1),
    billedCost: totals.billedCost + cost.billed,
    passThroughCost: totals.passThroughCost + cost.passThrough,
    contextUpstreamTokens: totals.contextUpstreamTokens + metering.upstream,
    contextClientTokens: totals.contextClientTokens + metering.client,
    compactionsAnswered: totals.compactionsAnswered + metering.answered,
    compactionsKeptUnder: totals.compactionsKeptUnder + metering.keptUnder,
    compactionsAvoided: totals.compactionsAvoided + metering.answered + metering.keptUnder,
  };
}

export function sumTotals(a: ProxyTotals, b: ProxyTotals): ProxyTotals {
  const out: Record<string, number> = {};
  for (const key of Object.keys(a) as (keyof ProxyTotals)[]) out[key] = a[key] + b[key];
  return out as unknown as ProxyTotals;
}

export const ZERO_TOTALS: ProxyTotals = {
  requests: 0,
  inputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
  outputTokens: 0,
  removedTokens: 0,
  batches: 0,
  prefixBreaks: 0,
  cutReplies: 0,
  billedCost: 0,
  passThroughCost: 0,
  contextUpstreamTokens: 0,
  contextClientTokens: 0,
  compactionsAnswered: 0,
  compactionsKeptUnder: 0,
  compactionsAvoided: 0,
};
