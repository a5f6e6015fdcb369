/**
 * A real redis-server for the tests of one `describe` block: started before them, emptied after
 * each test (the clients `connect` opened during it closed first), stopped after all of them.
 */
import { createClient, type RedisClientType } from 'redis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { closeLoopback } from '../../proxy/test-utils/loopbackProxy.js';
import { connectRedis } from '../state/connectRedis.js';
import { startRedisServer, type RedisServer } from './redisServer.js';

export interface RedisForTests {
  /** The running server (after `beforeAll`). */
  server(): RedisServer;
  /** A client as `dense proxy --state` connects one, closed after the test. */
  connect(): Promise<RedisClientType>;
}

/** Call inside `describe`: registers the block's hooks. Loopback proxies are closed after each test too. */
export function redisForTests(): RedisForTests {
  let redis: RedisServer | undefined;
  const clients: RedisClientType[] = [];
  const server = (): RedisServer => {
    if (redis === undefined) throw new Error('redis-server is not started yet (use it in a test)');
    return redis;
  };
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await closeLoopback();
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    const flush = createClient({ url: server().url });
    await flush.connect();
    await flush.flushAll();
    await flush.close();
  });
  afterAll(async () => {
    await redis?.close();
  });
  return {
    server,
    connect: async () => {
      const client = await connectRedis(new URL(server().url));
      clients.push(client);
      return client;
    },
  };
}
