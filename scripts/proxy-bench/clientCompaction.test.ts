import { describe, expect, it } from 'vitest';
import type { IContent } from '@dense/core';
import {
  CLIENT_COMPACTION_WAIT_MS,
  clientThreshold,
  compactsAtBoundary,
  recordedWaitMs,
  summaryChars,
  syntheticSummary,
} from './clientCompaction.js';
import { historyBefore } from './clientRequests.js';
import { replayThroughProxy } from './replayThroughProxy.js';
import { readSession } from './test-utils/readSession.js';

const human = (text: string, extra: Partial<IContent> = {}): IContent => ({
  speaker: 'human',
  blocks: [{ type: 'text', text }],
  ...extra,
});
const session = (rounds: number, chars: number) => readSession({ rounds, chars });

describe('bench:proxy client compactions', () => {
  it("#24.5 Claude Code's threshold is 167,000 for a 200k model; Codex's 90% of its window", () => {
    expect(clientThreshold('anthropic', 'claude-sonnet-4-6')).toBe(167_000);
    expect(clientThreshold('openai-responses', 'gpt-5')).toBe(360_000); // 400k window
    expect(clientThreshold('openai-responses', 'gpt-6.1-sol')).toBe(244_800); // Codex's 272k default
    expect(clientThreshold('openai-responses', 'gpt-5', 1_000_000)).toBe(900_000);
  });

  it('#24.5 at a recorded boundary the proxy side compacts when asked by the user, or told as much as the recorded client was', () => {
    const base = { threshold: 167_000, userAskedBelow: 150_000, passReported: 130_000 };
    expect(compactsAtBoundary({ ...base, recordedContext: 80_000, reported: 10_000 })).toBe(true);
    expect(compactsAtBoundary({ ...base, recordedContext: 156_000, reported: 120_000 })).toBe(
      false,
    );
    expect(compactsAtBoundary({ ...base, recordedContext: 156_000, reported: 131_000 })).toBe(true);
    const unknown = { ...base, recordedContext: undefined, passReported: 0 };
    expect(compactsAtBoundary({ ...unknown, reported: 168_000 })).toBe(true);
    expect(compactsAtBoundary({ ...unknown, reported: 100_000 })).toBe(false);
  });

  it('#24.5 a synthetic compaction keeps the summary of the recorded size class and the newest call', () => {
    const s = session(4, 100);
    expect(summaryChars(s.contents)).toBe(13_000);
    const withSummary = [
      ...s.contents,
      human('x'.repeat(9_000), { metadata: { isSummary: true } }),
    ];
    expect(summaryChars(withSummary)).toBe(9_000);
    const summary = syntheticSummary(9_000);
    const history = historyBefore(s.contents, 7, new Set([5]), new Map([[5, summary]]));
    expect(history).toEqual([summary, s.contents[5], s.contents[6]]);
    expect(recordedWaitMs(s.contents, 1)).toBe(CLIENT_COMPACTION_WAIT_MS);
  });

  it('#24.5 the pass-through client compacts past its threshold where the recording has none, and pays for it; the proxy client compacts only when Dense tells it and Dense answers', async () => {
    // Tokens counted as characters: 12 reads of 20,000 pass 167,000 after the ninth.
    const replay = await replayThroughProxy({
      session: session(12, 20_000),
      api: 'anthropic',
      prefix: { systemTokens: 1_000, toolTokens: 1_000 },
      count: (text) => text.length,
      sessionId: 'synthetic-threshold',
    });
    expect(replay.compactions.passThrough.synthetic).toBeGreaterThanOrEqual(1);
    expect(replay.compactions.passThrough.blockedMs).toBe(
      replay.compactions.passThrough.client * CLIENT_COMPACTION_WAIT_MS,
    );
    expect(replay.passThrough.compactions).toBe(replay.compactions.passThrough.client);
    expect(replay.passThrough.compactionCost).toBeGreaterThan(0);
    // #34.1: the proxy's client is told its history is full at the bound; Dense answers each.
    expect(replay.compactions.proxy.answeredByDense).toBe(replay.compactions.proxy.client);
    expect(replay.records.some((record) => record.compaction?.kind === 'compacted')).toBe(true);
  });
});
