import { describe, expect, it } from 'vitest';
import { assembleReply } from './assembleReply.js';

const source = { provider: 'p', model: 'm', timestamp: 1 };

describe('assembleReply', () => {
  it('concatenates consecutive text and thinking deltas, keeps tool calls in order, and keeps usage', () => {
    const reply = assembleReply(
      [
        { content: { speaker: 'ai', blocks: [{ type: 'thinking', thought: 'hm' }] } },
        {
          content: {
            speaker: 'ai',
            blocks: [{ type: 'thinking', thought: 'm', signature: 'sig' }],
          },
        },
        { content: { speaker: 'ai', blocks: [{ type: 'text', text: 'Hel' }] } },
        { content: { speaker: 'ai', blocks: [{ type: 'text', text: 'lo' }] } },
        {
          content: {
            speaker: 'ai',
            blocks: [{ type: 'tool_call', id: 'c', name: 'grep', parameters: {} }],
          },
        },
        {
          content: { speaker: 'ai', blocks: [] },
          usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
        },
      ],
      source,
    );
    expect(reply.content.blocks).toEqual([
      { type: 'thinking', thought: 'hmm', signature: 'sig' },
      { type: 'text', text: 'Hello' },
      { type: 'tool_call', id: 'c', name: 'grep', parameters: {} },
    ]);
    expect(reply.usage?.totalTokens).toBe(3);
    expect(reply.content.metadata).toMatchObject({
      provider: 'p',
      model: 'm',
      usage: { totalTokens: 3 },
    });
  });
});
