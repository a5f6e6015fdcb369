import { describe, expect, it } from 'vitest';
import { createAiMessage, createUserMessage, formatFileInclusion } from '@dense/core';
import { toolResult, toolCall } from '@dense/core/test-utils';
import { historyItems } from './historyItems.js';

describe('historyItems', () => {
  const history = [
    createUserMessage(`look at @a.ts\n\n${formatFileInclusion('a.ts', 'const a = 1;')}`),
    toolCall({ id: 'c1', name: 'read_file', parameters: { file_path: 'a.ts' } }, 'Reading.'),
    toolResult({ id: 'c1', name: 'read_file', result: 'const a = 1;' }),
    toolCall({ id: 'c2', name: 'replace', parameters: { file_path: 'a.ts' } }),
    createAiMessage('Done.'),
  ];

  it('recaps prompts without their inlined files, replies and tool outcomes', () => {
    expect(historyItems(history, 10)).toEqual([
      { kind: 'user', text: 'look at @a.ts', included: [] },
      { kind: 'assistant', text: 'Reading.', done: true },
      {
        kind: 'tool',
        callId: 'c1',
        name: 'read_file',
        target: 'a.ts',
        status: 'done',
        detail: 'const a = 1;',
      },
      { kind: 'tool', callId: 'c2', name: 'replace', target: 'a.ts', status: 'cancelled' },
      { kind: 'assistant', text: 'Done.', done: true },
    ]);
  });

  it('keeps only the newest items', () => {
    expect(historyItems(history, 2).map((i) => i.kind)).toEqual(['tool', 'assistant']);
  });

  it('#12.3 shows each call with its own outcome when the server reused the id', () => {
    const reused = [
      toolCall({ id: 'call_1', name: 'read_file', parameters: { file_path: 'a.ts' } }),
      toolResult({ id: 'call_1', name: 'read_file', error: 'no such file' }),
      toolCall({ id: 'call_1', name: 'read_file', parameters: { file_path: 'b.ts' } }),
      toolResult({ id: 'call_1', name: 'read_file', result: 'const b = 2;' }),
    ];
    expect(historyItems(reused, 10).map((i) => (i.kind === 'tool' ? i.status : i.kind))).toEqual([
      'error',
      'done',
    ]);
  });
});
