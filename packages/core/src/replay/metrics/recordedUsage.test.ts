import { describe, expect, it } from 'vitest';
import { compareRecordedUsage } from './recordedUsage.js';

/** A provider that counts 1.2× our tokens plus 3,000 of system prompt and tools. */
const billed = (tokens: number) => 3000 + 1.2 * tokens;

describe('#25.1 compareRecordedUsage', () => {
  const agent = [1000, 2000, 4000, 8000, 1500, 2500]; // the agent compacted after call 4
  const recorded = agent.map(billed);
  const noReset = [1000, 2000, 4000, 8000, 9500, 10_500];

  it('#25.1 a replay that follows the compaction reproduces the recorded counts; one that does not is far off', () => {
    const followed = compareRecordedUsage({
      series: agent,
      recordedPromptTokens: recorded,
      fitCalls: 4,
    });
    expect(followed).toMatchObject({
      kind: 'compared',
      fittedCalls: 4,
      checkedCalls: 2,
      within5Percent: 2,
    });
    if (followed.kind !== 'compared') throw new Error('not compared');
    expect(followed.offset).toBeCloseTo(3000);
    expect(followed.scale).toBeCloseTo(1.2);
    expect(followed.ratio).toBeCloseTo(1);
    const crossed = compareRecordedUsage({
      series: noReset,
      recordedPromptTokens: recorded,
      fitCalls: 4,
    });
    expect(crossed.kind === 'compared' && crossed.ratio).toBeGreaterThan(2);
  });

  it('#25.1 fitting on every call, and the cases it cannot compare', () => {
    const all = compareRecordedUsage({ series: agent, recordedPromptTokens: recorded });
    expect(all).toMatchObject({ kind: 'compared', fittedCalls: 6, checkedCalls: 6 });
    expect(
      compareRecordedUsage({ series: agent, recordedPromptTokens: agent.map(() => undefined) }),
    ).toEqual({
      kind: 'not-compared',
      reason: 'no-recorded-usage',
    });
    expect(
      compareRecordedUsage({ series: agent, recordedPromptTokens: recorded, fitCalls: 1 }),
    ).toEqual({
      kind: 'not-compared',
      reason: 'too-few-calls-to-fit',
    });
    expect(
      compareRecordedUsage({ series: agent, recordedPromptTokens: recorded, fitCalls: 6 }),
    ).toEqual({
      kind: 'not-compared',
      reason: 'no-call-after',
    });
  });
});
