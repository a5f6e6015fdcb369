/** Order statistics for the replay's timing figures. */

/** The nearest-rank percentile `p` (0–100) of `values`; 0 for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((Math.min(100, Math.max(0, p)) / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)] as number;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}
