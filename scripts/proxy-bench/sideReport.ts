/**
 * What one side of the bench paid, from the mock's bills: the cache-weighted prompt of every
 * request plus the output of its compaction requests (the only output that differs between the
 * sides: every model call streams the same recorded reply on both). Pure.
 */
import { outputMultiplierFor } from '@dense/core';
import type { BilledRequest } from './cacheBillingMock.js';
import type { ClientApi } from './clientRequests.js';

/**
 * Recorded context (the last reported usage before a recorded compaction) under which that
 * compaction was asked for by the user rather than triggered: recorded Claude Code sessions
 * triggered at 155–158k (reported usage plus the results appended since; one recorded compaction
 * followed a reply reporting 154.8k), so 150k.
 */
export const AUTO_COMPACT_TOKENS = 150_000;

export interface SideReport {
  readonly requests: number;
  /** Cache-weighted prompt units plus compaction output × the provider's output price (cacheRules). */
  readonly cost: number;
  readonly promptCost: number;
  readonly compactions: number;
  readonly compactionCost: number;
  readonly promptTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

export function sideReport(
  bills: readonly BilledRequest[],
  compactionRequests: readonly number[],
  api: ClientApi,
): SideReport {
  const compactions = new Set(compactionRequests);
  let promptCost = 0;
  let compactionOutput = 0;
  let compactionCost = 0;
  let promptTokens = 0;
  let cacheReadTokens = 0;
  let cacheWriteTokens = 0;
  bills.forEach((bill, i) => {
    promptCost += bill.weighted;
    promptTokens += bill.promptTokens;
    cacheReadTokens += bill.cacheReadTokens;
    cacheWriteTokens += bill.cacheWriteTokens;
    if (!compactions.has(i)) return;
    const output = bill.outputTokens * outputMultiplierFor(api);
    compactionOutput += output;
    compactionCost += bill.weighted + output;
  });
  return {
    requests: bills.length,
    cost: promptCost + compactionOutput,
    promptCost,
    compactions: compactions.size,
    compactionCost,
    promptTokens,
    cacheReadTokens,
    cacheWriteTokens,
  };
}
