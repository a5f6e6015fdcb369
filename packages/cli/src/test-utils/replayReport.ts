/** A replay session report for formatting tests: a one-turn claude-code session, nothing removed. */
import type { ReplaySessionReport } from '@dense/core';
import { syntheticReplayReport } from '@dense/core/test-utils';

/** The report of `/runs/s.jsonl` under `none`, every count neutral; `extra` overrides. */
export function replayReport(extra: Partial<ReplaySessionReport> = {}): ReplaySessionReport {
  return syntheticReplayReport({
    file: '/runs/s.jsonl',
    contextLimit: 128_000,
    turns: 1,
    modelCalls: 2,
    toolCalls: 1,
    cumulativeInputTokens: 100,
    peakContextTokens: 60,
    finalContextTokens: 60,
    cacheWeightedInputTokens: 100,
    ...extra,
  });
}
