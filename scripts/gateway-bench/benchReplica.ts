/**
 * One proxy replica of the gateway bench, wired as the CLI wires it: the embedded default (its own
 * ConversationStore, a timeline, a recall archive on disk) or a replica of a shared gateway as
 * `dense proxy --state redis://…` builds one (packages/cli/src/commands/proxyGateway.ts): one Redis
 * client for RedisConversations, a CachedTokenStore around RedisTokenStore, the recall archives
 * (`recall`, and one per user through `userRecall`) each a `RedisRecallArchive`, and the timeline's
 * counters pushed with RedisStats every 5 s. Keys go under the spec's prefix, so the bench's sides
 * share one redis-server without sharing keys (with `dense:` they are the CLI's own). Every replica
 * gets the same read cache (`READ_CACHE`). It counts what the bench reports: Redis round trips on
 * the request path (state loads and saves, token lookups, recall archive calls) and off it (counter
 * pushes), load and save outcomes and times, and how the proxy read each request (resumed from a
 * kept read, or read in full). Runs in its own worker thread (`replicaWorker.ts`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  CachedTokenStore,
  connectRedis,
  RecallArchive,
  RedisConversations,
  RedisRecallArchive,
  RedisStats,
  RedisTokenStore,
  startProxyServer,
  StatsTimeline,
  type ProxyServer,
  type ProxyServerOptions,
  type RedisHashClient,
} from '@dense/core';
import type { RedisClientType } from 'redis';
import { ConversationStore } from '../../packages/core/src/proxy/decide/conversationStore.js';
import {
  countedArchive,
  resetArchiveCounts,
  zeroArchiveCounts,
  type ArchiveCounts,
} from './countedArchive.js';

/** As `dense proxy --state` pushes its counters (packages/cli/src/commands/proxyGateway.ts). */
export const STATS_PUSH_MS = 5_000;

/**
 * The read cache of every proxy in the bench, embedded or replica: room for every conversation
 * the bench sends (the default, 64 entries and 32 Mi characters, is below 100 conversations).
 */
export const READ_CACHE = { maxEntries: 512, maxChars: 256 * 2 ** 20 } as const;

export interface ReplicaSpec {
  readonly upstream: string;
  /** Absent: the embedded default (no shared store). */
  readonly redisUrl?: string;
  /** Key prefix of the conversations, counters and recall archives on Redis. */
  readonly prefix?: string;
}

/** A replica's counts, plain data (sent between threads). */
export interface ReplicaCounters {
  /** RedisConversations' own count (loads, saves, conflict reloads). */
  readonly stateTrips: number;
  /** Token lookups that reached Redis on a request's path (the rest were answered by the cache). */
  readonly tokenLookups: number;
  /**
   * Token lookups made beside a request to renew a cached answer, and listings of every token
   * (`CachedTokenStore.refreshes`, `listings`): off the request path.
   */
  readonly tokenRenewals: number;
  /** Recall archive round trips to Redis (`countedArchive.ts`); 0 for the embedded proxy. */
  readonly archiveTrips: number;
  /** Recall archive calls by method (on disk for the embedded proxy, on Redis for a replica). */
  readonly archiveCalls: Readonly<Record<string, number>>;
  /** How long each put of originals took (on the request path: the pointers wait for it). */
  readonly archivePutMs: readonly number[];
  readonly statsPushes: number;
  readonly loads: Readonly<Record<string, number>>;
  readonly saves: Readonly<Record<string, number>>;
  readonly loadMs: readonly number[];
  readonly saveMs: readonly number[];
  readonly fullReads: number;
  readonly resumedReads: number;
}

export interface Replica {
  readonly url: string;
  counters(): ReplicaCounters;
  reset(): void;
  close(): Promise<void>;
}

type LoadOutcome = Awaited<ReturnType<RedisConversations['load']>>;
type SaveOutcome = Awaited<ReturnType<RedisConversations['save']>>;

class MeteredConversations extends RedisConversations {
  loads: Record<string, number> = {};
  saves: Record<string, number> = {};
  loadMs: number[] = [];
  saveMs: number[] = [];

  override async load(...args: Parameters<RedisConversations['load']>): Promise<LoadOutcome> {
    const started = performance.now();
    const outcome = await super.load(...args);
    this.loadMs.push(performance.now() - started);
    this.loads[outcome] = (this.loads[outcome] ?? 0) + 1;
    return outcome;
  }

  override async save(...args: Parameters<RedisConversations['save']>): Promise<SaveOutcome> {
    const started = performance.now();
    const outcome = await super.save(...args);
    this.saveMs.push(performance.now() - started);
    this.saves[outcome] = (this.saves[outcome] ?? 0) + 1;
    return outcome;
  }
}

/** A store with the bench's read cache, counting how it reads each request. */
function meteredStore(): { store: ConversationStore; paths: { full: number; resumed: number } } {
  const store = new ConversationStore({ reads: READ_CACHE });
  const paths = { full: 0, resumed: 0 };
  const read = store.reads.read.bind(store.reads);
  store.reads.read = (request) => {
    const result = read(request);
    if (store.reads.lastPath !== undefined) paths[store.reads.lastPath]++;
    return result;
  };
  return { store, paths };
}

/** A token store on `client` that counts its lookups (each one `HGET`, one round trip). */
function countedTokens(client: RedisClientType, lookups: { count: number }): RedisTokenStore {
  const base: RedisHashClient = client;
  const counting: RedisHashClient = {
    hSet: (key, field, value) => base.hSet(key, field, value),
    hGet: (key, field) => {
      lookups.count++;
      return base.hGet(key, field);
    },
    hGetAll: (key) => base.hGetAll(key),
    hDel: (key, fields) => base.hDel(key, fields),
  };
  return new RedisTokenStore({ client: counting });
}

/** Mutated in place (the archives hold them), reset between the bench's phases. */
interface Counts {
  readonly lookups: { count: number };
  readonly archive: ArchiveCounts;
  readonly pushes: { count: number };
}

const zeroCounts = (): Counts => ({
  lookups: { count: 0 },
  archive: zeroArchiveCounts(),
  pushes: { count: 0 },
});

function resetCounts(counts: Counts): void {
  counts.lookups.count = 0;
  counts.pushes.count = 0;
  resetArchiveCounts(counts.archive);
}

interface SharedParts {
  readonly client: RedisClientType;
  readonly shared: MeteredConversations;
  readonly push: NodeJS.Timeout;
  readonly tokens: CachedTokenStore;
  readonly options: Pick<
    ProxyServerOptions,
    'shared' | 'tokens' | 'teamTimeline' | 'recall' | 'userRecall'
  >;
}

const log = (line: string) => console.error(`  replica: ${line}`);

/** What `--state` builds on one Redis client (proxyGateway.ts), counted. */
async function sharedParts(
  spec: ReplicaSpec & { readonly redisUrl: string },
  timeline: StatsTimeline,
  counts: Counts,
): Promise<SharedParts> {
  const prefix = spec.prefix ?? 'dense:';
  const client = await connectRedis(new URL(spec.redisUrl), { log });
  const shared = new MeteredConversations({ client, prefix, log });
  const stats = new RedisStats({ client, prefix });
  const push = setInterval(() => {
    const delta = timeline.drainDelta();
    // RedisStats.push sends nothing when no user has a count (then no round trip).
    if (Object.keys(delta.users).length > 0) counts.pushes.count++;
    void stats.push(delta);
  }, STATS_PUSH_MS);
  push.unref();
  // One archive per user on Redis, as proxyGateway.ts builds it (one round trip a put).
  const archive = (root: string) =>
    countedArchive(new RedisRecallArchive({ client, root }), counts.archive);
  // Kept primed as proxyGateway.ts keeps it (one HGETALL at start and every 15 s).
  const tokens = new CachedTokenStore(countedTokens(client, counts.lookups));
  await tokens.prime();
  tokens.keepPrimed(() => undefined);
  const options = {
    shared,
    tokens,
    teamTimeline: () => stats.timeline(),
    recall: archive(`${prefix}recall:local`),
    userRecall: (user: string) => archive(`${prefix}recall:u:${encodeURIComponent(user)}`),
  };
  return { client, shared, push, tokens, options };
}

/** Token lookups off the request path: renewals beside a request and listings of every token. */
function tokenTripsOff(tokens: CachedTokenStore | undefined): number {
  return tokens === undefined ? 0 : tokens.refreshes + tokens.listings;
}

export async function startReplica(spec: ReplicaSpec): Promise<Replica> {
  const { store, paths } = meteredStore();
  const counts = zeroCounts();
  const timeline = new StatsTimeline();
  const redisUrl = spec.redisUrl;
  const parts =
    redisUrl === undefined ? undefined : await sharedParts({ ...spec, redisUrl }, timeline, counts);
  // The embedded default keeps its recall archive on disk.
  const dir =
    parts === undefined
      ? await mkdtemp(path.join(os.tmpdir(), 'dense-gateway-bench-recall-'))
      : undefined;
  const shared = parts?.shared;
  const server: ProxyServer = await startProxyServer({
    anthropicUpstream: spec.upstream,
    store,
    timeline,
    ...(dir === undefined
      ? {}
      : { recall: countedArchive(new RecallArchive({ dir }), counts.archive) }),
    ...parts?.options,
  });
  return {
    url: server.url,
    counters: () => ({
      stateTrips: shared?.roundTrips ?? 0,
      tokenLookups: counts.lookups.count - (parts?.tokens.refreshes ?? 0),
      tokenRenewals: tokenTripsOff(parts?.tokens),
      archiveTrips: parts === undefined ? 0 : counts.archive.trips,
      archiveCalls: { ...counts.archive.calls },
      archivePutMs: [...counts.archive.putMs],
      statsPushes: counts.pushes.count,
      loads: { ...shared?.loads },
      saves: { ...shared?.saves },
      loadMs: [...(shared?.loadMs ?? [])],
      saveMs: [...(shared?.saveMs ?? [])],
      fullReads: paths.full,
      resumedReads: paths.resumed,
    }),
    reset: () => {
      paths.full = 0;
      paths.resumed = 0;
      resetCounts(counts);
      if (parts === undefined || shared === undefined) return;
      parts.tokens.refreshes = 0;
      parts.tokens.listings = 0;
      shared.roundTrips = 0;
      shared.loads = {};
      shared.saves = {};
      shared.loadMs = [];
      shared.saveMs = [];
    },
    close: async () => {
      clearInterval(parts?.push);
      await server.close();
      await parts?.client.close().catch(() => undefined);
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}
