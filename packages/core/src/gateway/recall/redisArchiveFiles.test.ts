import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallArchive } from '../../recall/RecallArchive.js';
import { connectRedis } from '../state/connectRedis.js';
import {
  ensureRedisServer,
  startRedisServer,
  type RedisServer,
} from '../test-utils/redisServer.js';
import { redisArchiveFiles } from './redisArchiveFiles.js';

const missing = ensureRedisServer();
if (missing !== undefined) console.warn(`Skipping the shared recall tests: ${missing}.`);

const entry = (id: string, text: string) => ({ id, text });

describe.skipIf(missing !== undefined)('the recall archive on a real redis-server', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis.close();
  });

  it("#36.3 an original kept by one replica is recalled from another; another user's root does not know it", async () => {
    const client = await connectRedis(new URL(redis.url));
    try {
      const archive = (root: string) =>
        new RecallArchive({ dir: root, files: redisArchiveFiles(client, root) });
      const writer = archive('dense:recall:ana');
      const original = 'export const a = 1;\n'.repeat(400);
      await writer.put('session:s:1', [entry('r0123456789', original)]);
      const reader = archive('dense:recall:ana');
      const found = await reader.lookup('r0123456789');
      expect(found.kind).toBe('found');
      expect(found.kind === 'found' ? found.bytes.toString() : '').toBe(original);
      expect(await archive('dense:recall:bo').lookup('r0123456789')).toEqual({
        kind: 'missing',
        reason: 'unknown',
      });
    } finally {
      await client.close();
    }
  });

  it("#36.3 the archive's bounds hold on Redis: past its size the oldest originals are evicted", async () => {
    const client = await connectRedis(new URL(redis.url));
    try {
      let now = 1_000;
      const root = 'dense:recall:bounded';
      const archive = new RecallArchive({
        dir: root,
        files: redisArchiveFiles(client, root),
        maxConversationBytes: 20_000,
        now: () => now,
      });
      for (let i = 0; i < 8; i++) {
        now += 1_000;
        const id = `r${String(i).padStart(10, '0')}`;
        await archive.put('c', [entry(id, `${i} `.repeat(2_000))]);
      }
      const first = await archive.lookup('r0000000000');
      const last = await archive.lookup('r0000000007');
      expect(first.kind).toBe('missing');
      expect(last.kind).toBe('found');
    } finally {
      await client.close();
    }
  });
});
