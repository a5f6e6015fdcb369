/**
 * A dependency-free SVG line chart: one line per series over shared numeric axes with round tick
 * labels, a legend, and series told apart by dash pattern as well as colour (readable in greyscale).
 * Pure: the same input always renders the same string.
 */
import { MAX_AXIS_MAGNITUDE, formatTick, niceScale, type AxisScale } from './niceTicks.js';
import { seriesStyle } from './seriesStyles.js';
import { escapeXml } from './svgText.js';

/** One line of the chart. Points are `[x, y]`; non-finite points and those beyond ±1e15 are skipped. */
export interface LineSeries {
  readonly name: string;
  readonly points: readonly (readonly [number, number])[];
}

/** A horizontal reference line at `y`, labelled at its right end. */
export interface ChartGuide {
  readonly y: number;
  readonly label: string;
}

/**
 * What to draw. `width`/`height` are in pixels (defaults 800×450; at least 320×200, and tall enough
 * for one legend row per series).
 */
export interface LineChartInput {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly LineSeries[];
  /** Horizontal reference lines (a context limit, a threshold): thin, grey, labelled; in the y range. */
  readonly guides?: readonly ChartGuide[];
  readonly width?: number;
  readonly height?: number;
}

const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"';
const CHAR_WIDTH = 6.8;
const LEGEND_ROW = 20;
const LEGEND_SAMPLE = 30;
const MAX_LEGEND_CHARS = 40;

interface Frame {
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly x: AxisScale;
  readonly y: AxisScale;
}

/**
 * The chart as a standalone SVG document. The y axis always includes zero; points of a series are
 * drawn in ascending x order; a series with a single point is drawn as a dot; with no finite point
 * at all the axes are drawn around a "no data" note. All text is XML-escaped.
 */
export function renderLineChart(input: LineChartInput): string {
  const series = input.series.map((s) => ({ name: s.name, points: cleanPoints(s.points) }));
  const frame = layout(input, series);
  const hasData = series.some((s) => s.points.length > 0);
  const width = frame.width;
  const height = frame.height;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(input.title)}">`,
    `<title>${escapeXml(input.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text class="title" x="${fmt(width / 2)}" y="24" text-anchor="middle" font-size="16" font-weight="bold" ${FONT} fill="#222222">${escapeXml(input.title)}</text>`,
    ...renderAxes(frame, input.xLabel, input.yLabel),
    ...renderGuides(frame, guidesOf(input)),
    ...series.flatMap((s, i) => renderSeries(frame, s, i)),
    ...(hasData ? [] : [renderNoData(frame)]),
    ...renderLegend(frame, series),
    '</svg>',
    '',
  ].join('\n');
}

function cleanPoints(
  points: readonly (readonly [number, number])[],
): (readonly [number, number])[] {
  return points
    .filter(([x, y]) => inRange(x) && inRange(y))
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p[0] - b.p[0] || a.i - b.i)
    .map(({ p }) => p);
}

function guidesOf(input: LineChartInput): readonly ChartGuide[] {
  return (input.guides ?? []).filter((g) => inRange(g.y));
}

function renderGuides(frame: Frame, guides: readonly ChartGuide[]): string[] {
  return guides.flatMap((g) => {
    const y = fmt(py(frame, g.y));
    return [
      `<g class="guide"><line x1="${frame.left}" x2="${fmt(frame.right)}" y1="${y}" y2="${y}" stroke="#888888" stroke-width="1" stroke-dasharray="3 3"/>`,
      `<text class="guide-label" x="${fmt(frame.right - 4)}" y="${fmt(py(frame, g.y) - 5)}" text-anchor="end" font-size="11" ${FONT} fill="#666666">${escapeXml(g.label)}</text></g>`,
    ];
  });
}

function inRange(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value) <= MAX_AXIS_MAGNITUDE;
}

function layout(input: LineChartInput, series: readonly LineSeries[]): Frame {
  const width = Math.round(Math.max(320, finiteOr(input.width, 800)));
  const legendHeight = 44 + 8 + series.length * LEGEND_ROW + 56;
  const height = Math.round(Math.max(200, legendHeight, finiteOr(input.height, 450)));
  const longest = Math.max(0, ...series.map((s) => legendName(s.name).length));
  const legendWidth = series.length === 0 ? 0 : LEGEND_SAMPLE + 16 + longest * CHAR_WIDTH;
  const left = 78;
  const top = 44;
  const right = width - 20 - Math.min(legendWidth, width * 0.4);
  const bottom = height - 56;
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = [
    ...series.flatMap((s) => s.points.map((p) => p[1])),
    ...guidesOf(input).map((g) => g.y),
  ];
  const x =
    xs.length === 0
      ? niceScale(0, 1)
      : niceScale(Math.min(...xs), Math.max(...xs), tickCount(right - left, 90));
  const y = niceScale(Math.min(0, ...ys), Math.max(0, ...ys), tickCount(bottom - top, 50));
  return { width, height, left, top, right, bottom, x, y };
}

function finiteOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) ? value : fallback;
}

function tickCount(pixels: number, spacing: number): number {
  return Math.max(2, Math.min(10, Math.floor(pixels / spacing)));
}

function px(frame: Frame, x: number): number {
  const span = frame.x.max - frame.x.min;
  return frame.left + ((x - frame.x.min) / span) * (frame.right - frame.left);
}

function py(frame: Frame, y: number): number {
  const span = frame.y.max - frame.y.min;
  return frame.bottom - ((y - frame.y.min) / span) * (frame.bottom - frame.top);
}

function renderAxes(frame: Frame, xLabel: string, yLabel: string): string[] {
  const { left, right, top, bottom } = frame;
  const lines: string[] = ['<g class="grid" stroke="#e3e3e3" stroke-width="1">'];
  for (const t of frame.y.ticks)
    lines.push(
      `<line x1="${left}" x2="${fmt(right)}" y1="${fmt(py(frame, t))}" y2="${fmt(py(frame, t))}"/>`,
    );
  lines.push('</g>', `<g class="axis" stroke="#444444" stroke-width="1">`);
  lines.push(`<line x1="${left}" x2="${left}" y1="${top}" y2="${bottom}"/>`);
  lines.push(`<line x1="${left}" x2="${fmt(right)}" y1="${bottom}" y2="${bottom}"/>`);
  for (const t of frame.x.ticks)
    lines.push(
      `<line x1="${fmt(px(frame, t))}" x2="${fmt(px(frame, t))}" y1="${bottom}" y2="${bottom + 5}"/>`,
    );
  for (const t of frame.y.ticks)
    lines.push(
      `<line x1="${left - 5}" x2="${left}" y1="${fmt(py(frame, t))}" y2="${fmt(py(frame, t))}"/>`,
    );
  lines.push('</g>', `<g class="ticks" font-size="12" ${FONT} fill="#333333">`);
  for (const t of frame.x.ticks)
    lines.push(
      `<text class="x-tick" x="${fmt(px(frame, t))}" y="${bottom + 19}" text-anchor="middle">${formatTick(t)}</text>`,
    );
  for (const t of frame.y.ticks)
    lines.push(
      `<text class="y-tick" x="${left - 9}" y="${fmt(py(frame, t) + 4)}" text-anchor="end">${formatTick(t)}</text>`,
    );
  lines.push('</g>');
  const midX = fmt((left + right) / 2);
  const midY = fmt((top + bottom) / 2);
  lines.push(
    `<text class="x-label" x="${midX}" y="${bottom + 42}" text-anchor="middle" font-size="13" ${FONT} fill="#222222">${escapeXml(xLabel)}</text>`,
  );
  lines.push(
    `<text class="y-label" x="18" y="${midY}" text-anchor="middle" font-size="13" ${FONT} fill="#222222" transform="rotate(-90 18 ${midY})">${escapeXml(yLabel)}</text>`,
  );
  return lines;
}

function renderSeries(frame: Frame, series: LineSeries, index: number): string[] {
  if (series.points.length === 0) return [];
  const { colour, dash } = seriesStyle(index);
  const open = `<g class="series" data-index="${index}"><title>${escapeXml(series.name)}</title>`;
  const coords = series.points.map(([x, y]) => `${fmt(px(frame, x))},${fmt(py(frame, y))}`);
  if (coords.length === 1) {
    const [cx, cy] = (coords[0] ?? '0,0').split(',');
    return [open, `<circle cx="${cx}" cy="${cy}" r="3.5" fill="${colour}"/>`, '</g>'];
  }
  const dashAttr = dash === '' ? '' : ` stroke-dasharray="${dash}"`;
  return [
    open,
    `<polyline fill="none" stroke="${colour}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"${dashAttr} points="${coords.join(' ')}"/>`,
    '</g>',
  ];
}

function renderNoData(frame: Frame): string {
  const x = fmt((frame.left + frame.right) / 2);
  const y = fmt((frame.top + frame.bottom) / 2);
  return `<text class="no-data" x="${x}" y="${y}" text-anchor="middle" font-size="14" ${FONT} fill="#777777">no data</text>`;
}

function renderLegend(frame: Frame, series: readonly LineSeries[]): string[] {
  if (series.length === 0) return [];
  const x0 = frame.right + 16;
  const lines = [`<g class="legend" font-size="12" ${FONT} fill="#222222">`];
  series.forEach((s, i) => {
    const { colour, dash } = seriesStyle(i);
    const y = frame.top + 8 + i * LEGEND_ROW;
    const dashAttr = dash === '' ? '' : ` stroke-dasharray="${dash}"`;
    lines.push(
      `<line x1="${fmt(x0)}" x2="${fmt(x0 + LEGEND_SAMPLE)}" y1="${y}" y2="${y}" stroke="${colour}" stroke-width="2.5"${dashAttr}/>`,
      `<text class="legend-name" x="${fmt(x0 + LEGEND_SAMPLE + 8)}" y="${y + 4}">${escapeXml(legendName(s.name))}<title>${escapeXml(s.name)}</title></text>`,
    );
  });
  lines.push('</g>');
  return lines;
}

function legendName(name: string): string {
  const chars = Array.from(name);
  return chars.length <= MAX_LEGEND_CHARS
    ? name
    : `${chars.slice(0, MAX_LEGEND_CHARS - 1).join('')}…`;
}

/** A coordinate with at most one decimal, no trailing `.0`. */
function fmt(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}
