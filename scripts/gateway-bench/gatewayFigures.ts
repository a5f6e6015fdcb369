/**
 * The gateway bench's figures, computed from what it measured: latency per side, Redis round trips
 * per request (on the request path, and off it), state key sizes, the saturation point. Pure.
 * Percentiles are nearest-rank; "added" is the difference of two sides' percentiles.
 */
import { percentile } from '../../packages/core/src/replay/metrics/percentile.js';
import type { Sample } from './benchClient.js';
import type { SideCounters, SideName } from './benchSides.js';
import type { KeyFigures } from './redisMemory.js';
import type { SaturationLevel } from './saturation.js';

export interface Pair {
  readonly p50: number;
  readonly p99: number;
}

export interface SideLatency {
  readonly side: SideName;
  readonly requests: number;
  readonly errors: number;
  /** Statuses other than 200 and how many (0: no HTTP answer). */
  readonly statuses: Readonly<Record<string, number>>;
  readonly roundTrip: Pair;
  readonly toUpstream: Pair;
}

export interface SideRedis {
  readonly side: SideName;
  readonly requests: number;
  readonly counters: SideCounters;
}

/** A side's conversation keys (one per conversation) by `MEMORY USAGE` and stored snapshot. */
export interface StateKeys {
  readonly keys: number;
  readonly memoryMedian: number;
  readonly memoryMax: number;
  readonly snapshotMedian: number;
  readonly snapshotMax: number;
}

export interface SideMemory {
  readonly side: SideName;
  readonly state: StateKeys;
  /** The side's recall archive keys, and what they grew by (`MEMORY USAGE`) over the main phase. */
  readonly archiveKeys: number;
  readonly archiveBytes: number;
}

export interface MemoryFigures {
  readonly usedBefore: number;
  readonly usedAfter: number;
  /** Conversations of the main phase (per side). */
  readonly conversations: number;
  readonly sides: readonly SideMemory[];
}

export interface SaturationSide {
  readonly side: SideName;
  readonly levels: readonly SaturationLevel[];
}

const pair = (values: readonly number[]): Pair => ({
  p50: percentile(values, 50),
  p99: percentile(values, 99),
});

export function sideLatency(side: SideName, samples: readonly Sample[]): SideLatency {
  const own = samples.filter((sample) => sample.side === side);
  const ok = own.filter((sample) => sample.status === 200);
  const statuses: Record<string, number> = {};
  for (const sample of own)
    if (sample.status !== 200) statuses[sample.status] = (statuses[sample.status] ?? 0) + 1;
  return {
    side,
    requests: own.length,
    errors: own.length - ok.length,
    statuses,
    roundTrip: pair(ok.map((sample) => sample.roundTripMs)),
    toUpstream: pair(
      ok.flatMap((sample) => (sample.toUpstreamMs === undefined ? [] : [sample.toUpstreamMs])),
    ),
  };
}

export function stateKeys(keys: readonly KeyFigures[]): StateKeys {
  const memory = keys.map((key) => key.memory);
  const snapshot = keys.map((key) => key.snapshot);
  return {
    keys: keys.length,
    memoryMedian: percentile(memory, 50),
    memoryMax: Math.max(0, ...memory),
    snapshotMedian: percentile(snapshot, 50),
    snapshotMax: Math.max(0, ...snapshot),
  };
}

/** Round trips on a request's path: state loads and saves, token lookups, recall archive calls. */
export function onPathTrips(counters: SideCounters): number {
  return counters.stateTrips + counters.tokenLookups + counters.archiveTrips;
}

export function onPathPerRequest(redis: SideRedis): number {
  return redis.requests === 0 ? 0 : onPathTrips(redis.counters) / redis.requests;
}

/** Round trips off the request path: the dashboard counters pushed every 5 s, token renewals. */
export function offPathPerRequest(redis: SideRedis): number {
  const off = redis.counters.statsPushes + redis.counters.tokenRenewals;
  return redis.requests === 0 ? 0 : off / redis.requests;
}

/** The lowest level reaching 95% of the side's best throughput: where it saturates. */
export function saturationPoint(levels: readonly SaturationLevel[]): SaturationLevel | undefined {
  const best = Math.max(0, ...levels.map((level) => level.requestsPerSecond));
  return levels.find((level) => level.requestsPerSecond >= 0.95 * best);
}

export interface GatewayMeta {
  readonly date: string;
  readonly cores: number;
  readonly cpu: string;
  readonly node: string;
  readonly loadBefore: string;
  readonly loadAfter: string;
  readonly wallMs: number;
  readonly conversations: number;
  readonly turns: number;
  readonly turnTokens: number;
  readonly thinkMs: number;
  readonly replicas: number;
  /** Users whose tokens the `+tokens` sides send, one per conversation in turn. */
  readonly users: number;
  /** Every proxy's read cache (embedded and replicas alike). */
  readonly readCache: { readonly maxEntries: number; readonly maxChars: number };
  /** The main phase's conversations per replica of a sticky side. */
  readonly stickySpread: readonly number[];
  /** Median and largest history at the end, in tokens (body characters / 4). */
  readonly finalTokensMedian: number;
  readonly finalTokensMax: number;
  readonly mainWallMs: number;
  /** CPU time of the bench's process (every side, client and mock) over the main phase's wall time. */
  readonly mainCpuPercent: number;
  readonly leakedTokens: number;
}

export interface GatewayRun {
  readonly meta: GatewayMeta;
  /** A few conversations sent one at a time: each side's cost without queueing. */
  readonly solo: readonly SideLatency[];
  /** The main phase: every conversation at once. */
  readonly latency: readonly SideLatency[];
  readonly redis: readonly SideRedis[];
  readonly memory: MemoryFigures;
  readonly long: { readonly tokens: number; readonly key: KeyFigures } | undefined;
  readonly saturation: readonly SaturationSide[];
}
