import { describe, expect, it } from 'vitest';
import { ConversationStore } from './conversationStore.js';
import { densifyRequest } from '../densify/densifyRequest.js';
import { proxyPointer } from './proxyPointer.js';
import { bigSessionTurns } from '../test-utils/bigSession.js';
import { densifyOptions } from '../test-utils/wireRequests.js';

const send = (store: ConversationStore, text: string, now: number) =>
  densifyRequest(densifyOptions(text, { sessionId: 's', store, now, pressureTokens: 150_000 }));

describe('MessageFingerprints', () => {
  it('#24.4 a request that appends to the previous one hashes only the messages it re-reads', () => {
    const store = new ConversationStore();
    const turns = bigSessionTurns(50_000, 3);
    send(store, turns[0] as string, 0);
    const before = store.fingerprints.hashedChars;
    for (const [i, text] of turns.slice(1).entries()) {
      const hashed = store.fingerprints.hashedChars;
      expect(send(store, text, (i + 1) * 1000).prefixStable).toBe(true);
      // The previous newest message (its breakpoint moved) and the two new ones.
      expect(store.fingerprints.hashedChars - hashed).toBeLessThan(text.length / 20);
    }
    expect(before).toBeGreaterThan((turns[0] as string).length / 2);
  });

  it('#24.4 prefix stability across appends and rewinds: stable on append, not on a rewind, the same with the read cache as without it', () => {
    const store = new ConversationStore();
    const uncached = new ConversationStore({ reads: { maxEntries: 0 } });
    const turns = bigSessionTurns(20_000, 4);
    const order = [0, 1, 2, 1, 3, 0];
    const stable: (boolean | undefined)[] = [];
    for (const [i, turn] of order.entries()) {
      const text = turns[turn] as string;
      const [a, b] = [store, uncached].map((s) => send(s, text, i * 1000));
      expect(a?.prefixStable).toBe(b?.prefixStable);
      stable.push(a?.prefixStable);
    }
    // Rewinding to an earlier turn changes what the kept messages hold; appending again does not.
    expect(stable).toEqual([undefined, true, true, false, true, false]);
  });

  it('#24.4 the same pointers in another order give the same fingerprints', () => {
    const store = new ConversationStore();
    const text = bigSessionTurns(5_000, 1)[0] as string;
    const result = send(store, text, 0);
    expect(result.pointers).toBeGreaterThan(1);
    const read = store.reads.read({ api: 'anthropic', text, sessionId: 's' });
    if (read.outcome.kind !== 'history') throw new Error('not read');
    const wire = read.outcome.wire;
    const sites = wire.sites.slice(0, 3).map((site, i) => ({
      ...site,
      recallId: `r${i}`,
      pointer: proxyPointer(`r${i}`),
    }));
    // Two pointers in one message, as a client that sends parallel results puts them.
    const twoInOne = [sites[0], { ...sites[1], messageIndex: sites[0]?.messageIndex }].filter(
      (site) => site !== undefined,
    ) as typeof sites;
    expect(store.fingerprints.of(text, wire, twoInOne)).toEqual(
      store.fingerprints.of(text, wire, [...twoInOne].reverse()),
    );
  });
});
