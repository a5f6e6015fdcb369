import { describe, expect, it } from 'vitest';
import { cacheRulesFor } from '../../cache/cacheRules.js';
import { DIRECT_START, afterAnswered, beforePriced, directCompactionCost } from './directClient.js';
import { ProxyStats } from './proxyStats.js';
import { type ProxyRequestRecord } from './proxyRecord.js';

const rules = cacheRulesFor('anthropic');

function request(at: number, extra: Partial<ProxyRequestRecord>): ProxyRequestRecord {
  return {
    at,
    route: 'anthropic',
    status: 200,
    end: 'complete',
    conversationId: 'session:s1:aaaa',
    durationMs: 1,
    usage: undefined,
    removedChars: 0,
    pointers: 0,
    newEdits: 0,
    schedule: 'none',
    prefixStable: undefined,
    ...extra,
  };
}

describe('directClient: the client passed through, for the live meter (#34.4)', () => {
  it('#34.4 a compaction Dense induced is carried until the direct client would have compacted by itself; one the client made is a model call', () => {
    const induced = afterAnswered(DIRECT_START, { induced: true, heldTokens: 160_000 });
    expect(induced).toEqual({
      state: { carriedTokens: 0, pendingHeldTokens: 160_000 },
      chargeCompaction: false,
    });
    // The first request after: the client holds 25,000 (summary, system, tools); direct still 160,000.
    const first = beforePriced(induced.state, { clientTokens: 25_000, threshold: 167_000 });
    expect(first).toEqual({ state: { carriedTokens: 135_000 }, promptTokens: 160_000 });
    const below = beforePriced(first.state, { clientTokens: 30_000, threshold: 167_000 });
    expect(below.promptTokens).toBe(165_000);
    expect(below.compactedTokens).toBeUndefined();
    const past = beforePriced(first.state, { clientTokens: 36_000, threshold: 167_000 });
    expect(past).toEqual({ state: DIRECT_START, promptTokens: 36_000, compactedTokens: 167_000 });
    const own = afterAnswered(DIRECT_START, { induced: false, heldTokens: 1 });
    expect(own.chargeCompaction).toBe(true);
  });

  it("#34.4 the direct client's compaction call reads its warm prefix: about a tenth of its prompt", () => {
    const previous = { at: 0, promptTokens: 150_000 };
    const cost = directCompactionCost({ rules, heldTokens: 160_000, at: 60_000, previous });
    expect(cost).toBeGreaterThan(15_000);
    expect(cost).toBeLessThan(30_000);
    const cold = directCompactionCost({ rules, heldTokens: 160_000, at: 3_600_000, previous });
    expect(cold).toBeGreaterThan(160_000);
  });

  it('#34.4 stats: a compaction the client made itself is priced as the call it avoided; an induced one carries the history into later requests of the session', () => {
    const pricing = {
      provider: 'anthropic' as const,
      originalBytes: 400_000,
      sentBytes: 100_000,
      clientThreshold: 167_000,
    };
    const usage = { input: 0, cacheCreation: 0, cacheRead: 40_000, output: 10 };
    const own = new ProxyStats();
    own.record(request(0, { usage }), pricing);
    const answered = own.record(
      request(1_000, { compaction: { kind: 'answered', cut: 10, summaryTokens: 5_000 } }),
      { provider: 'anthropic', originalBytes: 1, sentBytes: 1 },
    );
    expect(answered.cost?.billed).toBe(0);
    expect(answered.cost?.passThrough).toBeGreaterThan(15_000);
    expect(own.toJSON().totals.compactionsAnswered).toBe(1);

    const told = new ProxyStats();
    told.record(request(0, { usage }), pricing);
    const inducedAnswer = told.record(
      request(1_000, {
        compaction: { kind: 'answered', cut: 10, induced: true, summaryTokens: 5_000 },
      }),
      { provider: 'anthropic', originalBytes: 1, sentBytes: 1 },
    );
    expect(inducedAnswer.cost).toBeUndefined();
    expect(told.toJSON().totals.compactionsAnswered).toBe(0);
    // The session's next conversation (after the compaction): its direct prompt holds the carry.
    const small = { input: 0, cacheCreation: 0, cacheRead: 10_000, output: 10 };
    const after = told.record(request(2_000, { conversationId: 'session:s1:bbbb', usage: small }), {
      ...pricing,
      originalBytes: 100_000,
    });
    expect(after.context?.clientTokens).toBe(10_000);
    expect(after.cost?.passThrough).toBeGreaterThan(after.cost?.billed ?? 0);
  });

  it('#34.4 an induced compaction carries what it took out for good (covered less summary), so the first request after keeps its new turn', () => {
    const stats = new ProxyStats();
    // 4 bytes a token: 40,000 tokens held, 35,000 of them history the summary covers.
    stats.record(
      request(0, { usage: { input: 0, cacheCreation: 0, cacheRead: 40_000, output: 10 } }),
      {
        provider: 'anthropic',
        originalBytes: 160_000,
        sentBytes: 160_000,
        clientThreshold: 167_000,
      },
    );
    stats.record(
      request(1_000, {
        compaction: {
          kind: 'answered',
          cut: 10,
          induced: true,
          summaryTokens: 1_000,
          coveredBytes: 140_000,
          summaryBytes: 4_000,
        },
      }),
      { provider: 'anthropic', originalBytes: 162_000, sentBytes: 162_000 },
    );
    // After: 5,000 system and tools, the 1,000-token summary and a new 3,000-token turn.
    const after = stats.record(
      request(2_000, {
        conversationId: 'session:s1:bbbb',
        usage: { input: 0, cacheCreation: 9_000, cacheRead: 0, output: 10 },
      }),
      { provider: 'anthropic', originalBytes: 36_000, sentBytes: 36_000, clientThreshold: 167_000 },
    );
    // Direct: the 40,000 it held, read from its cache, and the new turn written.
    expect(after.cost?.passThrough).toBeCloseTo(40_000 * 0.1 + 3_000 * 1.25, 0);
  });

  it("#34.4 the client's own compaction is priced over what its request holds: the turn added since the last request included", () => {
    const priced = (compactionBytes: number) => {
      const stats = new ProxyStats();
      stats.record(
        request(0, { usage: { input: 0, cacheCreation: 0, cacheRead: 40_000, output: 10 } }),
        { provider: 'anthropic', originalBytes: 160_000, sentBytes: 160_000 },
      );
      return stats.record(
        request(1_000, { compaction: { kind: 'answered', cut: 10, summaryTokens: 1_000 } }),
        { provider: 'anthropic', originalBytes: compactionBytes, sentBytes: compactionBytes },
      ).cost?.passThrough;
    };
    // 40,000 bytes more at 4 bytes a token: 10,000 tokens the call writes beyond its warm prefix.
    expect((priced(200_000) ?? 0) - (priced(160_000) ?? 0)).toBeCloseTo(10_000 * 1.25, 0);
  });
});
