import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectRedis } from '../state/connectRedis.js';
import {
  ensureRedisServer,
  startRedisServer,
  type RedisServer,
} from '../test-utils/redisServer.js';
import { RedisRecallArchive } from './RedisRecallArchive.js';

const missing = ensureRedisServer();
if (missing !== undefined) console.warn(`Skipping the Redis recall archive tests: ${missing}.`);

const id = (n: number) => `r${String(n).padStart(10, '0')}`;

describe.skipIf(missing !== undefined)('RedisRecallArchive on a real redis-server', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis.close();
  });

  it("#36.3 a put is one round trip; any replica recalls the original; another user's root does not know it", async () => {
    const client = await connectRedis(new URL(redis.url));
    try {
      const ada = new RedisRecallArchive({ client, root: 'dense:recall:u:ada' });
      const original = 'export const a = 1;\n'.repeat(300);
      const evals = vi.spyOn(client, 'eval');
      const writer = ada;
      await writer.put('session:s:1', [
        { id: id(1), text: original },
        { id: id(2), text: 'two' },
      ]);
      expect(evals).toHaveBeenCalledTimes(1);
      evals.mockRestore();
      const found = await ada.lookup(id(1));
      expect(found.kind === 'found' ? found.bytes.toString() : found).toBe(original);
      const bo = new RedisRecallArchive({ client, root: 'dense:recall:u:bo' });
      expect(await bo.lookup(id(1))).toEqual({ kind: 'missing', reason: 'unknown' });
      expect(await ada.lookup('nope')).toEqual({ kind: 'missing', reason: 'malformed' });
    } finally {
      await client.close();
    }
  });

  it('#36.3 past its bound a conversation drops its oldest originals, never one the put names, and counts each byte once', async () => {
    const client = await connectRedis(new URL(redis.url));
    try {
      let now = 1_000;
      const archive = new RedisRecallArchive({
        client,
        root: 'dense:recall:u:bounded',
        maxConversationBytes: 10_000,
        now: () => (now += 1_000),
      });
      for (let n = 0; n < 6; n++)
        await archive.put('c', [{ id: id(n), text: `${n}`.repeat(3_000) }]);
      // Named again: not counted twice.
      await archive.put('c', [{ id: id(5), text: '5'.repeat(3_000) }]);
      const kinds = await Promise.all(
        [0, 1, 2, 3, 4, 5].map(async (n) => (await archive.lookup(id(n))).kind),
      );
      expect(kinds).toEqual(['missing', 'missing', 'missing', 'found', 'found', 'found']);
      expect(Number(await client.get('dense:recall:u:bounded:c:c:bytes'))).toBe(9_000);
      // One original larger than the bound is still kept (the put names it).
      await archive.put('c', [{ id: id(9), text: 'x'.repeat(12_000) }]);
      expect((await archive.lookup(id(9))).kind).toBe('found');
      expect((await archive.lookup(id(5))).kind).toBe('missing');
    } finally {
      await client.close();
    }
  });
});
