import { describe, expect, it } from 'vitest';
import { createAiMessage, createUserMessage } from '../services/history/IContent.js';
import { ai, human, readFile, toolCall, toolResult } from '../test-utils/historyBuilders.js';
import { toOpenAIMessages, toOpenAITools } from './openaiConversion.js';

describe('toOpenAIMessages', () => {
  it('puts the system prompt first and maps text turns to user/assistant', () => {
    expect(toOpenAIMessages([human('hi'), ai('hello')], 'be brief')).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
  });

  it('sends tool calls with their ids and JSON arguments, and results as role:tool messages', () => {
    const messages = toOpenAIMessages([
      human('read a'),
      toolCall(
        [
          { id: 'c1', name: 'read_file', parameters: { file_path: 'a' } },
          { id: 'c2', name: 'ls', parameters: {} },
        ],
        'Looking.',
      ),
      toolResult([
        { id: 'c1', name: 'read_file', result: 'A' },
        { id: 'c2', name: 'ls', result: { files: ['a', 'b'] } },
      ]),
    ]);
    expect(messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"file_path":"a"}' },
          },
          { id: 'c2', type: 'function', function: { name: 'ls', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'A' },
      { role: 'tool', tool_call_id: 'c2', content: '{"files":["a","b"]}' },
    ]);
  });

  it('tells the model about a failed tool through the result text', () => {
    const messages = toOpenAIMessages([
      toolCall({ id: 'c1', name: 'replace' }),
      toolResult({ id: 'c1', name: 'replace', error: 'old_string not found' }),
    ]);
    expect(messages[1]).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'Error: old_string not found',
    });
  });

  it('sends malformed arguments back verbatim, as the model wrote them', () => {
    const messages = toOpenAIMessages([
      toolCall({ id: 'c1', name: 'ls', parameters: '{"path": ' }),
      toolResult({ id: 'c1', name: 'ls', error: 'arguments are not valid JSON' }),
    ]);
    expect(messages[0]).toMatchObject({ tool_calls: [{ function: { arguments: '{"path": ' } }] });
  });

  it('after density pruning: drops the orphan response and the unanswered call, keeps the text', () => {
    const [, keptResult] = readFile('r2', 'b.ts', 'B');
    const history = [
      human('go'),
      // r1's call and response were both pruned; an orphan response to pruned call r0 remains:
      toolResult({ id: 'r0', name: 'read_file', result: 'stale' }),
      toolCall([{ id: 'r2', name: 'read_file', parameters: { file_path: 'b.ts' } }]),
      keptResult,
      toolCall({ id: 'r3', name: 'read_file', parameters: { file_path: 'c.ts' } }, 'One more.'),
      human('stop'),
    ];
    const messages = toOpenAIMessages(history);
    const json = JSON.stringify(messages);
    expect(json).not.toContain('r0');
    expect(json).not.toContain('r3');
    expect(messages).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'r2',
            type: 'function',
            function: { name: 'read_file', arguments: '{"file_path":"b.ts"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'r2', content: 'B' },
      { role: 'assistant', content: 'One more.' },
      { role: 'user', content: 'stop' },
    ]);
  });

  it('does not send thinking, and sends images as image_url parts', () => {
    const messages = toOpenAIMessages([
      {
        speaker: 'human',
        blocks: [
          { type: 'text', text: 'what is this?' },
          { type: 'media', mimeType: 'image/png', data: 'AAAA', encoding: 'base64' },
          {
            type: 'media',
            mimeType: 'application/zip',
            data: 'x',
            encoding: 'base64',
            filename: 'a.zip',
          },
        ],
      },
      createAiMessage([
        { type: 'thinking', thought: 'hmm' },
        { type: 'text', text: 'A cat.' },
      ]),
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          { type: 'text', text: '[application/zip a.zip omitted]' },
        ],
      },
      { role: 'assistant', content: 'A cat.' },
    ]);
  });

  it('skips entries that would be empty messages', () => {
    expect(toOpenAIMessages([createUserMessage(''), createAiMessage([])])).toEqual([]);
  });
});

describe('toOpenAITools', () => {
  it('wraps each schema as a function tool', () => {
    const parameters = { type: 'object', properties: { path: { type: 'string' } } };
    expect(toOpenAITools([{ name: 'ls', description: 'List', parameters }])).toEqual([
      { type: 'function', function: { name: 'ls', description: 'List', parameters } },
    ]);
    expect(toOpenAITools(undefined)).toEqual([]);
  });
});
