/** The bench's SVG charts: context tokens per model call of the longest session, per policy. Pure. */
import { renderLineChart, REPLAY_POLICY_IDS } from '@dense/core';
import { isLimitless, sessionKey, sessionName } from './benchAggregate.js';
import { BENCH_LIMITS, type BenchRun } from './benchTypes.js';

export interface Chart {
  readonly file: string;
  readonly svg: string;
}

export function benchCharts(runs: readonly BenchRun[]): Chart[] {
  const longest = runs
    .filter((run) => run.policy === 'none')
    .sort((a, b) => b.report.modelCalls - a.report.modelCalls)[0];
  if (longest === undefined) return [];
  const key = sessionKey(longest);
  return BENCH_LIMITS.map((limit, index) => {
    const series = REPLAY_POLICY_IDS.flatMap((policy) => {
      const run = runs.find(
        (r) =>
          sessionKey(r) === key &&
          r.policy === policy &&
          (isLimitless(policy) || r.limit === limit),
      );
      if (run === undefined) return [];
      return [
        { name: policy, points: run.series.map((tokens, call) => [call + 1, tokens] as const) },
      ];
    });
    return {
      file: index === 0 ? 'replay-context.svg' : `replay-context-${limit / 1000}k.svg`,
      svg: renderLineChart({
        title: `Context per model call, ${limit / 1000}k limit: ${sessionName(longest)}`,
        xLabel: 'model call',
        yLabel: 'context tokens',
        series,
        width: 960,
        height: 640,
      }),
    };
  });
}
