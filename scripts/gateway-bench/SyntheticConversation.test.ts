import { describe, expect, it } from 'vitest';
import { SyntheticConversation } from './SyntheticConversation.js';

interface Block {
  type: string;
  cache_control?: unknown;
  tool_use_id?: string;
  id?: string;
}
interface Message {
  role: string;
  content: Block[];
}

const parse = (body: Buffer) =>
  JSON.parse(body.toString('utf8')) as { messages: Message[]; system: Block[] };

describe('gateway bench synthetic conversation', () => {
  it('#36.7 grows by about the turn size to ~200k tokens in 25 requests, each a valid body that extends the previous one', () => {
    const conversation = new SyntheticConversation({ seed: 1, sessionId: 's', turnTokens: 8_000 });
    let previous: Message[] = [];
    for (let turn = 0; turn < 25; turn++) {
      const { messages } = parse(conversation.next());
      expect(messages.length).toBe(previous.length === 0 ? 1 : previous.length + 2);
      // Earlier messages are sent again as they were (the breakpoint moves to the newest only).
      const kept = previous.length - 2;
      if (kept >= 0) expect(messages[kept]).toEqual(previous[kept]);
      previous = messages;
    }
    expect(conversation.bytes / 4).toBeGreaterThan(180_000);
    expect(conversation.bytes / 4).toBeLessThan(230_000);
  });

  it('#36.7 the newest message alone carries the cache breakpoint, and every tool call has its result', () => {
    const conversation = new SyntheticConversation({ seed: 2, sessionId: 's', turnTokens: 2_000 });
    let body = conversation.next();
    for (let turn = 0; turn < 9; turn++) body = conversation.next();
    const { messages } = parse(body);
    const marked = messages.flatMap((message, i) =>
      message.content.some((block) => block.cache_control !== undefined) ? [i] : [],
    );
    expect(marked).toEqual([messages.length - 1]);
    expect(messages.at(-1)?.content.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    const calls = messages.flatMap((m) => m.content.filter((b) => b.type === 'tool_use'));
    const results = messages.flatMap((m) => m.content.filter((b) => b.type === 'tool_result'));
    expect(results.map((b) => b.tool_use_id)).toEqual(calls.map((b) => b.id));
    expect(new Set(calls.map((b) => b.id)).size).toBe(calls.length);
  });

  it('#36.7 the same seed gives the same bytes; another seed another conversation', () => {
    const bodies = (seed: number) => {
      const conversation = new SyntheticConversation({ seed, sessionId: 's', turnTokens: 1_000 });
      return Array.from({ length: 5 }, () => conversation.next().toString('utf8'));
    };
    expect(bodies(3)).toEqual(bodies(3));
    expect(bodies(3).at(-1)).not.toBe(bodies(4).at(-1));
  });
});
