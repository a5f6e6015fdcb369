import { describe, expect, it } from 'vitest';
import type { Sample } from './benchClient.js';
import { ZERO_COUNTERS, type SideCounters } from './benchSides.js';
import {
  offPathPerRequest,
  onPathPerRequest,
  saturationPoint,
  sideLatency,
} from './gatewayFigures.js';
import { GATEWAY_END, GATEWAY_START, replaceGatewaySection } from './gatewayReport.js';
import type { SaturationLevel } from './saturation.js';

const counters = (over: Partial<SideCounters>): SideCounters => ({ ...ZERO_COUNTERS, ...over });

const sample = (roundTripMs: number, status = 200): Sample => ({
  side: 'shared',
  bytes: 1,
  sentAt: 0,
  roundTripMs,
  toUpstreamMs: roundTripMs / 2,
  status,
});

describe('gateway bench report', () => {
  it('#36.7 Redis round trips per request: state, token lookups and recall archive calls on the request path, counter pushes and token renewals off it', () => {
    const side = {
      side: 'sticky+tokens' as const,
      requests: 100,
      counters: counters({
        ...{ stateTrips: 200, tokenLookups: 10, archiveTrips: 30 },
        ...{ statsPushes: 4, tokenRenewals: 3 },
      }),
    };
    expect(onPathPerRequest(side)).toBeCloseTo(2.4);
    expect(offPathPerRequest(side)).toBeCloseTo(0.07);
    expect(onPathPerRequest({ ...side, requests: 0 })).toBe(0);
    expect(offPathPerRequest({ ...side, requests: 0 })).toBe(0);
  });

  it('#36.7 latency percentiles leave failed requests out and count their statuses', () => {
    const samples = [sample(1), sample(2), sample(3), sample(400, 503), sample(5, 0)];
    const figures = sideLatency('shared', samples);
    expect(figures.requests).toBe(5);
    expect(figures.errors).toBe(2);
    expect(figures.statuses).toEqual({ '0': 1, '503': 1 });
    expect(figures.roundTrip).toEqual({ p50: 2, p99: 3 });
    expect(sideLatency('embedded', samples).requests).toBe(0);
  });

  it('#36.7 the saturation point is the lowest level within 95% of the best throughput', () => {
    const level = (concurrency: number, requestsPerSecond: number): SaturationLevel => ({
      concurrency,
      samples: [],
      errors: 0,
      requestsPerSecond,
    });
    const levels = [level(1, 20), level(2, 38), level(4, 49), level(8, 50), level(16, 47)];
    expect(saturationPoint(levels)?.concurrency).toBe(4);
    expect(saturationPoint([])).toBeUndefined();
  });

  it('#36.7 the docs section is inserted before the replay bench once, then replaced in place, nothing else touched', () => {
    const document =
      '# Benchmarks\n\nproxy figures\n\n<!-- replay-bench:start -->\nreplay\n<!-- replay-bench:end -->\n';
    const first = replaceGatewaySection(document, 'run one');
    expect(first).toContain(`proxy figures\n\n${GATEWAY_START}`);
    expect(first.indexOf(GATEWAY_END)).toBeLessThan(first.indexOf('<!-- replay-bench:start -->'));
    const second = replaceGatewaySection(first, 'run two');
    expect(second).toContain('run two');
    expect(second).not.toContain('run one');
    expect(second.split(GATEWAY_START)).toHaveLength(2);
    expect(
      second.replace(/<!-- gateway-bench:start -->[\s\S]*<!-- gateway-bench:end -->\n\n/, ''),
    ).toBe(document);
    expect(replaceGatewaySection('# Other\n', 'x').endsWith(`${GATEWAY_END}\n`)).toBe(true);
  });
});
