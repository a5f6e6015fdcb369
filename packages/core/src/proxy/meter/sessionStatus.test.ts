import { describe, expect, it } from 'vitest';
import { sessionStatus } from './sessionStatus.js';

const totals = (fields: Record<string, number>) => ({
  requests: 1,
  contextUpstreamTokens: 0,
  contextClientTokens: 0,
  billedCost: 0,
  passThroughCost: 0,
  compactionsAvoided: 0,
  ...fields,
});

const SESSION = '0b7c2f3e-1111-4222-8333-944445555666';

describe('dense statusline: the session in /dense/stats', () => {
  it('#37.2 takes the context of the most recently active conversation and sums the rest', () => {
    const stats = {
      conversations: {
        [`session:${SESSION}:aaaa`]: totals({
          contextUpstreamTokens: 40_000,
          contextClientTokens: 150_000,
          billedCost: 50,
          passThroughCost: 100,
          compactionsAvoided: 1,
        }),
        'session:other-session:cccc': totals({ contextClientTokens: 999_999, billedCost: 7 }),
        [`session:${SESSION}:bbbb`]: totals({
          contextUpstreamTokens: 300,
          contextClientTokens: 300,
          billedCost: 10,
          passThroughCost: 20,
          compactionsAvoided: 1,
        }),
      },
      // The side conversation bbbb was listed last, but aaaa answered after it.
      recent: [
        { conversationId: `session:${SESSION}:bbbb`, at: 1_000 },
        { conversationId: `session:${SESSION}:aaaa`, at: 2_000 },
      ],
    };
    expect(sessionStatus(stats, SESSION)).toEqual({
      context: { upstreamTokens: 40_000, clientTokens: 150_000 },
      billedCost: 60,
      passThroughCost: 120,
      compactionsAvoided: 2,
    });
  });

  it('#37.2 without recent records the stats order (least recently active first) decides', () => {
    const stats = {
      conversations: {
        [`session:${SESSION}:aaaa`]: totals({ contextUpstreamTokens: 1, contextClientTokens: 2 }),
        [`session:${SESSION}:bbbb`]: totals({ contextUpstreamTokens: 3, contextClientTokens: 4 }),
        // Not metered yet: no context to show, so the latest metered one is shown.
        [`session:${SESSION}:dddd`]: totals({}),
      },
    };
    expect(sessionStatus(stats, SESSION)?.context).toEqual({ upstreamTokens: 3, clientTokens: 4 });
  });

  it('#37.2 an unknown session, a prefix of another session id or malformed stats read as unknown', () => {
    const stats = { conversations: { [`session:${SESSION}:aaaa`]: totals({}) } };
    expect(sessionStatus(stats, 'someone-else')).toBeUndefined();
    expect(sessionStatus(stats, SESSION.slice(0, 8))).toBeUndefined();
    expect(sessionStatus(stats, '')).toBeUndefined();
    expect(sessionStatus({ conversations: [] }, SESSION)).toBeUndefined();
    expect(sessionStatus('not stats', SESSION)).toBeUndefined();
    expect(
      sessionStatus({ conversations: { [`session:${SESSION}:x`]: 3 } }, SESSION),
    ).toBeUndefined();
    expect(sessionStatus(stats, SESSION)).toEqual({
      context: undefined,
      billedCost: 0,
      passThroughCost: 0,
      compactionsAvoided: 0,
    });
  });
});
