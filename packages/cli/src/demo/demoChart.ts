/** The demo's chart: context tokens per turn, one line per strategy, via core's SVG line chart. */
import { renderLineChart } from '@dense/core';
import { formatCount } from './formatCount.js';
import type { DemoRun } from './runDemoSession.js';

export const DEMO_CHART_FILE = 'dense-demo-context-tokens.svg';

/** The SVG text of the chart for `runs`, with the context limit and the compression threshold as guides. */
export function renderDemoChart(
  runs: readonly DemoRun[],
  contextLimit: number,
  threshold: number,
): string {
  const compressAt = Math.round(contextLimit * threshold);
  return renderLineChart({
    title: `dense demo: context tokens per turn (context limit ${formatCount(contextLimit)})`,
    xLabel: 'turn',
    yLabel: 'context tokens sent to the model',
    width: 900,
    height: 480,
    series: runs.map((run) => ({
      name: run.variant.label,
      points: run.contextTokens.map((tokens, i) => [i + 1, tokens] as const),
    })),
    guides: [
      { y: contextLimit, label: `context limit ${formatCount(contextLimit)}` },
      { y: compressAt, label: `compression threshold ${formatCount(compressAt)}` },
    ],
  });
}
