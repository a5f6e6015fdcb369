import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  human,
  toolCall,
  toolResult,
  toolRoundTrip,
} from '../../../../test-utils/historyBuilders.js';
import { safeSplitPoints } from '../../toolCallBoundary.js';
import {
  compressionTarget,
  planHeadDrop,
  planTailStart,
  summarizeHead,
} from './compressionPlan.js';
import { deepFreeze } from '../test-utils/deepFreeze.js';

describe('compress() plan', () => {
  it('REQ-HD-008.2 the tail is the newest ceil(n × preserveThreshold) entries', () => {
    const history = Array.from({ length: 10 }, (_, i) => human(`m${i}`));
    expect(planTailStart(history, 0.4)).toBe(6);
    expect(planTailStart(history, 0.35)).toBe(6);
    expect(planTailStart(history, 1)).toBe(0);
    expect(planTailStart([], 0.4)).toBe(0);
  });

  it('prior-art A5: a call/response pair straddling the split moves the split earlier', () => {
    const history = [
      human('a'),
      toolCall({ id: 'x', name: 'read_file', parameters: { file_path: 'a' } }),
      human('interjection'),
      toolResult({ id: 'x', name: 'read_file', result: 'A' }),
      human('b'),
    ];
    // 0.4 × 5 = 2 entries: the split at 3 would separate x's call (1) from its response (3).
    expect(planTailStart(history, 0.4)).toBe(1);
  });

  it('REQ-HD-008.6 target = threshold × context limit × headroom, the strategy default when unset', () => {
    expect(
      compressionTarget({
        threshold: undefined,
        defaultThreshold: 0.85,
        contextLimit: 100_000,
        headroom: 0.6,
      }),
    ).toBe(51_000);
    expect(
      compressionTarget({
        threshold: 0.5,
        defaultThreshold: 0.85,
        contextLimit: 100_000,
        headroom: 0.6,
      }),
    ).toBe(30_000);
    expect(
      compressionTarget({
        threshold: 0.5,
        defaultThreshold: 0.85,
        contextLimit: 1001,
        headroom: 0.5,
      }),
    ).toBe(250);
  });

  it('summarizeHead touches only tool responses before the tail and keeps other entries as they are', () => {
    const history = deepFreeze([
      human('go'),
      ...toolRoundTrip('r', 'read_file', { file_path: 'a.ts' }, 'A\nB'),
      ...toolRoundTrip('s', 'run_shell_command', { command: 'ls' }, 'x'),
    ]);
    const { head, summarized } = summarizeHead(history, 3, '/workspace');
    expect(summarized).toBe(1);
    expect(head).toHaveLength(3);
    expect(head[0]).toBe(history[0]);
    expect(head[1]).toBe(history[1]);
    expect(head[2]?.blocks).toEqual([
      {
        type: 'tool_response',
        callId: 'r',
        toolName: 'read_file',
        result: '[read_file a.ts — success, 2 lines]',
      },
    ]);
  });

  it('planHeadDrop drops nothing when under target, else the shortest safe prefix', () => {
    const safe = [true, false, true, true, true];
    expect(
      planHeadDrop({
        entryTokens: [10, 10, 10, 10],
        tailTokens: 5,
        targetTokens: 45,
        safeSplits: safe,
      }),
    ).toBe(0);
    // 45 - 10 = 35 ≤ 36 at j = 1, but j = 1 is not safe: the pair goes together.
    expect(
      planHeadDrop({
        entryTokens: [10, 10, 10, 10],
        tailTokens: 5,
        targetTokens: 36,
        safeSplits: safe,
      }),
    ).toBe(2);
    expect(
      planHeadDrop({
        entryTokens: [10, 10, 10, 10],
        tailTokens: 5,
        targetTokens: 1,
        safeSplits: safe,
      }),
    ).toBe(4);
  });

  it('prior-art A7: planHeadDrop is the minimal safe prefix (checked against brute force)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 50 }), { maxLength: 20 }),
        fc.nat({ max: 100 }),
        fc.nat({ max: 600 }),
        fc.array(fc.boolean(), { minLength: 21, maxLength: 21 }),
        (entryTokens, tailTokens, targetTokens, flags) => {
          const safeSplits = flags.map((f, j) => f || j === 0 || j === entryTokens.length);
          const dropped = planHeadDrop({ entryTokens, tailTokens, targetTokens, safeSplits });
          const total = (j: number) => tailTokens + entryTokens.slice(j).reduce((a, b) => a + b, 0);
          const candidates = [...entryTokens.keys(), entryTokens.length].filter(
            (j) => safeSplits[j] === true && total(j) <= targetTokens,
          );
          expect(dropped).toBe(candidates[0] ?? entryTokens.length);
          expect(safeSplits[dropped]).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the drop split is a safe point of the real history', () => {
    const history = [
      toolCall({ id: 'x', name: 'read_file', parameters: {} }),
      human('between'),
      toolResult({ id: 'x', name: 'read_file', result: 'A' }),
      human('tail'),
    ];
    const safeSplits = safeSplitPoints(history);
    expect(
      planHeadDrop({ entryTokens: [100, 1, 1], tailTokens: 1, targetTokens: 3, safeSplits }),
    ).toBe(3);
  });
});
