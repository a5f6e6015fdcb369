import { describe, expect, it } from 'vitest';
import type { IContent } from '@dense/core';
import { CLIENT_COMPACTION_WAIT_MS, recordedWaitMs } from './clientCompaction.js';
import { replayThroughProxy } from './replayThroughProxy.js';
import { readCall, readResult, T0 } from './test-utils/readSession.js';

const HOUR = 3_600_000;
const text = (speaker: 'human' | 'ai', words: string, at?: number): IContent => ({
  speaker,
  blocks: [{ type: 'text', text: words }],
  ...(at === undefined ? {} : { metadata: { timestamp: at } }),
});
const summary = (at: number, startedAt?: number): IContent => ({
  speaker: 'human',
  blocks: [{ type: 'text', text: 'Summary of the earlier work. '.repeat(10) }],
  metadata: {
    isSummary: true,
    timestamp: at,
    ...(startedAt === undefined ? {} : { compactionStartedAt: startedAt }),
  },
});

/**
 * The model answers at T0 + 1 min; the user comes back an hour later and their prompt triggers
 * the compaction, which takes 103 s; then the model answers again.
 */
function idleThenCompaction(): IContent[] {
  const prompt = T0 + HOUR;
  return [
    text('human', 'read the module'),
    readCall('m0', 0),
    readResult('m0', 2_000),
    text('ai', 'read it', T0 + 60_000),
    text('human', 'now change it'),
    summary(prompt + 103_000, prompt),
    text('ai', 'changed', prompt + 110_000),
  ];
}

describe('bench:proxy: how long a recorded compaction kept the client waiting', () => {
  it("#32.4 measured from the request that triggered it (the user's prompt), not from the last model reply", () => {
    const contents = idleThenCompaction();
    expect(recordedWaitMs(contents, 5)).toBe(103_000);
  });

  it('#32.4 mid-turn: from the tool result whose request triggered it, by its own time where no start is recorded', () => {
    const result = { ...readResult('m1', 100), metadata: { timestamp: T0 + 61_000 } };
    const contents = [readCall('m1', 60_000), result, summary(T0 + 61_000 + 80_000)];
    expect(recordedWaitMs(contents, 2)).toBe(80_000);
  });

  it('#32.4 after a model reply that ended the turn the start is not recorded: the estimate, not the idle time', () => {
    const contents = [text('ai', 'done', T0), summary(T0 + HOUR, T0)];
    expect(recordedWaitMs(contents, 1)).toBe(CLIENT_COMPACTION_WAIT_MS);
  });

  it("#32.4 the pass-through side's blocked time is the compaction's, not the user's idle hour", async () => {
    const replay = await replayThroughProxy({
      session: { contents: idleThenCompaction(), model: 'claude-sonnet-4-6' },
      api: 'anthropic',
      prefix: { systemTokens: 1_000, toolTokens: 1_000 },
      count: (chars) => chars.length,
      sessionId: 'idle-then-compaction',
    });
    expect(replay.compactions.passThrough.client).toBe(1);
    expect(replay.compactions.passThrough.blockedMs).toBe(103_000);
  }, 15_000);
});
