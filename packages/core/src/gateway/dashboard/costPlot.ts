/**
 * The dashboard's plot as inline SVG: cumulative billed and pass-through prompt cost over the
 * series' buckets (the gap between the two areas is what density saved). Each bucket's cost is
 * drawn as a ramp across the bucket, flat between buckets with no requests. Pure; no script.
 */
import { escapeHtml, formatAmount, timeFormatter } from './dashboardFormat.js';

export interface CostPoint {
  /** Bucket start, ms since the epoch. */
  readonly start: number;
  readonly billedCost: number;
  readonly passThroughCost: number;
}

export interface CostPlotInput {
  readonly points: readonly CostPoint[];
  readonly bucketMs: number;
  /** IANA time zone of the axis labels. */
  readonly timeZone: string;
}

const WIDTH = 760;
const HEIGHT = 280;
const LEFT = 64;
const RIGHT = 16;
const TOP = 14;
const BOTTOM = 34;
const X_TICKS = 5;

/** The cumulative value after each bucket, as [time, value] corners of a ramp-and-flat line. */
function corners(input: CostPlotInput, cost: (point: CostPoint) => number): [number, number][] {
  const first = input.points[0]?.start ?? 0;
  const out: [number, number][] = [[first, 0]];
  let total = 0;
  for (const point of input.points) {
    out.push([point.start, total]);
    total += cost(point);
    out.push([point.start + input.bucketMs, total]);
  }
  return out;
}

/** A round step giving about four gridlines up to `max`. */
function niceStep(max: number): number {
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= rough) ?? 10;
  return step * power;
}

const round = (value: number): string => value.toFixed(1);

/** "15M" rather than "15.00M" on the axis. */
const tickText = (value: number): string => formatAmount(value).replace(/\.0+(?=[kMG]$)/, '');

/** The plot, or a one-line note when there is nothing to draw. */
export function costPlot(input: CostPlotInput): string {
  const { points } = input;
  const billed = corners(input, (p) => p.billedCost);
  const passThrough = corners(input, (p) => p.passThroughCost);
  const top = [...billed, ...passThrough].reduce((max, [, v]) => Math.max(max, v), 0);
  if (points.length === 0 || !(top > 0)) {
    return '<p class="empty">No priced requests in this window yet.</p>';
  }
  const t0 = billed[0]?.[0] ?? 0;
  const t1 = billed[billed.length - 1]?.[0] ?? t0 + input.bucketMs;
  const step = niceStep(top);
  const yMax = Math.ceil(top / step) * step;
  const x = (t: number) => LEFT + ((t - t0) / Math.max(1, t1 - t0)) * (WIDTH - LEFT - RIGHT);
  const y = (v: number) => TOP + (1 - v / yMax) * (HEIGHT - TOP - BOTTOM);
  const line = (corners: [number, number][]) =>
    corners.map(([t, v], i) => `${i === 0 ? 'M' : 'L'}${round(x(t))},${round(y(v))}`).join(' ');
  const area = (corners: [number, number][]) =>
    `${line(corners)} L${round(x(t1))},${round(y(0))} L${round(x(t0))},${round(y(0))} Z`;
  const grid: string[] = [];
  for (let v = 0; v <= yMax + step / 2; v += step) {
    grid.push(
      `<line class="grid" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${round(y(v))}" y2="${round(y(v))}"/>`,
      `<text class="tick" x="${LEFT - 6}" y="${round(y(v) + 4)}" text-anchor="end">${escapeHtml(tickText(v))}</text>`,
    );
  }
  const label = timeFormatter(input.timeZone, t1 - t0 > 20 * 3_600_000);
  for (let i = 0; i < X_TICKS; i++) {
    const t = t0 + ((t1 - t0) * i) / (X_TICKS - 1);
    const anchor = i === 0 ? 'start' : i === X_TICKS - 1 ? 'end' : 'middle';
    grid.push(
      `<text class="tick" x="${round(x(t))}" y="${HEIGHT - 12}" text-anchor="${anchor}">${escapeHtml(label(t))}</text>`,
    );
  }
  return [
    `<svg class="plot" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="plot-title">`,
    '<title id="plot-title">Cumulative prompt cost: billed and passed through unchanged</title>',
    ...grid,
    `<path class="area pass" d="${area(passThrough)}"/>`,
    `<path class="area billed" d="${area(billed)}"/>`,
    `<path class="line pass" d="${line(passThrough)}"/>`,
    `<path class="line billed" d="${line(billed)}"/>`,
    `<line class="axis" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${round(y(0))}" y2="${round(y(0))}"/>`,
    '</svg>',
  ].join('\n');
}
