/** A replay session report for report and formatting tests: zero everywhere but what a test sets. */
import { zeroCacheCosts } from '../replay/metrics/cacheCost.js';
import type { ReplaySessionReport } from '../replay/replayReport.js';

const ZERO_CATEGORIES = { reads: 0, inclusions: 0, shellReads: 0 };

export function syntheticReplayReport(
  fields: Partial<ReplaySessionReport> = {},
): ReplaySessionReport {
  return {
    file: 'synthetic/a.jsonl',
    format: 'claude-code',
    sessionIndex: 0,
    strategy: 'none',
    contextLimit: null,
    summarizer: null,
    turns: 0,
    modelCalls: 0,
    toolCalls: 0,
    syntheticResponses: 0,
    overflowCalls: 0,
    cumulativeInputTokens: 0,
    peakContextTokens: 0,
    finalContextTokens: 0,
    compressions: 0,
    firstCompressionTurn: null,
    densityRemovedTokens: { readWrite: 0, dedup: 0, recency: 0 },
    exposureTokens: ZERO_CATEGORIES,
    staleTokens: ZERO_CATEGORIES,
    staleReclaimedTokens: ZERO_CATEGORIES,
    liveLostTokens: 0,
    liveLostTokensBy: { density: 0, compression: 0 },
    duplicateReclaimedTokens: 0,
    historyRewrites: 0,
    historyRewriteDepth: { meanEntries: 0, meanTokens: 0 },
    cacheWeightedInputTokens: 0,
    cacheCost: zeroCacheCosts(),
    cacheCostAssumedWarm: zeroCacheCosts(),
    timedModelCalls: 0,
    densityOverheadMs: { median: 0, p99: 0, samples: 0 },
    ...fields,
  };
}
