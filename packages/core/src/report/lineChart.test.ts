import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { renderLineChart, type LineChartInput, type LineSeries } from './lineChart.js';
import { SERIES_COLOURS, SERIES_DASHES, seriesStyle } from './seriesStyles.js';
import { byClass, findAll, parseXml, type XmlElement } from './test-utils/parseXml.js';

const base: LineChartInput = {
  title: 'Context tokens per turn',
  xLabel: 'turn',
  yLabel: 'context tokens',
  series: [
    {
      name: 'middle-out',
      points: [
        [1, 1000],
        [2, 5000],
        [3, 12_000],
        [4, 23_000],
      ],
    },
    {
      name: 'high-density',
      points: [
        [1, 1000],
        [2, 3000],
        [3, 6000],
        [4, 9000],
      ],
    },
  ],
};

function render(input: Partial<LineChartInput> = {}): { svg: string; root: XmlElement } {
  const svg = renderLineChart({ ...base, ...input });
  return { svg, root: parseXml(svg) };
}

function polylinePoints(el: XmlElement): [number, number][] {
  return (el.attrs.points ?? '')
    .split(' ')
    .map((pair) => pair.split(',').map(Number) as [number, number]);
}

const ok = (v: number): boolean => Number.isFinite(v) && Math.abs(v) <= 1e15;

function polylines(root: XmlElement): XmlElement[] {
  return findAll(root, (el) => el.name === 'polyline');
}

describe('renderLineChart', () => {
  it('renders a standalone, well-formed SVG document with the requested size', () => {
    const { root } = render({ width: 640, height: 360 });
    expect(root.name).toBe('svg');
    expect(root.attrs.xmlns).toBe('http://www.w3.org/2000/svg');
    expect(root.attrs.width).toBe('640');
    expect(root.attrs.height).toBe('360');
    expect(root.attrs.viewBox).toBe('0 0 640 360');
    expect(findAll(root, (el) => el.name === 'title')[0]?.text).toBe('Context tokens per turn');
  });

  it('labels both axes with round ticks; the y axis starts at zero and covers the maximum', () => {
    const { root } = render();
    const yTicks = byClass(root, 'y-tick').map((t) => t.text);
    expect(yTicks[0]).toBe('0');
    expect(yTicks).toContain('10k');
    expect(yTicks[yTicks.length - 1]).toBe('25k');
    const xTicks = byClass(root, 'x-tick').map((t) => Number(t.text));
    expect(xTicks[0]).toBeLessThanOrEqual(1);
    expect(xTicks[xTicks.length - 1]).toBeGreaterThanOrEqual(4);
    expect(byClass(root, 'x-label')[0]?.text).toBe('turn');
    expect(byClass(root, 'y-label')[0]?.text).toBe('context tokens');
  });

  it('places tick labels in order along their axes', () => {
    const { root } = render();
    const xs = byClass(root, 'x-tick').map((t) => Number(t.attrs.x));
    const ys = byClass(root, 'y-tick').map((t) => Number(t.attrs.y));
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    expect([...ys].sort((a, b) => b - a)).toEqual(ys);
  });

  it('draws one line per series, higher values higher on the page', () => {
    const { root } = render();
    const lines = polylines(root);
    expect(lines).toHaveLength(2);
    const [mo, hd] = lines.map(polylinePoints);
    expect(mo).toHaveLength(4);
    expect(mo![3]![1]).toBeLessThan(hd![3]![1]);
    expect(mo![0]![0]).toBeLessThan(mo![3]![0]);
  });

  it('has a legend naming every series in order with the same stroke as its line', () => {
    const { root } = render();
    const legend = byClass(root, 'legend')[0]!;
    expect(byClass(legend, 'legend-name').map((t) => t.text)).toEqual([
      'middle-out',
      'high-density',
    ]);
    const samples = findAll(legend, (el) => el.name === 'line');
    polylines(root).forEach((line, i) => {
      expect(samples[i]?.attrs.stroke).toBe(line.attrs.stroke);
      expect(samples[i]?.attrs['stroke-dasharray']).toBe(line.attrs['stroke-dasharray']);
    });
  });

  it('tells series apart by dash pattern as well as colour, so it reads in greyscale', () => {
    const series: LineSeries[] = SERIES_DASHES.map((_, i) => ({
      name: `s${i}`,
      points: [
        [0, i],
        [1, i + 1],
      ],
    }));
    const { root } = render({ series });
    const dashes = polylines(root).map((l) => l.attrs['stroke-dasharray'] ?? 'solid');
    expect(new Set(dashes).size).toBe(SERIES_DASHES.length);
    const combos = new Set(
      Array.from({ length: SERIES_COLOURS.length * SERIES_DASHES.length }, (_, i) => {
        const s = seriesStyle(i);
        return `${s.colour}/${s.dash}`;
      }),
    );
    expect(combos.size).toBe(SERIES_COLOURS.length * SERIES_DASHES.length);
  });

  it('escapes markup in the title, axis labels and series names', () => {
    const nasty = `<script>alert("x")</script> & 'quotes'`;
    const { svg, root } = render({
      title: nasty,
      xLabel: `x ${nasty}`,
      yLabel: `y ${nasty}`,
      series: [
        {
          name: nasty,
          points: [
            [0, 1],
            [1, 2],
          ],
        },
      ],
    });
    expect(svg).not.toContain('<script');
    expect(root.attrs['aria-label']).toBe(nasty);
    expect(byClass(root, 'title')[0]?.text).toBe(nasty);
    expect(byClass(root, 'x-label')[0]?.text).toBe(`x ${nasty}`);
    expect(byClass(root, 'y-label')[0]?.text).toBe(`y ${nasty}`);
    expect(byClass(root, 'legend-name')[0]?.text).toBe(nasty);
  });

  it('shortens long legend names with an ellipsis and keeps the full name as a tooltip', () => {
    const name = 'high-density with recency pruning and a very long explanatory suffix';
    const { root } = render({
      series: [
        {
          name,
          points: [
            [0, 1],
            [1, 2],
          ],
        },
      ],
    });
    const label = byClass(root, 'legend-name')[0]!;
    expect(label.text.endsWith('…')).toBe(true);
    expect(label.text.length).toBeLessThan(name.length);
    expect(label.children[0]?.text).toBe(name);
  });

  it('draws axes and a "no data" note when there are no series', () => {
    const { root } = render({ series: [] });
    expect(byClass(root, 'no-data')).toHaveLength(1);
    expect(byClass(root, 'legend')).toHaveLength(0);
    expect(byClass(root, 'y-tick').length).toBeGreaterThanOrEqual(2);
    expect(byClass(root, 'x-tick').length).toBeGreaterThanOrEqual(2);
  });

  it('keeps an empty series in the legend but draws nothing for it', () => {
    const { root } = render({ series: [{ name: 'empty', points: [] }] });
    expect(byClass(root, 'no-data')).toHaveLength(1);
    expect(byClass(root, 'legend-name').map((t) => t.text)).toEqual(['empty']);
    expect(byClass(root, 'series')).toHaveLength(0);
  });

  it('draws a single point as a dot and a constant series without NaN', () => {
    const { svg, root } = render({
      series: [
        { name: 'one', points: [[5, 5]] },
        {
          name: 'flat',
          points: [
            [5, 5],
            [5, 5],
          ],
        },
      ],
    });
    expect(findAll(root, (el) => el.name === 'circle')).toHaveLength(1);
    expect(polylines(root)).toHaveLength(1);
    expect(svg).not.toMatch(/NaN|Infinity/);
  });

  it('skips non-finite points and draws points in x order', () => {
    const { root } = render({
      series: [
        {
          name: 'messy',
          points: [
            [3, 30],
            [Number.NaN, 1],
            [1, 10],
            [2, Number.POSITIVE_INFINITY],
            [2, 20],
          ],
        },
      ],
    });
    const pts = polylinePoints(polylines(root)[0]!);
    expect(pts).toHaveLength(3);
    expect(pts.map((p) => p[0])).toEqual([...pts.map((p) => p[0])].sort((a, b) => a - b));
  });

  it('grows the height so every legend row fits', () => {
    const series = Array.from({ length: 30 }, (_, i) => ({ name: `s${i}`, points: [] }));
    const { root } = render({ series, height: 200 });
    const rows = byClass(root, 'legend-name').map((t) => Number(t.attrs.y));
    expect(Math.max(...rows)).toBeLessThan(Number(root.attrs.height));
  });

  it('draws labelled guide lines and stretches the y axis to include them', () => {
    const { root } = render({
      guides: [
        { y: 40_000, label: 'context limit <40k>' },
        { y: Number.NaN, label: 'ignored' },
      ],
    });
    const guides = byClass(root, 'guide');
    expect(guides).toHaveLength(1);
    expect(byClass(root, 'guide-label')[0]?.text).toBe('context limit <40k>');
    const yTicks = byClass(root, 'y-tick').map((t) => t.text);
    expect(yTicks[yTicks.length - 1]).toBe('40k');
    const guideY = Number(findAll(guides[0]!, (el) => el.name === 'line')[0]?.attrs.y1);
    const topTickY = Number(byClass(root, 'y-tick').at(-1)?.attrs.y) - 4;
    expect(guideY).toBeCloseTo(topTickY, 0);
  });

  it('is deterministic', () => {
    expect(renderLineChart(base)).toBe(renderLineChart(base));
  });

  const point = fc.tuple(
    fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ noDefaultInfinity: false })),
    fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.double()),
  );
  const seriesArb = fc.array(
    fc.record({
      name: fc.string({ unit: 'binary', maxLength: 60 }),
      points: fc.array(point, { maxLength: 30 }),
    }),
    { maxLength: 10 },
  );

  test.prop([seriesArb, fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 2000 })], {
    numRuns: 150,
  })('any input renders a well-formed SVG whose lines stay inside the canvas', (series, w, h) => {
    const svg = renderLineChart({ ...base, series, width: w, height: h });
    const root = parseXml(svg);
    expect(svg).not.toMatch(/NaN|Infinity/);
    const width = Number(root.attrs.width);
    const height = Number(root.attrs.height);
    const drawable = series.filter((s) => s.points.filter(([x, y]) => ok(x) && ok(y)).length >= 2);
    expect(polylines(root)).toHaveLength(drawable.length);
    for (const line of polylines(root)) {
      for (const [x, y] of polylinePoints(line)) {
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(width);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThanOrEqual(height);
      }
    }
  });
});
