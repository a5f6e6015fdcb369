/**
 * How closely a replay reproduces the context sizes the recorded agent's provider reported (Claude
 * Code records `usage` per message). The replay lacks the system prompt and tool schemas and counts
 * with o200k, not the provider's tokenizer, so recorded ≈ offset + scale × replayed; the two are
 * fitted on the calls before the first recorded compaction (where every policy sends the same
 * history) and the fit is judged on the calls after it, which only a policy that follows the
 * agent's compactions can get right. Fitting on all calls instead (`fitCalls` unset) asks how well
 * two constants explain every recorded count. Pure.
 */

export interface UsageComparisonInput {
  /** Context tokens of each replayed call. */
  readonly series: readonly number[];
  /** Per call, the prompt tokens the recorded provider reported (`undefined`: not recorded). */
  readonly recordedPromptTokens: readonly (number | undefined)[];
  /** The fit uses the first `fitCalls` calls (default: all). */
  readonly fitCalls?: number;
  /** The check covers the calls from `checkFrom` on (default: `fitCalls`, or 0 when fitting all). */
  readonly checkFrom?: number;
}

export const USAGE_NOT_COMPARED = [
  'no-recorded-usage',
  'too-few-calls-to-fit',
  'no-call-after',
] as const;

export type UsageComparison =
  | {
      readonly kind: 'compared';
      /** recorded ≈ offset + scale × replayed, fitted on the calls before the boundary. */
      readonly offset: number;
      readonly scale: number;
      readonly fittedCalls: number;
      /** Calls after the boundary with recorded usage. */
      readonly checkedCalls: number;
      /** Σ predicted / Σ recorded over the checked calls (1 = exact). */
      readonly ratio: number;
      /** Median and largest |predicted − recorded| / recorded per checked call. */
      readonly medianError: number;
      readonly maxError: number;
      /** Checked calls predicted within 5% of the recorded count. */
      readonly within5Percent: number;
    }
  | { readonly kind: 'not-compared'; readonly reason: (typeof USAGE_NOT_COMPARED)[number] };

function pairs(input: UsageComparisonInput, from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = from; i < Math.min(to, input.series.length); i++) {
    const recorded = input.recordedPromptTokens[i];
    const replayed = input.series[i];
    if (recorded !== undefined && replayed !== undefined) out.push([replayed, recorded]);
  }
  return out;
}

/** Least squares of y on x; a pure offset (scale 1) when the x values do not vary. */
function fit(points: readonly [number, number][]): { offset: number; scale: number } {
  const n = points.length;
  const mx = points.reduce((t, [x]) => t + x, 0) / n;
  const my = points.reduce((t, [, y]) => t + y, 0) / n;
  const sxx = points.reduce((t, [x]) => t + (x - mx) ** 2, 0);
  const sxy = points.reduce((t, [x, y]) => t + (x - mx) * (y - my), 0);
  const scale = sxx === 0 ? 1 : sxy / sxx;
  return { offset: my - scale * mx, scale };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function compareRecordedUsage(input: UsageComparisonInput): UsageComparison {
  if (!input.recordedPromptTokens.some((tokens) => tokens !== undefined)) {
    return { kind: 'not-compared', reason: 'no-recorded-usage' };
  }
  const fitCalls = input.fitCalls ?? input.series.length;
  const before = pairs(input, 0, fitCalls);
  if (before.length < 2) return { kind: 'not-compared', reason: 'too-few-calls-to-fit' };
  const checkFrom = input.checkFrom ?? (input.fitCalls === undefined ? 0 : fitCalls);
  const after = pairs(input, checkFrom, input.series.length);
  if (after.length === 0) return { kind: 'not-compared', reason: 'no-call-after' };
  const { offset, scale } = fit(before);
  const predicted = after.map(([x, y]) => [offset + scale * x, y] as const);
  const errors = predicted.map(([p, y]) => Math.abs(p - y) / y);
  return {
    kind: 'compared',
    offset,
    scale,
    fittedCalls: before.length,
    checkedCalls: after.length,
    ratio: predicted.reduce((t, [p]) => t + p, 0) / predicted.reduce((t, [, y]) => t + y, 0),
    medianError: median(errors),
    maxError: Math.max(...errors),
    within5Percent: errors.filter((error) => error <= 0.05).length,
  };
}
