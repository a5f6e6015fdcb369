import { describe, expect, it } from 'vitest';
import type { IContent } from '../../services/history/IContent.js';
import { ai, human, toolCall, toolResult } from '../../test-utils/historyBuilders.js';
import {
  MIN_MIDDLE_ENTRIES,
  planMiddleOutSplit,
  planOneShotSplit,
  preservedTailStart,
} from './planSummarySplit.js';

const DEFAULTS = { topPreserveThreshold: 0.2, preserveThreshold: 0.4 };

/** `n` plain entries alternating human/ai. */
function plain(n: number): IContent[] {
  return Array.from({ length: n }, (_, i) => (i % 2 === 0 ? human(`u${i}`) : ai(`a${i}`)));
}

/** `n` plain entries, except a call at `callAt` answered at `responseAt`. */
function withPair(n: number, callAt: number, responseAt: number): IContent[] {
  const history = plain(n);
  history[callAt] = toolCall({ id: 'pair', name: 'read_file', parameters: { file_path: 'a' } });
  history[responseAt] = toolResult({ id: 'pair', name: 'read_file', result: 'x' });
  return history;
}

function straddles(cut: number, callAt: number, responseAt: number): boolean {
  return callAt < cut && cut <= responseAt;
}

describe('planMiddleOutSplit', () => {
  it('is a no-op on an empty history', () => {
    expect(planMiddleOutSplit([], DEFAULTS)).toEqual({ kind: 'noop', reason: 'empty-history' });
  });

  it('is a no-op when the tail covers everything', () => {
    expect(planMiddleOutSplit(plain(5), { ...DEFAULTS, preserveThreshold: 1 })).toEqual({
      kind: 'noop',
      reason: 'tail-covers-all',
    });
    // One call whose response is the last entry: the tail must grow to the start.
    expect(planMiddleOutSplit(withPair(6, 0, 5), DEFAULTS)).toEqual({
      kind: 'noop',
      reason: 'tail-covers-all',
    });
  });

  it('keeps ceil(20%) at the top and ceil(40%) at the bottom', () => {
    expect(planMiddleOutSplit(plain(10), DEFAULTS)).toEqual({
      kind: 'summarize',
      topEnd: 2,
      bottomStart: 6,
    });
    expect(planMiddleOutSplit(plain(100), DEFAULTS)).toEqual({
      kind: 'summarize',
      topEnd: 20,
      bottomStart: 60,
    });
    // 12 entries: top ceil(2.4)=3, tail ceil(4.8)=5.
    expect(planMiddleOutSplit(plain(12), DEFAULTS)).toEqual({
      kind: 'summarize',
      topEnd: 3,
      bottomStart: 7,
    });
  });

  it(`is a no-op when fewer than ${MIN_MIDDLE_ENTRIES} entries lie in the middle`, () => {
    // 9 entries: top ceil(1.8)=2, tail ceil(3.6)=4 → middle [2,5) holds 3.
    expect(planMiddleOutSplit(plain(9), DEFAULTS)).toEqual({
      kind: 'noop',
      reason: 'too-few-to-compress',
    });
    for (let n = 1; n <= 9; n++) {
      expect(planMiddleOutSplit(plain(n), DEFAULTS).kind).toBe('noop');
    }
    expect(planMiddleOutSplit(plain(10), DEFAULTS).kind).toBe('summarize');
  });

  it('moves both cuts earlier past a call/response pair that straddles them', () => {
    // Raw cuts for n=20: top 4, bottom 12.
    expect(planMiddleOutSplit(withPair(20, 3, 4), DEFAULTS)).toEqual({
      kind: 'summarize',
      topEnd: 3,
      bottomStart: 12,
    });
    expect(planMiddleOutSplit(withPair(20, 10, 13), DEFAULTS)).toEqual({
      kind: 'summarize',
      topEnd: 4,
      bottomStart: 10,
    });
  });

  it('never cuts inside a pair, for a pair at every position of every short history', () => {
    const thresholds = [DEFAULTS, { topPreserveThreshold: 0.5, preserveThreshold: 0.1 }];
    for (const options of thresholds) {
      for (let n = 2; n <= 16; n++) {
        for (let callAt = 0; callAt < n - 1; callAt++) {
          for (let responseAt = callAt + 1; responseAt < n; responseAt++) {
            const plan = planMiddleOutSplit(withPair(n, callAt, responseAt), options);
            if (plan.kind === 'noop') continue;
            expect(straddles(plan.topEnd, callAt, responseAt)).toBe(false);
            expect(straddles(plan.bottomStart, callAt, responseAt)).toBe(false);
            expect(plan.bottomStart - plan.topEnd).toBeGreaterThanOrEqual(MIN_MIDDLE_ENTRIES);
          }
        }
      }
    }
  });

  it('moves a cut only as far as the nearest safe point', () => {
    for (let callAt = 0; callAt < 29; callAt++) {
      for (let responseAt = callAt + 1; responseAt < 30; responseAt++) {
        const plan = planMiddleOutSplit(withPair(30, callAt, responseAt), DEFAULTS);
        if (plan.kind === 'noop') continue;
        const rawTop = 6;
        const rawBottom = 18;
        expect(plan.bottomStart).toBe(
          straddles(rawBottom, callAt, responseAt) ? callAt : rawBottom,
        );
        const top = straddles(rawTop, callAt, responseAt) ? callAt : rawTop;
        expect(plan.topEnd).toBe(Math.min(top, plan.bottomStart));
      }
    }
  });
});

describe('planOneShotSplit', () => {
  it('is a no-op on an empty history or when the tail covers everything', () => {
    expect(planOneShotSplit([], { preserveThreshold: 0.4 })).toEqual({
      kind: 'noop',
      reason: 'empty-history',
    });
    expect(planOneShotSplit(plain(1), { preserveThreshold: 0.4 })).toEqual({
      kind: 'noop',
      reason: 'tail-covers-all',
    });
    expect(planOneShotSplit(withPair(8, 1, 7), { preserveThreshold: 0.4 })).toEqual({
      kind: 'summarize',
      topEnd: 0,
      bottomStart: 1,
    });
  });

  it('summarizes everything before the newest ceil(40%)', () => {
    expect(planOneShotSplit(plain(10), { preserveThreshold: 0.4 })).toEqual({
      kind: 'summarize',
      topEnd: 0,
      bottomStart: 6,
    });
    expect(planOneShotSplit(plain(2), { preserveThreshold: 0.4 })).toEqual({
      kind: 'summarize',
      topEnd: 0,
      bottomStart: 1,
    });
  });

  it('never cuts inside a pair, for a pair at every position of every short history', () => {
    for (let n = 2; n <= 16; n++) {
      for (let callAt = 0; callAt < n - 1; callAt++) {
        for (let responseAt = callAt + 1; responseAt < n; responseAt++) {
          const plan = planOneShotSplit(withPair(n, callAt, responseAt), {
            preserveThreshold: 0.4,
          });
          if (plan.kind === 'noop') {
            expect(callAt).toBe(0);
            continue;
          }
          expect(straddles(plan.bottomStart, callAt, responseAt)).toBe(false);
          expect(plan.bottomStart).toBeLessThanOrEqual(n - Math.ceil(n * 0.4));
        }
      }
    }
  });
});

describe('preservedTailStart', () => {
  it('clamps odd thresholds instead of failing', () => {
    expect(preservedTailStart(plain(10), 2)).toBe(0);
    expect(preservedTailStart(plain(10), -1)).toBe(10);
    expect(preservedTailStart(plain(10), Number.NaN)).toBe(10);
  });
});
