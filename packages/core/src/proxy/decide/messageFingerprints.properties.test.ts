import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from './conversationStore.js';
import { densifyRequest } from '../densify/densifyRequest.js';
import { bigSessionTurns } from '../test-utils/bigSession.js';
import { densifyOptions } from '../test-utils/wireRequests.js';

const TURNS = bigSessionTurns(12_000, 6);

const send = (store: ConversationStore, text: string, now: number, pressureTokens: number) =>
  densifyRequest(densifyOptions(text, { sessionId: 's', store, now, pressureTokens }));

const hashesOf = (store: ConversationStore) => store.all()[0]?.lastMessageHashes;

describe('MessageFingerprints', () => {
  test.prop(
    [
      fc.array(fc.tuple(fc.nat(TURNS.length - 1), fc.constantFrom(1, 150_000)), {
        minLength: 1,
        maxLength: 10,
      }),
    ],
    { numRuns: 40 },
  )(
    '#24.4 fingerprints taken from the previous request equal the fingerprints computed afresh, on random orders of requests',
    (requests) => {
      const store = new ConversationStore();
      const fresh = new ConversationStore({ reads: { maxEntries: 0 } });
      for (const [i, [turn, pressure]] of requests.entries()) {
        const text = TURNS[turn] as string;
        const [a, b] = [store, fresh].map((s) => send(s, text, i * 60_000, pressure));
        expect(a?.prefixStable).toBe(b?.prefixStable);
        expect(a?.body.equals(b?.body ?? Buffer.alloc(0))).toBe(true);
        expect(hashesOf(store)).toEqual(hashesOf(fresh));
      }
    },
  );

  it('#24.4 a request that appends to the previous one fingerprints only the messages it re-reads or whose pointers changed', () => {
    const store = new ConversationStore();
    const turns = bigSessionTurns(50_000, 3);
    send(store, turns[0] as string, 0, 150_000);
    const messages = hashesOf(store)?.length ?? 0;
    expect(messages).toBeGreaterThan(100);
    for (const [i, text] of turns.slice(1).entries()) {
      const before = store.fingerprints.fingerprinted;
      send(store, text, (i + 1) * 1000, 150_000);
      expect(store.fingerprints.fingerprinted - before).toBeLessThan(10);
    }
  });
});
