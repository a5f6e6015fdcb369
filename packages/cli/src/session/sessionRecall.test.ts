import { describe, expect, it } from 'vitest';
import type { AgentSession, ArchiveLookup, RecallEntry } from '@dense/core';
import { createSessionRecall } from './sessionRecall.js';

type Listener = (event: unknown) => void;

/** The events a session's recall listens to, as plain emitters. */
function fakeSession() {
  const listeners = new Map<string, Listener[]>();
  const events = {
    on(name: string, listener: Listener) {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
      return () => undefined;
    },
  };
  const session = {
    history: { getRawHistory: () => [] },
    chat: { events },
    compression: { events },
  } as unknown as AgentSession;
  const emit = (name: string, event: unknown) => {
    for (const listener of listeners.get(name) ?? []) listener(event);
  };
  return { session, emit };
}

const compacted = (recall: readonly RecallEntry[]) => ({
  result: {
    kind: 'applied',
    newHistory: [],
    metadata: {
      originalMessageCount: 4,
      compressedMessageCount: 1,
      strategyUsed: 'high-density',
      llmCallMade: false,
      recall,
    },
  },
});

const NO_RECORDING = { path: '/nowhere/session.jsonl', hasFile: false };

describe('a CLI session’s recall of what its compactions name', () => {
  it('#35.1 a compaction’s originals resolve at once and go to the archive under the session id', async () => {
    const puts: { conversationId: string; ids: string[] }[] = [];
    const archive = {
      put: (conversationId: string, entries: readonly RecallEntry[]) => {
        puts.push({ conversationId, ids: entries.map((entry) => entry.id) });
        return Promise.resolve();
      },
      lookup: (): Promise<ArchiveLookup> => Promise.resolve({ kind: 'missing', reason: 'unknown' }),
    };
    const recall = createSessionRecall(NO_RECORDING, {
      archive,
      conversationId: 's-1',
      onError: () => undefined,
    });
    const { session, emit } = fakeSession();
    recall.attach(session);
    emit('compressed', compacted([{ id: 'r00000000c1', text: 'the removed turns' }]));
    await recall.settled();
    expect(puts).toEqual([{ conversationId: 's-1', ids: ['r00000000c1'] }]);
    expect(await recall.store.lookup('r00000000c1')).toEqual({
      kind: 'found',
      content: 'the removed turns',
    });
  });

  it('#35.1 an archive that cannot be written is a notice; the ids still resolve in this session', async () => {
    const notices: string[] = [];
    const recall = createSessionRecall(NO_RECORDING, {
      archive: {
        put: () => Promise.reject(new Error('EACCES: permission denied')),
        lookup: () => Promise.resolve({ kind: 'missing', reason: 'unknown' }),
      },
      conversationId: 's-2',
      onError: (message) => notices.push(message),
    });
    const { session, emit } = fakeSession();
    recall.attach(session);
    emit('compressed', compacted([{ id: 'r00000000c2', text: 'kept in memory' }]));
    await recall.settled();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('EACCES');
    expect((await recall.store.lookup('r00000000c2')).kind).toBe('found');
  });
});
