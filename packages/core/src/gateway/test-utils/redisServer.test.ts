import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { ensureRedisServer, startRedisServer } from './redisServer.js';

const missing = ensureRedisServer();
if (missing !== undefined) console.warn(`Skipping the redis-server tests: ${missing}.`);

describe.skipIf(missing !== undefined)('a real redis-server on loopback', () => {
  it('#36.6 answers, stops and starts again on the same port', async () => {
    const server = await startRedisServer();
    try {
      const client = createClient({ url: server.url });
      await client.connect();
      await client.set('k', 'v');
      expect(await client.get('k')).toBe('v');
      await client.quit();
      await server.stop();
      await server.start();
      const again = createClient({ url: server.url });
      await again.connect();
      expect(await again.get('k')).toBeNull();
      await again.quit();
    } finally {
      await server.close();
    }
  });
});
