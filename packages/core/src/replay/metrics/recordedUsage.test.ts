import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { IContent } from '../../services/history/IContent.js';
import {
  CLAUDE_CODE_USAGE_MODEL,
  callsInContext,
  compareRecordedUsage,
  keptSignatureChars,
  type RecordedUsageModel,
} from './recordedUsage.js';

const model: RecordedUsageModel = {
  tokensPerReplayedToken: 1.1,
  tokensPerCall: 150,
  tokensPerSignatureChar: 0,
};
/** The agent compacted after call 4: calls 4 and 5 start a new context. */
const agent = [1000, 2000, 4000, 8000, 1500, 2500];
const boundaries = [4];
/** A provider with 5,000 tokens of fixed prompt that counts as `model` says. */
const recorded = agent.map(
  (tokens, call) => 5000 + 1.1 * tokens + 150 * (callsInContext(6, boundaries)[call] ?? 0),
);

describe('#25.7 compareRecordedUsage: fixed prompt + ratio × replayed + framing per call', () => {
  it('#25.7 counts the calls in context since the last compaction', () => {
    expect(callsInContext(6, [])).toEqual([0, 1, 2, 3, 4, 5]);
    expect(callsInContext(7, [4, 2])).toEqual([0, 1, 0, 1, 0, 1, 2]);
  });

  test.prop([
    fc.integer({ min: 0, max: 300 }),
    fc.array(fc.integer({ min: -5, max: 320 }), { maxLength: 12 }),
  ])(
    '#25.7 calls in context are the calls since the latest compaction at or before each call (a synthetic session, any boundaries)',
    (calls, compactionCalls) => {
      const expected = Array.from({ length: calls }, (_, call) => {
        const before = compactionCalls.filter((boundary) => boundary <= call);
        return call - Math.max(0, ...before);
      });
      expect(callsInContext(calls, compactionCalls)).toEqual(expected);
    },
  );

  it('#25.7 a replay that holds what the agent had is predicted exactly after the compaction, from call 1 alone', () => {
    const after = compareRecordedUsage({
      series: agent,
      recordedPromptTokens: recorded,
      compactionCalls: boundaries,
      model,
      checkFrom: 4,
    });
    expect(after).toMatchObject({ kind: 'compared', checkedCalls: 2, within5Percent: 2 });
    if (after.kind !== 'compared') throw new Error('not compared');
    expect(after.fixedPrompt).toBeCloseTo(5000);
    expect(after.ratio).toBeCloseTo(1);
    expect(after.maxError).toBeCloseTo(0);
  });

  it('#25.7 a replay that crosses the compaction with the whole history is far off, and its worst calls are named', () => {
    const crossed = compareRecordedUsage({
      series: [1000, 2000, 4000, 8000, 9500, 10_500],
      recordedPromptTokens: recorded,
      compactionCalls: [],
      model,
      checkFrom: 4,
    });
    if (crossed.kind !== 'compared') throw new Error('not compared');
    expect(crossed.ratio).toBeGreaterThan(2);
    expect(crossed.worst.map((one) => one.call)).toEqual([4, 5]);
    expect(crossed.worst[0]?.error).toBeGreaterThan(1);
  });

  it('#25.7 the fixed prompt comes from the first call with recorded usage; the cases it cannot compare', () => {
    const late = compareRecordedUsage({
      series: agent,
      recordedPromptTokens: [undefined, ...recorded.slice(1)],
      compactionCalls: boundaries,
      model,
    });
    expect(late).toMatchObject({ kind: 'compared', checkedCalls: 5, within5Percent: 5 });
    expect(
      compareRecordedUsage({
        series: agent,
        recordedPromptTokens: agent.map(() => undefined),
        compactionCalls: boundaries,
        model,
      }),
    ).toEqual({ kind: 'not-compared', reason: 'no-recorded-usage' });
    expect(
      compareRecordedUsage({
        series: agent,
        recordedPromptTokens: recorded,
        compactionCalls: boundaries,
        model,
        checkFrom: 6,
      }),
    ).toEqual({ kind: 'not-compared', reason: 'no-call-after' });
  });

  it('#25.7 the Claude Code calibration is one constant per tokenizer, above o200k', () => {
    expect(CLAUDE_CODE_USAGE_MODEL.tokensPerReplayedToken).toBeGreaterThan(1);
    expect(CLAUDE_CODE_USAGE_MODEL.tokensPerCall).toBeGreaterThan(0);
    expect(CLAUDE_CODE_USAGE_MODEL.tokensPerSignatureChar).toBeGreaterThan(0);
  });
});

/** A session whose thinking signatures are billed but not replayed: 600 characters a call. */
const signed: RecordedUsageModel = { ...model, tokensPerSignatureChar: 0.12 };
const signatures = [0, 600, 1200, 1800, 0, 600];
const recordedSigned = recorded.map((tokens, call) => tokens + 0.12 * (signatures[call] ?? 0));

describe('#25.7 compareRecordedUsage: tokens per kept thinking-signature character', () => {
  it('#25.7 a session that keeps a signed thinking block per call is predicted exactly, before and after the compaction', () => {
    const all = compareRecordedUsage({
      series: agent,
      recordedPromptTokens: recordedSigned,
      compactionCalls: boundaries,
      keptSignatureChars: signatures,
      model: signed,
    });
    if (all.kind !== 'compared') throw new Error('not compared');
    expect(all.fixedPrompt).toBeCloseTo(5000);
    expect(all.maxError).toBeCloseTo(0);
    expect(all.within5Percent).toBe(6);
  });

  it('#25.7 a session without thinking is predicted by the other terms alone', () => {
    const none = compareRecordedUsage({
      series: agent,
      recordedPromptTokens: recorded,
      compactionCalls: boundaries,
      keptSignatureChars: agent.map(() => 0),
      model: signed,
    });
    if (none.kind !== 'compared') throw new Error('not compared');
    expect(none.maxError).toBeCloseTo(0);
  });
});

const signedThought = (signature: string): IContent => ({
  speaker: 'ai',
  blocks: [{ type: 'thinking', thought: 'plan', signature }],
});
const earlierTurn: IContent[] = [
  { speaker: 'human', blocks: [{ type: 'text', text: 'first' }] },
  signedThought('a'.repeat(500)),
  { speaker: 'human', blocks: [{ type: 'text', text: 'second' }] },
  signedThought('b'.repeat(300)),
  { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'c', toolName: 't', result: '' }] },
];

describe('#25.7 keptSignatureChars: the signatures the model keeps in a request', () => {
  it('#25.7 Opus 4.5 keeps every signature; Sonnet 4 only the current turn’s', () => {
    expect(keptSignatureChars(earlierTurn, 'claude-opus-4-5-20251101')).toBe(800);
    expect(keptSignatureChars(earlierTurn, 'claude-sonnet-4-20250514')).toBe(300);
    expect(keptSignatureChars(earlierTurn.slice(0, 1), 'claude-opus-4-5-20251101')).toBe(0);
  });
});
