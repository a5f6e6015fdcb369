import { describe, expect, it } from 'vitest';
import type { EarlyLoad, SharedConversations } from '../../gateway/state/SharedConversations.js';
import { ConversationStore } from '../decide/conversationStore.js';
import { EarlyLoads, SIGNATURE_BYTES } from './earlyLoads.js';

/** A shared store that records what was loaded early. */
function recordingStore(): { shared: SharedConversations; early: string[] } {
  const early: string[] = [];
  const shared: SharedConversations = {
    load: () => Promise.resolve('current'),
    prefetch: (id): EarlyLoad => {
      early.push(id);
      return { id };
    },
    save: () => Promise.resolve('saved'),
    carries: () => false,
    roundTrips: 0,
    close: () => Promise.resolve(),
  };
  return { shared, early };
}

const opening = (text: string) => Buffer.from(text.padEnd(SIGNATURE_BYTES + 100, '.'));

describe('early state loads (guessed from a request beginning)', () => {
  it('#36.7 a request beginning as an earlier one did loads that one’s conversation before it is read', () => {
    const { shared, early } = recordingStore();
    const loads = new EarlyLoads(shared, new ConversationStore());
    const first = loads.forRequest('anthropic', 's1');
    first.start.seen(opening('conversation one').subarray(0, SIGNATURE_BYTES));
    expect(first.load()).toBeUndefined();
    first.learn('session:s1:one');
    const next = loads.forRequest('anthropic', 's1');
    next.start.seen(opening('conversation one').subarray(0, SIGNATURE_BYTES));
    expect(next.load()?.id).toBe('session:s1:one');
    expect(early).toEqual(['session:s1:one']);
  });

  it('#36.4 another session, route or beginning is no guess (one user’s guess never loads for another)', () => {
    const { shared, early } = recordingStore();
    const loads = new EarlyLoads(shared, new ConversationStore());
    const seen = loads.forRequest('anthropic', 'user:ada/s1');
    seen.start.seen(opening('same opening'));
    seen.learn('session:user:ada/s1:x');
    for (const [api, session, text] of [
      ['anthropic', 'user:bob/s1', 'same opening'],
      ['openai-responses', 'user:ada/s1', 'same opening'],
      ['anthropic', 'user:ada/s1', 'another opening'],
    ] as const) {
      const request = loads.forRequest(api, session);
      request.start.seen(opening(text));
      expect(request.load()).toBeUndefined();
    }
    expect(early).toEqual([]);
  });

  it('#36.7 the guesses are bounded: the oldest is forgotten first', () => {
    const { shared } = recordingStore();
    const loads = new EarlyLoads(shared, new ConversationStore());
    const learn = (n: number) => {
      const request = loads.forRequest('anthropic', `s${n}`);
      request.start.seen(opening('x'));
      request.learn(`c${n}`);
    };
    for (let n = 0; n <= 4096; n++) learn(n);
    const guessed = (n: number) => {
      const request = loads.forRequest('anthropic', `s${n}`);
      request.start.seen(opening('x'));
      return request.load()?.id;
    };
    expect(guessed(0)).toBeUndefined();
    expect(guessed(1)).toBe('c1');
    expect(guessed(4096)).toBe('c4096');
  });
});
