import { describe, expect, it } from 'vitest';
import { MAX_SIGNALS, historyBound, promptToReport } from './clientHistoryBound.js';

describe("clientHistoryBound: the client's own history stays bounded (#34.1)", () => {
  it("#34.1 the bound is the smaller of the client's threshold and two working budgets", () => {
    const claude = historyBound({
      model: 'claude-sonnet-4-6',
      longContext: false,
      client: 'claude-code',
      budgetTokens: undefined,
    });
    expect(claude).toEqual({
      boundTokens: 160_000,
      thresholdTokens: 167_000,
      longContextThresholdTokens: 1_000_000,
    });
    const long = historyBound({
      model: 'claude-sonnet-4-6',
      longContext: true,
      client: 'claude-code',
      budgetTokens: undefined,
    });
    expect(long).toEqual({
      boundTokens: 160_000,
      thresholdTokens: 967_000,
      longContextThresholdTokens: 1_000_000,
    });
    const small = historyBound({
      model: 'claude-sonnet-4-6',
      longContext: false,
      client: 'claude-code',
      budgetTokens: 8_000,
    });
    expect(small.boundTokens).toBe(16_000);
    const near = historyBound({
      model: 'claude-sonnet-4-6',
      longContext: false,
      client: 'claude-code',
      budgetTokens: 120_000,
    });
    expect(near.boundTokens).toBe(167_000);
  });

  it('#34.1 the client is told just past its threshold once the history it holds reaches the bound, and never for a request sent whole', () => {
    const bound = {
      boundTokens: 40_000,
      thresholdTokens: 167_000,
      longContextThresholdTokens: 967_000,
    };
    const base = { bound, signals: 0 };
    // 10,000 upstream tokens of a body four times the size sent: 40,000 held.
    expect(promptToReport({ ...base, reportedPrompt: 10_000, clientPrompt: 40000 })).toBe(169_000);
    expect(promptToReport({ ...base, reportedPrompt: 9_000, clientPrompt: 36000 })).toBeUndefined();
    expect(
      promptToReport({ ...base, reportedPrompt: 90_000, clientPrompt: 90000 }),
    ).toBeUndefined();
    // Past the threshold the client is told what it holds.
    expect(promptToReport({ ...base, reportedPrompt: 50_000, clientPrompt: 200000 })).toBe(200_000);
  });

  it('#34.1 a client that does not compact when told is told at most MAX_SIGNALS times', () => {
    const input = {
      bound: { boundTokens: 40_000, thresholdTokens: 167_000, longContextThresholdTokens: 967_000 },
      reportedPrompt: 20_000,
      clientPrompt: 80_000,
    };
    // Just past the threshold of the window assumed, then (not heeded) the long-context window.
    expect(promptToReport({ ...input, signals: 0 })).toBe(169_000);
    expect(promptToReport({ ...input, signals: 1 })).toBe(967_000);
    expect(promptToReport({ ...input, signals: MAX_SIGNALS - 1 })).toBe(967_000);
    expect(promptToReport({ ...input, signals: MAX_SIGNALS })).toBeUndefined();
  });
});
