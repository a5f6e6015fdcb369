/**
 * `npm run bench:gateway`: `dense proxy` as a team gateway on this machine, side by side in one
 * run (scripts/gateway-bench/): one embedded proxy (A, the default) and three replicas sharing
 * their conversations on a real redis-server, wired as `dense proxy --state` wires them (B), routed
 * round-robin (non-sticky) or sticky (by a hash of the session id, as haproxy's `balance
 * hdr(x-claude-code-session-id)`), each with and without every request carrying a Dense token (as
 * a gateway off loopback requires), against a loopback mock upstream that answers at once. Every
 * proxy has the same read cache (`READ_CACHE`: room for every conversation). Measures the latency
 * B adds over A, one conversation at a time and at 100 concurrent conversations growing to ~200k
 * tokens, Redis round trips per request on the request path and off it, Redis memory per
 * conversation (state and recall originals; and one conversation grown to ~1M tokens), and each
 * side's throughput as clients are added until it saturates. Prints markdown; `--docs` writes it
 * into docs/benchmarks.md between `<!-- gateway-bench:start -->` and `<!-- gateway-bench:end -->`
 * (nothing else in the file).
 *
 * Flags: --conversations <n> (100), --turns <n> (25 requests per conversation), --turn-tokens <n>
 * (8k: what each request adds, so 25 turns reach ~200k), --think-ms <n> (12000 ± 50% between a
 * reply and the next request: 100 conversations then offer ~8 requests/s to each side),
 * --levels <n,n,…> (clients at once for the throughput phase, default 1,4,16), --level-ms <n>
 * (4000 per level, the first 1000 not counted), --long-tokens <n> (1m; 0 skips the long
 * conversation), --docs. Needs /usr/bin/redis-server (installed with apt-get when missing and run
 * as root).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type RedisClientType } from 'redis';
import { writeFileAtomic } from '@dense/core';
import {
  ensureRedisServer,
  startRedisServer,
} from '../packages/core/src/gateway/test-utils/redisServer.js';
import { runBench } from './benchFlags.js';
import { parseGatewayOptions, type GatewayOptions } from './gateway-bench/gatewayOptions.js';
import { cpuModel, loadAverage, nproc } from './gateway-bench/machineFacts.js';
import { send, type Sample } from './gateway-bench/benchClient.js';
import { READ_CACHE } from './gateway-bench/benchReplica.js';
import {
  createTokens,
  directSide,
  embeddedSide,
  sharedSide,
  type BenchSide,
  type Routing,
  type SideName,
} from './gateway-bench/benchSides.js';
import {
  runConversationLoad,
  type ConversationLoadOptions,
  type ConversationLoadResult,
} from './gateway-bench/conversationLoad.js';
import {
  sideLatency,
  stateKeys,
  type GatewayRun,
  type SideMemory,
  type SideRedis,
} from './gateway-bench/gatewayFigures.js';
import { gatewayMarkdown, replaceGatewaySection } from './gateway-bench/gatewayReport.js';
import { startMockUpstream, type MockUpstream } from './gateway-bench/mockUpstream.js';
import { keyFigures, keysMatching, keysMemory, usedMemory } from './gateway-bench/redisMemory.js';
import { runSaturation } from './gateway-bench/saturation.js';
import { stickySpread } from './gateway-bench/stickyReplica.js';
import { SyntheticConversation } from './gateway-bench/SyntheticConversation.js';
import { percentile } from '../packages/core/src/replay/metrics/percentile.js';

const BENCH = 'bench:gateway';
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPLICAS = 3;
const USERS = 10;
const LONG_TURN_TOKENS = 40_000;
const WARMUP_CONVERSATIONS = 4;
/** Conversations sent one at a time before the main phase: each side's cost without queueing. */
const SOLO_CONVERSATIONS = 4;
/** The main phase's session ids are `<MAIN_PREFIX><n>`. */
const MAIN_PREFIX = 'bench-conv-';
/** Each side on Redis, its routing, whether it sends tokens, and its keys' prefix. */
const SHARED: readonly {
  readonly name: SideName;
  readonly routing: Routing;
  readonly tokens: boolean;
  readonly prefix: string;
}[] = [
  { name: 'shared', routing: 'round-robin', tokens: false, prefix: 'dense:' },
  { name: 'shared+tokens', routing: 'round-robin', tokens: true, prefix: 'dense-rt:' },
  { name: 'sticky', routing: 'sticky', tokens: false, prefix: 'dense-s:' },
  { name: 'sticky+tokens', routing: 'sticky', tokens: true, prefix: 'dense-st:' },
];

const log = (line: string) => console.error(line);

/** One conversation grown to `tokens` through `side`; the key its state is stored under. */
async function longConversation(
  side: BenchSide,
  upstream: MockUpstream,
  tokens: number,
): Promise<{ tokens: number; sessionId: string }> {
  const conversation = new SyntheticConversation({
    seed: 777,
    sessionId: 'bench-long',
    turnTokens: LONG_TURN_TOKENS,
  });
  const turns = Math.ceil(tokens / LONG_TURN_TOKENS) + 1;
  for (let turn = 0; turn < turns; turn++) {
    const body = conversation.next();
    const sample = await send({
      side,
      upstream,
      sessionId: conversation.sessionId,
      body,
      headers: side.headers(conversation.sessionId, 0),
    });
    if (sample.status !== 200)
      log(`  the long conversation's request ${turn} got ${sample.status}`);
  }
  return { tokens: Math.round(conversation.bytes / 4), sessionId: conversation.sessionId };
}

interface Sides {
  readonly direct: BenchSide;
  readonly embedded: BenchSide;
  /** In the order of `SHARED`. */
  readonly shared: readonly BenchSide[];
}

async function startSides(redisUrl: string, upstream: string, opened: BenchSide[]): Promise<Sides> {
  const tokens = await createTokens(redisUrl, USERS);
  const direct = directSide(upstream);
  opened.push(direct);
  const embedded = await embeddedSide(upstream);
  opened.push(embedded);
  const shared: BenchSide[] = [];
  for (const side of SHARED) {
    const started = await sharedSide({
      ...{ upstream, redisUrl, replicas: REPLICAS, routing: side.routing, prefix: side.prefix },
      ...(side.tokens ? { tokens } : {}),
    });
    opened.push(started);
    shared.push(started);
  }
  return { direct, embedded, shared };
}

/** Bytes (`MEMORY USAGE`) of each B side's recall archive keys, by side. */
async function archiveBytes(
  inspect: RedisClientType,
): Promise<Map<SideName, { keys: number; bytes: number }>> {
  const out = new Map<SideName, { keys: number; bytes: number }>();
  for (const side of SHARED) {
    const keys = await keysMatching(inspect, `${side.prefix}recall:*`);
    out.set(side.name, { keys: keys.length, bytes: await keysMemory(inspect, keys) });
  }
  return out;
}

/** Each B side's conversation keys of the main phase, and what its recall archive grew by. */
async function memoryFigures(
  inspect: RedisClientType,
  before: { used: number; archives: Map<SideName, { keys: number; bytes: number }> },
  conversations: number,
): Promise<GatewayRun['memory']> {
  const usedAfter = await usedMemory(inspect);
  const archives = await archiveBytes(inspect);
  const sides: SideMemory[] = [];
  for (const side of SHARED) {
    const keys = await keysMatching(inspect, `${side.prefix}conv:*${MAIN_PREFIX}*`);
    const archive = archives.get(side.name);
    sides.push({
      side: side.name,
      state: stateKeys(await keyFigures(inspect, keys)),
      archiveKeys: archive?.keys ?? 0,
      archiveBytes: (archive?.bytes ?? 0) - (before.archives.get(side.name)?.bytes ?? 0),
    });
  }
  return { usedBefore: before.used, usedAfter, conversations, sides };
}

async function redisCounts(
  sides: readonly BenchSide[],
  samples: readonly Sample[],
): Promise<SideRedis[]> {
  const out: SideRedis[] = [];
  for (const side of sides) {
    out.push({
      side: side.name,
      requests: samples.filter((sample) => sample.side === side.name).length,
      counters: await side.counters(),
    });
  }
  return out;
}

async function longFigures(
  side: BenchSide,
  upstream: MockUpstream,
  inspect: RedisClientType,
  tokens: number,
): Promise<GatewayRun['long']> {
  if (tokens === 0) return undefined;
  log(`${BENCH}: one conversation to ~${tokens} tokens through ${side.name}`);
  const grown = await longConversation(side, upstream, tokens);
  const prefix = SHARED.find((shared) => shared.name === side.name)?.prefix ?? 'dense:';
  const [key] = await keysMatching(inspect, `${prefix}conv:session:${grown.sessionId}:*`);
  const [figure] = key === undefined ? [] : await keyFigures(inspect, [key]);
  return figure === undefined ? undefined : { tokens: grown.tokens, key: figure };
}

async function throughput(
  sides: readonly BenchSide[],
  upstream: MockUpstream,
  options: GatewayOptions,
): Promise<GatewayRun['saturation']> {
  const out = [];
  for (const side of sides) {
    log(`${BENCH}: throughput of ${side.name}`);
    const levels = await runSaturation(
      {
        side,
        upstream,
        levels: options.levels,
        levelMs: options.levelMs,
        warmupMs: 1_000,
        turns: options.turns,
        turnTokens: options.turnTokens,
        sessionPrefix: 'bench-sat-',
      },
      log,
    );
    out.push({ side: side.name, levels });
  }
  return out;
}

function meta(
  options: GatewayOptions,
  run: { started: number; loadBefore: string; load: ConversationLoadResult; cpuPercent: number },
  leakedTokens: number,
): GatewayRun['meta'] {
  const finalTokens = run.load.finalBytes.map((bytes) => bytes / 4);
  return {
    date: new Date().toISOString().slice(0, 10),
    cores: nproc(),
    cpu: cpuModel(),
    node: process.version,
    loadBefore: run.loadBefore,
    loadAfter: loadAverage(),
    wallMs: Date.now() - run.started,
    conversations: options.conversations,
    turns: options.turns,
    turnTokens: options.turnTokens,
    thinkMs: options.thinkMs,
    replicas: REPLICAS,
    users: USERS,
    readCache: READ_CACHE,
    stickySpread: stickySpread(
      Array.from({ length: options.conversations }, (_, i) => `${MAIN_PREFIX}${i}`),
      REPLICAS,
    ),
    finalTokensMedian: percentile(finalTokens, 50),
    finalTokensMax: Math.max(0, ...finalTokens),
    mainWallMs: run.load.wallMs,
    mainCpuPercent: run.cpuPercent,
    leakedTokens,
  };
}

/** A few conversations sent one at a time, each turn to every side: costs without queueing. */
async function oneAtATime(
  common: Pick<ConversationLoadOptions, 'sides' | 'upstream' | 'turnTokens'>,
  turns: number,
): Promise<Sample[]> {
  log(`${BENCH}: ${SOLO_CONVERSATIONS} conversations one at a time (no queueing)`);
  const solo: Sample[] = [];
  for (let k = 0; k < SOLO_CONVERSATIONS; k++) {
    const alone = await runConversationLoad({
      ...common,
      ...{ conversations: 1, turns, thinkMs: 0 },
      ...{ sessionPrefix: `bench-solo-${k}-`, seed: 100 + k },
    });
    solo.push(...alone.samples);
  }
  return solo;
}

async function measure(
  options: GatewayOptions,
  redisUrl: string,
  upstream: MockUpstream,
  opened: BenchSide[],
): Promise<GatewayRun> {
  const started = Date.now();
  const loadBefore = loadAverage();
  const inspect: RedisClientType = createClient({ url: redisUrl });
  await inspect.connect();
  try {
    const sides = await startSides(redisUrl, upstream.url, opened);
    const proxies = [sides.embedded, ...sides.shared];
    const all = [sides.direct, ...proxies];
    log(
      `${BENCH}: warm-up (${WARMUP_CONVERSATIONS} conversations through every side, not counted)`,
    );
    const common = { sides: all, upstream, turnTokens: options.turnTokens };
    await runConversationLoad({
      ...common,
      ...{ conversations: WARMUP_CONVERSATIONS, turns: Math.min(options.turns, 8), thinkMs: 0 },
      ...{ sessionPrefix: 'bench-warm-', seed: 7 },
    });
    const solo = await oneAtATime(common, options.turns);
    for (const side of all) await side.resetCounters();
    const before = { used: await usedMemory(inspect), archives: await archiveBytes(inspect) };
    log(
      `${BENCH}: ${options.conversations} conversations × ${options.turns} requests (~${options.turnTokens} tokens each), think ${options.thinkMs} ms; load ${loadAverage()}`,
    );
    const cpuBefore = process.cpuUsage();
    const load = await runConversationLoad({
      ...common,
      ...{ conversations: options.conversations, turns: options.turns, thinkMs: options.thinkMs },
      ...{ sessionPrefix: MAIN_PREFIX, seed: 36, progress: log },
    });
    const cpu = process.cpuUsage(cpuBefore);
    const redis = await redisCounts(proxies, load.samples);
    const memory = await memoryFigures(inspect, before, options.conversations);
    const long = await longFigures(
      sides.shared[0] as BenchSide,
      upstream,
      inspect,
      options.longTokens,
    );
    const saturation = await throughput(proxies, upstream, options);
    const cpuPercent = (100 * (cpu.user + cpu.system)) / 1000 / load.wallMs;
    return {
      meta: meta(options, { started, loadBefore, load, cpuPercent }, upstream.leakedTokens()),
      solo: all.map((side) => sideLatency(side.name, solo)),
      latency: all.map((side) => sideLatency(side.name, load.samples)),
      redis,
      memory,
      long,
      saturation,
    };
  } finally {
    await inspect.close().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  const options = parseGatewayOptions(BENCH, process.argv.slice(2));
  const missing = ensureRedisServer();
  if (missing !== undefined) {
    log(`${BENCH}: needs a redis-server: ${missing}`);
    return 1;
  }
  const redis = await startRedisServer();
  const upstream = await startMockUpstream();
  const opened: BenchSide[] = [];
  try {
    const markdown = gatewayMarkdown(await measure(options, redis.url, upstream, opened));
    console.log(markdown);
    if (options.docs) {
      const file = path.join(REPO_ROOT, 'docs', 'benchmarks.md');
      const document = await readFile(file, 'utf8');
      await writeFileAtomic(file, replaceGatewaySection(document, markdown));
      log(`${BENCH}: wrote the gateway section of ${path.relative(REPO_ROOT, file)}`);
    }
    return 0;
  } finally {
    for (const side of opened) await side.close();
    await upstream.close();
    await redis.close();
  }
}

await runBench(main);
