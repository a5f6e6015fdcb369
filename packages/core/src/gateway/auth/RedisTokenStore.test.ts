import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureRedisServer,
  startRedisServer,
  type RedisServer,
} from '../test-utils/redisServer.js';
import { openTokenStore } from './openTokenStore.js';
import { CachedTokenStore } from './CachedTokenStore.js';
import { RedisTokenStore } from './RedisTokenStore.js';
import { tokenHash } from './tokenSecret.js';
import { tokenStoreContract } from './test-utils/tokenStoreContract.js';

const missing = ensureRedisServer();
if (missing !== undefined) console.warn(`Skipping the RedisTokenStore tests: ${missing}.`);

type Client = ReturnType<typeof createClient>;

describe.skipIf(missing !== undefined)('RedisTokenStore on a real redis-server', () => {
  let server: RedisServer;
  let client: Client;
  let keys = 0;

  beforeAll(async () => {
    server = await startRedisServer();
    client = createClient({ url: server.url });
    await client.connect();
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  /** Each test its own hash, so they share one server. */
  const fresh = () => `dense:tokens:test${++keys}`;

  tokenStoreContract('RedisTokenStore', () => {
    const key = fresh();
    return Promise.resolve({
      store: new RedisTokenStore({ client, key }),
      stored: async () => {
        const dump = await client.hGetAll(key);
        return JSON.stringify(dump);
      },
    });
  });

  it('#36.4 uses the hash dense:tokens by default, keyed by the token hash', async () => {
    const store = new RedisTokenStore({ client });
    const created = await store.create('ada');
    const fields = await client.hKeys('dense:tokens');
    expect(fields).toHaveLength(1);
    expect(fields[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.userOf(created.token)).toBe('ada');
    await store.revoke('ada');
    expect(await client.exists('dense:tokens')).toBe(0);
  });

  it('#36.7 a replica primes its token cache with one HGETALL: every live token, no lookup after', async () => {
    const key = fresh();
    const cli = new RedisTokenStore({ client, key });
    const ada = await cli.create('ada');
    const bob = await cli.create('bob');
    let lookups = 0;
    const counted = new RedisTokenStore({
      client: {
        hSet: (k, f, v) => client.hSet(k, f, v),
        hGet: (k, f) => {
          lookups++;
          return client.hGet(k, f);
        },
        hGetAll: (k) => client.hGetAll(k),
        hDel: (k, f) => client.hDel(k, f),
      },
      key,
    });
    expect(await counted.liveTokens()).toEqual(
      new Map([
        [tokenHash(ada.token), 'ada'],
        [tokenHash(bob.token), 'bob'],
      ]),
    );
    const cached = new CachedTokenStore(counted);
    expect(await cached.prime()).toBe(2);
    expect(await cached.userOf(ada.token)).toBe('ada');
    expect(await cached.userOf(bob.token)).toBe('bob');
    expect(lookups).toBe(0);
  });

  it('#36.4 two replicas share the tokens: created on one, refused on the other once revoked', async () => {
    const key = fresh();
    const other = createClient({ url: server.url });
    await other.connect();
    try {
      const cli = new RedisTokenStore({ client, key });
      const replica = new RedisTokenStore({ client: other, key });
      const created = await cli.create('bob');
      expect(await replica.userOf(created.token)).toBe('bob');
      await cli.revoke(created.record.id);
      expect(await replica.userOf(created.token)).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('#36.4 an entry Dense did not write is a typed error naming the HDEL that removes it', async () => {
    const key = fresh();
    await client.hSet(key, 'a'.repeat(64), 'not json');
    const store = new RedisTokenStore({ client, key });
    await expect(store.list()).rejects.toMatchObject({ code: 'TOKEN_STORE_INVALID' });
    await expect(store.list()).rejects.toThrow(`HDEL ${key} ${'a'.repeat(64)}`);
  });

  it('#36.4 openTokenStore picks Redis from --state, then DENSE_STATE, else the file', async () => {
    const fromFlag = await openTokenStore({ state: server.url, env: {} });
    try {
      expect(fromFlag.store).toBeInstanceOf(RedisTokenStore);
      expect(fromFlag.where).toBe(`${server.url}`);
    } finally {
      await fromFlag.close();
    }
    const fromEnv = await openTokenStore({ state: undefined, env: { DENSE_STATE: server.url } });
    expect(fromEnv.store).toBeInstanceOf(RedisTokenStore);
    await fromEnv.close();
    const file = await openTokenStore({ state: undefined, env: { DENSE_HOME: '/tmp/dense-x' } });
    expect(file.where).toBe('/tmp/dense-x/gateway/tokens.json');
  });

  it('#36.4 a Redis that does not answer is a typed error, not a hang', async () => {
    const stopped = await startRedisServer();
    await stopped.stop();
    const started = Date.now();
    try {
      await expect(
        openTokenStore({ state: stopped.url, env: {}, connectTimeoutMs: 500 }),
      ).rejects.toMatchObject({ code: 'TOKEN_STATE_UNREACHABLE' });
    } finally {
      await stopped.close();
    }
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

describe('openTokenStore', () => {
  it('#36.4 a state URL that is not redis:// is a typed error; a password is never shown', async () => {
    await expect(openTokenStore({ state: 'http://x', env: {} })).rejects.toMatchObject({
      code: 'TOKEN_STATE_URL_INVALID',
    });
    const { shownStateUrl } = await import('./openTokenStore.js');
    expect(shownStateUrl(new URL('redis://user:s3cret@host:6379/0'))).toBe(
      'redis://user:***@host:6379/0',
    );
  });
});
