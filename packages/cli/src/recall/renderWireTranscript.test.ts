import { describe, expect, it } from 'vitest';
import { renderWireTranscript } from './renderWireTranscript.js';

/** The proxy's stored form: the raw items joined by commas, without the enclosing brackets. */
const joined = (items: readonly unknown[]): string =>
  items.map((item) => JSON.stringify(item)).join(',');

describe('renderWireTranscript', () => {
  it('#34.3 Anthropic Messages: role blocks, text, tool_use with compact input, tool_result text, errors, images, thinking', () => {
    const stored = joined([
      { role: 'user', content: 'Rename the gadget module to widget.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Find the file first.', signature: 'c2ln' },
          { type: 'text', text: 'Looking for it.' },
          {
            type: 'tool_use',
            id: 'toolu_a1',
            name: 'Grep',
            input: { pattern: 'gadget', path: 'src' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_a1',
            content: 'src/gadget.ts:3\nsrc/app.ts:9',
          },
          {
            type: 'image',
            source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(4096) },
          },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_a2', name: 'Bash', input: { command: 'false' } }],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_a2',
            is_error: true,
            content: [{ type: 'text', text: 'exit status 1' }],
          },
        ],
      },
    ]);
    expect(renderWireTranscript(stored)).toBe(
      [
        '#1 user',
        'Rename the gadget module to widget.',
        '',
        '#2 assistant',
        '[thinking]',
        'Find the file first.',
        'Looking for it.',
        'call Grep [toolu_a1] {"pattern":"gadget","path":"src"}',
        '',
        '#3 user',
        'result Grep [toolu_a1]',
        'src/gadget.ts:3',
        'src/app.ts:9',
        '[image image/png, 3 KB]',
        '',
        '#4 assistant',
        'call Bash [toolu_a2] {"command":"false"}',
        '',
        '#5 user',
        'result Bash [toolu_a2] (error)',
        'exit status 1',
        '',
      ].join('\n'),
    );
  });

  it('#34.3 a long or multi-line tool input: one indented line per field, multi-line values as their own lines', () => {
    const stored = joined([
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_w',
            name: 'Write',
            input: {
              file_path: 'src/widget.ts',
              content: 'export const a = 1;\nexport const b = 2;',
            },
          },
        ],
      },
    ]);
    expect(renderWireTranscript(stored)?.split('\n')).toEqual([
      '#1 assistant',
      'call Write [toolu_w]',
      '  file_path: src/widget.ts',
      '  content:',
      '    export const a = 1;',
      '    export const b = 2;',
      '',
    ]);
  });

  it('#34.3 OpenAI Chat: system, tool_calls (arguments parsed), tool messages named by their call, parts', () => {
    const stored = joined([
      { role: 'system', content: 'You are a careful helper.' },
      { role: 'user', content: [{ type: 'text', text: 'How many lines in notes.md?' }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_7',
            type: 'function',
            function: { name: 'run_shell', arguments: '{"command":"wc -l notes.md"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_7', content: '12 notes.md' },
      { role: 'assistant', content: 'It has 12 lines.' },
    ]);
    expect(renderWireTranscript(stored)).toBe(
      [
        '#1 system',
        'You are a careful helper.',
        '',
        '#2 user',
        'How many lines in notes.md?',
        '',
        '#3 assistant',
        'call run_shell [call_7] {"command":"wc -l notes.md"}',
        '',
        '#4 tool',
        'result run_shell [call_7]',
        '12 notes.md',
        '',
        '#5 assistant',
        'It has 12 lines.',
        '',
      ].join('\n'),
    );
  });

  it('#34.3 OpenAI Responses: messages, function and custom tool calls, their outputs, reasoning summaries, unknown items', () => {
    const stored = joined([
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'Patch the greeting.' }],
      },
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'Read, then patch.' }],
        encrypted_content: 'eA==',
      },
      {
        type: 'function_call',
        call_id: 'fc_1',
        name: 'shell',
        arguments: '{"command":["cat","hello.txt"]}',
      },
      { type: 'function_call_output', call_id: 'fc_1', output: 'hallo world' },
      {
        type: 'custom_tool_call',
        call_id: 'ct_2',
        name: 'apply_patch',
        input:
          '*** Begin Patch\n*** Update File: hello.txt\n-hallo world\n+hello world\n*** End Patch',
      },
      {
        type: 'custom_tool_call_output',
        call_id: 'ct_2',
        output: [{ type: 'input_text', text: 'Done!' }],
      },
      { type: 'web_search_call', status: 'completed' },
      { role: 'assistant', content: [{ type: 'output_text', text: 'Fixed the typo.' }] },
    ]);
    expect(renderWireTranscript(stored)).toBe(
      [
        '#1 user',
        'Patch the greeting.',
        '',
        '#2 assistant',
        '[reasoning]',
        'Read, then patch.',
        '',
        '#3 assistant',
        'call shell [fc_1] {"command":["cat","hello.txt"]}',
        '',
        '#4 tool',
        'result shell [fc_1]',
        'hallo world',
        '',
        '#5 assistant',
        'call apply_patch [ct_2]',
        '  *** Begin Patch',
        '  *** Update File: hello.txt',
        '  -hallo world',
        '  +hello world',
        '  *** End Patch',
        '',
        '#6 tool',
        'result apply_patch [ct_2]',
        'Done!',
        '',
        '#7 web_search_call',
        '[web_search_call] {"status":"completed"}',
        '',
        '#8 assistant',
        'Fixed the typo.',
        '',
      ].join('\n'),
    );
  });

  it('#34.3 a bracketed array, pretty-printed JSON and a single message read the same as the comma-joined run', () => {
    const items = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'second' },
    ];
    const expected = '#1 user\nfirst\n\n#2 assistant\nsecond\n';
    expect(renderWireTranscript(joined(items))).toBe(expected);
    expect(renderWireTranscript(JSON.stringify(items))).toBe(expected);
    expect(renderWireTranscript(JSON.stringify(items, null, 2).slice(1, -1))).toBe(expected);
    expect(renderWireTranscript(JSON.stringify(items[0]))).toBe('#1 user\nfirst\n');
  });

  it('#34.3 anything that is not a message run is not rendered (printed as is)', () => {
    for (const text of [
      'plain tool output\nline 2',
      '',
      '{"name":"pkg","version":"1.0.0"}',
      '[1,2,3]',
      '[{"type":"text","text":"a content block list, not messages"}]',
      '{"role":"user","content":"cut off',
      '[{"role":"user","content":"x"}, 42]',
    ]) {
      expect(renderWireTranscript(text), text).toBeUndefined();
    }
  });
});
