/**
 * The gateway bench's figures and how they are printed: latency per side and added over the
 * embedded proxy, Redis round trips per request, Redis memory per conversation, throughput by
 * concurrency, the issue's targets met or missed, and the marked section of docs/benchmarks.md.
 * Pure. Percentiles are nearest-rank; "added" is the difference of two sides' percentiles.
 */
import { percentile } from '../../packages/core/src/replay/metrics/percentile.js';
import type { Sample } from './benchClient.js';
import type { SideCounters, SideName } from './benchSides.js';
import type { KeyFigures } from './redisMemory.js';
import type { SaturationLevel } from './saturation.js';

export const GATEWAY_START = '<!-- gateway-bench:start -->';
export const GATEWAY_END = '<!-- gateway-bench:end -->';
/** The section goes before this one when it is not in the document yet. */
const BEFORE = '<!-- replay-bench:start -->';

export const TARGETS = {
  addedP50Ms: 3,
  roundTripsPerRequest: 2,
  stateBytesPerConversation: 64 * 1024,
} as const;

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

export interface KeySummary {
  readonly label: string;
  readonly keys: number;
  readonly memoryMedian: number;
  readonly memoryMax: number;
  readonly snapshotMedian: number;
  readonly snapshotMax: number;
}

export interface MemoryFigures {
  readonly usedBefore: number;
  readonly usedAfter: number;
  /** Conversation keys the difference is divided by. */
  readonly conversations: number;
  readonly groups: readonly KeySummary[];
}

export interface SaturationSide {
  readonly side: SideName;
  readonly levels: readonly SaturationLevel[];
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

export function keySummary(label: string, keys: readonly KeyFigures[]): KeySummary {
  return {
    label,
    keys: keys.length,
    memoryMedian: percentile(
      keys.map((key) => key.memory),
      50,
    ),
    memoryMax: Math.max(0, ...keys.map((key) => key.memory)),
    snapshotMedian: percentile(
      keys.map((key) => key.snapshot),
      50,
    ),
    snapshotMax: Math.max(0, ...keys.map((key) => key.snapshot)),
  };
}

/** Redis round trips of a side per request: state loads and saves, token lookups, pushes. */
export function tripsPerRequest(redis: SideRedis): number {
  const { stateTrips, tokenLookups, statsPushes } = redis.counters;
  return redis.requests === 0 ? 0 : (stateTrips + tokenLookups + statsPushes) / redis.requests;
}

/** The lowest level reaching 95% of the side's best throughput: where it saturates. */
export function saturationPoint(levels: readonly SaturationLevel[]): SaturationLevel | undefined {
  const best = Math.max(0, ...levels.map((level) => level.requestsPerSecond));
  return levels.find((level) => level.requestsPerSecond >= 0.95 * best);
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const signedMs = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const int = (value: number) => Math.round(value).toLocaleString('en-US');
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const rule = (columns: number) =>
  row(Array.from({ length: columns }, (_, i) => (i === 0 ? '---' : '---:')));

const SIDE_LABEL: Record<SideName, string> = {
  direct: 'pass-through (straight to the mock)',
  embedded: 'A: one embedded proxy (default)',
  shared: 'B: 3 replicas on Redis, round-robin',
  'shared+tokens': 'B + tokens: 3 replicas, each request with `x-dense-token`',
};

const outcomes = (counts: Readonly<Record<string, number>>) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, count]) => `${name} ${int(count)}`)
    .join(', ') || '—';

function latencyTable(latency: readonly SideLatency[]): string {
  const embedded = latency.find((side) => side.side === 'embedded');
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
      embedded === undefined || side.side === 'direct' || side.side === 'embedded'
        ? '—'
        : `${signedMs(pick(side).p50 - pick(embedded).p50)} / ${signedMs(pick(side).p99 - pick(embedded).p99)}`;
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

function redisTable(run: GatewayRun): string {
  const lines = [
    row([
      'side',
      'requests',
      'state round trips (load + save)',
      'token lookups',
      'counter pushes',
      'Redis round trips per request',
      'loads',
      'saves',
      'load p50 / p99',
      'save p50 / p99',
      'reads: resumed / full',
    ]),
    rule(11),
  ];
  for (const side of run.redis) {
    const c = side.counters;
    const shared = side.side !== 'embedded';
    lines.push(
      row([
        SIDE_LABEL[side.side],
        int(side.requests),
        int(c.stateTrips),
        int(c.tokenLookups),
        int(c.statsPushes),
        tripsPerRequest(side).toFixed(2),
        shared ? outcomes(c.loads) : '—',
        shared ? outcomes(c.saves) : '—',
        shared ? `${ms(percentile(c.loadMs, 50))} / ${ms(percentile(c.loadMs, 99))}` : '—',
        shared ? `${ms(percentile(c.saveMs, 50))} / ${ms(percentile(c.saveMs, 99))}` : '—',
        `${int(c.resumedReads)} / ${int(c.fullReads)}`,
      ]),
    );
  }
  return lines.join('\n');
}

function memoryLines(run: GatewayRun): string {
  const { memory } = run;
  const perConversation =
    (memory.usedAfter - memory.usedBefore) / Math.max(1, memory.conversations);
  const lines = [
    `Redis \`used_memory\` ${kb(memory.usedBefore)} before the conversations, ${kb(memory.usedAfter)} after: ${kb(perConversation)} per conversation (${memory.conversations} conversation keys; the difference also holds the dashboard's counters).`,
    '',
    row([
      'conversation keys',
      'keys',
      'MEMORY USAGE median / max',
      'stored snapshot (gzipped JSON) median / max',
    ]),
    rule(4),
    ...memory.groups.map((group) =>
      row([
        group.label,
        int(group.keys),
        `${kb(group.memoryMedian)} / ${kb(group.memoryMax)}`,
        `${kb(group.snapshotMedian)} / ${kb(group.snapshotMax)}`,
      ]),
    ),
  ];
  if (run.long !== undefined) {
    lines.push(
      row([
        `one conversation at ~${int(run.long.tokens / 1000)}k tokens (B)`,
        '1',
        kb(run.long.key.memory),
        kb(run.long.key.snapshot),
      ]),
    );
  }
  return lines.join('\n');
}

function saturationTable(run: GatewayRun): string {
  const levels = [
    ...new Set(run.saturation.flatMap((side) => side.levels.map((level) => level.concurrency))),
  ].sort((a, b) => a - b);
  const lines = [
    row([
      'clients at once',
      ...run.saturation.map((side) => `${SIDE_LABEL[side.side]}: req/s, p50 / p99, errors`),
    ]),
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
          return `${level.requestsPerSecond.toFixed(1)}, ${ms(percentile(times, 50))} / ${ms(percentile(times, 99))}, ${level.errors}`;
        }),
      ]),
    );
  }
  return lines.join('\n');
}

function verdict(value: number, target: number, unit: (v: number) => string): string {
  return value <= target
    ? `**met** (${unit(value)} ≤ ${unit(target)})`
    : `**missed** by ${unit(value - target)} (${unit(value)} > ${unit(target)})`;
}

/** True when A itself queues at the main phase's load (its p50 ten times its p50 alone, or errors). */
export function embeddedSaturated(run: GatewayRun): boolean {
  const loaded = run.latency.find((side) => side.side === 'embedded');
  const alone = run.solo.find((side) => side.side === 'embedded');
  if (loaded === undefined || alone === undefined) return false;
  return loaded.errors > 0 || loaded.roundTrip.p50 > 10 * alone.roundTrip.p50;
}

function addedLine(latency: readonly SideLatency[], name: SideName, where: string): string {
  const embedded = latency.find((side) => side.side === 'embedded');
  const side = latency.find((s) => s.side === name);
  if (side === undefined || embedded === undefined) return '';
  const added = side.roundTrip.p50 - embedded.roundTrip.p50;
  const p99 = side.roundTrip.p99 - embedded.roundTrip.p99;
  return `- Added latency p50 ≤ ${TARGETS.addedP50Ms} ms over the embedded proxy, ${where}, ${SIDE_LABEL[name]}: ${verdict(added, TARGETS.addedP50Ms, (v) => `${v.toFixed(1)} ms`)}; p99 ${signedMs(p99)} (${ms(side.roundTrip.p99)} vs ${ms(embedded.roundTrip.p99)}).`;
}

export function targetLines(run: GatewayRun): string[] {
  const lines: string[] = [];
  const conversations = `at ${run.meta.conversations} conversations at once`;
  if (embeddedSaturated(run)) {
    const loaded = run.latency.find((side) => side.side === 'embedded');
    const alone = run.solo.find((side) => side.side === 'embedded');
    lines.push(
      `- Added latency ${conversations}: **not judged in this run**: A itself saturated (its p50 ${ms(loaded?.roundTrip.p50 ?? 0)} against ${ms(alone?.roundTrip.p50 ?? 0)} alone, ${loaded?.errors ?? 0} refused or unanswered), so B − A there measures capacity (3 threads against 1), not what sharing adds.`,
    );
  } else {
    for (const name of ['shared', 'shared+tokens'] as const)
      lines.push(addedLine(run.latency, name, conversations));
  }
  for (const name of ['shared', 'shared+tokens'] as const)
    lines.push(addedLine(run.solo, name, 'one conversation at a time (no queueing)'));
  for (const side of run.redis) {
    if (side.side === 'embedded') continue;
    lines.push(
      `- ≤ ${TARGETS.roundTripsPerRequest} Redis round trips per request, ${SIDE_LABEL[side.side]}: ${verdict(tripsPerRequest(side), TARGETS.roundTripsPerRequest, (v) => v.toFixed(2))}.`,
    );
  }
  const largest = Math.max(
    0,
    ...run.memory.groups.map((group) => group.memoryMax),
    run.long?.key.memory ?? 0,
  );
  lines.push(
    `- Shared state ≤ 64 KB per conversation (largest key, \`MEMORY USAGE\`): ${verdict(largest, TARGETS.stateBytesPerConversation, kb)}.`,
  );
  return lines;
}

function machine(meta: GatewayMeta): string {
  return `${meta.cpu}, ${meta.cores} cores (nproc), Node ${meta.node}`;
}

/** Everything the bench prints, as markdown (also the docs section's body). */
export function gatewayMarkdown(run: GatewayRun): string {
  const { meta } = run;
  const saturation = run.saturation.map((side) => {
    const point = saturationPoint(side.levels);
    if (point === undefined) return `${SIDE_LABEL[side.side]}: no level ran`;
    const times = point.samples.map((sample) => sample.roundTripMs);
    return `${SIDE_LABEL[side.side]} ${point.requestsPerSecond.toFixed(1)} req/s at ${point.concurrency} clients (p99 ${ms(percentile(times, 99))}, ${side.levels.reduce((sum, level) => sum + level.errors, 0)} errors in all)`;
  });
  return [
    `${meta.date}, ${machine(meta)}; load average ${meta.loadBefore} before, ${meta.loadAfter} after (other jobs share the 2 cores); ${(meta.wallMs / 1000).toFixed(0)} s wall.`,
    '',
    `${meta.conversations} synthetic Claude Code conversations at once (distinct session ids; each request adds an assistant message with two tool calls and their results, ~${int(meta.turnTokens)} tokens: a new file read and a test run, or every fourth turn an edit and a re-read; the cache breakpoint on the newest message), ${meta.turns} requests each, growing to ${int(meta.finalTokensMedian)} tokens (median; largest ${int(meta.finalTokensMax)}; tokens = body characters / 4), a think time of ${(meta.thinkMs / 1000).toFixed(1)} s ± 50% between a reply and the next request (the mock answers at once; the main phase took ${(meta.mainWallMs / 1000).toFixed(0)} s, the bench's process, every replica, the client and the mock, using ${meta.mainCpuPercent.toFixed(0)}% of one core on average). Each request goes to every side in a random order: straight to the mock upstream, A (one embedded proxy, the default), B (${meta.replicas} replicas, each with its own ConversationStore and Redis client, on one local redis-server, round-robin, non-sticky; the dashboard counters pushed every 5 s as \`--state\` does) and B with tokens (the same, each request carrying one of 10 users' \`x-dense-token\`: a gateway off loopback requires it). Every replica runs in its own worker thread of the bench's process (its own event loop, as a process of its own would have; the client and the mock share the main thread); the proxies' options are the defaults (the working budget compacts past ~80k tokens). Dense tokens seen by the upstream: ${meta.leakedTokens}.`,
    '',
    `One conversation at a time (${run.solo[0]?.requests ?? 0} requests per side, each sent to every side in a random order, no think time): each side's own cost, without queueing:`,
    '',
    latencyTable(run.solo),
    '',
    `All ${meta.conversations} conversations at once:`,
    '',
    latencyTable(run.latency),
    '',
    'Round trip: client-observed, send to the reply\'s last byte (B saves the state before the reply ends). To upstream: send to the mock having the whole body (the proxy read, decided, loaded the state and forwarded). "Added over A" is the difference of the two sides\' percentiles.',
    '',
    redisTable(run),
    '',
    memoryLines(run),
    '',
    "Throughput, one side at a time, each client sending its conversation's next request as soon as the reply is in (no think time; conversations of up to the same size, restarted when full; 1 s warm-up left out of each level):",
    '',
    saturationTable(run),
    '',
    `Saturation (the lowest level within 95% of the side's best throughput): ${saturation.join('; ')}.`,
    '',
    'Targets of issue #36:',
    '',
    ...targetLines(run),
  ].join('\n');
}

/** `document` with the gateway section replaced, or inserted before the replay bench's. */
export function replaceGatewaySection(document: string, body: string): string {
  const block = `${GATEWAY_START}\n\n### Gateway: three replicas on Redis vs one embedded proxy (\`npm run bench:gateway\`)\n\n${body.trim()}\n\n${GATEWAY_END}`;
  const start = document.indexOf(GATEWAY_START);
  const end = document.indexOf(GATEWAY_END);
  if (start !== -1 && end > start)
    return `${document.slice(0, start)}${block}${document.slice(end + GATEWAY_END.length)}`;
  const before = document.indexOf(BEFORE);
  if (before === -1) return `${document.trimEnd()}\n\n${block}\n`;
  return `${document.slice(0, before)}${block}\n\n${document.slice(before)}`;
}
