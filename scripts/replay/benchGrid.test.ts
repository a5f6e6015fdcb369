import { describe, expect, it } from 'vitest';
import type { ReplayPolicyId, ReplaySessionReport } from '@dense/core';
import { gridMarkdown } from './benchGrid.js';
import type { BenchRun } from './benchTypes.js';

/** A run with only what the grid reads: cost, input, live content lost to density. */
function run(
  policy: ReplayPolicyId,
  limit: number | null,
  cost: number,
  input: number,
  lost = 0,
  recordedCompactions = 0,
): BenchRun {
  const report = {
    file: 's1.json',
    sessionIndex: 0,
    cumulativeInputTokens: input,
    cacheCost: { anthropic: { weightedTokens: cost } },
    liveLostTokensBy: { density: lost, compression: 0 },
  } as unknown as ReplaySessionReport;
  return {
    source: 'synthetic',
    policy,
    limit,
    report,
    series: [],
    overhead: [],
    liveLosses: [],
    staleReadsLeft: [],
    wallMs: 0,
    recordedCompactions,
  };
}

describe('bench: the window grid (--limits)', () => {
  it('#23.4 cost / input / live lost to density per policy and limit; bold marks the cheapest policy that loses no live content to density', () => {
    const grid = gridMarkdown(
      [
        run('none', null, 1000, 10_000),
        run('one-shot', 16_000, 800, 6_000),
        run('one-shot', 128_000, 990, 9_900),
        run('high-density', 16_000, 700, 5_000),
        run('high-density', 128_000, 890, 8_800),
        run('high-density+recency', 16_000, 600, 4_000, 120),
        run('high-density+recency', 128_000, 950, 8_000, 80),
      ],
      [16_000, 128_000],
    );
    const rows = grid.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows).toEqual([
      '| `one-shot` | 80.0% / 60.0% / 0 | 99.0% / 99.0% / 0 |',
      '| `high-density` | **70.0% / 50.0% / 0** | **89.0% / 88.0% / 0** |',
      '| `high-density+recency` | 60.0% / 40.0% / 120 | 95.0% / 80.0% / 80 |',
    ]);
    expect(grid).toContain('| policy | 16k | 128k |');
    expect(grid).toContain('Window grid, 1 session:');
  });

  it('#23.4 leaves out sessions that compacted themselves, as the main tables do', () => {
    const grid = gridMarkdown(
      [run('none', null, 1000, 10_000, 0, 2), run('high-density', 16_000, 700, 5_000, 0, 2)],
      [16_000],
    );
    expect(grid.split('\n').filter((line) => line.startsWith('| `'))).toEqual([]);
  });
  it('#35.3 a 1M limit is headed 1M, and the limitless `recorded` is no row (it is 100% of `none` on these sessions)', () => {
    const grid = gridMarkdown(
      [
        run('none', null, 1000, 10_000),
        run('recorded', null, 1000, 10_000),
        run('high-density', 1_000_000, 900, 9_000),
      ],
      [1_000_000],
    );
    expect(grid).toContain('| policy | 1M |');
    expect(grid.split('\n').filter((line) => line.startsWith('| `'))).toEqual([
      '| `high-density` | **90.0% / 90.0% / 0** |',
    ]);
  });
});
