/**
 * Axis scales for charts: "nice" round tick values (1, 2 or 5 times a power of ten) covering a data
 * range, and compact labels for them (12k, 1.5M) so axes stay readable at any magnitude.
 */

/** A numeric axis: the extended domain the chart draws and the tick values inside it, ascending. */
export interface AxisScale {
  readonly min: number;
  readonly max: number;
  readonly ticks: readonly number[];
}

/** The largest magnitude an axis represents; bounds beyond it are clamped. */
export const MAX_AXIS_MAGNITUDE = 1e15;
const MIN_RELATIVE_SPAN = 1e-9;

/**
 * Round ticks covering `[min, max]` with about `targetCount` intervals. The returned domain is the
 * range widened outward to whole ticks. A degenerate range (min = max, or a span below a billionth
 * of the magnitude) is widened around its centre; non-finite bounds fall back to `[0, 1]`; bounds
 * are clamped to ±{@link MAX_AXIS_MAGNITUDE}.
 */
export function niceScale(min: number, max: number, targetCount = 5): AxisScale {
  let lo = Number.isFinite(min) ? clamp(min) : 0;
  let hi = Number.isFinite(max) ? clamp(max) : 1;
  if (lo > hi) [lo, hi] = [hi, lo];
  if (hi - lo < MIN_RELATIVE_SPAN * Math.max(1, Math.abs(lo), Math.abs(hi))) {
    const centre = (lo + hi) / 2;
    const pad = Math.abs(centre) < MIN_RELATIVE_SPAN ? 1 : Math.abs(centre) / 2;
    lo = centre - pad;
    hi = centre + pad;
  }
  const step = niceStep((hi - lo) / Math.max(1, Math.floor(targetCount)));
  let first = Math.floor(lo / step);
  let last = Math.ceil(hi / step);
  if (first * step > lo) first -= 1; // lo / step can underflow to -0
  if (last * step < hi) last += 1;
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  const ticks: number[] = [];
  for (let i = first; i <= last; i++) ticks.push(roundTo(i * step, decimals));
  return { min: ticks[0] ?? lo, max: ticks[ticks.length - 1] ?? hi, ticks };
}

function clamp(value: number): number {
  return Math.max(-MAX_AXIS_MAGNITUDE, Math.min(MAX_AXIS_MAGNITUDE, value));
}

function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

function roundTo(value: number, decimals: number): number {
  const rounded = Number(value.toFixed(Math.min(decimals, 20)));
  return Object.is(rounded, -0) ? 0 : rounded;
}

/** A short axis label: `950`, `1.5k`, `12k`, `2.25M`, `0.05`; at most three decimals, no trailing zeros. */
export function formatTick(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${trim(value / 1e9)}G`;
  if (abs >= 1e6) return `${trim(value / 1e6)}M`;
  if (abs >= 1e4 || (abs >= 1e3 && Number.isInteger(value / 100))) return `${trim(value / 1e3)}k`;
  return trim(value);
}

function trim(value: number): string {
  const text = value.toFixed(3).replace(/\.?0+$/, '');
  return text === '-0' ? '0' : text;
}
