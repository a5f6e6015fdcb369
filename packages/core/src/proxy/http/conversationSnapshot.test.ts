import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { ConversationStore, type ConversationState } from '../decide/conversationStore.js';
import {
  conversationSnapshot,
  decodeCompaction,
  decodeSnapshot,
  encodeCompaction,
  encodeSnapshot,
  restoreConversation,
  SnapshotError,
  type ConversationSnapshot,
} from './conversationSnapshot.js';
import { densifyRequest, type DensifyOptions } from '../densify/densifyRequest.js';
import { bigSessionTurns } from '../test-utils/bigSession.js';
import { longSessionBody } from '../test-utils/longSession.js';
import { codexBody } from '../test-utils/wireRequests.js';
import type { WireApi } from '../wire/wireHistory.js';

interface Turn {
  readonly api: WireApi;
  readonly text: string;
  readonly pressureTokens?: number;
}

const options = (turn: Turn, i: number, store: ConversationStore): DensifyOptions => ({
  api: turn.api,
  body: Buffer.from(turn.text),
  sessionId: 's',
  store,
  now: i * 20_000,
  pressureTokens: turn.pressureTokens ?? 150_000,
  workingBudget: { tokens: 12_000, longContext: false },
});

/** A snapshot as a shared store holds it: the snapshot and its standing compaction apart. */
interface Stored {
  readonly snapshot: Buffer;
  readonly compaction: Buffer | undefined;
}

function stored(snapshot: ConversationSnapshot): Stored {
  const { compaction } = snapshot.budget;
  return {
    snapshot: encodeSnapshot(snapshot),
    compaction: compaction === undefined ? undefined : encodeCompaction(compaction),
  };
}

function loaded({ snapshot, compaction }: Stored): ConversationSnapshot {
  return decodeSnapshot(
    snapshot,
    compaction === undefined ? undefined : decodeCompaction(compaction),
  );
}

const storedBytes = (held: Stored) => held.snapshot.length + (held.compaction?.length ?? 0);

/**
 * Sends `turns` through one store, and through `replicas` stores that share nothing but each
 * conversation's encoded snapshot (what a shared store holds): request i goes to replica
 * `serve(i)`, which takes the shared snapshot before deciding and leaves its own after.
 */
function alternate(turns: readonly Turn[], replicas: number, serve: (i: number) => number) {
  const single = new ConversationStore();
  const stores = Array.from({ length: replicas }, () => new ConversationStore());
  const shared = new Map<string, Stored>();
  const differing: number[] = [];
  let changed = 0;
  let largest = 0;
  for (const [i, turn] of turns.entries()) {
    const expected = densifyRequest(options(turn, i, single));
    const store = stores[serve(i) % replicas] as ConversationStore;
    const id = expected.conversationId as string;
    const held = shared.get(id);
    if (held !== undefined) store.put(restoreConversation(id, loaded(held)));
    const sent = densifyRequest(options(turn, i, store));
    const encoded = stored(conversationSnapshot(store.peek(id) as ConversationState));
    largest = Math.max(largest, storedBytes(encoded));
    shared.set(id, encoded);
    if (!sent.body.equals(expected.body)) differing.push(i);
    if (!expected.body.equals(Buffer.from(turn.text))) changed++;
  }
  return { differing, changed, largest, stores };
}

const anthropicTurns = (): Turn[] =>
  bigSessionTurns(30_000, 14).map((text) => ({ api: 'anthropic' as const, text }));

const budgetTurns = (): Turn[] =>
  Array.from({ length: 14 }, (_, round) => ({
    api: 'anthropic' as const,
    text: longSessionBody(round + 4, 4_000),
  }));

/** Codex cats a file, patches it, cats it again: the first read is stale (a pointer). */
const codexTurns = (): Turn[] =>
  Array.from({ length: 7 }, (_, step) => ({
    api: 'openai-responses' as const,
    text: codexBody(step + 1),
    pressureTokens: 100,
  }));

// Snapshots of 1M tokens of history: up to 2 s a test under load.
describe('conversationSnapshot', { timeout: 30_000 }, () => {
  it('#36.1 replicas that share only the snapshot send the bytes one process sends (pointers, Anthropic)', () => {
    const turns = anthropicTurns();
    const { differing, stores } = alternate(turns, 3, (i) => i);
    expect(differing).toEqual([]);
    // The stale results' pointer verdicts ride in the shared state (no replica weighs them again).
    const last = stores[(turns.length - 1) % 3] as ConversationStore;
    const id = densifyRequest(options(turns[0] as Turn, 0, new ConversationStore())).conversationId;
    const state = last.peek(id as string);
    expect(state?.applied.size).toBeGreaterThan(0);
    expect(state?.pointerVerdicts.known.size).toBeGreaterThanOrEqual(state?.applied.size ?? 1);
  });

  it('#36.1 ... and with the working budget compacting', () => {
    const single = new ConversationStore();
    const turns = budgetTurns();
    const kinds = turns.map(
      (turn, i) => densifyRequest(options(turn, i, single)).compaction?.kind ?? 'none',
    );
    expect(kinds).toContain('compacted');
    expect(kinds).toContain('kept');
    expect(alternate(turns, 2, (i) => i).differing).toEqual([]);
  });

  it('#36.7 a replica repeats a restored compaction it confirmed itself without hashing its region again', () => {
    const turns = Array.from({ length: 24 }, (_, round) => ({
      api: 'anthropic' as const,
      text: longSessionBody(round + 4, 4_000),
    }));
    const { differing, stores } = alternate(turns, 3, (i) => i);
    expect(differing).toEqual([]);
    const verified = stores.reduce((sum, store) => sum + store.compactionReads.counts.verified, 0);
    expect(verified).toBeGreaterThan(0);
  });

  it('#36.1 ... and for Codex (OpenAI Responses)', () => {
    const { differing, changed } = alternate(codexTurns(), 2, (i) => i);
    expect(changed).toBeGreaterThan(3);
    expect(differing).toEqual([]);
  });

  test.prop([fc.array(fc.nat(2), { minLength: 14, maxLength: 14 })], { numRuns: 12 })(
    '#36.1 whichever replica serves each request, the bytes are the same',
    (serving) => {
      const { differing } = alternate(budgetTurns(), 3, (i) => serving[i] as number);
      expect(differing).toEqual([]);
    },
  );

  it('#36.1 a snapshot restores to the same snapshot', () => {
    const store = new ConversationStore();
    let id = '';
    for (const [i, turn] of budgetTurns().entries())
      id = densifyRequest(options(turn, i, store)).conversationId as string;
    const snapshot = conversationSnapshot(store.peek(id) as ConversationState);
    const again = conversationSnapshot(restoreConversation(id, loaded(stored(snapshot))));
    expect(again).toEqual(snapshot);
    // Stored alone, the snapshot holds no compaction: it is stored apart.
    expect(decodeSnapshot(encodeSnapshot(snapshot)).budget.compaction).toBeUndefined();
    expect(snapshot.ledger).toBeDefined();
    expect(snapshot.budget.compaction).toBeDefined();
  });

  it('#36.1 bytes that are no snapshot give a typed error, not a crash', () => {
    expect(() => decodeSnapshot(Buffer.from('not gzip'))).toThrow(SnapshotError);
    expect(() =>
      decodeCompaction(encodeSnapshot(conversationSnapshot(new ConversationStore().get('c')))),
    ).toThrow(/lacks its fields/);
    try {
      decodeSnapshot(Buffer.from('x'));
    } catch (error) {
      expect((error as SnapshotError).code).toBe('DENSE_STATE_SNAPSHOT_INVALID');
    }
  });

  it('#36.1 at 1M tokens of history the shared state stays under 64 KB (working budget on)', () => {
    const store = new ConversationStore();
    let id = '';
    for (const [i, text] of bigSessionTurns(1_000_000, 3).entries()) {
      const workingBudget = { tokens: 80_000, longContext: false };
      const turn = { api: 'anthropic' as const, text };
      id = densifyRequest({ ...options(turn, i, store), workingBudget }).conversationId as string;
    }
    const snapshot = conversationSnapshot(store.peek(id) as ConversationState);
    expect(snapshot.budget.compaction).toBeDefined();
    expect(snapshot.applied.length).toBeGreaterThan(100);
    expect(storedBytes(stored(snapshot))).toBeLessThan(64 * 1024);
  }, 120_000);
});
