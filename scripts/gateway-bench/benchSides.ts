/**
 * The gateway bench's sides: the upstream itself (pass-through), one embedded proxy (no shared
 * store: the default on one machine), and three proxy replicas sharing their conversations on one
 * redis-server, served round-robin (non-sticky) or sticky (each conversation to the replica a hash
 * of its session id names, `stickyReplica.ts`), with or without each request carrying a Dense
 * token. Every replica runs in its own worker thread of this process (`replicaWorker.ts`): its own
 * event loop, as a separate process would have, so one side's work never queues another side's
 * requests behind it on one loop.
 */
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { connectRedis, RedisTokenStore } from '@dense/core';
import type { ReplicaCounters, ReplicaSpec } from './benchReplica.js';
import type { ReplicaRequest } from './replicaWorker.js';
import { stickyReplica } from './stickyReplica.js';

export type SideName =
  'direct' | 'embedded' | 'shared' | 'shared+tokens' | 'sticky' | 'sticky+tokens';

/** How a side's load balancer picks a replica per request. */
export type Routing = 'round-robin' | 'sticky';

/** A side's counts: its replicas' summed. */
export type SideCounters = ReplicaCounters;

export interface BenchSide {
  readonly name: SideName;
  /** Where the next request of conversation `sessionId` goes. */
  target(sessionId: string): string;
  /** Headers every request of this side carries, for conversation number `index`. */
  headers(sessionId: string, index: number): Record<string, string>;
  readonly agent: Agent;
  counters(): Promise<SideCounters>;
  /** Forgets the counts so far (between the bench's phases). */
  resetCounters(): Promise<void>;
  close(): Promise<void>;
}

const TSCONFIG = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
const WORKER = new URL('./replicaWorker.ts', import.meta.url).href;

/** A replica in its own worker thread (TypeScript loaded there by tsx, as in this thread). */
class ReplicaThread {
  private readonly worker: Worker;
  private readonly waiting: {
    resolve: (message: Record<string, unknown>) => void;
    reject: (error: unknown) => void;
  }[] = [];
  url = '';

  constructor(spec: ReplicaSpec) {
    const boot = `import('tsx/esm/api').then(({ register }) => { register({ tsconfig: ${JSON.stringify(TSCONFIG)} }); return import(${JSON.stringify(WORKER)}); })`;
    this.worker = new Worker(boot, { eval: true, workerData: spec });
    this.worker.on('message', (message: Record<string, unknown>) =>
      this.waiting.shift()?.resolve(message),
    );
    this.worker.on('error', (error) => {
      for (const waiting of this.waiting.splice(0)) waiting.reject(error);
    });
  }

  private next(): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  async started(): Promise<this> {
    this.url = String((await this.next()).url);
    return this;
  }

  async ask(request: ReplicaRequest): Promise<Record<string, unknown>> {
    const answer = this.next();
    this.worker.postMessage(request);
    return answer;
  }
}

/**
 * A connection per request for every side alike: a kept-alive socket idle through a think time
 * may be closed by the server just as the client reuses it (a reset that is the bench's, not the
 * proxy's).
 */
const clientAgent = () => new Agent({ keepAlive: false, maxSockets: Infinity });

const BASE_HEADERS = {
  'content-type': 'application/json',
  'x-api-key': 'sk-ant-bench-not-a-key',
  'anthropic-version': '2023-06-01',
  'user-agent': 'claude-cli/2.1.0 (external, cli)',
};

function sessionHeaders(sessionId: string): Record<string, string> {
  return { ...BASE_HEADERS, 'x-claude-code-session-id': sessionId };
}

/** No counts: a side before its first request. */
export const ZERO_COUNTERS: SideCounters = {
  stateTrips: 0,
  tokenLookups: 0,
  tokenRenewals: 0,
  archiveTrips: 0,
  archiveCalls: {},
  archivePutMs: [],
  statsPushes: 0,
  loads: {},
  saves: {},
  loadMs: [],
  saveMs: [],
  fullReads: 0,
  resumedReads: 0,
};

function sum(all: readonly ReplicaCounters[]): SideCounters {
  const merged = (pick: (counters: ReplicaCounters) => Readonly<Record<string, number>>) => {
    const out: Record<string, number> = {};
    for (const counters of all)
      for (const [key, count] of Object.entries(pick(counters))) out[key] = (out[key] ?? 0) + count;
    return out;
  };
  const total = (pick: (counters: ReplicaCounters) => number) =>
    all.reduce((sum, counters) => sum + pick(counters), 0);
  return {
    stateTrips: total((c) => c.stateTrips),
    tokenLookups: total((c) => c.tokenLookups),
    tokenRenewals: total((c) => c.tokenRenewals),
    archiveTrips: total((c) => c.archiveTrips),
    archiveCalls: merged((c) => c.archiveCalls),
    archivePutMs: all.flatMap((c) => c.archivePutMs),
    statsPushes: total((c) => c.statsPushes),
    loads: merged((c) => c.loads),
    saves: merged((c) => c.saves),
    loadMs: all.flatMap((c) => c.loadMs),
    saveMs: all.flatMap((c) => c.saveMs),
    fullReads: total((c) => c.fullReads),
    resumedReads: total((c) => c.resumedReads),
  };
}

export function directSide(upstream: string): BenchSide {
  const agent = clientAgent();
  return {
    name: 'direct',
    target: () => upstream,
    headers: sessionHeaders,
    agent,
    counters: () => Promise.resolve(ZERO_COUNTERS),
    resetCounters: () => Promise.resolve(),
    close: () => {
      agent.destroy();
      return Promise.resolve();
    },
  };
}

async function proxySide(
  name: SideName,
  specs: readonly ReplicaSpec[],
  routing: { readonly routing: Routing; readonly headers: BenchSide['headers'] },
): Promise<BenchSide> {
  const replicas = await Promise.all(specs.map((spec) => new ReplicaThread(spec).started()));
  const agent = clientAgent();
  let next = 0;
  const pick = (sessionId: string) =>
    routing.routing === 'sticky'
      ? stickyReplica(sessionId, replicas.length)
      : next++ % replicas.length;
  return {
    name,
    target: (sessionId) => (replicas[pick(sessionId)] as ReplicaThread).url,
    headers: routing.headers,
    agent,
    counters: async () => {
      const all: ReplicaCounters[] = [];
      for (const replica of replicas)
        all.push((await replica.ask('counters')).counters as ReplicaCounters);
      return sum(all);
    },
    resetCounters: async () => {
      for (const replica of replicas) await replica.ask('reset');
    },
    close: async () => {
      agent.destroy();
      for (const replica of replicas) await replica.ask('close');
    },
  };
}

export function embeddedSide(upstream: string): Promise<BenchSide> {
  return proxySide('embedded', [{ upstream }], {
    routing: 'round-robin',
    headers: sessionHeaders,
  });
}

export interface SharedSideOptions {
  readonly upstream: string;
  readonly redisUrl: string;
  readonly replicas: number;
  readonly routing: Routing;
  /** Key prefix of this side's conversations, counters and recall archives on Redis. */
  readonly prefix: string;
  /** Tokens by conversation number (`x-dense-token`); none: requests carry no token. */
  readonly tokens?: readonly string[];
}

export function sharedSide(options: SharedSideOptions): Promise<BenchSide> {
  const spec: ReplicaSpec = {
    upstream: options.upstream,
    redisUrl: options.redisUrl,
    prefix: options.prefix,
  };
  const tokens = options.tokens;
  const headers =
    tokens === undefined
      ? sessionHeaders
      : (sessionId: string, index: number) => ({
          ...sessionHeaders(sessionId),
          'x-dense-token': tokens[index % tokens.length] as string,
        });
  const specs = Array.from({ length: options.replicas }, () => spec);
  const base = options.routing === 'sticky' ? 'sticky' : 'shared';
  const name: SideName = tokens === undefined ? base : `${base}+tokens`;
  return proxySide(name, specs, { routing: options.routing, headers });
}

/** `users` tokens created in the shared token store (`dense token create`), one per user. */
export async function createTokens(redisUrl: string, users: number): Promise<string[]> {
  const client = await connectRedis(new URL(redisUrl));
  try {
    const store = new RedisTokenStore({ client });
    const tokens: string[] = [];
    for (let i = 0; i < users; i++) tokens.push((await store.create(`bench-user-${i}`)).token);
    return tokens;
  } finally {
    await client.close().catch(() => undefined);
  }
}
