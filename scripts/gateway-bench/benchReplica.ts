/**
 * One proxy replica of the gateway bench, as the CLI starts it: the embedded default (its own
 * ConversationStore, a timeline, a recall archive on disk) or a replica of a shared gateway (the
 * same, plus its own Redis client for RedisConversations, RedisTokenStore and the timeline's
 * counters pushed with RedisStats every 5 s, as `dense proxy --state` does). It counts what the
 * bench reports: Redis round trips (state loads and saves, token lookups, counter pushes), load and
 * save outcomes and times, and how the proxy read each request (resumed from a kept read, or read
 * in full). Runs in its own worker thread (`replicaWorker.ts`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  connectRedis,
  RecallArchive,
  RedisConversations,
  RedisStats,
  RedisTokenStore,
  startProxyServer,
  StatsTimeline,
  type ProxyServer,
  type ProxyServerOptions,
  type RedisHashClient,
} from '@dense/core';
import type { RedisClientType } from 'redis';
import { ConversationStore } from '../../packages/core/src/proxy/conversationStore.js';

/** As `dense proxy --state` pushes its counters (packages/cli/src/commands/proxyGateway.ts). */
export const STATS_PUSH_MS = 5_000;

export interface ReplicaSpec {
  readonly upstream: string;
  /** Absent: the embedded default (no shared store). */
  readonly redisUrl?: string;
  /** Key prefix of the conversations and counters on Redis. */
  readonly prefix?: string;
}

/** A replica's counts, plain data (sent between threads). */
export interface ReplicaCounters {
  /** RedisConversations' own count (loads, saves, conflict reloads). */
  readonly stateTrips: number;
  readonly tokenLookups: number;
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

/** A store whose read cache counts how it reads each request. */
function meteredStore(): { store: ConversationStore; paths: { full: number; resumed: number } } {
  const store = new ConversationStore();
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

interface SharedParts {
  readonly client: RedisClientType;
  readonly shared: MeteredConversations;
  readonly push: NodeJS.Timeout;
  readonly options: Pick<ProxyServerOptions, 'shared' | 'tokens' | 'teamTimeline'>;
}

/** A replica's Redis client and what `--state` builds on it; the counters pushed every 5 s. */
async function sharedParts(
  spec: ReplicaSpec & { readonly redisUrl: string },
  timeline: StatsTimeline,
  counts: { lookups: { count: number }; pushes: { count: number } },
): Promise<SharedParts> {
  const client = await connectRedis(new URL(spec.redisUrl));
  const shared = new MeteredConversations({ client, prefix: spec.prefix });
  const stats = new RedisStats({ client, prefix: spec.prefix });
  const push = setInterval(() => {
    const delta = timeline.drainDelta();
    if (Object.keys(delta.users).length === 0) return;
    counts.pushes.count++;
    void stats.push(delta);
  }, STATS_PUSH_MS);
  const options = {
    shared,
    tokens: countedTokens(client, counts.lookups),
    teamTimeline: () => stats.timeline(),
  };
  return { client, shared, push, options };
}

export async function startReplica(spec: ReplicaSpec): Promise<Replica> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dense-gateway-bench-recall-'));
  const { store, paths } = meteredStore();
  const lookups = { count: 0 };
  const pushes = { count: 0 };
  const timeline = new StatsTimeline();
  const redisUrl = spec.redisUrl;
  const parts =
    redisUrl === undefined
      ? undefined
      : await sharedParts({ ...spec, redisUrl }, timeline, { lookups, pushes });
  const shared = parts?.shared;
  const server: ProxyServer = await startProxyServer({
    anthropicUpstream: spec.upstream,
    store,
    timeline,
    recall: new RecallArchive({ dir }),
    ...parts?.options,
  });
  return {
    url: server.url,
    counters: () => ({
      stateTrips: shared?.roundTrips ?? 0,
      tokenLookups: lookups.count,
      statsPushes: pushes.count,
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
      lookups.count = 0;
      pushes.count = 0;
      if (shared === undefined) return;
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
      await rm(dir, { recursive: true, force: true });
    },
  };
}
