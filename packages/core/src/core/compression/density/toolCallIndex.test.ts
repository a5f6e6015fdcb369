import { describe, expect, it } from 'vitest';
import { ai, human, toolCall, toolResult } from '../../../test-utils/historyBuilders.js';
import { buildToolCallIndex } from './toolCallIndex.js';

describe('tool call index', () => {
  it('links responses to calls by id, across entries that are not adjacent', () => {
    const history = [
      toolCall([
        { id: 'a', name: 'read_file' },
        { id: 'b', name: 'grep' },
      ]),
      ai('meanwhile'),
      toolResult({ id: 'b', name: 'grep', result: 'B' }),
      human('?'),
      toolResult({ id: 'a', name: 'read_file', result: 'A' }),
    ];
    const index = buildToolCallIndex(history);
    expect(index.calls.map((c) => [c.block.id, c.entryIndex, c.blockIndex])).toEqual([
      ['a', 0, 0],
      ['b', 0, 1],
    ]);
    expect(index.calls.map((c) => c.responses.map((r) => r.entryIndex))).toEqual([[4], [2]]);
    expect(index.responses.map((r) => r.call?.block.id)).toEqual(['b', 'a']);
  });

  it('pairs a reused id with the most recent earlier call, and leaves orphans unpaired', () => {
    const history = [
      toolResult({ id: 'x', name: 'read_file', result: 'orphan' }),
      toolCall({ id: 'x', name: 'read_file' }),
      toolResult({ id: 'x', name: 'read_file', result: 'first' }),
      toolCall({ id: 'x', name: 'read_file' }),
      toolResult({ id: 'x', name: 'read_file', result: 'second' }),
    ];
    const index = buildToolCallIndex(history);
    expect(index.responses.map((r) => r.call?.entryIndex)).toEqual([undefined, 1, 3]);
    expect(index.calls.map((c) => c.responses.length)).toEqual([1, 1]);
  });

  it('skips removed slots and reports calls without responses', () => {
    const history = [
      toolCall({ id: 'a', name: 'read_file' }),
      undefined,
      toolResult({ id: 'z', name: 'x' }),
    ];
    const index = buildToolCallIndex(history);
    expect(index.calls).toHaveLength(1);
    expect(index.calls[0]?.responses).toEqual([]);
    expect(index.responses[0]?.call).toBeUndefined();
  });
});
