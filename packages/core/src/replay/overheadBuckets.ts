/** Density overhead per pre-send step, grouped by how large the history was. Pure. */
import { median, percentile } from './metrics/percentile.js';
import type { OverheadSample } from './ReplayRecorder.js';

/** Lower bounds (history tokens) of the buckets. */
export const OVERHEAD_BUCKET_EDGES = [0, 10_000, 25_000, 50_000, 100_000] as const;

export interface OverheadBucket {
  /** Inclusive lower bound, exclusive upper bound (`null`: no upper bound). */
  readonly fromTokens: number;
  readonly toTokens: number | null;
  readonly samples: number;
  readonly medianMs: number;
  readonly p99Ms: number;
}

export function bucketOverhead(samples: readonly OverheadSample[]): OverheadBucket[] {
  return OVERHEAD_BUCKET_EDGES.map((from, index) => {
    const to = OVERHEAD_BUCKET_EDGES[index + 1] ?? null;
    const ms = samples
      .filter((s) => s.historyTokens >= from && (to === null || s.historyTokens < to))
      .map((s) => s.ms);
    return {
      fromTokens: from,
      toTokens: to,
      samples: ms.length,
      medianMs: median(ms),
      p99Ms: percentile(ms, 99),
    };
  });
}
