import { describe, expect, it } from 'vitest';
import { ZERO_COUNTERS, type SideCounters, type SideName } from './benchSides.js';
import type { GatewayRun, SideLatency, SideRedis } from './gatewayFigures.js';
import { gatewayMarkdown, targetLines } from './gatewayReport.js';
import { summaryTable } from './gatewayTables.js';

const latency = (side: SideName, p50: number, p99: number): SideLatency => ({
  side,
  requests: 100,
  errors: 0,
  statuses: {},
  roundTrip: { p50, p99 },
  toUpstream: { p50: p50 - 1, p99: p99 - 1 },
});

const redis = (side: SideName, over: Partial<SideCounters>): SideRedis => ({
  side,
  requests: 100,
  counters: { ...ZERO_COUNTERS, ...over },
});

const state = {
  keys: 100,
  memoryMedian: 10_240,
  memoryMax: 12_288,
  snapshotMedian: 9_000,
  snapshotMax: 9_500,
};

function run(): GatewayRun {
  return {
    meta: {
      ...{ date: '2026-12-02', cores: 2, cpu: 'CPU', node: 'v20', loadBefore: '1 1 1' },
      ...{ loadAfter: '1 1 1', wallMs: 1, conversations: 100, turns: 25, turnTokens: 8000 },
      ...{ thinkMs: 12_000, replicas: 3, users: 10, stickySpread: [33, 33, 34] },
      ...{ readCache: { maxEntries: 512, maxChars: 256 * 2 ** 20 }, finalTokensMedian: 200_000 },
      ...{ finalTokensMax: 210_000, mainWallMs: 1, mainCpuPercent: 50, leakedTokens: 0 },
    },
    solo: [
      latency('embedded', 20, 80),
      latency('shared', 30, 100),
      latency('shared+tokens', 31, 101),
      latency('sticky', 22, 85),
      latency('sticky+tokens', 22.5, 86),
    ],
    latency: [latency('embedded', 25, 90), latency('shared', 40, 120), latency('sticky', 26, 95)],
    redis: [
      redis('embedded', { archiveCalls: { write: 40 }, archivePutMs: [5, 9] }),
      redis('shared', { stateTrips: 200, archiveTrips: 30, statsPushes: 6 }),
      redis('sticky', { stateTrips: 200, tokenLookups: 0, statsPushes: 6 }),
    ],
    memory: {
      usedBefore: 0,
      usedAfter: 1,
      conversations: 100,
      sides: [
        { side: 'shared', state, archiveKeys: 201, archiveBytes: 100 * 1024 * 100 },
        { side: 'sticky', state, archiveKeys: 201, archiveBytes: 100 * 1024 * 100 },
      ],
    },
    long: undefined,
    saturation: [],
  };
}

describe('gateway bench tables', () => {
  it('#36.7 the summary gives each proxy side its added latency over A, round trips on and off the request path, and memory', () => {
    const table = summaryTable(run()).split('\n');
    const line = (label: string) => table.find((row) => row.startsWith(`| ${label}`)) ?? '';
    expect(line('A: one embedded')).toContain('(A: 20.0 ms / 80.0 ms)');
    expect(line('B round-robin: 3')).toContain('+10.0 ms / +20.0 ms');
    expect(line('B round-robin: 3')).toContain('2.30 / 0.06');
    expect(line('B round-robin: 3')).toContain('10.0 KB / 12.0 KB + 100.0 KB');
    expect(line('B sticky: 3')).toContain('+2.0 ms / +5.0 ms');
    expect(line('B sticky: 3')).toContain('+1.0 ms / +5.0 ms');
    expect(line('B sticky: 3')).toContain('2.00 / 0.06');
  });

  it('#36.7 the targets judge round trips on the request path and state the off-path pushes beside them', () => {
    const lines = targetLines(run());
    expect(
      lines.some(
        (l) => l.includes('B sticky: 3') && l.includes('on the request path **met** (2.00'),
      ),
    ).toBe(true);
    expect(
      lines.some((l) => l.includes('B round-robin: 3') && l.includes('**missed** by 0.30')),
    ).toBe(true);
    expect(lines.some((l) => l.includes('(0.06) 2.36 in all'))).toBe(true);
    const markdown = gatewayMarkdown(run());
    expect(markdown).toContain('512 entries, 256 Mi characters');
    expect(markdown).toContain('33 / 33 / 34 conversations per replica');
  });
});
