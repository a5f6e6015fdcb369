import { describe, expect, it } from 'vitest';
import type { IContent, ImportedSession } from '@dense/core';
import { clientThreshold } from './clientCompaction.js';
import { replayThroughProxy, type ReplayInput } from './replayThroughProxy.js';
import { CONTEXT_1M_BETA, clientHeaders } from './clientHeaders.js';
import { windowOverall, windowRow } from './windowReport.js';
import { readSession } from './test-utils/readSession.js';

const summary: IContent = {
  speaker: 'human',
  blocks: [{ type: 'text', text: 'Summary of the work so far. '.repeat(20) }],
  metadata: { isSummary: true },
};

/** A task, then `rounds` reads a minute apart; a recorded compaction after read `summaryAfter`. */
function session(rounds: number, chars: number, summaryAfter?: number): ImportedSession {
  return readSession({ rounds, chars, after: (i) => (i === summaryAfter ? [summary] : []) });
}

const input = (s: ImportedSession, window?: number): ReplayInput => ({
  session: s,
  api: 'anthropic',
  prefix: { systemTokens: 1_000, toolTokens: 1_000 },
  // Tokens counted as characters.
  count: (text) => text.length,
  sessionId: `window-${window ?? 'recorded'}`,
  ...(window === undefined ? {} : { window }),
});

describe('bench:proxy at a set client window', () => {
  it("#24.5 the client's threshold follows the window: Claude Code's reserve below it, Codex's share of it", () => {
    expect(clientThreshold('anthropic', 'claude-sonnet-4-6', 1_000_000)).toBe(967_000);
    expect(clientThreshold('anthropic', 'claude-sonnet-4-6', 200_000)).toBe(167_000);
    expect(clientThreshold('anthropic', 'claude-opus-4-5', 400_000)).toBe(367_000);
    expect(clientThreshold('openai-responses', 'gpt-5', 1_000_000)).toBe(900_000);
  });

  it('#24.5 Claude Code asks for the 1M window with its beta header above 200k, not at 200k', () => {
    const s = session(1, 10);
    expect(clientHeaders(input(s, 1_000_000))['anthropic-beta']).toBe(CONTEXT_1M_BETA);
    expect(clientHeaders(input(s, 200_000))['anthropic-beta']).toBeUndefined();
    expect(clientHeaders(input(s))['anthropic-beta']).toBeUndefined();
  });

  it('#24.5 at 1M the pass-through client never compacts and keeps the whole history past 200k; the proxy keeps its default budget, its client compacting only when told, answered by Dense', async () => {
    const replay = await replayThroughProxy(input(session(12, 20_000), 1_000_000));
    expect(replay.compactions.passThrough.client).toBe(0);
    // #34.1: the proxy's client compacts when Dense tells it (its history past the bound), answered.
    expect(replay.compactions.proxy.answeredByDense).toBe(replay.compactions.proxy.client);
    const row = windowRow({ file: 's', source: 'synthetic', window: 1_000_000, replay });
    expect(row.budget).toBe(80_000);
    expect(row.passThroughPeak).toBeGreaterThan(240_000);
    expect(row.pastBudget).toBe(true);
    expect(row.budgetCompactions).toBeGreaterThan(0);
    expect(row.proxyPeak).toBeLessThan(row.passThroughPeak);
    expect(windowOverall(1_000_000, [row]).pastBudget.sessions).toBe(1);
  });

  it('#24.5 at 1M a recorded compaction is dropped: the requests after it are rebuilt from the whole history', async () => {
    const s = session(6, 2_000, 2);
    const recorded = await replayThroughProxy(input(s));
    expect(recorded.compactions.passThrough.client).toBe(1);
    const replay = await replayThroughProxy(input(s, 1_000_000));
    expect(replay.compactions.passThrough.client).toBe(0);
    expect(replay.passThrough.compactions).toBe(0);
    const prompts = replay.bills.passThrough.map((bill) => bill.promptTokens);
    expect(prompts).toHaveLength(replay.calls);
    // Each request carries all of the one before it (one more read of ~2,000) and no summary.
    for (let i = 1; i < prompts.length; i++) {
      expect((prompts[i] ?? 0) - (prompts[i - 1] ?? 0)).toBeGreaterThan(1_500);
    }
    const recordedLast = recorded.bills.passThrough.at(-1)?.promptTokens ?? 0;
    expect(prompts.at(-1)).toBeGreaterThan(recordedLast + 4_000);
  });
});
