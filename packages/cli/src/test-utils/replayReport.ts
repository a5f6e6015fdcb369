/** A replay session report for formatting tests: a one-turn claude-code session, nothing removed. */
import { zeroCacheCosts, type ReplaySessionReport } from '@dense/core';

/** The report of `/runs/s.jsonl` under `none`, every count neutral; `extra` overrides. */
export function replayReport(extra: Partial<ReplaySessionReport> = {}): ReplaySessionReport {
  return {
    file: '/runs/s.jsonl',
    format: 'claude-code',
    sessionIndex: 0,
    strategy: 'none',
    contextLimit: 128_000,
    summarizer: null,
    turns: 1,
    modelCalls: 2,
    toolCalls: 1,
    syntheticResponses: 0,
    overflowCalls: 0,
    cumulativeInputTokens: 100,
    peakContextTokens: 60,
    finalContextTokens: 60,
    compressions: 0,
    firstCompressionTurn: null,
    densityRemovedTokens: { readWrite: 0, dedup: 0, recency: 0 },
    exposureTokens: { reads: 0, inclusions: 0, shellReads: 0 },
    staleTokens: { reads: 0, inclusions: 0, shellReads: 0 },
    staleReclaimedTokens: { reads: 0, inclusions: 0, shellReads: 0 },
    liveLostTokens: 0,
    liveLostTokensBy: { density: 0, compression: 0 },
    duplicateReclaimedTokens: 0,
    historyRewrites: 0,
    historyRewriteDepth: { meanEntries: 0, meanTokens: 0 },
    cacheWeightedInputTokens: 100,
    cacheCost: zeroCacheCosts(),
    cacheCostAssumedWarm: zeroCacheCosts(),
    timedModelCalls: 0,
    densityOverheadMs: { median: 0, p99: 0, samples: 0 },
    ...extra,
  };
}
