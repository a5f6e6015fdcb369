/**
 * The gateway bench's tables, as markdown: the summary per side, latency, Redis round trips,
 * Redis memory, throughput by clients at once. Pure.
 */
import { percentile } from '../../packages/core/src/replay/metrics/percentile.js';
import type { SideName } from './benchSides.js';
import {
  offPathPerRequest,
  onPathPerRequest,
  onPathTrips,
  saturationPoint,
  type GatewayRun,
  type Pair,
  type SideLatency,
} from './gatewayFigures.js';

export const ms = (value: number) => `${value.toFixed(1)} ms`;
export const signedMs = (value: number) =>
  `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)} ms`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const int = (value: number) => Math.round(value).toLocaleString('en-US');
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const rule = (columns: number) =>
  row(Array.from({ length: columns }, (_, i) => (i === 0 ? '---' : '---:')));

export const SIDE_LABEL: Record<SideName, string> = {
  direct: 'pass-through (straight to the mock)',
  embedded: 'A: one embedded proxy (default)',
  shared: 'B round-robin: 3 replicas on Redis',
  'shared+tokens': 'B round-robin + tokens',
  sticky: 'B sticky: 3 replicas on Redis, by session id',
  'sticky+tokens': 'B sticky + tokens',
};

const outcomes = (counts: Readonly<Record<string, number>>) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, count]) => `${name} ${int(count)}`)
    .join(', ') || '—';

const isProxyOnRedis = (side: SideName) => side !== 'direct' && side !== 'embedded';

/** `side`'s percentiles minus A's, "p50 / p99". */
function addedOverA(
  latency: readonly SideLatency[],
  side: SideName,
  pick: (s: SideLatency) => Pair,
) {
  const embedded = latency.find((s) => s.side === 'embedded');
  const own = latency.find((s) => s.side === side);
  if (embedded === undefined || own === undefined) return '—';
  if (side === 'embedded') return `(A: ${ms(pick(own).p50)} / ${ms(pick(own).p99)})`;
  return `${signedMs(pick(own).p50 - pick(embedded).p50)} / ${signedMs(pick(own).p99 - pick(embedded).p99)}`;
}

export function latencyTable(latency: readonly SideLatency[]): string {
  const lines = [
    row([
      'side',
      'requests',
      'errors',
      'round trip p50 / p99',
      'to upstream p50 / p99',
      'added over A, round trip p50 / p99',
      'added over A, to upstream p50 / p99',
    ]),
    rule(7),
  ];
  for (const side of latency) {
    const over = (pick: (s: SideLatency) => Pair) =>
      isProxyOnRedis(side.side) ? addedOverA(latency, side.side, pick) : '—';
    lines.push(
      row([
        SIDE_LABEL[side.side],
        int(side.requests),
        side.errors === 0 ? '0' : `${int(side.errors)} (${outcomes(side.statuses)})`,
        `${ms(side.roundTrip.p50)} / ${ms(side.roundTrip.p99)}`,
        `${ms(side.toUpstream.p50)} / ${ms(side.toUpstream.p99)}`,
        over((s) => s.roundTrip),
        over((s) => s.toUpstream),
      ]),
    );
  }
  return lines.join('\n');
}

const timePair = (values: readonly number[]) =>
  `${ms(percentile(values, 50))} / ${ms(percentile(values, 99))}`;

export function redisTable(run: GatewayRun): string {
  const lines = [
    row([
      'side',
      'requests',
      'state (load + save)',
      'token lookups to Redis',
      'recall archive calls',
      'on the request path, per request',
      'counter pushes + token renewals',
      'off the path, per request',
      'loads',
      'saves',
      'load p50 / p99',
      'save p50 / p99',
      'reads: resumed / full',
    ]),
    rule(13),
  ];
  for (const side of run.redis) {
    const c = side.counters;
    const shared = isProxyOnRedis(side.side);
    lines.push(
      row([
        SIDE_LABEL[side.side],
        int(side.requests),
        int(c.stateTrips),
        int(c.tokenLookups),
        int(c.archiveTrips),
        `${onPathPerRequest(side).toFixed(2)} (${int(onPathTrips(c))})`,
        `${int(c.statsPushes)} + ${int(c.tokenRenewals)}`,
        offPathPerRequest(side).toFixed(2),
        shared ? outcomes(c.loads) : '—',
        shared ? outcomes(c.saves) : '—',
        shared ? timePair(c.loadMs) : '—',
        shared ? timePair(c.saveMs) : '—',
        `${int(c.resumedReads)} / ${int(c.fullReads)}`,
      ]),
    );
  }
  return lines.join('\n');
}

/** The recall archive's side of the requests: puts of originals, their times, calls by method. */
export function archiveTable(run: GatewayRun): string {
  const lines = [
    row([
      'side',
      'requests',
      'puts (requests with originals to keep)',
      'put p50 / p99',
      'calls by method',
      'Redis round trips per request',
    ]),
    rule(6),
  ];
  for (const side of run.redis) {
    const c = side.counters;
    const shared = isProxyOnRedis(side.side);
    lines.push(
      row([
        SIDE_LABEL[side.side],
        int(side.requests),
        int(c.archivePutMs.length),
        c.archivePutMs.length === 0 ? '—' : timePair(c.archivePutMs),
        `${outcomes(c.archiveCalls)}${shared ? '' : ' (files on disk)'}`,
        shared ? (c.archiveTrips / Math.max(1, side.requests)).toFixed(2) : '—',
      ]),
    );
  }
  return lines.join('\n');
}

export function memoryTable(run: GatewayRun): string {
  const { memory } = run;
  const perConversation = (bytes: number) => kb(bytes / Math.max(1, memory.conversations));
  const lines = [
    row([
      'side',
      'conversation keys',
      'state: MEMORY USAGE median / max',
      'state: stored snapshot (gzipped JSON) median / max',
      'recall archive keys',
      'recall originals per conversation (archive growth / conversations)',
    ]),
    rule(6),
    ...memory.sides.map((side) =>
      row([
        SIDE_LABEL[side.side],
        int(side.state.keys),
        `${kb(side.state.memoryMedian)} / ${kb(side.state.memoryMax)}`,
        `${kb(side.state.snapshotMedian)} / ${kb(side.state.snapshotMax)}`,
        int(side.archiveKeys),
        perConversation(side.archiveBytes),
      ]),
    ),
  ];
  if (run.long !== undefined) {
    lines.push(
      row([
        `one conversation at ~${int(run.long.tokens / 1000)}k tokens (B round-robin)`,
        '1',
        kb(run.long.key.memory),
        kb(run.long.key.snapshot),
        '—',
        '—',
      ]),
    );
  }
  return lines.join('\n');
}

export function saturationTable(run: GatewayRun): string {
  const levels = [
    ...new Set(run.saturation.flatMap((side) => side.levels.map((level) => level.concurrency))),
  ].sort((a, b) => a - b);
  const lines = [
    row(['clients at once', ...run.saturation.map((side) => SIDE_LABEL[side.side])]),
    rule(run.saturation.length + 1),
  ];
  for (const concurrency of levels) {
    lines.push(
      row([
        String(concurrency),
        ...run.saturation.map((side) => {
          const level = side.levels.find((l) => l.concurrency === concurrency);
          if (level === undefined) return '—';
          const times = level.samples.map((sample) => sample.roundTripMs);
          return `${level.requestsPerSecond.toFixed(1)} req/s, ${timePair(times)}, ${level.errors} errors`;
        }),
      ]),
    );
  }
  return lines.join('\n');
}

function bestThroughput(run: GatewayRun, side: SideName): string {
  const levels = run.saturation.find((s) => s.side === side)?.levels ?? [];
  const point = saturationPoint(levels);
  if (point === undefined) return '—';
  return `${point.requestsPerSecond.toFixed(1)} req/s at ${point.concurrency} clients`;
}

function memoryCell(run: GatewayRun, side: SideName): string {
  const memory = run.memory.sides.find((s) => s.side === side);
  if (memory === undefined) return side === 'embedded' ? 'in process (none on Redis)' : '—';
  const archive = memory.archiveBytes / Math.max(1, run.memory.conversations);
  return `${kb(memory.state.memoryMedian)} / ${kb(memory.state.memoryMax)} + ${kb(archive)}`;
}

/** One line per proxy side: what the issue asks, side by side. */
export function summaryTable(run: GatewayRun): string {
  const lines = [
    row([
      'side',
      'added over A, one conversation at a time: p50 / p99',
      `added over A, ${run.meta.conversations} conversations at once: p50 / p99`,
      'Redis round trips per request: on the path / off it',
      'Redis per conversation: state median / max + recall originals',
      'throughput (saturation)',
    ]),
    rule(6),
  ];
  for (const side of run.latency) {
    if (side.side === 'direct') continue;
    const redis = run.redis.find((r) => r.side === side.side);
    lines.push(
      row([
        SIDE_LABEL[side.side],
        addedOverA(run.solo, side.side, (s) => s.roundTrip),
        addedOverA(run.latency, side.side, (s) => s.roundTrip),
        redis === undefined || !isProxyOnRedis(side.side)
          ? '0 / 0'
          : `${onPathPerRequest(redis).toFixed(2)} / ${offPathPerRequest(redis).toFixed(2)}`,
        memoryCell(run, side.side),
        bestThroughput(run, side.side),
      ]),
    );
  }
  return lines.join('\n');
}
