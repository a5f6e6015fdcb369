import { describe, expect, it, vi } from 'vitest';
import { ConversationStore } from '../../proxy/decide/conversationStore.js';
import { longSessionBody } from '../../proxy/test-utils/longSession.js';
import { proxyTo, send, stub, messagesReply } from '../../proxy/test-utils/loopbackProxy.js';
import { ensureRedisServer } from '../test-utils/redisServer.js';
import { redisForTests } from '../test-utils/redisForTests.js';
import { RedisConversations } from './RedisConversations.js';

const missing = ensureRedisServer();
if (missing !== undefined) console.warn(`Skipping the early load tests: ${missing}.`);

const reply = messagesReply(3.7);

const ID = 'session:s:early';

describe.skipIf(missing !== undefined)(
  'state loads sent before the request is read, on a real redis-server',
  { timeout: 30_000 },
  () => {
    const redis = redisForTests();

    async function side(
      options: { timeoutMs?: number } = {},
    ): Promise<{ store: ConversationStore; shared: RedisConversations }> {
      const client = await redis.connect();
      return {
        store: new ConversationStore(),
        shared: new RedisConversations({ client, ...options }),
      };
    }

    /** `a` saves a state for ID that `b` does not hold. */
    async function savedElsewhere(): Promise<void> {
      const a = await side();
      a.store.get(ID, 0).applied.add('decided on a');
      expect(await a.shared.save(ID, a.store)).toBe('saved');
    }

    it('#36.7 a load sent early for the right conversation is the load: one round trip, the newer copy restored', async () => {
      await savedElsewhere();
      const b = await side();
      const early = b.shared.prefetch(ID, b.store);
      expect(await b.shared.load(ID, b.store, undefined, early)).toBe('restored');
      expect([...(b.store.peek(ID)?.applied ?? [])]).toEqual(['decided on a']);
      expect(b.shared.roundTrips).toBe(1);
    });

    it('#36.7 a load sent early for another conversation is sent again for the one the request names', async () => {
      await savedElsewhere();
      const b = await side();
      const early = b.shared.prefetch('session:s:other', b.store);
      expect(await b.shared.load(ID, b.store, undefined, early)).toBe('restored');
      expect(b.shared.roundTrips).toBe(2);
    });

    it('#36.7 an early load is not used once the local copy changed after it was sent', async () => {
      const a = await side();
      const early = a.shared.prefetch(ID, a.store);
      // Answered "none stored"; then a request on this replica decides and saves.
      a.store.get(ID, 0).applied.add('decided here');
      expect(await a.shared.save(ID, a.store)).toBe('saved');
      const held = a.store.peek(ID);
      expect(await a.shared.load(ID, a.store, undefined, early)).toBe('current');
      expect(a.store.peek(ID)).toBe(held);
    });

    it('#36.2 a store silent to the early load makes the request wait once, not twice', async () => {
      const admin = await redis.connect();
      const b = await side({ timeoutMs: 100 });
      await admin.sendCommand(['CLIENT', 'PAUSE', '400', 'ALL']);
      const early = b.shared.prefetch(ID, b.store);
      expect(await b.shared.load(ID, b.store, undefined, early)).toBe('unavailable');
      expect(b.shared.roundTrips).toBe(1);
    });

    it('#36.2 a stored state that does not decode, loaded early or not, makes the request go out unchanged and says why', async () => {
      const raw = await redis.connect();
      await raw.hSet(`dense:conv:${ID}`, { v: '3', s: 'not a gzipped snapshot' });
      const log: string[] = [];
      const client = await redis.connect();
      const b = {
        store: new ConversationStore(),
        shared: new RedisConversations({ client, log: (line) => log.push(line) }),
      };
      expect(await b.shared.load(ID, b.store)).toBe('unavailable');
      const early = b.shared.prefetch(ID, b.store);
      expect(await b.shared.load(ID, b.store, undefined, early)).toBe('unavailable');
      expect(b.store.peek(ID)).toBeUndefined();
      expect(log).toEqual([
        expect.stringContaining('does not decode'),
        expect.stringContaining('does not decode'),
      ]);
    });

    it('#36.7 replicas served round-robin send their loads while the body arrives: at most 2 round trips a request, the same bytes', async () => {
      const upstream = await stub(reply);
      const replicas = await Promise.all(
        [0, 1, 2].map(async () => {
          const { store, shared } = await side();
          const prefetch = vi.spyOn(shared, 'prefetch');
          const proxy = await proxyTo(upstream.url, { workingBudget: 12_000, shared, store });
          return { proxy, shared, prefetch };
        }),
      );
      const single = await stub(reply);
      const one = await proxyTo(single.url, { workingBudget: 12_000 });
      const rounds = 15;
      const headers = {
        'x-api-key': 'k',
        'anthropic-version': '2023-06-01',
        'x-claude-code-session-id': 's1',
      };
      for (let round = 0; round < rounds; round++) {
        const body = longSessionBody(round + 4, 4_000);
        const target = replicas[round % 3]?.proxy.url as string;
        expect((await send(target, { path: '/v1/messages', body, headers })).status).toBe(200);
        await send(one.url, { path: '/v1/messages', body, headers });
      }
      expect(upstream.seen.map((seen) => seen.body.toString())).toEqual(
        single.seen.map((seen) => seen.body.toString()),
      );
      // Each replica guesses from its second request of the conversation on.
      const early = replicas.reduce((sum, { prefetch }) => sum + prefetch.mock.calls.length, 0);
      expect(early).toBe(rounds - 3);
      const trips = replicas.reduce((sum, { shared }) => sum + shared.roundTrips, 0);
      expect(trips).toBe(2 * rounds);
    });
  },
);
