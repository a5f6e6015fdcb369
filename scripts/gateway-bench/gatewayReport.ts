/**
 * What the gateway bench prints: the summary per side, the tables (`gatewayTables.ts`), the
 * issue's targets met or missed, and the marked section of docs/benchmarks.md. Pure.
 */
import {
  offPathPerRequest,
  onPathPerRequest,
  type GatewayMeta,
  type GatewayRun,
  type SideLatency,
} from './gatewayFigures.js';
import type { SideName } from './benchSides.js';
import {
  int,
  kb,
  archiveTable,
  latencyTable,
  memoryTable,
  ms,
  redisTable,
  saturationTable,
  SIDE_LABEL,
  signedMs,
  summaryTable,
} from './gatewayTables.js';

export const GATEWAY_START = '<!-- gateway-bench:start -->';
export const GATEWAY_END = '<!-- gateway-bench:end -->';
/** The section goes before this one when it is not in the document yet. */
const BEFORE = '<!-- replay-bench:start -->';

export const TARGETS = {
  addedP50Ms: 3,
  roundTripsPerRequest: 2,
  stateBytesPerConversation: 64 * 1024,
} as const;

/** The sides on Redis, in the order they are reported. */
export const SHARED_SIDES: readonly SideName[] = [
  'shared',
  'shared+tokens',
  'sticky',
  'sticky+tokens',
];

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

function addedLine(latency: readonly SideLatency[], name: SideName, where: string): string[] {
  const embedded = latency.find((side) => side.side === 'embedded');
  const side = latency.find((s) => s.side === name);
  if (side === undefined || embedded === undefined) return [];
  const added = side.roundTrip.p50 - embedded.roundTrip.p50;
  const p99 = side.roundTrip.p99 - embedded.roundTrip.p99;
  return [
    `- Added latency p50 ≤ ${TARGETS.addedP50Ms} ms over A, ${where}, ${SIDE_LABEL[name]}: ${verdict(added, TARGETS.addedP50Ms, (v) => `${v.toFixed(1)} ms`)}; p99 ${signedMs(p99)} (${ms(side.roundTrip.p99)} vs ${ms(embedded.roundTrip.p99)}).`,
  ];
}

function latencyTargets(run: GatewayRun): string[] {
  const conversations = `${run.meta.conversations} conversations at once`;
  const lines: string[] = [];
  if (embeddedSaturated(run)) {
    const loaded = run.latency.find((side) => side.side === 'embedded');
    const alone = run.solo.find((side) => side.side === 'embedded');
    lines.push(
      `- Added latency at ${conversations}: **not judged in this run**: A itself saturated (its p50 ${ms(loaded?.roundTrip.p50 ?? 0)} against ${ms(alone?.roundTrip.p50 ?? 0)} alone, ${loaded?.errors ?? 0} refused or unanswered), so B − A there measures capacity (3 threads against 1), not what sharing adds.`,
    );
  } else {
    for (const name of SHARED_SIDES) lines.push(...addedLine(run.latency, name, conversations));
  }
  for (const name of SHARED_SIDES)
    lines.push(...addedLine(run.solo, name, 'one conversation at a time (no queueing)'));
  return lines;
}

export function targetLines(run: GatewayRun): string[] {
  const lines = latencyTargets(run);
  for (const name of SHARED_SIDES) {
    const side = run.redis.find((redis) => redis.side === name);
    if (side === undefined) continue;
    const on = onPathPerRequest(side);
    const off = offPathPerRequest(side);
    lines.push(
      `- ≤ ${TARGETS.roundTripsPerRequest} Redis round trips per request, ${SIDE_LABEL[name]}: on the request path ${verdict(on, TARGETS.roundTripsPerRequest, (v) => v.toFixed(2))}; with the counter pushes and token renewals off the path (${off.toFixed(2)}) ${(on + off).toFixed(2)} in all.`,
    );
  }
  const largest = Math.max(
    0,
    ...run.memory.sides.map((side) => side.state.memoryMax),
    run.long?.key.memory ?? 0,
  );
  lines.push(
    `- Shared state ≤ 64 KB per conversation (largest conversation key, \`MEMORY USAGE\`; the recall originals are the archive's, bounded by its own limits): ${verdict(largest, TARGETS.stateBytesPerConversation, kb)}.`,
  );
  return lines;
}

function machine(meta: GatewayMeta): string {
  return `${meta.cpu}, ${meta.cores} cores (nproc), Node ${meta.node}`;
}

function setupLines(meta: GatewayMeta): string[] {
  const cache = `${int(meta.readCache.maxEntries)} entries, ${int(meta.readCache.maxChars / 2 ** 20)} Mi characters`;
  return [
    `${meta.date}, ${machine(meta)}; load average ${meta.loadBefore} before, ${meta.loadAfter} after (other jobs share the 2 cores); ${(meta.wallMs / 1000).toFixed(0)} s wall.`,
    '',
    `${meta.conversations} synthetic Claude Code conversations at once (distinct session ids; each request adds an assistant message with two tool calls and their results, ~${int(meta.turnTokens)} tokens: a new file read and a test run, or every fourth turn an edit and a re-read; the cache breakpoint on the newest message), ${meta.turns} requests each, growing to ${int(meta.finalTokensMedian)} tokens (median; largest ${int(meta.finalTokensMax)}; tokens = body characters / 4), a think time of ${(meta.thinkMs / 1000).toFixed(1)} s ± 50% between a reply and the next request (the mock answers at once; the main phase took ${(meta.mainWallMs / 1000).toFixed(0)} s, the bench's process, every replica, the client and the mock, using ${meta.mainCpuPercent.toFixed(0)}% of one core on average). Dense tokens seen by the upstream: ${meta.leakedTokens}.`,
    '',
    `Each request goes to every side in a random order: straight to the mock upstream; A, one embedded proxy (the default: state in process, recall archive on disk); B round-robin, ${meta.replicas} replicas on one local redis-server, non-sticky; B sticky, ${meta.replicas} more replicas, each conversation sent to the replica a hash of its session id names (sdbm modulo ${meta.replicas}, as haproxy's \`balance hdr(x-claude-code-session-id)\`; here ${meta.stickySpread.join(' / ')} conversations per replica); and each B again with every request carrying one of ${meta.users} users' \`x-dense-token\` (a gateway off loopback requires it). Every replica is wired as \`dense proxy --state redis://…\` wires it (packages/cli/src/commands/proxyGateway.ts): RedisConversations, a CachedTokenStore around RedisTokenStore (a live token's user remembered 30 s), the recall archives (the proxy's own and one per user) on Redis, the dashboard counters pushed every 5 s; each B side's keys under its own prefix. Every proxy, A and each replica, has the same read cache, ${cache} (the default, 64 entries and 32 Mi characters, holds fewer than 100 conversations of ~200k tokens, and a proxy then reads most requests in full); otherwise the proxies' options are the defaults (the working budget compacts past ~80k tokens). Each replica runs in its own worker thread of the bench's process (its own event loop, as a process of its own would have; the client and the mock share the main thread).`,
  ];
}

/** Everything the bench prints, as markdown (also the docs section's body). */
export function gatewayMarkdown(run: GatewayRun): string {
  const { meta } = run;
  return [
    ...setupLines(meta),
    '',
    'Summary (details below; "added" is the difference of the two sides\' client-observed round-trip percentiles; on the request path: state load and save, token lookups that reach Redis, recall archive calls; off it: the dashboard counter pushes):',
    '',
    summaryTable(run),
    '',
    `One conversation at a time (${run.solo[0]?.requests ?? 0} requests per side, each sent to every side in a random order, no think time): each side's own cost, without queueing:`,
    '',
    latencyTable(run.solo),
    '',
    `All ${meta.conversations} conversations at once:`,
    '',
    latencyTable(run.latency),
    '',
    "Round trip: client-observed, send to the reply's last byte (B saves the state before the reply ends). To upstream: send to the mock having the whole body (the proxy read, decided, loaded the state, kept the originals for recall and forwarded).",
    '',
    `Redis round trips in the main phase (${meta.conversations} conversations):`,
    '',
    redisTable(run),
    '',
    `The recall archive on the request path (originals are kept before the reply that points at them goes out; on Redis each archive is a \`RedisRecallArchive\`: one script, one round trip, per put, one \`GET\` per lookup; A's is the archive on disk):`,
    '',
    archiveTable(run),
    '',
    `Redis \`used_memory\` ${kb(run.memory.usedBefore)} before the main phase, ${kb(run.memory.usedAfter)} after (every B side's state, recall originals and counters).`,
    '',
    memoryTable(run),
    '',
    "Throughput, one side at a time, each client sending its conversation's next request as soon as the reply is in (no think time; conversations of up to the same size, restarted when full; 1 s warm-up left out of each level; req/s, p50 / p99, errors). Saturation: the lowest level within 95% of the side's best.",
    '',
    saturationTable(run),
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
