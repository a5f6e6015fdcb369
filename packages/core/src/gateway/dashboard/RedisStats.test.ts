import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyRequest } from '../../proxy/test-utils/proxyRecords.js';
import { connectRedis } from '../state/connectRedis.js';
import {
  ensureRedisServer,
  startRedisServer,
  type RedisServer,
} from '../test-utils/redisServer.js';
import { RedisStats } from './RedisStats.js';
import { StatsTimeline } from './StatsTimeline.js';

const missing = ensureRedisServer();
if (missing !== undefined) console.warn(`Skipping the team stats tests: ${missing}.`);

const NOW = Date.UTC(2026, 11, 2, 12, 0, 0);
const HOUR = 60 * 60_000;

// A real redis-server, stopped and started again: up to 2 s a test under load.
describe.skipIf(missing !== undefined)(
  'team counters summed on a real redis-server',
  { timeout: 30_000 },
  () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(async () => {
      await redis.close();
    });

    it('#36.5 two replicas pushing their deltas give the team the sum of every request, each user only their own', async () => {
      const client = await connectRedis(new URL(redis.url));
      try {
        const stats = new RedisStats({ client, now: () => NOW });
        const replicas = [0, 1].map(() => new StatsTimeline({ now: () => NOW }));
        const single = new StatsTimeline({ now: () => NOW });
        const requests = [
          ['ana', NOW - 5 * 60_000, 0],
          ['bo', NOW - 3 * 24 * HOUR, 1],
          ['ana', NOW - 26 * HOUR, 1],
          ['ana', NOW - 60_000, 0],
          ['bo', NOW - 2 * 60_000, 0],
        ] as const;
        for (const [i, [user, at, replica]] of requests.entries()) {
          const record = proxyRequest({
            at,
            usage: { input: 100 + i, cacheCreation: 0, cacheRead: 0, output: 5 },
          });
          replicas[replica]?.record(user, record);
          single.record(user, record);
          // Pushed in pieces: after each request, from whichever replica served it.
          expect(
            await stats.push(replicas[replica]?.drainDelta() ?? { version: 1, users: {} }),
          ).toBe(true);
        }
        const team = await stats.timeline();
        expect(team?.totals()).toEqual(single.totals());
        expect(team?.totals('ana')).toEqual(single.totals('ana'));
        const ana = team?.teamStats('ana');
        expect(Object.keys(ana?.users ?? {})).toEqual(['ana']);
        expect(JSON.stringify(ana)).not.toContain('bo');
        expect(team?.totals().requests).toBe(5);
      } finally {
        await client.close();
      }
    });

    it('#36.5 a push while redis-server is down is kept and pushed with the next one', async () => {
      const client = await connectRedis(new URL(redis.url));
      try {
        await client.flushAll();
        const stats = new RedisStats({ client, now: () => NOW, timeoutMs: 300 });
        const timeline = new StatsTimeline({ now: () => NOW });
        timeline.record('cy', proxyRequest({ at: NOW - 60_000 }));
        await redis.stop();
        expect(await stats.push(timeline.drainDelta())).toBe(false);
        expect(await stats.timeline()).toBeUndefined();
        await redis.start();
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        timeline.record('cy', proxyRequest({ at: NOW - 30_000 }));
        expect(await stats.push(timeline.drainDelta())).toBe(true);
        expect((await stats.timeline())?.totals('cy').requests).toBe(2);
      } finally {
        await client.close().catch(() => undefined);
      }
    });
  },
);
