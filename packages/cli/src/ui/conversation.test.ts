import { describe, expect, it } from 'vitest';
import type { ChatEvent, ToolCallBlock } from '@dense/core';
import {
  addItem,
  applyChatEvent,
  EMPTY_CONVERSATION,
  finishTurn,
  type Conversation,
} from './conversation.js';

const call: ToolCallBlock = {
  type: 'tool_call',
  id: 'c1',
  name: 'read_file',
  parameters: { file_path: 'src/a.ts' },
};

const fold = (conversation: Conversation, ...events: ChatEvent[]): Conversation =>
  events.reduce(applyChatEvent, conversation);

describe('conversation reducer', () => {
  it('streams text into one reply that becomes final when the message ends', () => {
    let c = addItem(EMPTY_CONVERSATION, { kind: 'user', text: 'hi', included: [] });
    c = fold(c, { type: 'text_delta', text: 'Hel' }, { type: 'text_delta', text: 'lo' });
    expect(c.done.map((i) => i.kind)).toEqual(['user']);
    expect(c.live).toMatchObject([{ kind: 'assistant', text: 'Hello', done: false }]);
    c = fold(c, { type: 'ai_message', content: { speaker: 'ai', blocks: [] } });
    expect(c.live).toEqual([]);
    expect(c.done.at(-1)).toMatchObject({ kind: 'assistant', text: 'Hello', done: true });
  });

  it('shows a tool running, then its outcome, and keeps the order', () => {
    let c = fold(
      EMPTY_CONVERSATION,
      { type: 'text_delta', text: 'Reading.' },
      { type: 'tool_call', call },
    );
    expect(c.done.map((i) => i.kind)).toEqual(['assistant']);
    expect(c.live).toMatchObject([{ kind: 'tool', status: 'running', target: 'src/a.ts' }]);
    c = fold(c, {
      type: 'tool_result',
      call,
      response: {
        type: 'tool_response',
        callId: 'c1',
        toolName: 'read_file',
        result: '',
        error: 'FILE_NOT_FOUND: no such file',
      },
    });
    expect(c.live).toEqual([]);
    expect(c.done.at(-1)).toMatchObject({
      kind: 'tool',
      status: 'error',
      detail: 'FILE_NOT_FOUND: no such file',
    });
  });

  it('#12.3 a result settles only the first running call of two sharing an id', () => {
    const second: ToolCallBlock = { ...call, parameters: { file_path: 'src/b.ts' } };
    let c = fold(
      EMPTY_CONVERSATION,
      { type: 'tool_call', call },
      { type: 'tool_call', call: second },
    );
    c = fold(c, {
      type: 'tool_result',
      call,
      response: { type: 'tool_response', callId: 'c1', toolName: 'read_file', result: 'a' },
    });
    expect([...c.done, ...c.live].map((i) => (i.kind === 'tool' ? i.status : i.kind))).toEqual([
      'done',
      'running',
    ]);
  });

  it('a finished turn marks tools that never reported as cancelled', () => {
    const c = finishTurn(fold(EMPTY_CONVERSATION, { type: 'tool_call', call }));
    expect(c.live).toEqual([]);
    expect(c.done).toMatchObject([{ kind: 'tool', status: 'cancelled' }]);
  });

  it('item ids are unique and increasing', () => {
    let c = EMPTY_CONVERSATION;
    for (let i = 0; i < 5; i++) c = addItem(c, { kind: 'lines', lines: [{ text: String(i) }] });
    expect(c.done.map((i) => i.id)).toEqual([1, 2, 3, 4, 5]);
  });
});
