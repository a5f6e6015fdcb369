import { describe, expect, it } from 'vitest';
import { createAiMessage } from '../services/history/IContent.js';
import { ai, human, toolCall, toolResult } from '../test-utils/historyBuilders.js';
import { anthropicToolId, toAnthropicMessages, toAnthropicTools } from './anthropicConversion.js';
import { LEADING_USER_TURN_TEXT } from './toolPayloads.js';

describe('toAnthropicMessages', () => {
  it('puts tool results in a user turn, first, merged with the human text that follows', () => {
    const messages = toAnthropicMessages([
      human('read a'),
      toolCall({ id: 'toolu_1', name: 'read_file', parameters: { file_path: 'a' } }, 'Sure.'),
      toolResult({ id: 'toolu_1', name: 'read_file', result: 'A' }),
      human('thanks'),
    ]);
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'read a' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Sure.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { file_path: 'a' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' },
          { type: 'text', text: 'thanks' },
        ],
      },
    ]);
  });

  it('#14.3 a cache anchor puts a breakpoint on the last block of the message its entry ends', () => {
    const call = toolCall({ id: 't1', name: 'read_file', parameters: { file_path: 'a' } });
    const result = toolResult({ id: 't1', name: 'read_file', result: 'A' });
    const messages = toAnthropicMessages(
      [human('go'), call, result, ai('done'), human('next')],
      [call],
    );
    const marked = messages.flatMap((m, i) =>
      (m.content as { cache_control?: unknown }[]).flatMap((b, j) =>
        b.cache_control === undefined ? [] : [[i, j]],
      ),
    );
    expect(marked).toEqual([[1, 0]]); // the tool_use ending the assistant message
    // Without anchors nothing inside the history is marked.
    expect(JSON.stringify(toAnthropicMessages([human('go'), call, result]))).not.toContain(
      'cache_control',
    );
  });

  it('#14.3 an anchor entry merged with the next one marks the message before (whole entries only)', () => {
    const first = human('a');
    const second = human('b');
    const messages = toAnthropicMessages([ai('hello'), first, second, ai('c')], [first]);
    // [lead user, assistant 'hello', user a+b, assistant c]: the breakpoint ends 'hello'.
    expect(messages[1]?.content).toEqual([
      { type: 'text', text: 'hello', cache_control: { type: 'ephemeral' } },
    ]);
    expect(JSON.stringify(messages[2])).not.toContain('cache_control');
  });

  it('merges consecutive same-role turns so roles alternate', () => {
    const messages = toAnthropicMessages([human('a'), human('b'), ai('c'), ai('d')]);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[0]?.content).toHaveLength(2);
  });

  it('marks failed tools with is_error and JSON-encodes non-string results', () => {
    const messages = toAnthropicMessages([
      human('q'),
      toolCall([
        { id: 't1', name: 'replace' },
        { id: 't2', name: 'ls' },
      ]),
      toolResult([
        { id: 't1', name: 'replace', error: 'no match' },
        { id: 't2', name: 'ls', result: ['x', 'y'] },
      ]),
    ]);
    expect(messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'Error: no match', is_error: true },
      { type: 'tool_result', tool_use_id: 't2', content: '["x","y"]' },
    ]);
  });

  it('rewrites ids Anthropic would reject the same way on both sides of the pair', () => {
    const messages = toAnthropicMessages([
      human('q'),
      toolCall({ id: 'call:1/a', name: 'ls' }),
      toolResult({ id: 'call:1/a', name: 'ls', result: 'ok' }),
    ]);
    expect(anthropicToolId('call:1/a')).toBe('call_1_a');
    expect(JSON.stringify(messages)).not.toContain('call:1/a');
    expect(messages[1]?.content).toMatchObject([{ id: 'call_1_a' }]);
    expect(messages[2]?.content).toMatchObject([{ tool_use_id: 'call_1_a' }]);
  });

  it('wraps non-object (malformed) arguments so tool_use input is always an object', () => {
    const messages = toAnthropicMessages([
      human('q'),
      toolCall({ id: 't1', name: 'ls', parameters: '{"path":' }),
      toolResult({ id: 't1', name: 'ls', error: 'bad arguments' }),
    ]);
    expect(messages[1]?.content).toMatchObject([{ input: { raw_arguments: '{"path":' } }]);
  });

  it('puts a user turn first when the history starts with the model (after truncation)', () => {
    const messages = toAnthropicMessages([ai('earlier answer'), human('next question')]);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[0]?.content).toEqual([{ type: 'text', text: LEADING_USER_TURN_TEXT }]);
  });

  it('sends thinking back only with its signature, deltas joined', () => {
    const messages = toAnthropicMessages([
      human('q'),
      createAiMessage([
        { type: 'thinking', thought: 'step 1, ' },
        { type: 'thinking', thought: 'step 2', signature: 'sig' },
        { type: 'text', text: 'answer' },
      ]),
      human('q2'),
      createAiMessage([
        { type: 'thinking', thought: 'unsigned' },
        { type: 'text', text: 'answer 2' },
      ]),
    ]);
    expect(messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'step 1, step 2', signature: 'sig' },
      { type: 'text', text: 'answer' },
    ]);
    expect(messages[3]?.content).toEqual([{ type: 'text', text: 'answer 2' }]);
  });

  it('maps images and PDFs to image/document blocks, other media to a placeholder', () => {
    const messages = toAnthropicMessages([
      {
        speaker: 'human',
        blocks: [
          { type: 'media', mimeType: 'image/png', data: 'AAAA', encoding: 'base64' },
          { type: 'media', mimeType: 'image/jpeg', data: 'https://x/y.jpg', encoding: 'url' },
          { type: 'media', mimeType: 'application/pdf', data: 'PDF', encoding: 'base64' },
          { type: 'media', mimeType: 'audio/wav', data: 'W', encoding: 'base64' },
        ],
      },
    ]);
    expect(messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
      { type: 'image', source: { type: 'url', url: 'https://x/y.jpg' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'PDF' } },
      { type: 'text', text: '[audio/wav omitted]' },
    ]);
  });

  it('drops blank text blocks, which the API rejects', () => {
    expect(toAnthropicMessages([human('  '), ai('')])).toEqual([]);
  });
});

describe('toAnthropicTools', () => {
  it('uses the schema as input_schema', () => {
    const parameters = { type: 'object', properties: {} };
    expect(toAnthropicTools([{ name: 'ls', description: 'List', parameters }])).toEqual([
      { name: 'ls', description: 'List', input_schema: parameters },
    ]);
  });
});
