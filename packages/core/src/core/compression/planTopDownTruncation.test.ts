import { describe, expect, it } from 'vitest';
import type { IContent } from '../../services/history/IContent.js';
import { ai, human, toolCall, toolResult } from '../../test-utils/historyBuilders.js';
import {
  planTopDownTruncation,
  TOP_DOWN_MIN_KEEP,
  TOP_DOWN_TARGET_FACTOR,
  topDownTargetTokens,
} from './planTopDownTruncation.js';

function plain(n: number): IContent[] {
  return Array.from({ length: n }, (_, i) => (i % 2 === 0 ? human(`u${i}`) : ai(`a${i}`)));
}

const call = (id: string) => toolCall({ id, name: 'run_shell_command', parameters: {} });
const result = (id: string) => toolResult({ id, name: 'run_shell_command', result: 'ok' });

describe('topDownTargetTokens', () => {
  it('is threshold × context limit × 0.6, floored', () => {
    expect(TOP_DOWN_TARGET_FACTOR).toBe(0.6);
    expect(topDownTargetTokens(0.85, 100_000)).toBe(51_000);
    expect(topDownTargetTokens(0.5, 1000)).toBe(300);
    expect(topDownTargetTokens(0.85, 333)).toBe(Math.floor(0.85 * 333 * 0.6));
  });
});

describe('planTopDownTruncation', () => {
  it('is a no-op on an empty history', () => {
    expect(planTopDownTruncation({ history: [], entryTokens: [], targetTokens: 0 })).toEqual({
      kind: 'noop',
      reason: 'empty-history',
      totalTokens: 0,
    });
  });

  it('is a no-op when the total is already at or under the target', () => {
    const history = plain(4);
    expect(
      planTopDownTruncation({ history, entryTokens: [10, 10, 10, 10], targetTokens: 40 }),
    ).toEqual({ kind: 'noop', reason: 'already-under-target', totalTokens: 40 });
  });

  it('drops the fewest oldest entries that bring the total to the target', () => {
    const history = plain(6);
    const entryTokens = [100, 50, 10, 10, 10, 10];
    expect(planTopDownTruncation({ history, entryTokens, targetTokens: 90 })).toEqual({
      kind: 'drop',
      dropCount: 1,
      totalTokens: 190,
      remainingTokens: 90,
    });
    expect(planTopDownTruncation({ history, entryTokens, targetTokens: 89 })).toMatchObject({
      dropCount: 2,
      remainingTokens: 40,
    });
  });

  it(`keeps at least the newest ${TOP_DOWN_MIN_KEEP} entries, even over the target`, () => {
    const history = plain(5);
    const plan = planTopDownTruncation({
      history,
      entryTokens: [10, 10, 10, 500, 500],
      targetTokens: 5,
    });
    expect(plan).toEqual({ kind: 'drop', dropCount: 3, totalTokens: 1030, remainingTokens: 1000 });
  });

  it('is a no-op when nothing may be dropped', () => {
    expect(
      planTopDownTruncation({ history: plain(2), entryTokens: [500, 500], targetTokens: 5 }),
    ).toEqual({ kind: 'noop', reason: 'too-few-to-compress', totalTokens: 1000 });
    // A call whose response is the newest entry pins the whole history.
    const pinned = [call('c'), human('u'), ai('a'), result('c')];
    expect(
      planTopDownTruncation({ history: pinned, entryTokens: [9, 9, 9, 9], targetTokens: 1 }),
    ).toMatchObject({ kind: 'noop', reason: 'too-few-to-compress' });
  });

  it('drops a call together with all of its responses', () => {
    // Dropping the call (index 1) alone would reach the target; its two responses go with it.
    const history = [human('u'), call('c'), result('c'), result('c'), human('v'), ai('w')];
    const plan = planTopDownTruncation({
      history,
      entryTokens: [10, 100, 1, 1, 10, 10],
      targetTokens: 25,
    });
    expect(plan).toEqual({ kind: 'drop', dropCount: 4, totalTokens: 132, remainingTokens: 20 });
  });

  it('never cuts inside a pair, for a pair at every position', () => {
    const n = 14;
    for (let callAt = 0; callAt < n - 1; callAt++) {
      for (let responseAt = callAt + 1; responseAt < n; responseAt++) {
        const history = plain(n);
        history[callAt] = call('p');
        history[responseAt] = result('p');
        for (let target = 0; target <= n; target++) {
          const plan = planTopDownTruncation({
            history,
            entryTokens: history.map(() => 1),
            targetTokens: target,
          });
          if (plan.kind === 'noop') continue;
          const cut = plan.dropCount;
          expect(callAt < cut && cut <= responseAt).toBe(false);
          expect(n - cut).toBeGreaterThanOrEqual(TOP_DOWN_MIN_KEEP);
        }
      }
    }
  });

  it('honours a custom minKeep', () => {
    const plan = planTopDownTruncation({
      history: plain(6),
      entryTokens: [1, 1, 1, 1, 1, 1],
      targetTokens: 0,
      minKeep: 4,
    });
    expect(plan).toMatchObject({ kind: 'drop', dropCount: 2 });
  });
});
