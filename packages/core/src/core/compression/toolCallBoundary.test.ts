import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ai, human, toolCall, toolResult } from '../../test-utils/historyBuilders.js';
import type { IContent } from '../../services/history/IContent.js';
import { adjustForToolCallBoundary, safeSplitPoints } from './toolCallBoundary.js';

/** Every id's call and responses on the same side of split j. */
function keepsPairs(history: readonly IContent[], j: number): boolean {
  const sides = new Map<string, Set<boolean>>();
  history.forEach((entry, index) => {
    for (const block of entry.blocks) {
      const id =
        block.type === 'tool_call'
          ? block.id
          : block.type === 'tool_response'
            ? block.callId
            : undefined;
      if (id === undefined) continue;
      const set = sides.get(id) ?? new Set<boolean>();
      set.add(index < j);
      sides.set(id, set);
    }
  });
  return [...sides.values()].every((set) => set.size === 1);
}

const historyArb = fc
  .array(
    fc.oneof(
      fc.constant<'h'>('h'),
      fc.constant<'a'>('a'),
      fc.record({
        calls: fc.integer({ min: 1, max: 3 }),
        gap: fc.integer({ min: 0, max: 2 }),
        split: fc.boolean(),
      }),
    ),
    { maxLength: 12 },
  )
  .map((steps) => {
    const entries: IContent[] = [];
    steps.forEach((step, s) => {
      if (step === 'h') entries.push(human(`u${s}`));
      else if (step === 'a') entries.push(ai(`a${s}`));
      else {
        const ids = Array.from({ length: step.calls }, (_, c) => `c${s}_${c}`);
        entries.push(toolCall(ids.map((id) => ({ id, name: 'grep' }))));
        for (let g = 0; g < step.gap; g++) entries.push(ai(`thinking ${s}.${g}`));
        if (step.split) for (const id of ids) entries.push(toolResult({ id, name: 'grep' }));
        else entries.push(toolResult(ids.map((id) => ({ id, name: 'grep' }))));
      }
    });
    return entries;
  });

describe('tool-call boundaries', () => {
  const history = [
    human('q'),
    toolCall({ id: 'x', name: 'grep' }),
    ai('an entry between the call and its response'),
    toolResult({ id: 'x', name: 'grep' }),
    ai('done'),
  ];

  it('marks splits inside a call/response pair unsafe, matching by id across intervening entries', () => {
    expect(safeSplitPoints(history)).toEqual([true, true, false, false, true, true]);
  });

  it('moves an unsafe split earlier by default, or later on request', () => {
    expect(adjustForToolCallBoundary(history, 3)).toBe(1);
    expect(adjustForToolCallBoundary(history, 2, 'later')).toBe(4);
    expect(adjustForToolCallBoundary(history, 4)).toBe(4);
  });

  it('clamps out-of-range indices', () => {
    expect(adjustForToolCallBoundary(history, -5)).toBe(0);
    expect(adjustForToolCallBoundary(history, 99)).toBe(5);
  });

  it('every adjusted split keeps each call with all of its responses (random histories)', () => {
    fc.assert(
      fc.property(historyArb, fc.nat(20), fc.boolean(), (entries, index, later) => {
        const j = adjustForToolCallBoundary(entries, index, later ? 'later' : 'earlier');
        expect(keepsPairs(entries, j)).toBe(true);
        const safe = safeSplitPoints(entries);
        safe.forEach((isSafe, k) => expect(isSafe).toBe(keepsPairs(entries, k)));
      }),
      { numRuns: 300 },
    );
  });
});
