/** Synthetic bench runs for the replay bench's report tests: zero everywhere but what a test sets. */
import type { ReplayPolicyId, ReplaySessionReport } from '@dense/core';
import { syntheticReplayReport } from '@dense/core/test-utils';
import type { BenchRun } from '../benchTypes.js';

/** One run of `policy` at `limit` (null: a limitless policy) with the report `fields`. */
export function syntheticRun(
  policy: ReplayPolicyId,
  limit: number | null,
  fields: Partial<ReplaySessionReport> = {},
): BenchRun {
  return {
    source: 'synthetic',
    policy,
    limit,
    report: syntheticReplayReport({ strategy: policy, contextLimit: limit, ...fields }),
    series: [],
    overhead: [],
    liveLosses: [],
    staleReadsLeft: [],
    wallMs: 0,
    recordedCompactions: 0,
  };
}
