import { describe, expect, it, vi } from 'vitest';
import { gzipSync } from 'node:zlib';
import { ConversationStore, type ConversationState } from '../../proxy/decide/conversationStore.js';
import { conversationSnapshot } from '../../proxy/http/conversationSnapshot.js';
import { densifyRequest } from '../../proxy/densify/densifyRequest.js';
import { longSessionBody } from '../../proxy/test-utils/longSession.js';
import {
  proxyTo,
  send,
  stub,
  type LoopbackProxy,
  messagesReply,
} from '../../proxy/test-utils/loopbackProxy.js';
import { ensureRedisServer } from '../test-utils/redisServer.js';
import { redisForTests } from '../test-utils/redisForTests.js';
import { RedisRecallArchive } from '../recall/RedisRecallArchive.js';
import { RedisConversations } from './RedisConversations.js';

const missing = ensureRedisServer();
if (missing !== undefined) console.warn(`Skipping the shared state tests: ${missing}.`);

const reply = messagesReply(3.7);

const ROUNDS = 16;
const turn = (round: number) => longSessionBody(round + 4, 4_000);
const headers = {
  'x-api-key': 'k',
  'anthropic-version': '2023-06-01',
  'x-claude-code-session-id': 's1',
};
const budget = { workingBudget: 12_000 } as const;

// A real redis-server, stopped and started again in one test: its own timeout (2 s a test loaded).
describe.skipIf(missing !== undefined)(
  'conversation state shared on a real redis-server',
  { timeout: 30_000 },
  () => {
    const redis = redisForTests();

    async function replica(
      upstream: string,
      log: string[] = [],
    ): Promise<{
      proxy: LoopbackProxy;
      shared: RedisConversations;
      recall: RedisRecallArchive;
    }> {
      const client = await redis.connect();
      const shared = new RedisConversations({ client, log: (line) => log.push(line) });
      const recall = new RedisRecallArchive({ client, root: 'dense:recall' });
      const store = new ConversationStore();
      const proxy = await proxyTo(upstream, { ...budget, shared, store, recall });
      return { proxy, shared, recall };
    }

    it('#36.1 #36.2 three replicas served round-robin send every upstream body byte for byte as one process does', async () => {
      const single = await stub(reply);
      const one = await proxyTo(single.url, budget);
      for (let round = 0; round < ROUNDS; round++)
        await send(one.url, { path: '/v1/messages', body: turn(round), headers });

      const shared = await stub(reply);
      const replicas = await Promise.all([0, 1, 2].map(() => replica(shared.url)));
      const puts = replicas.map(({ recall }) => vi.spyOn(recall, 'put'));
      for (let round = 0; round < ROUNDS; round++) {
        const target = replicas[round % 3]?.proxy.url as string;
        const answer = await send(target, { path: '/v1/messages', body: turn(round), headers });
        expect(answer.status).toBe(200);
      }
      expect(shared.seen).toHaveLength(ROUNDS);
      const differing = shared.seen.flatMap((seen, i) =>
        seen.body.equals(single.seen[i]?.body as Buffer) ? [] : [i],
      );
      expect(differing).toEqual([]);
      // The session was compacted by the working budget: the shared state carried real decisions.
      expect(shared.seen.some((seen, i) => seen.body.length < Buffer.byteLength(turn(i)))).toBe(
        true,
      );
      // Every original a pointer names is recallable, kept inside the state saves' round trips.
      const named = new Set(
        shared.seen.flatMap((seen) =>
          [...seen.body.toString().matchAll(/dense recall (r[0-9a-f]{10})/g)].map(
            (m) => m[1] as string,
          ),
        ),
      );
      expect(named.size).toBeGreaterThan(0);
      for (const id of named) expect((await replicas[0]?.recall.lookup(id))?.kind).toBe('found');
      expect(puts.every((put) => put.mock.calls.length === 0)).toBe(true);
      const trips = replicas.reduce((sum, { shared: s }) => sum + s.roundTrips, 0);
      expect(trips / ROUNDS).toBeLessThanOrEqual(2);
      // The meter too: each replica prices its requests against pass-through as one process does.
      const totals = one.stats.toJSON().totals;
      const summed = (key: 'billedCost' | 'passThroughCost') =>
        replicas.reduce((sum, { proxy }) => sum + proxy.stats.toJSON().totals[key], 0);
      expect(totals.passThroughCost).toBeGreaterThan(0);
      expect(summed('billedCost')).toBeCloseTo(totals.billedCost, 6);
      expect(summed('passThroughCost')).toBeCloseTo(totals.passThroughCost, 6);
    });

    it('#36.2 a token count reads the shared state too: both replicas count the bytes the next request is sent as', async () => {
      const upstream = await stub(reply);
      const [a, b] = await Promise.all([0, 1].map(() => replica(upstream.url)));
      // Every model request on replica a: b's own copy of the conversation is never updated locally.
      for (let round = 0; round < 12; round++)
        await send(a?.proxy.url as string, { path: '/v1/messages', body: turn(round), headers });
      const count = { path: '/v1/messages/count_tokens', body: turn(12), headers };
      await send(a?.proxy.url as string, count);
      await send(b?.proxy.url as string, count);
      const [fromA, fromB] = upstream.seen.slice(-2).map((seen) => seen.body);
      expect(fromA?.length).toBeLessThan(Buffer.byteLength(turn(12)));
      expect(fromB?.equals(fromA as Buffer)).toBe(true);
    });

    it('#36.2 with redis-server stopped mid-session, requests go out unchanged and none fails; density resumes once it is back', async () => {
      const upstream = await stub(reply);
      const log: string[] = [];
      const { proxy } = await replica(upstream.url, log);
      const statuses: number[] = [];
      const at = async (round: number) =>
        statuses.push(
          (await send(proxy.url, { path: '/v1/messages', body: turn(round), headers })).status,
        );
      for (let round = 0; round < 10; round++) await at(round);
      const compactedBefore = upstream.seen.at(-1)?.body.length as number;
      expect(compactedBefore).toBeLessThan(Buffer.byteLength(turn(9)));
      await redis.server().stop();
      await at(10);
      await at(11);
      // Passed through unchanged while the store is down.
      expect(upstream.seen[10]?.body.equals(Buffer.from(turn(10)))).toBe(true);
      expect(upstream.seen[11]?.body.equals(Buffer.from(turn(11)))).toBe(true);
      await redis.server().start();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await at(12);
      await at(13);
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(upstream.seen[13]?.body.length).toBeLessThan(Buffer.byteLength(turn(13)));
      expect(log.some((line) => line.includes('does not answer'))).toBe(true);
      expect(log.some((line) => line.includes('answers again'))).toBe(true);
    });

    it('#36.2 two replicas saving one conversation at once lose no update (the later one redoes its decisions on the newer copy)', async () => {
      const client = await redis.connect();
      const a = { store: new ConversationStore(), shared: new RedisConversations({ client }) };
      const b = { store: new ConversationStore(), shared: new RedisConversations({ client }) };
      const id = 'session:s:race';
      for (const side of [a, b]) expect(await side.shared.load(id, side.store)).toBe('new');
      a.store.get(id, 0).applied.add('from-a');
      b.store.get(id, 0).applied.add('from-b');
      expect(await a.shared.save(id, a.store)).toBe('saved');
      expect(await b.shared.save(id, b.store)).toBe('conflict');
      expect(await b.shared.load(id, b.store)).toBe('restored');
      b.store.get(id, 0).applied.add('from-b');
      expect(await b.shared.save(id, b.store)).toBe('saved');
      const fresh = { store: new ConversationStore(), shared: new RedisConversations({ client }) };
      expect(await fresh.shared.load(id, fresh.store)).toBe('restored');
      expect([...fresh.store.get(id, 0).applied].sort()).toEqual(['from-a', 'from-b']);
    });

    it("#36.7 a save carries the request's originals in its one round trip, conflict or not; an archive on another client is not carried", async () => {
      const client = await redis.connect();
      const other = await redis.connect();
      const archive = new RedisRecallArchive({ client, root: 'dense:recall:u:ada' });
      const a = { store: new ConversationStore(), shared: new RedisConversations({ client }) };
      const b = { store: new ConversationStore(), shared: new RedisConversations({ client }) };
      const id = 'session:s:carried';
      const originals = (recallId: string) => ({
        archive,
        conversationId: id,
        entries: [{ id: recallId, text: `original of ${recallId}` }],
      });
      for (const side of [a, b]) await side.shared.load(id, side.store);
      a.store.get(id, 0).applied.add('from-a');
      b.store.get(id, 0).applied.add('from-b');
      expect(a.shared.carries(originals('r00000000a1'))).toBe(true);
      expect(await a.shared.save(id, a.store, undefined, originals('r00000000a1'))).toBe('saved');
      expect(await b.shared.save(id, b.store, undefined, originals('r00000000b2'))).toBe(
        'conflict',
      );
      expect(a.shared.roundTrips + b.shared.roundTrips).toBe(4);
      for (const recallId of ['r00000000a1', 'r00000000b2']) {
        const found = await archive.lookup(recallId);
        expect(found.kind === 'found' && found.bytes.toString()).toBe(`original of ${recallId}`);
      }
      const elsewhere = new RedisRecallArchive({ client: other, root: 'dense:recall:u:ada' });
      expect(a.shared.carries({ ...originals('r00000000c3'), archive: elsewhere })).toBe(false);
    });

    it('#36.2 a store that answers too late is reported as such, and the load gives up in time', async () => {
      const client = await redis.connect();
      const admin = await redis.connect();
      const log: string[] = [];
      const shared = new RedisConversations({
        client,
        timeoutMs: 100,
        log: (line) => log.push(line),
      });
      await admin.sendCommand(['CLIENT', 'PAUSE', '600', 'ALL']);
      expect(await shared.load('session:s:late', new ConversationStore())).toBe('unavailable');
      expect(log).toEqual([expect.stringContaining('(no answer in 100 ms)')]);
    });

    /** Decides `turn(round)` on `store` as a replica with the working budget on. */
    function decide(store: ConversationStore, round: number): string {
      return densifyRequest({
        api: 'anthropic',
        body: Buffer.from(turn(round)),
        sessionId: 's',
        store,
        now: round * 1_000,
        pressureTokens: 150_000,
        workingBudget: { tokens: budget.workingBudget, longContext: false },
      }).conversationId as string;
    }

    /** The rounds of `turn` up to the first with a standing compaction on `store`. */
    function untilCompacted(store: ConversationStore): { id: string; round: number } {
      for (let round = 0; round < ROUNDS; round++) {
        const id = decide(store, round);
        if (store.peek(id)?.budget.compaction !== undefined) return { id, round };
      }
      throw new Error('the session never compacted');
    }

    it('#36.1 the standing compaction is stored apart: sent once while it stands, and a replica that holds it loads only the rest', async () => {
      const [clientA, clientB] = [await redis.connect(), await redis.connect()];
      const [a, b] = [clientA, clientB].map((client) => new RedisConversations({ client }));
      const [storeA, storeB] = [new ConversationStore(), new ConversationStore()];
      const sentA = vi.spyOn(clientA, 'sendCommand');
      const sentB = vi.spyOn(clientB, 'sendCommand');
      const saveArgs = () => sentA.mock.calls.at(-1)?.[0] as readonly (string | Buffer)[];
      const { id, round } = untilCompacted(storeA);
      expect(await a?.save(id, storeA)).toBe('saved');
      const first = saveArgs();
      expect(first.slice(6, 7)).toEqual(['new']);
      expect((first[7] as Buffer).length).toBeGreaterThan(100);
      const compactedAt = (await clientA.hGet(`dense:conv:${id}`, 'cv')) as string;

      // B loads the whole of it once.
      expect(await b?.load(id, storeB)).toBe('restored');
      expect(storeB.peek(id)?.budget.compaction).toEqual(storeA.peek(id)?.budget.compaction);

      // A decides the next request with the compaction standing: the save leaves it as stored.
      decide(storeA, round + 1);
      expect(storeA.peek(id)?.budget.compaction?.replacement).toBe(
        storeB.peek(id)?.budget.compaction?.replacement,
      );
      expect(await a?.save(id, storeA)).toBe('saved');
      expect(saveArgs().slice(6, 8)).toEqual([compactedAt, '']);
      expect(await clientA.hGet(`dense:conv:${id}`, 'cv')).toBe(compactedAt);

      // B loads the newer version without the compaction it holds.
      sentB.mockClear();
      expect(await b?.load(id, storeB)).toBe('restored');
      const loaded = (await sentB.mock.results[0]?.value) as readonly Buffer[];
      expect(loaded).toHaveLength(3);
      expect(storeB.peek(id)?.budget.compaction).toEqual(storeA.peek(id)?.budget.compaction);

      // A compaction that no longer stands where a save expects it makes the save conflict.
      decide(storeA, round + 2);
      await clientB.hSet(`dense:conv:${id}`, 'cv', '999');
      expect(await a?.save(id, storeA)).toBe('conflict');
    });

    it('#36.1 a state stored by the previous format (its compaction inside the snapshot) is still restored', async () => {
      const client = await redis.connect();
      const shared = new RedisConversations({ client });
      const store = new ConversationStore();
      const { id } = untilCompacted(store);
      const state = store.peek(id) as ConversationState;
      const inline = { ...conversationSnapshot(state), format: 2 };
      const data = gzipSync(Buffer.from(JSON.stringify(inline)));
      await client.hSet(`dense:conv:${id}`, { v: '4', s: data });
      const fresh = new ConversationStore();
      expect(await shared.load(id, fresh)).toBe('restored');
      expect(fresh.peek(id)?.budget.compaction).toEqual(state.budget.compaction);
      expect(await shared.save(id, fresh)).toBe('saved');
      expect(await client.hGet(`dense:conv:${id}`, 'cv')).toBe('5');
    });

    it('#36.1 a load whose version this replica already holds transfers no snapshot', async () => {
      const client = await redis.connect();
      const shared = new RedisConversations({ client });
      const store = new ConversationStore();
      const id = densifyRequest({
        api: 'anthropic',
        body: Buffer.from(turn(3)),
        sessionId: 's',
        store,
        now: 1,
        pressureTokens: 150_000,
      }).conversationId as string;
      expect(await shared.save(id, store)).toBe('saved');
      const held = store.peek(id);
      expect(await shared.load(id, store)).toBe('current');
      expect(store.peek(id)).toBe(held);
    });
  },
);
